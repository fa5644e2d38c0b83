// SPDX-License-Identifier: GPL-2.0
/// Queueing, running and flushing tasks become the 2.6 workqueue calls.
///
/// As in the 2.5.41 conversions (drivers/net/plip.c, drivers/scsi/ppa.c,
/// drivers/macintosh/adb.c, drivers/usb/class/cdc-acm.c):
///   schedule_task(t)                           -> schedule_work(t)
///   flush_scheduled_tasks()                    -> flush_scheduled_work()
///   queue_task(t, &tq_timer)                   -> schedule_delayed_work(t, 1)
///   queue_task(t, &tq_immediate); mark_bh(IMMEDIATE_BH); -> schedule_work(t);
///   run_task_queue(&tq_timer)  (draining)      -> flush_scheduled_work()
///   queue_task(&tty->flip.tqueue, &tq_timer)   -> tty_flip_buffer_push(tty)
/// (the last is what 2.4's tty_flip_buffer_push() itself did for a tty
/// without low_latency; the flip buffer's task is the tty layer's, whose
/// type the driver cannot change)
/// The return values keep their meaning: all return nonzero only when the
/// task was newly queued.  Once no task goes on tq_immediate, a remaining
/// mark_bh(IMMEDIATE_BH) has nothing of this driver's to run and goes too.
/// Other queues (tq_disk, private ones) are reported by 00-needs-human.
///
// Confidence: High
// Copyright: (C) wqport contributors.  GPLv2.
// URL: semantic-patches/stage1 in wqport
// Options: --no-includes --include-headers
// Requires: queue_task schedule_task flush_scheduled_tasks run_task_queue mark_bh

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
expression E;
@@
- queue_task(&E->flip.tqueue, &tq_timer)
+ tty_flip_buffer_push(E)

@depends on patch && !wqport_blocked && !wqport_unsafe@
expression T;
@@
(
- queue_task(T, &tq_immediate);
- mark_bh(IMMEDIATE_BH);
+ schedule_work(T);
|
- queue_task(T, &tq_immediate)
+ schedule_work(T)
|
- queue_task(T, &tq_timer)
+ schedule_delayed_work(T, 1)
|
- schedule_task(T)
+ schedule_work(T)
|
- flush_scheduled_tasks()
+ flush_scheduled_work()
|
- run_task_queue(&tq_timer)
+ flush_scheduled_work()
)

@depends on patch && !wqport_blocked && !wqport_unsafe@
@@
- mark_bh(IMMEDIATE_BH);

@depends on context@
expression T;
@@
(
* queue_task(T, &tq_immediate)
|
* queue_task(T, &tq_timer)
|
* schedule_task(T)
|
* flush_scheduled_tasks()
|
* run_task_queue(&tq_timer)
)

@c depends on org || report@
expression T;
position p;
@@
(
queue_task@p(T, &tq_immediate)
|
queue_task@p(T, &tq_timer)
|
schedule_task@p(T)
|
flush_scheduled_tasks@p()
|
run_task_queue@p(&tq_timer)
)

@script:python depends on org@
p << c.p;
@@
cocci.print_main("stage1: task queueing -> schedule_work/schedule_delayed_work/flush_scheduled_work", p)

@script:python depends on report@
p << c.p;
@@
coccilib.report.print_report(p[0], "stage1: task queueing -> schedule_work/schedule_delayed_work/flush_scheduled_work")
