// SPDX-License-Identifier: GPL-2.0
/// Delayed work items become struct delayed_work.
///
/// Before 2.6.20 one struct work_struct served both queue_work() and
/// queue_delayed_work(): it carried the timer.  2.6.20 (David Howells,
/// "WorkStruct: Separate delayable and non-delayable events") split out
/// struct delayed_work { struct work_struct work; struct timer_list timer; }.
/// A work item used with any delayed call (queue_delayed_work,
/// schedule_delayed_work, cancel_delayed_work, cancel_rearming_delayed_work*)
/// therefore becomes struct delayed_work: its declaration (struct field, array,
/// global or local), INIT_WORK/PREPARE_WORK -> INIT_DELAYED_WORK/
/// PREPARE_DELAYED_WORK (PREPARE_DELAYED_WORK is finished by
/// 04-prepare-work.cocci), DECLARE_WORK -> DECLARE_DELAYED_WORK, work_pending()
/// -> delayed_work_pending(), and plain queue_work/schedule_work of it -> the
/// delayed call with delay 0, as the 2.6.20 conversions did.
///
/// The data argument stays (02-work-handler.cocci removes it).  An item is
/// recognised by its field or variable name (&p->name, &s.name, &name,
/// &p->name[i]) and, for a field, by the structure that holds it where the
/// C source tells its type at every use of the name (2.6.18's shpchp: struct
/// slot's work is delayed, struct event_info's work is not); where one use
/// does not tell, every field of that name is taken as one item.  It is left
/// alone and reported when it is used in any other way (passed on as a
/// struct work_struct *, its members touched), and so is a delayed call on
/// an item reached through a pointer.
///
/// A driver's wrapper of a delayed call, a function whose struct work_struct *
/// parameter it hands to queue_delayed_work() and the like, counts as a
/// delayed call on what its callers pass, when every one of them passes an
/// item (&p->name ...): those become struct delayed_work, and so does the
/// parameter, in the definition and in the prototypes.
///
/// Run by wqport convert, over several files: $WQPORT_DELAYED names items
/// that another file of the run uses with delayed calls, $WQPORT_NOT_DELAYED
/// those another file hands on as a plain work_struct ($WQPORT_DELAYED_TYPES
/// NAME/STRUCT the structures of the delayed fields, struct tag's space a
/// '+', and $WQPORT_UNTYPED the field names some use of which does not tell
/// its structure), $WQPORT_WRAPPERS the
/// wrappers (NAME:INDEX of the parameter) of the run, $WQPORT_DECLARED the
/// items the run's files declare: an item declared in none of them (a
/// header outside the run) is reported, not converted.  In report mode,
/// $WQPORT_FACTS names a file for this file's own facts (JSON).
//
// Confidence: High
// Copyright: wqport project.  License: GPL-2.0-only.
// Options: --no-includes --include-headers
// Keywords: queue_delayed_work, schedule_delayed_work, delayed_work

virtual patch
virtual context
virtual org
virtual report

@initialize:python@
@@
import re

DELAYED = {}    # file -> set of item keys used with a delayed call
BAD = {}        # file -> set of item keys used in other ways
KNOWN = {}      # file -> set of (line, col) of uses in known calls
CURFILE = [None]
REPORT = False
ORG = False
REPORTED = set()
CANDIDATES = {} # file -> {function: (index, name) of a work_struct * parameter}
PROTOS = {}     # file -> {function: index of a work_struct * parameter}, prototypes
WRAPDEF = {}    # file -> {function: (index, name) of the parameter it delays}
WRAPCALLS = {}  # file -> {function: [whether it passes an item, per call]}
WRAPKEYS = {}   # file -> [(function, item key, position)] of wrapper calls
WRAPARGS = {}   # file -> set of (line, item) passed to a wrapper
POINTERS = []   # (position, item, function) of delayed calls through a pointer
DECLARED = {}   # file -> set of item names declared in the file
FIRST = {}      # file -> {key: position of its first delayed call}
TYPED = {}      # (file, line, base, field) -> the structure of base->field / base.field
DTYPES = {}     # file -> {field: set of structures of its delayed uses (None: not told)}
UNTYPED = {}    # file -> set of field names some use of which does not tell its structure
USES = []       # (item, position, delayed?) of this file's work calls
WORKFIELDS = set()  # the field names of this file's work calls

