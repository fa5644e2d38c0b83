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
import re
F_GLOBALS = {}   # file -> set of file-scope variable names
F_GLOBALLINE = {}  # file -> {name: line of its first declaration}
F_ITEMS = {}     # file -> list of (item string, delayed?) in order
PTYPE = {}     # file -> {item string &p->f: type of *p}
SIZED = {}     # file -> set of types some sizeof() measures
UNKNOWN_SIZEOF = set()  # files with a sizeof(expression) of unknown type
TYPED_SZ = set()
FIRSTFS = {}   # file -> line of its first flush_scheduled_work()
FS_FUNCS = {}  # file -> the functions that call flush_scheduled_work()
UNTYPED_SZ = set()
F_CURFILE = [None]

def f_norm(s):
    return re.sub(r'\s+', '', s)

def plan(file):
    """List of flush_work() arguments, or (None, reason)."""
    items = F_ITEMS.get(file, [])
    if not items:
        return None, ('flush_scheduled_work() warns on Linux 6.12 and this file puts '
                      'no item on the system workqueue itself (or only through a '
                      'macro): flush the items it means by name, or drop the call')
    out = []
    for x, d in items:
        x = single_instance(file, x)
        if x.startswith('[]'):          # every element of a file-scope array
            if len(items) != 1:
                return None, ('flush_scheduled_work(): the items of array %s and '
                              'others; flush each by hand' % x.split()[1])
            _, g, f = x.split()
            if not all_initialised(file, g, f):
                return None, ('flush_scheduled_work() warns on Linux 6.12: flush the items of '
                              'array %s (%s) by hand: no loop over the whole array is seen '
                              'to INIT_WORK() them all, and flush_work() WARNs on an item '
                              'never initialised' % (g, f))
            return ['for (int i = 0; i < ARRAY_SIZE(%s); i++)\n\tflush_work(&%s[i].%s%s);'
                    % (g, g, f, '.work' if d else '')], None
        m = re.match(r'^&(\w+)(\.\w+)*$', x)
        if not m or m.group(1) not in F_GLOBALS.get(file, set()):
            return None, ('flush_scheduled_work() warns on Linux 6.12: replace it '
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

F_TEXT = {}      # file -> its text, comments blanked (read once)

def f_file_text(file):
    """file's text without comments, or None if it cannot be read.  Latin-1:
    old drivers are, and every byte decodes."""
    if file not in F_TEXT:
        try:
            with open(file, encoding='latin-1') as f:
                F_TEXT[file] = wqport_module('wqport_ctext').blank_comments(f.read())
        except OSError:
            F_TEXT[file] = None
    return F_TEXT[file]

def macro_param(file, line, x):
    """Is x a parameter of the function-like #define whose body holds line
    (SCHEDULE_WORK(w) schedule_work(w) in a driver's compat header)?  Such
    an x names no item of the driver: its users do."""
    text = f_file_text(file)
    m = wqport_module('wqport_ctext').macro_at(text, int(line)) if text else None
    return bool(m) and x in m[1]

def only_instance(file, T):
    """The file-scope variable that is the one instance of struct type T,
    or None; prefixed '[] ' when it is a one-dimensional array.  T must be
    defined in this file (no other file can make one), declared as an object
    exactly once, at file scope, and never measured by sizeof (no allocation
    of one)."""
    m = re.match(r'^struct\s+(\w+)$', T.strip())
    if not m or file in UNKNOWN_SIZEOF or T in SIZED.get(file, set()):
        return None
    text = f_file_text(file)
    if text is None:
        return None
    tag = m.group(1)
    if not re.search(r'\bstruct\s+%s\s*\{' % tag, text):
        return None
    inst = wqport_module('wqport_ctext').struct_instances(text, tag)
    if inst is None:
        return None
    if len(inst) != 1 or inst[0][0] not in F_GLOBALS.get(file, set()):
        return None
    # declared above every flush_scheduled_work() that would name it
    if inst[0][1] >= FIRSTFS.get(file, 0):
        return None
    return ('[] ' if inst[0][2] else '') + inst[0][0]

def all_initialised(file, g, f):
    """Whether a loop over the whole of array g initialises field f of its
    elements (wqport_ctext.loop_initialises)."""
    text = f_file_text(file)
    return text is not None and wqport_module('wqport_ctext').loop_initialises(text, g, f)

def single_instance(file, x):
    """&p->f of a per-device item whose structure has only one instance g
    in the file: &g.f (p can only point to g); else x unchanged."""
    m = re.match(r'^&(\w+)->(\w+(?:\.\w+)*)$', x)
    if not m:
        return x
    T = PTYPE.get(file, {}).get(x)
    if T is None:
        return x
    g = only_instance(file, T)
    if g and g.startswith('[] '):
        return '%s %s' % (g, m.group(2))
    return '&%s.%s' % (g, m.group(2)) if g else x

SEEN = {}     # file -> lines of the calls of the system workqueue the rules matched
# Set by wqport convert: the other files of the module that use the system
# workqueue (a private one given to this file would not hold their items).
OTHERS = os.environ.get("WQPORT_OTHER_SCHEDULERS", "").split()

def wqport_module(name):
    """The Python module name of stage 2 (beside this file) or stage 1."""
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

def wqport_tq():
    """stage 1's module, beside this stage's directory."""
    return wqport_module('wqport_tq')

PRIVATE = {}

def private(file):
    """(dict, None): flush_scheduled_work() cannot name the file's items, so
    the file gets a private workqueue (see wqport_tq.private_wq); or (None,
    why not)."""
    if file in PRIVATE:
        return PRIVATE[file]
    if F_CURFILE[0] != file:
        return None, None     # its flush_scheduled_work() not seen yet
    res = None, None
    out, why = plan(file)
    if out is not None:
        res = None, None
    elif not F_ITEMS.get(file):
        res = None, 'the file schedules nothing itself, so no private workqueue of its own can stand for the system one'
    elif OTHERS:
        res = None, ('%s of this module also use%s the system workqueue: give the module one '
                     'private workqueue by hand' % (', '.join(OTHERS), 's' if len(OTHERS) == 1 else ''))
    elif in_handler(file):
        res = None, ('no private workqueue could be given: %s(), a work handler, calls '
                     'flush_scheduled_work(), and a workqueue flushed from its own work '
                     'waits for itself' % in_handler(file))
    else:
        try:
            info, whynot = wqport_tq().private_wq(file)
        except ImportError:
            info, whynot = None, "stage 1's wqport_tq.py is not beside this stage"
        if info is None:
            res = None, 'no private workqueue could be given: ' + whynot
        else:
            hidden = [n for n in info['calls'] if n not in SEEN.get(file, set())]
            if hidden:
                res = None, ('no private workqueue could be given: the call of the system '
                             'workqueue at line %d is not one this rule can rewrite (in a macro?)'
                             % hidden[0])
            else:
                res = info, None
    PRIVATE[file] = res
    return res

def current_private():
    """The private workqueue of the file being patched (private()), or None."""
    return private(F_CURFILE[0])[0] if F_CURFILE[0] else None

def in_init(f):
    info = current_private()
    return info is not None and f == info['init']

def in_exit(f):
    info = current_private()
    return info is not None and f == info['exit']

def is_start(p):
    """Whether p is the last declaration at the start of the init function,
    read from the file spatch gives (a copy of the function, once a rule
    changed it).  (A body without declarations: in_init_bare.)"""
    info = current_private()
    if info is None:
        return False
    last = wqport_tq().last_declaration(p[0].file, info["init"], fresh=True)
    return last == (int(p[0].line), int(p[0].column))

def has_decl():
    """Whether the init function's body starts with declarations, read
    from the file as given (a rule's added code has no position to match
    as the first statement, so a body without them gets its start as the
    function's start)."""
    info = current_private()
    return info is not None and info['has_decl']

def in_init_bare(f):
    return in_init(f) and not has_decl()

def is_anchor(f):
    info = current_private()
    return info is not None and f == info["anchor"]

def ret_kind(e):
    return wqport_tq().return_kind(e)

HANDLER_OF = {} # file -> [(item as registered, its handler)]

def own_items(file, fn):
    """The items whose handler is fn, as plan() names them (single
    instances resolved); None when fn is the handler of an item plan()
    could not name (reached through a pointer)."""
    mine = set()
    for w, h in HANDLER_OF.get(file, []):
        if h != fn:
            continue
        x = single_instance(file, w)
        m = re.match(r'^&(\w+)(\.\w+)*$', x)
        if not m or m.group(1) not in F_GLOBALS.get(file, set()):
            return None
        mine |= {x, x + '.work'}
    return mine

def site_plan(p):
    """plan() for the flush_scheduled_work() at p.  In a work handler (2.6
    ran the rest of the queue by hand when keventd flushed it): not the
    handler's own items, whose flush from their own handler would wait for
    itself; None where that cannot be told."""
    file = p[0].file
    out, why = plan(file)
    fn = p[0].current_element
    mine = own_items(file, fn)
    if mine is None or (mine and out and out[0].startswith('for ')):
        return None, ('flush_scheduled_work() in %s(), the work handler of an item it would '
                      'flush: flushing that from its own handler waits for itself; flush the '
                      'other items by name there' % fn)
    if out is not None and mine:
        out = [a for a in out if a not in mine]
    # flush_work(&g) needs g declared above the call (a DECLARE_WORK after
    # the function that flushes it)
    for a in out or []:
        m = re.match(r'^(?:for .*?flush_work\(&|&)(\w+)', a, re.S)
        if m and F_GLOBALLINE.get(file, {}).get(m.group(1), 0) > int(p[0].line):
            return None, ('flush_scheduled_work() warns on Linux 6.12: it would become '
                          'flush_work() of %s, declared below this call: move the '
                          'declaration above it and convert again' % m.group(1))
    return out, why

def in_handler(file):
    """The work handler (of an item the file schedules) that calls
    flush_scheduled_work(), or None: a private workqueue flushed there
    would be flushed from its own work."""
    scheduled = set(x for x, _ in F_ITEMS.get(file, []))
    for fn in FS_FUNCS.get(file, []):
        if any(h == fn and (w in scheduled or single_instance(file, w) in scheduled)
               for w, h in HANDLER_OF.get(file, [])):
            return fn
    return None

def is_loop(p):
    out, _ = site_plan(p)
    return bool(out) and out[0].startswith('for ')

def count(p):
    out, _ = site_plan(p)
    if out is None or is_loop(p):
        return -1
    return len(out)

// a new file: forget the previous one (one process may see many files)
@script:python@
@@
F_CURFILE[0] = None
PRIVATE.clear()

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
    F_GLOBALS.setdefault(p[0].file, set()).add(g)
    F_GLOBALLINE.setdefault(p[0].file, {}).setdefault(g, int(p[0].line))

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
F_GLOBALS.setdefault(p[0].file, set()).add(n)
F_GLOBALLINE.setdefault(p[0].file, {}).setdefault(n, int(p[0].line))

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
HANDLER_OF.setdefault(p[0].file, []).append((f_norm(W), f))

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
HANDLER_OF.setdefault(p[0].file, []).append(('&' + n, f))

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
l = F_ITEMS.setdefault(p[0].file, [])
if f_norm(X) not in [x for x, _ in l] and not macro_param(p[0].file, p[0].line, f_norm(X)):
    l.append((f_norm(X), False))
SEEN.setdefault(p[0].file, set()).add(int(p[0].line))

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
PTYPE.setdefault(p[0].file, {})['&%s->%s' % (f_norm(P), fld)] = f_norm(T).replace('struct', 'struct ', 1)

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
SIZED.setdefault(p[0].file, set()).add(re.sub(r'\s+', ' ', T.strip()))

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
SIZED.setdefault(p[0].file, set()).add(re.sub(r'\s+', ' ', T.strip()))
TYPED_SZ.add((p[0].file, p[0].line, p[0].column))

@script:python@
p << sze.p;
@@
UNTYPED_SZ.add((p[0].file, p[0].line, p[0].column))

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
l = F_ITEMS.setdefault(p[0].file, [])
F_ITEMS[p[0].file] = [(x, True if x == f_norm(X) else d) for x, d in l]

@fs@
position p;
@@
flush_scheduled_work@p()

@script:python@
p << fs.p;
@@
F_CURFILE[0] = p[0].file
SEEN.setdefault(p[0].file, set()).add(int(p[0].line))
FIRSTFS[p[0].file] = min(FIRSTFS.get(p[0].file, 1 << 30), int(p[0].line))
FS_FUNCS.setdefault(p[0].file, set()).add(p[0].current_element)
# (the sizeofs of this file: one process may see many files)
if any(k[0] == p[0].file for k in UNTYPED_SZ - TYPED_SZ):
    UNKNOWN_SIZEOF.add(p[0].file)

@script:python depends on report@
p << fs.p;
@@
out, why = site_plan(p)
if out is None and private(p[0].file)[0] is None:
    whynot = private(p[0].file)[1]
    coccilib.report.print_report(p[0], 'wqport[W121]: ' + why + ('; ' + whynot if whynot else ''))

@script:python depends on org@
p << fs.p;
@@
out, why = site_plan(p)
if out is None and private(p[0].file)[0] is None:
    whynot = private(p[0].file)[1]
    coccilib.org.print_todo(p[0], 'wqport[W121]: ' + why + ('; ' + whynot if whynot else ''))

@depends on context@
@@
* flush_scheduled_work();

// in a handler whose own item was the only one: nothing of the driver to
// wait for (2.6 skipped the running item too)
@fs0 depends on patch@
position p : script:python() { count(p) == 0 };
@@
- flush_scheduled_work@p();

@fs1 depends on patch@
position p : script:python() { count(p) == 1 };
@@
flush_scheduled_work@p();

@script:python e1@
p << fs1.p;
E1;
@@
out, _ = site_plan(p)
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
out, _ = site_plan(p)
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
out, _ = site_plan(p)
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
position p : script:python() { is_loop(p) };
@@
flush_scheduled_work@p();

@script:python ea@
p << fsa.p;
S;
@@
out, _ = site_plan(p)
coccinelle.S = cocci.make_stmt(out[0])

@depends on patch@
position fsa.p;
statement ea.S;
@@
- flush_scheduled_work@p();
+ S


// No flush of the items by name: a private workqueue, as the kernel asks of
// the drivers that used flush_scheduled_work() (include/linux/workqueue.h).
@script:python pw depends on patch@
WQ;
TMP;
@@
info = current_private()
if info is None:
    cocci.include_match(False)
else:
    coccinelle.WQ = cocci.make_ident(info['name'])
    coccinelle.TMP = cocci.make_ident(info['tmp'] or info['name'] + '_err')

// Failures of the init function: the workqueue it allocated goes first.
// (<... ...> matches zero times too: a rule others depend on uses <+... ...+>.)
// (No rule from here on reads positions of the source: spatch hands the
// later rules a function that an earlier one changed as a new file.)
@depends on patch@
identifier fi : script:python() { in_init(fi) };
expression E : script:python() { ret_kind(E) == "fail" };
identifier pw.WQ;
@@
fi(...) {
<...
+ destroy_workqueue(WQ);
  return E;
...>
}

@depends on patch@
identifier fi : script:python() { in_init(fi) };
identifier E : script:python() { ret_kind(E) == "ident" };
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
identifier fi : script:python() { in_init(fi) };
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
identifier fi : script:python() { in_init(fi) };
expression E : script:python() { ret_kind(E) == "expr" };
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
identifier fi : script:python() { in_init(fi) };
declaration D;
position pd : script:python() { is_start(pd) };
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
identifier fi : script:python() { in_init(fi) };
declaration D;
position pd : script:python() { is_start(pd) };
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
identifier fi : script:python() { in_init_bare(fi) };
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
identifier fi : script:python() { in_init_bare(fi) };
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
identifier fe : script:python() { in_exit(fe) };
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
identifier f : script:python() { is_anchor(f) };
type T;
identifier pw.WQ;
@@
+ static struct workqueue_struct *WQ;
+
T f(...) {...}
