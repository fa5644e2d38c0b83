// SPDX-License-Identifier: GPL-2.0
/// cancel_rearming_delayed_work* and cancel-then-flush pairs ->
/// cancel_delayed_work_sync.
///
/// 2.6 drivers stopped a delayed item with cancel_delayed_work() followed by
/// flush_workqueue()/flush_scheduled_work() (the handler could still be
/// running), or with cancel_rearming_delayed_work[queue]() for items that
/// requeue themselves.  2.6.22 brought cancel_delayed_work_sync(), which
/// removes a pending item, waits for a running one and copes with
/// self-requeueing; the rearming variants went in 2.6.32.  Here:
///  - cancel_rearming_delayed_work(w), cancel_rearming_delayed_workqueue(wq, w)
///    -> cancel_delayed_work_sync(w);
///  - cancel_delayed_work(w) followed by flush_workqueue(wq) (also the
///    `if (!cancel_delayed_work(w)) flush_workqueue(wq);` idiom) ->
///    cancel_delayed_work_sync(w); the flush goes too when wq is a static
///    queue of the file and w the only item the file ever queues on it, and
///    stays otherwise (it still waits for the others, which another file of
///    the module may queue on a queue it can reach);
///  - cancel_delayed_work(w) followed by flush_scheduled_work() ->
///    cancel_delayed_work_sync(w), the flush left for
///    07-flush-scheduled-work.cocci.
//
// Confidence: High
// Copyright: wqport project.  License: GPL-2.0-only.
// Options: --no-includes --include-headers
// Keywords: cancel_delayed_work_sync, cancel_rearming_delayed_work
// Requires: cancel_delayed_work cancel_rearming_delayed_work cancel_rearming_delayed_workqueue

virtual patch
virtual context
virtual org
virtual report

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

# What the rules below record, and what goes: wqport_cancel.py
# (tests/decisions tests it).
WC = wqport_module("wqport_cancel")
WC.configure()

@q@
expression WQ, W, D;
position p;
@@
(
queue_work@p(WQ, W)
|
queue_delayed_work@p(WQ, W, D)
)

@script:python@
WQ << q.WQ;
W << q.W;
p << q.p;
@@
WC.record_queueing(WQ, W, p[0])

@pairs@
expression W, WQ;
position p;
@@
(
if (!cancel_delayed_work(W))
	flush_workqueue@p(WQ);
|
cancel_delayed_work(W);
flush_workqueue@p(WQ);
)

@script:python@
W << pairs.W;
WQ << pairs.WQ;
p << pairs.p;
@@
WC.record_pair(WQ, W, p[0])

// the item is the only one on its queue: the pair becomes one call
@pair1 depends on patch@
expression W, WQ;
position p : script:python() { WC.alone(p[0]) };
@@
(
- if (!cancel_delayed_work(W))
-	flush_workqueue@p(WQ);
+ cancel_delayed_work_sync(W);
|
- cancel_delayed_work(W);
+ cancel_delayed_work_sync(W);
- flush_workqueue@p(WQ);
)

// other items share the queue: keep the flush
@pair2 depends on patch@
expression W, WQ;
@@
(
- if (!cancel_delayed_work(W))
+ cancel_delayed_work_sync(W);
	flush_workqueue(WQ);
|
- cancel_delayed_work(W);
+ cancel_delayed_work_sync(W);
  flush_workqueue(WQ);
)

@pair3 depends on patch@
expression W;
@@
(
- if (!cancel_delayed_work(W))
+ cancel_delayed_work_sync(W);
	flush_scheduled_work();
|
- cancel_delayed_work(W);
+ cancel_delayed_work_sync(W);
  flush_scheduled_work();
)

@depends on patch@
expression W, WQ;
@@
(
- cancel_rearming_delayed_work(W)
+ cancel_delayed_work_sync(W)
|
- cancel_rearming_delayed_workqueue(WQ, W)
+ cancel_delayed_work_sync(W)
)

@depends on context@
expression W, WQ;
@@
(
* cancel_rearming_delayed_work(W);
|
* cancel_rearming_delayed_workqueue(WQ, W);
|
* cancel_delayed_work(W);
  flush_workqueue(WQ);
|
* cancel_delayed_work(W);
  flush_scheduled_work();
)