import os
def env_names(var):
    return set(os.environ.get(var, "").split())
RUN_DELAYED = env_names("WQPORT_DELAYED")
RUN_BAD = env_names("WQPORT_NOT_DELAYED")
RUN_DECLARED = env_names("WQPORT_DECLARED")
RUN_UNTYPED = env_names("WQPORT_UNTYPED")
RUN_DTYPES = {}
for w in env_names("WQPORT_DELAYED_TYPES"):
    n, _, t = w.partition("/")
    RUN_DTYPES.setdefault(n, set()).add(t.replace("+", " ") if t != "?" else None)
def env_wrappers(var):
    out = {}
    for w in env_names(var):
        if ":" in w:
            out[w.split(":")[0]] = int(w.split(":")[1])
    return out
RUN_WRAPPERS = env_wrappers("WQPORT_WRAPPERS")
# wrappers defined in the run, whose calls the facts must count
RUN_CANDIDATES = env_wrappers("WQPORT_WRAPPER_CANDIDATES")
IN_RUN = "WQPORT_DECLARED" in os.environ     # run by wqport convert, facts shared
FACTS = os.environ.get("WQPORT_FACTS")

def norm(s):
    return re.sub(r'\s+', '', s)

def item_key(x):
    """&p->name / &s.name / &name (with an optional [i]) -> key, else None."""
    x = norm(x)
    if x.startswith('&(') and x.endswith(')'):
        x = '&' + x[2:-1]
    m = re.match(r'^&(.+)(->|\.)(\w+)(\[[^\]]*\])?$', x)
    if m:
        return ('field', m.group(3))
    m = re.match(r'^&(\w+)(\[[^\]]*\])?$', x)
    if m:
        return ('var', m.group(1))
    return None

def say(p, wid, msg):
    """Report msg at p once, under its stable ID wid (docs/reasons/)."""
    msg = 'wqport[%s]: %s' % (wid, msg)
    k = (p.file, p.line, p.column, msg)
    if k in REPORTED:
        return
    REPORTED.add(k)
    if REPORT:
        import coccilib.report
        coccilib.report.print_report(p, msg)
    elif ORG:
        import coccilib.org
        coccilib.org.print_todo(p, msg)

STRUCT = re.compile(r'^struct \w+$')

def tname(t):
    """A structure type as the facts keep it: `struct tag`, else None (a
    typedef name does not say which struct tag it is)."""
    t = ' '.join(t.split()) if t else None
    return t if t and STRUCT.match(t) else None

def use_type(x, pos):
    """The structure holding field item x used at pos (a position: its file
    and line), where the C source tells it (None: not a field, or not
    told)."""
    x = norm(x)
    if x.startswith('&(') and x.endswith(')'):
        x = '&' + x[2:-1]
    m = re.match(r'^&(.+)(->|\.)(\w+)(\[[^\]]*\])?$', x)
    if not m:
        return None
    return TYPED.get((pos.file, str(pos.line), m.group(1), m.group(3)))

def dtypes(name):
    """The structures whose field name is used with a delayed call, in this
    file and the run (None: a use that does not tell)."""
    out = set(DTYPES.get(CURFILE[0], {}).get(name, set())) | RUN_DTYPES.get(name, set())
    if name in RUN_DELAYED and name not in RUN_DTYPES:
        out.add(None)
    return out

def by_name(name):
    """Whether every field called name is one item (some use does not tell
    its structure, here or in the run)."""
    return None in dtypes(name) or name in UNTYPED.get(CURFILE[0], set()) or \
        name in RUN_UNTYPED

def delayed(k, t=None):
    """Whether item k (of structure t, a field's where known) is delayed."""
    if k is None:
        return False
    if k[0] == 'var':
        return k in DELAYED.get(CURFILE[0], set()) or k[1] in RUN_DELAYED
    ds = dtypes(k[1])
    if not ds:
        return False
    return by_name(k[1]) or t is None or t in ds

def bad(k):
    return k in BAD.get(CURFILE[0], set()) or k[1] in RUN_BAD

