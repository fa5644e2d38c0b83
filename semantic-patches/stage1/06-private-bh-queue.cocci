// SPDX-License-Identifier: GPL-2.0
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
/// Only when wqport_tq.bh_queue() finds the idiom and nothing else using Q,
/// N or F, and nothing in the file blocks stage 1 (see 00-needs-human, which
/// then does not report them), and only through semantic-patches/apply-stage
/// (WQPORT_APPLY_STAGE=1): the tasks' types and
/// initialisations are converted by 02 and 04, whose SmPL-only guard under a
/// bare make coccicheck would keep them, so there 00 reports the queue and
/// nothing converts it.
///
// Confidence: Moderate
// Copyright: (C) wqport contributors.  GPLv2.
// URL: semantic-patches/stage1 in wqport
// Options: --no-includes --include-headers
// Requires: tq_struct tqueue task_queue queue_task schedule_task flush_scheduled_tasks run_task_queue INIT_TQUEUE PREPARE_TQUEUE DECLARE_TASK_QUEUE TQ_ACTIVE tq_timer tq_immediate tq_disk mark_bh init_bh remove_bh routine

virtual patch
virtual context
virtual org
virtual report
// Passed by apply-stage to every stage-1 patch; this one asks wqport_tq itself.
virtual wqport_blocked
virtual wqport_checked

@initialize:python@
@@
import os

def wqport_module(name):
    """wqport's Python module NAME, beside this .cocci (found from spatch's
    command line, or $WQPORT_COCCI_DIR) or in ../stage1.  Every .cocci
    with Python carries this same loader (tests/unit checks it): spatch
    1.1.1 looks for an #include of SmPL in its working directory, so a
    shared one would not be found under make coccicheck."""
    import importlib
    import sys
    dirs = []
    try:
        argv = open("/proc/self/cmdline", "rb").read().split(b"\0")
        for i, a in enumerate(argv[:-1]):
            if a in (b"--sp-file", b"--cocci-file"):
                dirs.append(os.path.dirname(os.path.abspath(argv[i + 1].decode())))
                break
    except (IOError, OSError):
        pass
    if os.environ.get("WQPORT_COCCI_DIR"):
        dirs.append(os.environ["WQPORT_COCCI_DIR"])
    for d in dirs:
        for x in (d, os.path.join(d, "..", "stage1")):
            if x not in sys.path:
                sys.path.insert(0, x)
    return importlib.import_module(name)

wqport_module("wqport_tq")     # (puts this directory on sys.path)
import wqport_tq

// One anchor per function; the analysis is per file (and cached).
@anchor@
identifier fn;
position p;
@@
fn@p(...) { ... }

@script:python bhq@
p << anchor.p;
wqport_bhq;
wqport_bhnr;
wqport_bhfn;
@@
# Only under apply-stage, which runs this after stage1/hooks.py found nothing
# blocking in the original (this file is the output of 01-05 already, which
# leave Q, N and F as they were); elsewhere no rule matches, as make
# coccicheck expects of a patch with nothing to do.
b = wqport_tq.bh_queue(p[0].file) if os.environ.get("WQPORT_APPLY_STAGE") else None
if b is None:
    cocci.include_match(False)
else:
    coccinelle.wqport_bhq = cocci.make_ident(b["q"])
    coccinelle.wqport_bhnr = cocci.make_ident(b["nr"])
    coccinelle.wqport_bhfn = cocci.make_ident(b["fn"])

// The bottom-half function and its prototype.
@depends on patch@
identifier bhq.wqport_bhfn;
@@
- wqport_bhfn(...) { ... }

@depends on patch@
identifier bhq.wqport_bhfn;
type T;
@@
- T wqport_bhfn(...);

@depends on patch@
identifier bhq.wqport_bhq;
declarer name DECLARE_TASK_QUEUE;
@@
- DECLARE_TASK_QUEUE(wqport_bhq);

@depends on patch@
identifier bhq.wqport_bhq;
expression T;
@@
- queue_task(T, &wqport_bhq)
+ schedule_work(T)

@depends on patch@
identifier bhq.wqport_bhnr, bhq.wqport_bhfn;
@@
- init_bh(wqport_bhnr, wqport_bhfn);

@depends on patch@
identifier bhq.wqport_bhnr;
@@
- mark_bh(wqport_bhnr);

// remove_bh() and the drain after it: one flush where the drain was.
@drained depends on patch@
identifier bhq.wqport_bhnr, bhq.wqport_bhq;
@@
- remove_bh(wqport_bhnr);
  ...
- run_task_queue(&wqport_bhq);
+ flush_scheduled_work();

@depends on patch@
identifier bhq.wqport_bhnr;
@@
- remove_bh(wqport_bhnr);
+ flush_scheduled_work();

@depends on patch@
identifier bhq.wqport_bhq;
@@
- run_task_queue(&wqport_bhq);
+ flush_scheduled_work();

@depends on context@
identifier bhq.wqport_bhq, bhq.wqport_bhnr;
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
identifier bhq.wqport_bhq;
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
