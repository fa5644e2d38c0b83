// SPDX-License-Identifier: GPL-2.0
/// Prototypes of work handlers converted in another file of the run.
///
/// 02-work-handler.cocci gives a handler `void f(struct work_struct *work)`
/// where it is defined, and spatch changes the prototypes of that file with
/// it; a prototype in the driver's header (ipoib.h's `void
/// ipoib_reap_ah(void *dev_ptr);`), or an extern in another .c, would still
/// take void * and no longer agree with the definition.  wqport convert
/// passes the names that the run's .c files converted (WQPORT_HANDLERS, and
/// WQPORT_HANDLERS_RENAMED for those whose parameter is `_work`); this
/// patch gives their prototypes the new parameter.  It does nothing outside
/// wqport convert (make coccicheck has no run: the names are empty), and a
/// prototype it does not recognise is reported by wqport convert (W122).
//
// Confidence: High
// Copyright: wqport project.  License: GPL-2.0-only.
// Options: --no-includes --include-headers
// Keywords: work handler, prototype
// Requires: $WQPORT_HANDLERS

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import os

NAMES = set()
RENAMED = set()

def converted(f):
    return f in NAMES

// this file's names (one spatch process may see many files, each with its
// own names in the environment: see the fileenv module beside apply-stage)
@script:python@
@@
NAMES.clear()
NAMES.update(os.environ.get('WQPORT_HANDLERS', '').split())
RENAMED.clear()
RENAMED.update(os.environ.get('WQPORT_HANDLERS_RENAMED', '').split())

@proto depends on patch@
identifier f : script:python() { converted(f) };
parameter list[1] ps;
@@
void f(ps);

@script:python param@
f << proto.f;
ps << proto.ps;
P;
@@
if 'work_struct' in ps:
    cocci.include_match(False)
else:
    coccinelle.P = cocci.make_ident('_work' if f in RENAMED else 'work')

@depends on patch@
identifier proto.f, param.P;
parameter list[1] proto.ps;
@@
 void f(
- ps
+ struct work_struct *P
 );

// a handler that took no argument (02's noarg kind)
@depends on patch@
identifier f : script:python() { converted(f) };
@@
 void f(
- void
+ struct work_struct *work
 );