def wrapper_index(f):
    """Index of the work parameter of wrapper f, if f is one of the file's
    or the run's."""
    d = WRAPDEF.get(CURFILE[0], {}).get(f)
    if d is not None:
        return d[0]
    if f in RUN_WRAPPERS:
        return RUN_WRAPPERS[f]
    if f in RUN_CANDIDATES:
        return RUN_CANDIDATES[f]
    return PROTOS.get(CURFILE[0], {}).get(f)

def ok_wrapper(f):
    """A wrapper whose every call passes an item (and there is one): in
    the run (wqport convert shares that), else in this file."""
    if IN_RUN and not FACTS:
        return f in RUN_WRAPPERS
    calls = WRAPCALLS.get(CURFILE[0], {}).get(f, [])
    return f in WRAPDEF.get(CURFILE[0], {}) and bool(calls) and all(calls)

def declaring_header(f, name):
    """The header among f's includes that declares name, if stage 1's
    module (beside this stage's directory) can find it."""
    try:
        import sys
        sys.path.insert(0, os.path.join(wqport_dir(), "..", "stage1"))
        import wqport_tq
        dirs = os.environ.get("WQPORT_SEARCH_DIRS", "").split(os.pathsep)
        return wqport_tq.declaring_header(f, name, dirs)
    except Exception:
        return None

def wqport_dir():
    if os.environ.get("WQPORT_COCCI_DIR"):
        return os.environ["WQPORT_COCCI_DIR"]
    try:
        argv = open("/proc/self/cmdline", "rb").read().split(b"\0")
        for i, a in enumerate(argv[:-1]):
            if a in (b"--sp-file", b"--cocci-file"):
                return os.path.dirname(os.path.abspath(argv[i + 1].decode()))
    except (IOError, OSError):
        pass
    return "."

def ok_wrapper_param(f, p):
    d = WRAPDEF.get(CURFILE[0], {}).get(f)
    return ok_wrapper(f) and d is not None and d[1] == p

def wrapper_call(fn, X, p):
    """A call of wrapper fn that passes X where it delays its parameter."""
    CURFILE[0] = p.file
    k = item_key(X)
    WRAPCALLS.setdefault(p.file, {}).setdefault(fn, []).append(k is not None)
    if k is not None:
        WRAPKEYS.setdefault(p.file, []).append((fn, k, p))
        WRAPARGS.setdefault(p.file, set()).add((p.line, norm(X)))

def one_work_param(f):
    """A wrapper whose prototype can be told by its one work parameter: the
    run's (defined elsewhere), or this file's with no other."""
    return f in RUN_WRAPPERS or f in WRAPDEF.get(CURFILE[0], {})

def is_wrapper_name(f):
    return (f in RUN_WRAPPERS or f in WRAPDEF.get(CURFILE[0], {}) or
            (FACTS is not None and (f in PROTOS.get(CURFILE[0], {}) or f in RUN_CANDIDATES)))

def is_ditem(x, p):
    return delayed(item_key(x), use_type(x, p[0]))

def is_ok_item(x, p):
    k = item_key(x)
    return delayed(k, use_type(x, p[0])) and not bad(k)

def is_ok_field(f, t):
    """Field f of the structure t declares is a delayed item."""
    k = ('field', f)
    return delayed(k, tname(t)) and not bad(k)

def use(x, px, is_delayed):
    """A use of item x at px with a work call, for fact_use() once the
    structures of the fields it names are known."""
    USES.append((x, px, is_delayed))
    k = item_key(x)
    if k is not None and k[0] == 'field':
        WORKFIELDS.add(k[1])

def is_workfield(f):
    return f in WORKFIELDS

def fact_use(x, px, is_delayed):
    """A use of item x at px with a work call: what its structure tells."""
    k = item_key(x)
    if k is None or k[0] != 'field':
        return
    t = tname(use_type(x, px))
    if t is None:
        UNTYPED.setdefault(px.file, set()).add(k[1])
    if is_delayed:
        DTYPES.setdefault(px.file, {}).setdefault(k[1], set()).add(t)

def is_ok_var(v):
    k = ('var', v)
    return delayed(k) and not bad(k)

def is_dfield(f):
    return delayed(('field', f))

