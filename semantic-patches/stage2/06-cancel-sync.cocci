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
import re
CS_ITEMS = {}   # (file, queue) -> set of items queued on it

def cs_norm(s):
    return re.sub(r'\s+', '', s)

ALONE = set()

def alone(p):
    return (p[0].file, p[0].line, p[0].column) in ALONE

def file_static(wq, p):
    """Whether queue wq is a static variable of the file of p: no other
    file can queue on it (a queue in a structure, or a global, may carry
    items of the other files of the module: 2005 bcm43xx)."""
    if not re.match(r'^\w+$', cs_norm(wq)):
        return False
    try:
        with open(p[0].file, encoding='latin-1') as fh:
            text = fh.read()
    except (IOError, OSError):
        return False
    return re.search(r'\bstatic\s+struct\s+workqueue_struct\s*\*\s*%s\s*[;=]'
                     % re.escape(cs_norm(wq)), text) is not None

def only_item(wq, w, p):
    s = CS_ITEMS.get((p[0].file, cs_norm(wq)), set())
    return s <= set([cs_norm(w)]) and file_static(wq, p)

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
CS_ITEMS.setdefault((p[0].file, cs_norm(WQ)), set()).add(cs_norm(W))

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
if only_item(WQ, W, p):
    ALONE.add((p[0].file, p[0].line, p[0].column))

// the item is the only one on its queue: the pair becomes one call
@pair1 depends on patch@
expression W, WQ;
position p : script:python() { alone(p) };
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
