// SPDX-License-Identifier: GPL-2.0
/// The data field of struct work_struct is gone: direct calls and stores.
///
/// Pre-2.6.20 code sometimes ran a work item by hand, w.func(w.data), or
/// re-aimed it by storing into w.data.  Since 2.6.20 the handler takes the
/// item itself and there is no data field: w.func(w.data) becomes
/// w.func(&w) (p->func(p->data) becomes p->func(p)).  A store into (or a read
/// of) the data field cannot be carried over mechanically and is reported:
/// keep the value in the structure that contains the item, and read it in the
/// handler through container_of().
///
/// The pending field is gone too: a read of w.pending (p->pending) becomes
/// work_pending(&w) (work_pending(p)), which 2.6.20 added for it (as an
/// argument, (unsigned long)work_pending(&w): the field's type, for a
/// variadic call's format); a store into it is reported.
///
/// Only expressions that the C source shows to be a struct work_struct are
/// touched (tasklets have func(data) too).
//
// Confidence: High
// Copyright: wqport project.  License: GPL-2.0-only.
// Options: --no-includes --include-headers
// Keywords: work_struct, func, data, pending

virtual patch
virtual context
virtual org
virtual report

@call depends on patch@
struct work_struct W;
struct work_struct *P;
@@
(
 W.func(
- W.data
+ &W
 )
|
 P->func(
- P->data
+ P
 )
)

@pstore@
struct work_struct W;
struct work_struct *P;
expression E;
position p;
@@
(
 W.pending@p = E
|
 P->pending@p = E
)

// An argument keeps the field's type: pending was an unsigned long, and a
// printk("%lu", w.pending) given work_pending()'s bool would not match its
// format.
@pending_arg depends on patch@
struct work_struct W;
struct work_struct *P;
identifier F;
position p != pstore.p;
@@
(
 F(...,
- W.pending@p
+ (unsigned long)work_pending(&W)
 ,...)
|
 F(...,
- P->pending@p
+ (unsigned long)work_pending(P)
 ,...)
)

@pending depends on patch@
struct work_struct W;
struct work_struct *P;
position p != pstore.p;
@@
(
- W.pending@p
+ work_pending(&W)
|
- P->pending@p
+ work_pending(P)
)

@script:python depends on report@
p << pstore.p;
@@
coccilib.report.print_report(p[0], 'wqport[W118]: the pending field of struct '
    'work_struct is gone since 2.6.20: test it with work_pending(); a store '
    'into it has no equivalent (queue or cancel the item instead)')

@script:python depends on org@
p << pstore.p;
@@
coccilib.org.print_todo(p[0], 'wqport[W118]: the pending field of struct work_struct '
    'is gone since 2.6.20: queue or cancel the item instead')

@data depends on report || org@
struct work_struct W;
struct work_struct *P;
position p;
@@
(
 W.func(W.data)
|
 P->func(P->data)
|
 W.data@p
|
 P->data@p
)

@script:python depends on report@
p << data.p;
@@
coccilib.report.print_report(p[0], 'wqport[W118]: the data field of struct '
    'work_struct is gone since 2.6.20: keep this value in the structure that '
    'contains the work item and read it in the handler through container_of()')

@script:python depends on org@
p << data.p;
@@
coccilib.org.print_todo(p[0], 'wqport[W118]: the data field of struct work_struct '
    'is gone since 2.6.20: keep this value beside the work item')

@depends on context@
struct work_struct W;
struct work_struct *P;
@@
(
* W.pending
|
* P->pending
|
* W.func(W.data)
|
* P->func(P->data)
|
* W.data
|
* P->data
)