// a new file: forget the previous one (one process may see many files)
@script:python@
@@
CURFILE[0] = None

@script:python depends on report@
@@
REPORT = True

@script:python depends on org@
@@
ORG = True

// ---------------------------------------------------------------- facts

// the items this file declares (a delayed item declared in no file of the
// run cannot change type with its uses)
@decl@
identifier fld;
type T;
position p;
@@
(
T { ...
 struct work_struct fld@p;
 ... };
|
T { ...
 struct work_struct fld@p[...];
 ... };
|
T { ...
 struct delayed_work fld@p;
 ... };
|
T { ...
 struct delayed_work fld@p[...];
 ... };
|
 struct work_struct fld@p;
|
 struct work_struct fld@p[...];
|
 struct delayed_work fld@p;
|
 struct delayed_work fld@p[...];
)

@script:python@
fld << decl.fld;
p << decl.p;
@@
DECLARED.setdefault(p[0].file, set()).add(fld)

@ddecl@
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
n << ddecl.n;
p << ddecl.p;
@@
DECLARED.setdefault(p[0].file, set()).add(n)

// a field of a structure known by a typedef name only: its uses cannot
// tell it from another structure's field of the same name
@tdecl@
identifier fld;
type T;
position p;
@@
(
T { ...
 struct work_struct fld@p;
 ... };
|
T { ...
 struct work_struct fld@p[...];
 ... };
)

@script:python@
fld << tdecl.fld;
T << tdecl.T;
p << tdecl.p;
@@
if tname(T) is None:
    UNTYPED.setdefault(p[0].file, set()).add(fld)

// wrappers of delayed calls: a function with a struct work_struct *
// parameter (dcall below tells whether it hands it to a delayed call)
@wrap@
identifier fn, P;
parameter list[n] ps;
type T;
position pw;
@@
T fn@pw(ps, struct work_struct *P, ...) { ... }

@script:python@
fn << wrap.fn;
P << wrap.P;
n << wrap.n;
pw << wrap.pw;
@@
CANDIDATES.setdefault(pw[0].file, {}).setdefault(fn, (int(n), P))

// a prototype with such a parameter: a wrapper defined in another file
// (its calls here are facts for wqport convert's other files)
@wproto@
identifier fn;
parameter list[n] ps;
type T;
position pw;
@@
(
T fn@pw(ps, struct work_struct *, ...);
|
T fn@pw(ps, struct work_struct *P, ...);
)

@script:python@
fn << wproto.fn;
n << wproto.n;
pw << wproto.pw;
@@
PROTOS.setdefault(pw[0].file, {}).setdefault(fn, int(n))

@dcall@
expression X, wq, d, cpu;
position p, px;
@@
(
schedule_delayed_work@p(X@px, d)
|
queue_delayed_work@p(wq, X@px, d)
|
schedule_delayed_work_on@p(cpu, X@px, d)
|
queue_delayed_work_on@p(cpu, wq, X@px, d)
|
cancel_delayed_work@p(X@px)
|
cancel_rearming_delayed_work@p(X@px)
|
cancel_rearming_delayed_workqueue@p(wq, X@px)
)

@script:python@
X << dcall.X;
p << dcall.p;
px << dcall.px;
@@
CURFILE[0] = p[0].file
use(X, px[0], True)
k = item_key(X)
if k is None:
    c = CANDIDATES.get(p[0].file, {}).get(p[0].current_element)
    if c is not None and c[1] == norm(X):
        WRAPDEF.setdefault(p[0].file, {})[p[0].current_element] = c
    POINTERS.append((p[0], norm(X), p[0].current_element))
else:
    DELAYED.setdefault(p[0].file, set()).add(k)
    FIRST.setdefault(p[0].file, {}).setdefault(k, p[0])

// the other work calls on an item: does each tell its structure?
@pcall@
expression X, wq;
identifier i =~ "^(INIT|PREPARE)_WORK$";
position px;
@@
(
i(X@px, ...)
|
queue_work(wq, X@px)
|
schedule_work(X@px)
|
work_pending(X@px)
)

@script:python@
X << pcall.X;
px << pcall.px;
@@
CURFILE[0] = px[0].file
use(X, px[0], False)

