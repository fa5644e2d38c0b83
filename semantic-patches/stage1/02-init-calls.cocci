// SPDX-License-Identifier: GPL-2.0
/// INIT_TQUEUE/PREPARE_TQUEUE and field stores become INIT_WORK/PREPARE_WORK.
///
/// The 2.5.41 conversions (drivers/net/plip.c, drivers/usb/class/cdc-acm.c,
/// drivers/scsi/ppa.c ...) replaced INIT_TQUEUE(t, f, d) by INIT_WORK(t, f, d)
/// and the open-coded initialisation
///     INIT_LIST_HEAD(&t.list); t.sync = 0; t.routine = f; t.data = d;
/// by INIT_WORK(&t, f, d).  A routine stored without any data store for the
/// same task gets NULL data (what a zeroed task had).  Stores that are not
/// such an initialisation are reported by 00-needs-human and block the file.
///
// Confidence: High
// Copyright: (C) wqport contributors.  GPLv2.
// URL: semantic-patches/stage1 in wqport
// Options: --no-includes --include-headers
// Requires: INIT_TQUEUE PREPARE_TQUEUE routine sync

virtual patch
virtual context
virtual org
virtual report
// Set by semantic-patches/apply-stage from stage1/hooks.py (wqport_tq.py):
// wqport_blocked when the file has a use that needs a human (see
// 00-needs-human), wqport_checked when that analysis found none.
virtual wqport_blocked
virtual wqport_checked

// Without apply-stage (make coccicheck), the part of that analysis SmPL can
// express keeps the file as it is: run 00-needs-human in report mode first
// for the rest (nested initializers, hidden macros, bottom-half locks, a
// task handed to other code).  No Python here: each Python-using spatch run
// costs a Python start-up, which would dominate the stage's time.
@wqport_unsafe depends on patch && !wqport_checked exists@
identifier Q != {tq_timer, tq_immediate};
identifier R != {tq_timer, tq_disk};
struct tq_struct S;
struct tq_struct *P;
@@
(
 queue_task(..., &Q)
|
 run_task_queue(&R)
|
 disable_bh(...)
|
 enable_bh(...)
|
 S.sync != 0
|
 P->sync != 0
)

// Only the names change, so the driver's spelling of the arguments stays.
@depends on patch && !wqport_blocked && !wqport_unsafe@
@@
(
- INIT_TQUEUE
+ INIT_WORK
|
- PREPARE_TQUEUE
+ PREPARE_WORK
)
  (...)

// The list/sync preamble of an open-coded initialisation.
@depends on patch && !wqport_blocked && !wqport_unsafe@
struct tq_struct T;
struct tq_struct *P;
@@
(
- INIT_LIST_HEAD(&T.list);
|
- T.sync = 0;
|
- INIT_LIST_HEAD(&P->list);
|
- P->sync = 0;
)

// What is left of sync is a read (00 blocks any other use): 2.4's bit 0,
// set while the task is queued and not yet run, is work_pending().
@depends on patch && !wqport_blocked && !wqport_unsafe@
struct tq_struct T;
struct tq_struct *P;
@@
(
- T.sync
+ work_pending(&T)
|
- P->sync
+ work_pending(P)
)

// The routine's expression stays where it is (spatch would re-print a
// moved cast), the statement around it becomes INIT_WORK.
@depends on patch && !wqport_blocked && !wqport_unsafe@
struct tq_struct T;
struct tq_struct *P;
expression F, D;
@@
(
- T.routine =
+ INIT_WORK(&T,
  F
+ , D)
  ;
- T.data = D;
|
- T.data = D;
- T.routine =
+ INIT_WORK(&T,
  F
+ , D)
  ;
|
- P->routine =
+ INIT_WORK(P,
  F
+ , D)
  ;
- P->data = D;
|
- P->data = D;
- P->routine =
+ INIT_WORK(P,
  F
+ , D)
  ;
)

// A routine alone: 00-needs-human blocks the file when a data store exists
// apart from it, so the task's data was never set: NULL.
@depends on patch && !wqport_blocked && !wqport_unsafe@
struct tq_struct T;
struct tq_struct *P;
expression F;
@@
(
- T.routine =
+ INIT_WORK(&T,
  F
+ , NULL)
  ;
|
- P->routine =
+ INIT_WORK(P,
  F
+ , NULL)
  ;
)

@depends on context@
struct tq_struct T;
struct tq_struct *P;
expression F, D;
@@
(
* INIT_TQUEUE(T, F, D)
|
* PREPARE_TQUEUE(T, F, D)
|
* T.routine = F
|
* P->routine = F
)

@c depends on org || report@
expression T, F, D;
struct tq_struct S;
struct tq_struct *P;
position p;
@@
(
INIT_TQUEUE@p(T, F, D)
|
PREPARE_TQUEUE@p(T, F, D)
|
S.routine@p = F
|
P->routine@p = F
)

@script:python depends on org@
p << c.p;
@@
cocci.print_main("stage1: task initialisation -> INIT_WORK/PREPARE_WORK", p)

@script:python depends on report@
p << c.p;
@@
coccilib.report.print_report(p[0], "stage1: task initialisation -> INIT_WORK/PREPARE_WORK")
