// SPDX-License-Identifier: GPL-2.0
/// PREPARE_WORK is gone (3.15): INIT_WORK where the item cannot be queued.
///
/// PREPARE_WORK changed only the handler of an item; it was removed in 3.15
/// (Tejun Heo, "workqueue: remove PREPARE_[DELAYED_]WORK()") because changing
/// the function of an item that may be pending or running is racy.
/// PREPARE_WORK(w, f) (and PREPARE_DELAYED_WORK) becomes INIT_WORK(w, f)
/// (INIT_DELAYED_WORK) where the item provably cannot be queued at that point:
///  - PREPARE_WORK was its initialisation: nothing else in the file
///    initialises the item (no INIT_*WORK or DECLARE_*WORK of it), no other
///    PREPARE_*WORK of it, and the function of this one is no work handler
///    and queues the item nowhere (a probe or open function: 2.6's
///    `PREPARE_WORK(&w, f, d); queue_work(q, &w);` on an interrupt path
///    would re-initialise a pending item, whose list entry INIT_WORK resets:
///    a corrupted worklist, where PREPARE_WORK only changed the function);
///  - the same function initialised it with INIT_*WORK earlier, on every path,
///    and did not queue it in between;
///  - idle after a flush: the item is not delayed, is queued in the file only
///    by queue_work(Q, item) with one Q, all in the function of the
///    PREPARE_WORK, which is no work handler, and every path from the start of
///    the function and from each queue_work of the item to the PREPARE_WORK
///    passes flush_workqueue(Q) (or flush_work/cancel_work_sync of the item).
/// A PREPARE_WORK that repeats the INIT_WORK right before it is deleted.
/// Every other PREPARE_WORK is left alone and reported: give each handler its
/// own work item, or keep one handler that dispatches on a state field.
///
/// Runs after 02-work-handler.cocci: it only touches the two-argument form.
//
// Confidence: High
// Copyright: wqport project.  License: GPL-2.0-only.
// Options: --no-includes --include-headers
// Keywords: PREPARE_WORK, PREPARE_DELAYED_WORK, INIT_WORK
// Combine: no (it matches the PREPARE_WORK that 02 rewrites)
// Requires: PREPARE_WORK PREPARE_DELAYED_WORK

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

# The tables the rules below fill, and what they prove: wqport_prepare.py
# (tests/decisions tests it).
WP = wqport_module("wqport_prepare")
WP.configure()

// a new file: forget the handlers of the previous one (one spatch process
// may see many files: make coccicheck, apply-stage FILE...)
@script:python@
@@
WP.new_file()

@inw@
identifier i =~ "^INIT_(DELAYED_)?WORK$";
expression W;
position p;
@@
i@p(W, ...)

@script:python@
W << inw.W;
p << inw.p;
@@
WP.record_init(W, p[0])

@de@
declarer name DECLARE_WORK, DECLARE_DELAYED_WORK;
identifier n;
expression list es;
position p;
@@
(
DECLARE_WORK@p(n, es);
|
DECLARE_DELAYED_WORK@p(n, es);
)

@script:python@
n << de.n;
p << de.p;
@@
WP.record_declare(n, p[0])

@pw@
identifier i =~ "^PREPARE_(DELAYED_)?WORK$";
expression W;
expression list es;
position p;
@@
i@p(W, es)

// initialised on every path earlier in the same function, not queued since
@after_init@
identifier pw.i;
identifier j =~ "^INIT_(DELAYED_)?WORK$";
expression pw.W, wq, d;
expression list pw.es, es2;
position pw.p;
@@
j(W, es2);
... when != queue_work(wq, W)
    when != schedule_work(W)
    when != queue_delayed_work(wq, W, d)
    when != schedule_delayed_work(W, d)
    when != W
i@p(W, es)

@script:python@
j << after_init.j;
p << pw.p;
@@
WP.after_init(p[0])

@noinit_entry exists@
identifier fn;
identifier pw.i;
identifier j =~ "^INIT_(DELAYED_)?WORK$";
expression pw.W;
expression list pw.es;
position pw.p, pb;
@@
fn(...) {
... when != j(W, ...)
i@p@pb(W, es)
... when any
}

@script:python@
p << noinit_entry.pb;
@@
WP.no_init_entry(p[0])

@script:python@
p << pw.p;
@@
WP.settle_after_init(p[0])

@script:python@
W << pw.W;
p << pw.p;
@@
WP.record_prepare(W, p[0])

// ---- idle after a flush: every queueing of the item in the file is
// queue_work(Q, item) with one Q, all in the function of the PREPARE_WORK,
// which is not itself a work handler; the item is never used with a delayed
// call; and on every path from the function's start, and from every queueing
// of the item, to the PREPARE_WORK there is a flush_workqueue(Q) (or
// flush_work/cancel_work_sync of the item) with no queueing after it.
@hnd@
identifier i =~ "^(INIT|PREPARE)(_DELAYED)?_WORK$";
expression W;
identifier f;
expression list es;
type CT, CT2;
@@
(
i(W, f, es)
|
i(W, (CT)f, es)
|
i(W, (CT)(CT2)f, es)
)