// the structure of each base->field and base.field of a field used with a
// work call, where the C source tells it: a field item is told apart from
// another structure's field of the same name by it
@ity@
type T;
T *E;
identifier fld : script:python() { is_workfield(fld) };
position p;
@@
E@p->fld

@script:python@
T << ity.T;
E << ity.E;
fld << ity.fld;
p << ity.p;
@@
TYPED[(p[0].file, p[0].line, norm(E), fld)] = ' '.join(T.split())

@itys@
type T;
T S;
identifier fld : script:python() { is_workfield(fld) };
position p;
@@
S@p.fld

@script:python@
T << itys.T;
S << itys.S;
fld << itys.fld;
p << itys.p;
@@
TYPED[(p[0].file, p[0].line, norm(S), fld)] = ' '.join(T.split())

@script:python@
@@
for x, px, d in USES:
    fact_use(x, px, d)
del USES[:]
WORKFIELDS.clear()

// a call of a wrapper: a delayed call on what it passes (one rule for
// each place the work parameter can have)
@wcall0@
identifier fn : script:python() { wrapper_index(fn) == 0 };
expression X;
position p;
@@
fn@p(X, ...)

@script:python@
fn << wcall0.fn;
X << wcall0.X;
p << wcall0.p;
@@
wrapper_call(fn, X, p[0])

@wcall1@
identifier fn : script:python() { wrapper_index(fn) == 1 };
expression X, E0;
position p;
@@
fn@p(E0, X, ...)

@script:python@
fn << wcall1.fn;
X << wcall1.X;
p << wcall1.p;
@@
wrapper_call(fn, X, p[0])

@wcall2@
identifier fn : script:python() { wrapper_index(fn) == 2 };
expression X, E0, E1;
position p;
@@
fn@p(E0, E1, X, ...)

@script:python@
fn << wcall2.fn;
X << wcall2.X;
p << wcall2.p;
@@
wrapper_call(fn, X, p[0])

@wcall3@
identifier fn : script:python() { wrapper_index(fn) == 3 };
expression X, E0, E1, E2;
position p;
@@
fn@p(E0, E1, E2, X, ...)

@script:python@
fn << wcall3.fn;
X << wcall3.X;
p << wcall3.p;
@@
wrapper_call(fn, X, p[0])

// what the wrappers' calls make delayed; delayed calls through a pointer
// other than an ok wrapper's parameter are reported; a delayed item
// declared in no file of the run is reported and left alone
@script:python@
@@
f = CURFILE[0]
if f is not None:
    for fn, k, p in WRAPKEYS.get(f, []):
        if ok_wrapper(fn):
            DELAYED.setdefault(f, set()).add(k)
            if k[0] == 'field':
                DTYPES.setdefault(f, {}).setdefault(k[1], set()).add(None)
            FIRST.setdefault(f, {}).setdefault(k, p)
    for p, X, fn in POINTERS:
        if p.file == f and not (ok_wrapper(fn) and
                                WRAPDEF.get(f, {}).get(fn, (0, None))[1] == X):
            say(p, 'W101', 'delayed call on %s, a work item reached through a pointer: '
                'make the item it points to a struct delayed_work and this pointer a '
                'struct delayed_work * by hand' % X)
    if not FACTS:
        known_here = DECLARED.get(f, set()) | RUN_DECLARED
        for k, p in sorted(FIRST.get(f, {}).items(), key=lambda x: (x[1].line, x[0])):
            if k[1] in known_here or bad(k):
                continue
            BAD.setdefault(f, set()).add(k)
            hdr = declaring_header(f, k[1])
            say(p, 'W102', '%s is used with delayed calls, but its struct work_struct is declared '
                'outside %s (%s): it is not converted to struct delayed_work; convert that '
                'header in the same run%s, or make it struct delayed_work and convert its '
                'uses by hand'
                % (k[1], 'this run' if IN_RUN else 'this file',
                   'in ' + hdr if hdr else 'a header?',
                   '' if hdr and hdr.startswith('"') else ' (wqport convert -I for <...>)'))

