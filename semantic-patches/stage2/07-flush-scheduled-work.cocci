/// flush_scheduled_work() -> flushing the driver's own work items.
///
/// flush_scheduled_work() waits for everything on the shared system workqueue;
/// since 6.0 it warns at run time (Tetsuo Handa, "workqueue: Wrap
/// flush_workqueue() using a macro") and is being removed.  A driver that
/// meant "wait for my items" must say so.  When every item the file puts on
/// the system workqueue (schedule_work, schedule_delayed_work[_on]) is a
/// file-scope variable, flush_scheduled_work() becomes flush_work() of each
/// (of w.work for a delayed item: the old flush did not wait for a delayed
/// item whose timer had not fired, and neither does flush_work(&w.work);
/// flush_delayed_work() would fire it early).  Up to three items.
///
/// Otherwise it is left alone and reported: items in per-device structures
/// (the flush must name each device's items, or use a private workqueue),
/// items reached through pointers, or a file that schedules nothing itself.
///
/// Runs after 01-delayed-work.cocci, so a delayed item's schedule_work(&w)
/// has become schedule_delayed_work(&w, 0).
//
// Confidence: Moderate
// Copyright: wqport project.  License: GPL-2.0-only.
// Options: --no-includes --include-headers
// Keywords: flush_scheduled_work, flush_work, system_wq

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re
GLOBALS = {}   # file -> set of file-scope variable names
ITEMS = {}     # file -> list of (item string, delayed?) in order
CURFILE = [None]

def norm(s):
    return re.sub(r'\s+', '', s)

def plan(file):
    """List of flush_work() arguments, or (None, reason)."""
    items = ITEMS.get(file, [])
    if not items:
        return None, ('flush_scheduled_work() warns on 6.x and this file puts '
                      'no item on the system workqueue itself: flush the '
                      'items it means by name, or drop the call')
    out = []
    for x, d in items:
        m = re.match(r'^&(\w+)$', x)
        if not m or m.group(1) not in GLOBALS.get(file, set()):
            return None, ('flush_scheduled_work() warns on 6.x: replace it '
                          'with flush_work()/cancel_work_sync() of the '
                          'items of the driver (%s), per device, or move them '
                          'to a private workqueue and flush that'
                          % ', '.join(sorted(set(i for i, _ in items))))
        a = x + '.work' if d else x
        if a not in out:
            out.append(a)
    if len(out) > 3:
        return None, 'flush_scheduled_work(): more than three items; flush each by hand'
    return out, None

def count(p):
    out, _ = plan(CURFILE[0])
    return len(out) if out else 0

// a new file: forget the previous one (one process may see many files)
@script:python@
@@
CURFILE[0] = None

@gv@
type T;
identifier g;
position p;
@@
(
T g@p;
|
T g@p = ...;
)

@script:python@
g << gv.g;
p << gv.p;
@@
if p[0].current_element == g:
    GLOBALS.setdefault(p[0].file, set()).add(g)

@dw@
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
n << dw.n;
p << dw.p;
@@
GLOBALS.setdefault(p[0].file, set()).add(n)

@sch@
expression X, D, C;
position p;
@@
(
schedule_work@p(X)
|
schedule_delayed_work@p(X, D)
|
schedule_delayed_work_on@p(C, X, D)
)

@script:python@
X << sch.X;
p << sch.p;
@@
l = ITEMS.setdefault(p[0].file, [])
if norm(X) not in [x for x, _ in l]:
    l.append((norm(X), False))

@schd@
expression X, D, C;
position p;
@@
(
schedule_delayed_work@p(X, D)
|
schedule_delayed_work_on@p(C, X, D)
)

@script:python@
X << schd.X;
p << schd.p;
@@
l = ITEMS.setdefault(p[0].file, [])
ITEMS[p[0].file] = [(x, True if x == norm(X) else d) for x, d in l]

@fs@
position p;
@@
flush_scheduled_work@p()

@script:python@
p << fs.p;
@@
CURFILE[0] = p[0].file

@script:python depends on report@
p << fs.p;
@@
out, why = plan(p[0].file)
if out is None:
    coccilib.report.print_report(p[0], 'wqport: ' + why)

@script:python depends on org@
p << fs.p;
@@
out, why = plan(p[0].file)
if out is None:
    coccilib.org.print_todo(p[0], 'wqport: ' + why)

@depends on context@
@@
* flush_scheduled_work();

@fs1 depends on patch@
position p : script:python() { count(p) == 1 };
@@
flush_scheduled_work@p();

@script:python e1@
p << fs1.p;
E1;
@@
out, _ = plan(CURFILE[0])
coccinelle.E1 = cocci.make_expr(out[0])

@depends on patch@
position fs1.p;
expression e1.E1;
@@
- flush_scheduled_work@p();
+ flush_work(E1);

@fs2 depends on patch@
position p : script:python() { count(p) == 2 };
@@
flush_scheduled_work@p();

@script:python e2@
p << fs2.p;
E1;
E2;
@@
out, _ = plan(CURFILE[0])
coccinelle.E1 = cocci.make_expr(out[0])
coccinelle.E2 = cocci.make_expr(out[1])

@depends on patch@
position fs2.p;
expression e2.E1, e2.E2;
@@
- flush_scheduled_work@p();
+ flush_work(E1);
+ flush_work(E2);

@fs3 depends on patch@
position p : script:python() { count(p) == 3 };
@@
flush_scheduled_work@p();

@script:python e3@
p << fs3.p;
E1;
E2;
E3;
@@
out, _ = plan(CURFILE[0])
coccinelle.E1 = cocci.make_expr(out[0])
coccinelle.E2 = cocci.make_expr(out[1])
coccinelle.E3 = cocci.make_expr(out[2])

@depends on patch@
position fs3.p;
expression e3.E1, e3.E2, e3.E3;
@@
- flush_scheduled_work@p();
+ flush_work(E1);
+ flush_work(E2);
+ flush_work(E3);