@script:python@
f << hnd.f;
@@
WP.record_handler(f)

@hndd@
declarer name DECLARE_WORK, DECLARE_DELAYED_WORK;
identifier n, f;
expression list es;
type CT, CT2;
@@
(
DECLARE_WORK(n, f, es);
|
DECLARE_DELAYED_WORK(n, f, es);
|
DECLARE_WORK(n, (CT)f, es);
|
DECLARE_DELAYED_WORK(n, (CT)f, es);
|
DECLARE_WORK(n, (CT)(CT2)f, es);
|
DECLARE_DELAYED_WORK(n, (CT)(CT2)f, es);
)

@script:python@
f << hndd.f;
@@
WP.record_handler(f)

@qa@
expression X, Q, D, C;
position p;
@@
(
queue_work@p(Q, X)
|
schedule_work@p(X)
|
queue_delayed_work@p(Q, X, D)
|
schedule_delayed_work@p(X, D)
|
schedule_delayed_work_on@p(C, X, D)
|
queue_delayed_work_on@p(C, Q, X, D)
|
queue_work_on@p(C, Q, X)
|
cancel_delayed_work@p(X)
|
cancel_delayed_work_sync@p(X)
|
cancel_rearming_delayed_work@p(X)
|
cancel_rearming_delayed_workqueue@p(Q, X)
|
INIT_DELAYED_WORK@p(X, ...)
|
PREPARE_DELAYED_WORK@p(X, ...)
)

@script:python@
X << qa.X;
p << qa.p;
@@
WP.record_queueing(X, p[0])

// PREPARE_WORK as the item's initialisation (see the head)
@script:python@
W << pw.W;
p << pw.p;
@@
WP.prepared_once(W, p[0])

@qw@
expression X, Q;
position p;
@@
queue_work@p(Q, X)

@script:python@
X << qw.X;
Q << qw.Q;
p << qw.p;
@@
WP.record_plain_queue(Q, p[0])

@pwq@
identifier i =~ "^PREPARE_WORK$";
expression W;
expression list es;
position p;
@@
i@p(W, es)

@qf@
expression pwq.W, Q;
@@
queue_work(Q, W)

@script:python qok@
W << pwq.W;
Q << qf.Q;
p << pwq.p;
@@
if not WP.idle_candidate(W, Q, p[0]):
    cocci.include_match(False)

// a path from the start of the function to the PREPARE_WORK with no flush
@unflushed_entry exists@
identifier fn;
expression pwq.W, qf.Q;
expression list pwq.es;
position pwq.p, pb;
@@
fn(...) {
... when != flush_workqueue(Q)
    when != flush_work(W)
    when != cancel_work_sync(W)
PREPARE_WORK@p@pb(W, es)
... when any
}

@script:python@
p << unflushed_entry.pb;
@@
WP.unflushed(p[0])

// a path from a queueing of the item to the PREPARE_WORK with no flush
@unflushed_queue exists@
expression pwq.W, qf.Q, Q2;
expression list pwq.es;
position pwq.p, pb;
@@
queue_work(Q2, W)
... when != flush_workqueue(Q)
    when != flush_work(W)
    when != cancel_work_sync(W)
PREPARE_WORK@p@pb(W, es)

@script:python@
p << unflushed_queue.pb;
@@
WP.unflushed(p[0])

@script:python@
p << pwq.p;
@@
WP.settle_idle(p[0])

@bad depends on !patch@
identifier i =~ "^PREPARE_(DELAYED_)?WORK$";
expression W;
expression list es;
position p : script:python() { not WP.is_safe(p[0]) };
@@
i@p(W, es)

@script:python depends on report@
i << bad.i;
W << bad.W;
p << bad.p;
@@
coccilib.report.print_report(p[0], WP.unsafe(i, W))

@script:python depends on org@
i << bad.i;
p << bad.p;
@@
coccilib.org.print_todo(p[0], 'wqport[W119]: %s on an item that may be queued' % i)

@depends on context@
identifier bad.i;
expression bad.W;
expression list bad.es;
position bad.p;
@@
* i@p(W, es)

// A PREPARE_WORK right after an INIT_WORK of the same item with the same
// handler changes nothing: it goes, rather than become a second INIT_WORK.
@depends on patch@
expression W, f;
@@
(
INIT_WORK(W, f);
- PREPARE_WORK(W, f);
|
INIT_DELAYED_WORK(W, f);
- PREPARE_DELAYED_WORK(W, f);
)

@depends on patch@
expression W;
expression list es;
position p : script:python() { WP.is_safe(p[0]) };
@@
(
- PREPARE_WORK@p(W, es)
+ INIT_WORK(W, es)
|
- PREPARE_DELAYED_WORK@p(W, es)
+ INIT_DELAYED_WORK(W, es)
)