// uses of a delayed item that this patch knows how to carry over
@known@
expression X;
expression wq, d, cpu;
identifier i =~ "^(INIT|PREPARE)(_DELAYED)?_WORK$";
position p;
@@
(
i(X@p, ...)
|
queue_work(wq, X@p)
|
schedule_work(X@p)
|
work_pending(X@p)
|
delayed_work_pending(X@p)
|
schedule_delayed_work(X@p, d)
|
queue_delayed_work(wq, X@p, d)
|
schedule_delayed_work_on(cpu, X@p, d)
|
queue_delayed_work_on(cpu, wq, X@p, d)
|
cancel_delayed_work(X@p)
|
cancel_delayed_work_sync(X@p)
|
cancel_rearming_delayed_work(X@p)
|
cancel_rearming_delayed_workqueue(wq, X@p)
)

@script:python@
X << known.X;
p << known.p;
@@
if is_ditem(X, p):
    KNOWN.setdefault(p[0].file, set()).add((p[0].line, p[0].column))

@anyuse@
expression X;
position p : script:python(X) { is_ditem(X, p) };
@@
X@p

@script:python@
X << anyuse.X;
p << anyuse.p;
@@
if (p[0].line, p[0].column) not in KNOWN.get(p[0].file, set()) and \
        (p[0].line, norm(X)) not in WRAPARGS.get(p[0].file, set()):
    k = item_key(X)
    BAD.setdefault(p[0].file, set()).add(k)
    try:
        with open(p[0].file, encoding="latin-1") as fh:
            text = fh.read().split("\n")[int(p[0].line) - 1]
    except (OSError, IndexError, ValueError):
        text = ""
    m = re.search(r"\b(tasklet_\w+)\s*\(", text)
    if m:
        # a name that is a tasklet in one configuration (#ifdef) and a
        # work item in another: no struct work_struct is handed on here
        say(p[0], 'W103', '%s is used with delayed calls but is given to %s() here (a '
            'tasklet of the same name, in another preprocessor branch?): its uses cannot '
            'be told apart by branch, so it is not converted to struct delayed_work; '
            'convert the work branch by hand' % (norm(X), m.group(1)))
    else:
        say(p[0], 'W103', '%s is used with delayed calls but also handed on here as a '
            'struct work_struct: it is not converted to struct delayed_work; '
            'convert it by hand (the struct work_struct inside is %s.work)'
            % (norm(X), norm(X)))

@member@
identifier fld : script:python() { is_dfield(fld) };
identifier m;
expression E;
position p, pe;
@@
(
E@pe->fld.m@p
|
E@pe.fld.m@p
)

@script:python@
fld << member.fld;
m << member.m;
E << member.E;
p << member.p;
pe << member.pe;
@@
# not when the source tells that E->fld is another structure field of
# the name (2.6.18 infiniband cm.c: timewait_info->work is a struct cm_work)
t = TYPED.get((pe[0].file, pe[0].line, norm(E), fld))
if delayed(('field', fld), tname(t)):
    BAD.setdefault(p[0].file, set()).add(('field', fld))
    say(p[0], 'W104', 'member %s of work item %s is used directly: %s is not converted '
        'to struct delayed_work; convert it by hand' % (m, fld, fld))

// the delayed items among the plain work calls, decided before any rule
// changes the file (a position of code after a change is not the
// line the facts recorded): the patch rules below rewrite these
@okx@
expression X, wq;
identifier i =~ "^(INIT|PREPARE)_WORK$";
position p;
@@
(
i(X@p, ...)
|
queue_work(wq, X@p)
|
schedule_work(X@p)
|
work_pending(X@p)
)

@script:python@
X << okx.X;
p << okx.p;
@@
if not is_ok_item(X, p):
    cocci.include_match(False)

// ... rewritten at once: a position cannot be inherited over a change
@depends on patch@
expression okx.X;
position okx.p;
expression list es;
expression wq;
@@
(
- INIT_WORK(X@p, es)
+ INIT_DELAYED_WORK(X, es)
|
- PREPARE_WORK(X@p, es)
+ PREPARE_DELAYED_WORK(X, es)
|
- queue_work(wq, X@p)
+ queue_delayed_work(wq, X, 0)
|
- schedule_work(X@p)
+ schedule_delayed_work(X, 0)
|
- work_pending(X@p)
+ delayed_work_pending(X)
)

