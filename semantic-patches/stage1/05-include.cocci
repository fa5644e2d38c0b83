// SPDX-License-Identifier: GPL-2.0
/// <linux/tqueue.h> becomes <linux/workqueue.h>.
///
/// Only once the file's task queues are converted (a blocked file keeps its
/// header); a file that already includes <linux/workqueue.h> just loses
/// <linux/tqueue.h>.  A converted file that got task queues through another
/// header (<linux/interrupt.h>, <linux/sched.h>) gets <linux/workqueue.h>
/// after that header, as many 2.5 conversions added it.  A file that keeps a
/// run of tq_disk (W006: the human drops it) keeps <linux/tqueue.h> for it,
/// so that it still builds with wqcompat.ko, and gets <linux/workqueue.h>
/// after it.
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

@has_wq depends on patch@
@@
#include <linux/workqueue.h>

@has_tq depends on patch@
@@
#include <linux/tqueue.h>

@tq_disk_left depends on patch@
@@
 run_task_queue(&tq_disk)

@depends on patch && !wqport_blocked && !wqport_unsafe && !has_wq && !tq_disk_left@
@@
- #include <linux/tqueue.h>
+ #include <linux/workqueue.h>

@depends on patch && !wqport_blocked && !wqport_unsafe && has_wq && !tq_disk_left@
@@
- #include <linux/tqueue.h>

@depends on patch && !wqport_blocked && !wqport_unsafe && !has_wq && tq_disk_left@
@@
 #include <linux/tqueue.h>
+#include <linux/workqueue.h>

// Work API in use (after 01-04) but no header for it.
@uses_t depends on patch && !wqport_blocked && !wqport_unsafe && !has_wq && !has_tq@
@@
 struct work_struct

@uses_e depends on patch && !wqport_blocked && !wqport_unsafe && !has_wq && !has_tq@
@@
(
 schedule_work(...)
|
 schedule_delayed_work(...)
|
 flush_scheduled_work()
|
 INIT_WORK(...)
|
 PREPARE_WORK(...)
)

@uses_d depends on patch && !wqport_blocked && !wqport_unsafe && !has_wq && !has_tq@
declarer name DECLARE_WORK;
@@
 DECLARE_WORK(...);

@added depends on uses_t || uses_e || uses_d@
@@
 #include <linux/interrupt.h>
+#include <linux/workqueue.h>

@depends on (uses_t || uses_e || uses_d) && !added@
@@
 #include <linux/sched.h>
+#include <linux/workqueue.h>

@depends on context@
@@
* #include <linux/tqueue.h>

@c depends on org || report@
position p;
@@
#include <linux/tqueue.h>@p

@script:python depends on org@
p << c.p;
@@
cocci.print_main("stage1: <linux/tqueue.h> -> <linux/workqueue.h>", p)

@script:python depends on report@
p << c.p;
@@
coccilib.report.print_report(p[0], "stage1: <linux/tqueue.h> -> <linux/workqueue.h>")
