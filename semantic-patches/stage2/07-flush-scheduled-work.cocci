// SPDX-License-Identifier: GPL-2.0
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
/// An item &p->f in a structure with a single instance counts as file-scope:
/// the structure is defined in the file, declared once as an object, as a
/// non-array file-scope variable g above the first flush_scheduled_work(),
/// and never measured by sizeof (never allocated); p can then only point to
/// g, and the item is flushed as &g.f.  When that one declaration is a
/// file-scope array g[N] instead (the ports of a 2.4 serial driver), p can
/// only point into g, and when that item is the file's only one the flush
/// becomes a loop: for (int i = 0; i < ARRAY_SIZE(g); i++) flush_work(&g[i].f);
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
// Combine: no (it reads the file as the patches before it wrote it)
// Requires: flush_scheduled_work

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

# The decisions, and the tables the rules below fill: wqport_flush.py
# (tests/decisions tests it).
WF = wqport_module("wqport_flush")
WF.configure(os.environ)

// a new file: forget the previous one (one process may see many files)
@script:python@
@@
WF.new_file(os.environ)

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
WF.record_global(g, p[0])

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
WF.record_declare(n, p[0])

// which handler each item has (a flush in a handler must not wait for
// the handler itself)
@reg@
identifier i =~ "^(INIT|PREPARE)(_DELAYED)?_WORK$";
expression W;
identifier f;
position p;
type CT, CT2;
@@
(
i@p(W, f, ...)
|
i@p(W, &f, ...)
|
i@p(W, (CT)f, ...)
|
i@p(W, (CT)(CT2)f, ...)
)

@script:python@
W << reg.W;
f << reg.f;
p << reg.p;
@@
WF.record_handler(W, f, p[0])

@regd@
declarer name DECLARE_WORK, DECLARE_DELAYED_WORK;
identifier n, f;
position p;
@@
(
DECLARE_WORK@p(n, f, ...);
|
DECLARE_DELAYED_WORK@p(n, f, ...);
)

@script:python@
n << regd.n;
f << regd.f;
p << regd.p;
@@
WF.record_handler('&' + n, f, p[0])

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
|
schedule_work_on@p(C, X)
)

@script:python@
X << sch.X;
p << sch.p;
@@
WF.record_schedule(X, p[0])

// the structure type of a per-device item &p->f
@schp@
type T;
T *P;
identifier fld;
expression D, C;
position p;
@@
(
schedule_work@p(&P->fld)
|
schedule_delayed_work@p(&P->fld, D)
|
schedule_delayed_work_on@p(C, &P->fld, D)
)

@script:python@
T << schp.T;
P << schp.P;
fld << schp.fld;
p << schp.p;
@@
WF.record_pointer_item(T, P, fld, p[0])

// what sizeof() measures: an allocation of a structure needs one
@szt@
type T;
position p;
@@
sizeof@p(T)

@script:python@
T << szt.T;
p << szt.p;
@@
WF.record_sizeof_type(T, p[0])

@sze@
expression E;
position p;
@@
sizeof@p(E)

@szet@
type T;
T E;
position sze.p;
@@
sizeof@p(E)

@script:python@
T << szet.T;
p << sze.p;
@@
WF.record_sizeof_expr(p[0], T)

@script:python@
p << sze.p;
@@
WF.record_sizeof_expr(p[0])

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
WF.record_delayed(X, p[0])

@fs@
position p;
@@
flush_scheduled_work@p()

@script:python@
p << fs.p;
@@
WF.record_flush(p[0])

@script:python depends on report@
p << fs.p;
@@
msg = WF.why_not(p[0])
if msg:
    coccilib.report.print_report(p[0], msg)

@script:python depends on org@
p << fs.p;
@@
msg = WF.why_not(p[0])
if msg:
    coccilib.org.print_todo(p[0], msg)

@depends on context@
@@
* flush_scheduled_work();

// in a handler whose own item was the only one: nothing of the driver to
// wait for (2.6 skipped the running item too)
@fs0 depends on patch@
position p : script:python() { WF.count(p[0]) == 0 };
@@
- flush_scheduled_work@p();

@fs1 depends on patch@
position p : script:python() { WF.count(p[0]) == 1 };
@@
flush_scheduled_work@p();

@script:python e1@
p << fs1.p;
E1;
@@
out, _ = WF.site_plan(p[0])
coccinelle.E1 = cocci.make_expr(out[0])

@depends on patch@
position fs1.p;
expression e1.E1;
@@
- flush_scheduled_work@p();
+ flush_work(E1);

@fs2 depends on patch@
position p : script:python() { WF.count(p[0]) == 2 };
@@
flush_scheduled_work@p();

@script:python e2@
p << fs2.p;
E1;
E2;
@@
out, _ = WF.site_plan(p[0])
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
position p : script:python() { WF.count(p[0]) == 3 };
@@
flush_scheduled_work@p();

@script:python e3@
p << fs3.p;
E1;
E2;
E3;
@@
out, _ = WF.site_plan(p[0])
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


// every element of a file-scope array: a loop (the C11 the kernel is built with)
@fsa depends on patch@
position p : script:python() { WF.is_loop(p[0]) };
@@
flush_scheduled_work@p();