// --------------------------------------------------------------- context

@depends on context@
expression X;
position p : script:python(X) { is_ok_item(X, p) };
expression wq;
@@
* queue_work(wq, X@p)

@depends on context@
expression X;
position p : script:python(X) { is_ok_item(X, p) };
@@
* schedule_work(X@p)

// ----------------------------------------------------------------- patch

@depends on patch@
type T;
identifier fld : script:python(T) { is_ok_field(fld, T) };
@@
T { ...
 struct
- work_struct
+ delayed_work
 fld;
 ... };

@depends on patch@
type T;
identifier fld : script:python(T) { is_ok_field(fld, T) };
expression N;
@@
T { ...
 struct
- work_struct
+ delayed_work
 fld[N];
 ... };

@depends on patch@
identifier v : script:python() { is_ok_var(v) };
expression N;
@@
(
 struct
- work_struct
+ delayed_work
 v;
|
 struct
- work_struct
+ delayed_work
 v[N];
)

@depends on patch@
declarer name DECLARE_WORK, DECLARE_DELAYED_WORK;
identifier v : script:python() { is_ok_var(v) };
expression list es;
@@
- DECLARE_WORK(v, es);
+ DECLARE_DELAYED_WORK(v, es);


// a wrapper's parameter, in its definition and its prototypes
@depends on patch@
identifier fn : script:python() { ok_wrapper(fn) };
identifier P : script:python(fn) { ok_wrapper_param(fn, P) };
type T;
@@
T fn(...,
- struct work_struct *P
+ struct delayed_work *P
 ,...) { ... }

@depends on patch@
identifier fn : script:python() { ok_wrapper(fn) and one_work_param(fn) };
identifier P;
type T;
@@
T fn(...,
- struct work_struct *P
+ struct delayed_work *P
 ,...);

@depends on patch@
identifier fn : script:python() { ok_wrapper(fn) and one_work_param(fn) };
type T;
@@
T fn(...,
- struct work_struct *
+ struct delayed_work *
 ,...);

@finalize:python@
@@
if FACTS:
    import json
    out = dict(delayed=[], bad=[], wrappers={}, wcalls={}, wkeys={}, declared=[])
    for f in set(DELAYED) | set(WRAPDEF) | set(WRAPCALLS) | set(DECLARED) | set(BAD) | \
            set(DTYPES) | set(UNTYPED):
        out["delayed"] += sorted(k[1] for k in DELAYED.get(f, set()))
        for n, ts in DTYPES.get(f, {}).items():
            out.setdefault("dtypes", {}).setdefault(n, []).extend(
                sorted(t or "?" for t in ts))
        out.setdefault("untyped", []).extend(sorted(UNTYPED.get(f, set())))
        out["bad"] += sorted(k[1] for k in BAD.get(f, set()) if k)
        out["wrappers"].update(dict((fn, d[0]) for fn, d in WRAPDEF.get(f, {}).items()))
        for fn, calls in WRAPCALLS.get(f, {}).items():
            out["wcalls"].setdefault(fn, []).extend(calls)
        for fn, k, p in WRAPKEYS.get(f, []):
            out["wkeys"].setdefault(fn, []).append(k[1])
        out["declared"] += sorted(DECLARED.get(f, set()))
    with open(FACTS, "w") as fh:
        json.dump(out, fh)

// A handler written with its address (2.6.18's connector/cn_queue.c:
// INIT_WORK(&cbq->work, &cn_queue_wrapper, &cbq->data)) is the same
// function: 02-work-handler knows handlers by their name, as 2.6.20 wrote
// them (here, in a spatch run before its own: added code has no position
// for its rules to bind).
@depends on patch@
identifier i =~ "^(INIT|PREPARE)(_DELAYED)?_WORK$";
identifier f;
expression W, D;
@@
 i(W,
- &f
+ f
 , D)

@depends on patch@
declarer name DECLARE_WORK, DECLARE_DELAYED_WORK;
identifier n, f;
expression D;
@@
(
 DECLARE_WORK(n,
- &f
+ f
 , D);
|
 DECLARE_DELAYED_WORK(n,
- &f
+ f
 , D);
)
