/// A private task queue run by the driver's own bottom half becomes one work
/// item per task, queued with schedule_work().
///
/// The 2.4 serial idiom (drivers/char/serial.c, cyclades.c, esp.c, riscom8.c
/// ...) and what their 2.6 ports did by hand:
///   static DECLARE_TASK_QUEUE(Q);                  -> (gone)
///   static void F(void) { run_task_queue(&Q); }    -> (gone)
///   init_bh(N, F);                                 -> (gone)
///   queue_task(t, &Q) ... mark_bh(N);              -> schedule_work(t) ...
///   remove_bh(N); ... run_task_queue(&Q);          -> ... flush_scheduled_work();
///   remove_bh(N);  (no drain after it)             -> flush_scheduled_work();
/// schedule_work(), like queue_task(), returns nonzero only when it newly
/// queued the item.  What changes: the routines run in process context, not
/// under 2.4's global bottom-half lock, so two tasks of the driver may run at
/// once on two CPUs (one task never runs twice at once); see
/// docs/semantic-patches-stage1.md.
///
/// Only when stage1/analyse (wqport_tq.bh_queue) found the idiom and nothing
/// else using Q, N or F: it passes -D wqport_bhq=Q -D wqport_bhnr=N
/// -D wqport_bhfn=F.  Without them (make coccicheck) nothing applies, and
/// 00-needs-human reports the queue.
///
// Confidence: Moderate
// Copyright: (C) wqport contributors.  GPLv2.
// URL: semantic-patches/stage1 in wqport
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report
virtual wqport_blocked
virtual wqport_checked

// The bottom-half function and its prototype.
@depends on patch && !wqport_blocked@
identifier virtual.wqport_bhfn;
@@
- wqport_bhfn(...) { ... }

@depends on patch && !wqport_blocked@
identifier virtual.wqport_bhfn;
type T;
@@
- T wqport_bhfn(...);

@depends on patch && !wqport_blocked@
identifier virtual.wqport_bhq;
declarer name DECLARE_TASK_QUEUE;
@@
- DECLARE_TASK_QUEUE(wqport_bhq);

@depends on patch && !wqport_blocked@
identifier virtual.wqport_bhq;
expression T;
@@
- queue_task(T, &wqport_bhq)
+ schedule_work(T)

@depends on patch && !wqport_blocked@
identifier virtual.wqport_bhnr, virtual.wqport_bhfn;
@@
- init_bh(wqport_bhnr, wqport_bhfn);

@depends on patch && !wqport_blocked@
identifier virtual.wqport_bhnr;
@@
- mark_bh(wqport_bhnr);

// remove_bh() and the drain after it: one flush where the drain was.
@drained depends on patch && !wqport_blocked@
identifier virtual.wqport_bhnr, virtual.wqport_bhq;
@@
- remove_bh(wqport_bhnr);
  ...
- run_task_queue(&wqport_bhq);
+ flush_scheduled_work();

@depends on patch && !wqport_blocked@
identifier virtual.wqport_bhnr;
@@
- remove_bh(wqport_bhnr);
+ flush_scheduled_work();

@depends on patch && !wqport_blocked@
identifier virtual.wqport_bhq;
@@
- run_task_queue(&wqport_bhq);
+ flush_scheduled_work();

@depends on context@
identifier virtual.wqport_bhq, virtual.wqport_bhnr;
expression T;
@@
(
* queue_task(T, &wqport_bhq)
|
* mark_bh(wqport_bhnr)
|
* remove_bh(wqport_bhnr)
|
* run_task_queue(&wqport_bhq)
)

@c depends on org || report@
identifier virtual.wqport_bhq;
expression T;
position p;
@@
queue_task@p(T, &wqport_bhq)

@script:python depends on org@
p << c.p;
@@
cocci.print_main("stage1: private bottom-half queue task -> schedule_work", p)

@script:python depends on report@
p << c.p;
@@
coccilib.report.print_report(p[0], "stage1: private bottom-half queue task -> schedule_work")