@script:python ea@
p << fsa.p;
S;
@@
out, _ = WF.site_plan(p[0])
coccinelle.S = cocci.make_stmt(out[0])

@depends on patch@
position fsa.p;
statement ea.S;
@@
- flush_scheduled_work@p();
+ S


// A flush of an item that the statement before cancelled with a _sync
// cancel (06-cancel-sync.cocci) waits for nothing: it goes.
@depends on patch@
expression X;
@@
(
cancel_delayed_work_sync(&X);
- flush_work(&X.work);
|
cancel_delayed_work_sync(X);
- flush_work(&X->work);
|
cancel_work_sync(X);
- flush_work(X);
)


// No flush of the items by name: a private workqueue, as the kernel asks of
// the drivers that used flush_scheduled_work() (include/linux/workqueue.h).
@script:python pw depends on patch@
WQ;
TMP;
@@
names = WF.private_names()
if names is None:
    cocci.include_match(False)
else:
    coccinelle.WQ = cocci.make_ident(names[0])
    coccinelle.TMP = cocci.make_ident(names[1])

// Failures of the init function: the workqueue it allocated goes first.
// (<... ...> matches zero times too: a rule others depend on uses <+... ...+>.)
// (No rule from here on reads positions of the source: spatch hands the
// later rules a function that an earlier one changed as a new file.)
@depends on patch@
identifier fi : script:python() { WF.in_init(fi) };
expression E : script:python() { WF.ret_kind(E) == "fail" };
identifier pw.WQ;
@@
fi(...) {
<...
+ destroy_workqueue(WQ);
  return E;
...>
}

@depends on patch@
identifier fi : script:python() { WF.in_init(fi) };
identifier E : script:python() { WF.ret_kind(E) == "ident" };
identifier pw.WQ;
@@
fi(...) {
<...
+ if (E)
+	destroy_workqueue(WQ);
  return E;
...>
}

// ... once where the return already depends on it
@depends on patch@
identifier fi : script:python() { WF.in_init(fi) };
identifier E;
identifier pw.WQ;
@@
fi(...) {
<...
  if (E) {
    ...
-   if (E)
    destroy_workqueue(WQ);
    return E;
  }
...>
}

@rexpr depends on patch@
identifier fi : script:python() { WF.in_init(fi) };
expression E : script:python() { WF.ret_kind(E) == "expr" };
identifier pw.WQ, pw.TMP;
@@
fi(...) {
<+...
- return E;
+ TMP = E;
+ if (TMP)
+	destroy_workqueue(WQ);
+ return TMP;
...+>
}

// Its start: the allocation, after the declarations (with the variable a
// return through an expression needs, when there is one), or before the
// first statement when there is none (and then below a comment heading it).
@depends on patch && rexpr@
identifier fi : script:python() { WF.in_init(fi) };
declaration D;
position pd : script:python() { WF.is_start(pd[0]) };
identifier pw.WQ, pw.TMP;
@@
fi(...) {
  ...
  D@pd
+ int TMP;
+
+ WQ = alloc_workqueue("%s", 0, 0, KBUILD_MODNAME);
+ if (!WQ)
+	return -ENOMEM;
  ...
}

@depends on patch && !rexpr@
identifier fi : script:python() { WF.in_init(fi) };
declaration D;
position pd : script:python() { WF.is_start(pd[0]) };
identifier pw.WQ;
@@
fi(...) {
  ...
  D@pd
+
+ WQ = alloc_workqueue("%s", 0, 0, KBUILD_MODNAME);
+ if (!WQ)
+	return -ENOMEM;
  ...
}

@depends on patch && rexpr@
identifier fi : script:python() { WF.in_init_bare(fi) };
identifier pw.WQ, pw.TMP;
@@
fi(...) {
+ int TMP;
+
+ WQ = alloc_workqueue("%s", 0, 0, KBUILD_MODNAME);
+ if (!WQ)
+	return -ENOMEM;
  ...
}

@depends on patch && !rexpr@
identifier fi : script:python() { WF.in_init_bare(fi) };
identifier pw.WQ;
@@
fi(...) {
+ WQ = alloc_workqueue("%s", 0, 0, KBUILD_MODNAME);
+ if (!WQ)
+	return -ENOMEM;
  ...
}

// The exit function: the workqueue goes last, on every way out (the end
// of a void function is a return; to spatch).
@depends on patch@
identifier fe : script:python() { WF.in_exit(fe) };
identifier pw.WQ;
@@
fe(...) {
<...
+ destroy_workqueue(WQ);
  return;
...>
}

// Every use of the system workqueue goes to it.
@depends on patch@
expression X, D, C;
identifier pw.WQ;
@@
(
- schedule_work(X)
+ queue_work(WQ, X)
|
- schedule_delayed_work(X, D)
+ queue_delayed_work(WQ, X, D)
|
- schedule_delayed_work_on(C, X, D)
+ queue_delayed_work_on(C, WQ, X, D)
|
- schedule_work_on(C, X)
+ queue_work_on(C, WQ, X)
|
- flush_scheduled_work()
+ flush_workqueue(WQ)
)

// Its declaration, before the first function that uses it.
@depends on patch@
identifier f : script:python() { WF.is_anchor(f) };
type T;
identifier pw.WQ;
@@
+ static struct workqueue_struct *WQ;
+
T f(...) {...}
