// SPDX-License-Identifier: GPL-2.0
/// struct tq_struct becomes struct work_struct wherever it is declared.
///
/// Struct fields, arrays, globals, locals, pointers, parameters, casts,
/// sizeof, typedefs and anonymous structures: every spelling of the type, as
/// in every 2.5.41 conversion.  Runs after the initializer and call patches,
/// which match on the old type.
///
// Confidence: High
// Copyright: (C) wqport contributors.  GPLv2.
// URL: semantic-patches/stage1 in wqport
// Options: --no-includes --include-headers
// Requires: tq_struct tqueue task_queue queue_task schedule_task flush_scheduled_tasks run_task_queue INIT_TQUEUE PREPARE_TQUEUE DECLARE_TASK_QUEUE TQ_ACTIVE tq_timer tq_immediate tq_disk mark_bh init_bh remove_bh routine

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

@depends on patch && !wqport_blocked && !wqport_unsafe@
@@
- struct tq_struct
+ struct work_struct

@depends on context@
@@
* struct tq_struct

@c depends on org || report@
position p;
@@
struct tq_struct@p

@script:python depends on org@
p << c.p;
@@
cocci.print_main("stage1: struct tq_struct -> struct work_struct", p)

@script:python depends on report@
p << c.p;
@@
coccilib.report.print_report(p[0], "stage1: struct tq_struct -> struct work_struct")
