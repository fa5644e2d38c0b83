/// PREPARE_WORK is gone (3.15): INIT_WORK where the item cannot be queued.
///
/// PREPARE_WORK changed only the handler of an item; it was removed in 3.15
/// (Tejun Heo, "workqueue: remove PREPARE_[DELAYED_]WORK()") because changing
/// the function of an item that may be pending or running is racy.
/// PREPARE_WORK(w, f) (and PREPARE_DELAYED_WORK) becomes INIT_WORK(w, f)
/// (INIT_DELAYED_WORK) where the item provably cannot be queued at that point:
///  - nothing else in the file initialises the item (no INIT_*WORK or
///    DECLARE_*WORK of it): PREPARE_WORK was its initialisation;
///  - the same function initialised it with INIT_*WORK earlier, on every path,
///    and did not queue it in between.
/// Every other PREPARE_WORK is left alone and reported: give each handler its
/// own work item, or keep one handler that dispatches on a state field.
///
/// Runs after 02-work-handler.cocci: it only touches the two-argument form.
//
// Confidence: High
// Copyright: wqport project.  License: GPL-2.0-only.
// Options: --no-includes --include-headers
// Keywords: PREPARE_WORK, PREPARE_DELAYED_WORK, INIT_WORK

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re
INITS = {}      # file -> set of item keys initialised by INIT_/DECLARE_
SAFE = set()    # (file, line, col) of PREPAREs proven safe

def is_safe(p):
    return (p[0].file, p[0].line, p[0].column) in SAFE

def norm(s):
    return re.sub(r'\s+', '', s)

def item_key(x):
    x = norm(x)
    m = re.match(r'^&(.+)(->|\.)(\w+)(\[[^\]]*\])?$', x)
    if m:
        return ('field', m.group(3))
    m = re.match(r'^&(\w+)(\[[^\]]*\])?$', x)
    if m:
        return ('var', m.group(1))
    return ('expr', x)

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
INITS.setdefault(p[0].file, set()).add(item_key(W))

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
INITS.setdefault(p[0].file, set()).add(('var', n))

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
SAFE.add((p[0].file, p[0].line, p[0].column))

@script:python@
W << pw.W;
p << pw.p;
@@
if item_key(W) not in INITS.get(p[0].file, set()):
    SAFE.add((p[0].file, p[0].line, p[0].column))

@bad depends on !patch@
identifier i =~ "^PREPARE_(DELAYED_)?WORK$";
expression W;
expression list es;
position p : script:python() { not is_safe(p) };
@@
i@p(W, es)

@script:python depends on report@
i << bad.i;
W << bad.W;
p << bad.p;
@@
coccilib.report.print_report(p[0], 'wqport: %s(%s, ...) is gone since 3.15 '
    'and the item may be queued here: give each handler its own work item, '
    'or keep one handler that dispatches on a state field' % (i, norm(W)))

@script:python depends on org@
i << bad.i;
p << bad.p;
@@
coccilib.org.print_todo(p[0], 'wqport: %s on an item that may be queued' % i)

@depends on context@
identifier bad.i;
expression bad.W;
expression list bad.es;
position bad.p;
@@
* i@p(W, es)

@depends on patch@
expression W;
expression list es;
position p : script:python() { is_safe(p) };
@@
(
- PREPARE_WORK@p(W, es)
+ INIT_WORK(W, es)
|
- PREPARE_DELAYED_WORK@p(W, es)
+ INIT_DELAYED_WORK(W, es)
)
