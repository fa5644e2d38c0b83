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

# The decisions, and the tables the rules below fill: wqport_delayed.py
# (tests/decisions tests it).
WD = wqport_module("wqport_delayed")
WD.configure(os.environ)

// a new file: forget the previous one (one process may see many files)
@script:python@
@@
WD.new_file(os.environ)

@script:python depends on report@
@@
WD.set_mode('report')

@script:python depends on org@
@@
WD.set_mode('org')

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
WD.record_declared(fld, p[0])

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
WD.record_declared(n, p[0])

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
WD.record_typedef_field(fld, T, p[0])

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
WD.record_candidate(fn, n, P, pw[0])

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
WD.record_prototype(fn, n, pw[0])

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
WD.record_delayed_call(X, p[0], px[0])

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
WD.record_work_call(X, px[0])

// the structure of each base->field and base.field of a field used with a
// work call, where the C source tells it: a field item is told apart from
// another structure's field of the same name by it
@ity@
type T;
T *E;
identifier fld : script:python() { WD.is_workfield(fld) };
position p;
@@
E@p->fld

@script:python@
T << ity.T;
E << ity.E;
fld << ity.fld;
p << ity.p;
@@
WD.record_type(T, E, fld, p[0])

@itys@
type T;
T S;
identifier fld : script:python() { WD.is_workfield(fld) };
position p;
@@
S@p.fld

@script:python@
T << itys.T;
S << itys.S;
fld << itys.fld;
p << itys.p;
@@
WD.record_type(T, S, fld, p[0])

@script:python@
@@
WD.gather_types()

// a call of a wrapper: a delayed call on what it passes (one rule for
// each place the work parameter can have)
@wcall0@
identifier fn : script:python() { WD.wrapper_index(fn) == 0 };
expression X;
position p;
@@
fn@p(X, ...)

@script:python@
fn << wcall0.fn;
X << wcall0.X;
p << wcall0.p;
@@
WD.wrapper_call(fn, X, p[0])

@wcall1@
identifier fn : script:python() { WD.wrapper_index(fn) == 1 };
expression X, E0;
position p;
@@
fn@p(E0, X, ...)

@script:python@
fn << wcall1.fn;
X << wcall1.X;
p << wcall1.p;
@@
WD.wrapper_call(fn, X, p[0])

@wcall2@
identifier fn : script:python() { WD.wrapper_index(fn) == 2 };
expression X, E0, E1;
position p;
@@
fn@p(E0, E1, X, ...)

@script:python@
fn << wcall2.fn;
X << wcall2.X;
p << wcall2.p;
@@
WD.wrapper_call(fn, X, p[0])

@wcall3@
identifier fn : script:python() { WD.wrapper_index(fn) == 3 };
expression X, E0, E1, E2;
position p;
@@
fn@p(E0, E1, E2, X, ...)

@script:python@
fn << wcall3.fn;
X << wcall3.X;
p << wcall3.p;
@@
WD.wrapper_call(fn, X, p[0])

// what the wrappers' calls make delayed; delayed calls through a pointer
// other than an ok wrapper's parameter are reported; a delayed item
// declared in no file of the run is reported and left alone
@script:python@
@@
WD.settle()

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
WD.record_known(X, p[0])

@anyuse@
expression X;
position p : script:python(X) { WD.is_ditem(X, p[0]) };
@@
X@p

@script:python@
X << anyuse.X;
p << anyuse.p;
@@
WD.record_any_use(X, p[0])

@member@
identifier fld : script:python() { WD.is_dfield(fld) };
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
WD.record_member(fld, m, E, p[0], pe[0])

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
if not WD.is_ok_item(X, p[0]):
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
position p : script:python(X) { WD.is_ok_item(X, p[0]) };
expression wq;
@@
* queue_work(wq, X@p)

@depends on context@
expression X;
position p : script:python(X) { WD.is_ok_item(X, p[0]) };
@@
* schedule_work(X@p)

// ----------------------------------------------------------------- patch

@depends on patch@
type T;
identifier fld : script:python(T) { WD.is_ok_field(fld, T) };
@@
T { ...
 struct
- work_struct
+ delayed_work
 fld;
 ... };

@depends on patch@
type T;
identifier fld : script:python(T) { WD.is_ok_field(fld, T) };
expression N;
@@
T { ...
 struct
- work_struct
+ delayed_work
 fld[N];
 ... };

@depends on patch@
identifier v : script:python() { WD.is_ok_var(v) };
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
identifier v : script:python() { WD.is_ok_var(v) };
expression list es;
@@
- DECLARE_WORK(v, es);
+ DECLARE_DELAYED_WORK(v, es);


// a wrapper's parameter, in its definition and its prototypes
@depends on patch@
identifier fn : script:python() { WD.ok_wrapper(fn) };
identifier P : script:python(fn) { WD.ok_wrapper_param(fn, P) };
type T;
@@
T fn(...,
- struct work_struct *P
+ struct delayed_work *P
 ,...) { ... }

@depends on patch@
identifier fn : script:python() { WD.ok_wrapper(fn) and WD.one_work_param(fn) };
identifier P;
type T;
@@
T fn(...,
- struct work_struct *P
+ struct delayed_work *P
 ,...);

@depends on patch@
identifier fn : script:python() { WD.ok_wrapper(fn) and WD.one_work_param(fn) };
type T;
@@
T fn(...,
- struct work_struct *
+ struct delayed_work *
 ,...);

@finalize:python@
@@
WD.write_facts()

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
