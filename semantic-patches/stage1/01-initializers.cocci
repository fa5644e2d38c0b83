// SPDX-License-Identifier: GPL-2.0
/// Static initializers of struct tq_struct become DECLARE_WORK().
///
/// 2.5.41 replaced task queues by workqueues; a task initialised at compile
/// time, in any of the three styles 2.4 drivers use (GNU old-style
/// `{ routine: f, data: d }`, C99 `{ .routine = f, .data = d }`, positional
/// `{ {NULL, NULL}, 0, f, d }`), becomes DECLARE_WORK(name, f, d) with its
/// storage class kept (as drivers/macintosh/adb.c did by hand in 2.5), also
/// when it is declared through the driver's own name for the type (a
/// #define or typedef of struct tq_struct, wqport_tq.type_aliases).
/// spatch parses GNU designators but SmPL `.routine = f` does not match them,
/// so the initializer is matched whole and read by wqport_tq.split_initializer.
/// A task initialised inside a file-scope structure's static initializer
/// becomes INIT_WORK(&outer.field, f, d) at the start of the module_init()
/// function; without exactly one module_init() it is reported.  A local
/// task initialised only to be copied into another (`X = t;`) becomes
/// INIT_WORK(&X, f, d) at the copy.  Arrays, and initializers in macros,
/// are reported.
///
// Confidence: High
// Copyright: (C) wqport contributors.  GPLv2.
// URL: semantic-patches/stage1 in wqport
// Options: --no-includes --include-headers
// Requires: tq_struct tqueue task_queue queue_task schedule_task flush_scheduled_tasks run_task_queue INIT_TQUEUE PREPARE_TQUEUE DECLARE_TASK_QUEUE TQ_ACTIVE tq_timer tq_immediate tq_disk mark_bh init_bh remove_bh routine

virtual patch
virtual context
virtual org
virtual report
// Set by semantic-patches/apply-stage from stage1/hooks.py (wqport_tq.py):
// wqport_blocked when the file has a use that needs a human (see
// 00-needs-human), wqport_checked when that analysis found none.
virtual wqport_blocked
virtual wqport_checked

// Without apply-stage (make coccicheck), the part of that analysis SmPL can
// express keeps the file as it is: run 00-needs-human in report mode first
// for the rest (nested initializers, hidden macros, bottom-half locks, a
// task handed to other code).  Python only to read initializers.
@wqport_unsafe depends on patch && !wqport_checked exists@
identifier Q != {tq_timer, tq_immediate};
identifier R != {tq_timer, tq_disk};
struct tq_struct S;
struct tq_struct *P;
@@
(
 queue_task(..., &Q)
|
 run_task_queue(&R)
|
 disable_bh(...)
|
 enable_bh(...)
|
 S.sync != 0
|
 P->sync != 0
)

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


// A task initialised in a local only to be copied into the real one
// (2.4.27 baycom_epp.c: `const struct tq_struct run_bh = {...}; ...
// bc->run_bh = run_bh;`): a work item must not be copied, so the copy
// becomes INIT_WORK(&bc->run_bh, f, d) and the local goes, as 2.6 did.
@tc depends on patch && !wqport_blocked && !wqport_unsafe@
identifier t;
expression X;
initializer list il;
position p;
@@
struct tq_struct t@p = { il };
... when != t
X = t;
... when != t

@script:python tcs@
p << tc.p;
f;
d;
@@
res = wqport_tq.initializer_at(p[0].file, int(p[0].line), int(p[0].column))
if res is None:
    cocci.include_match(False)
else:
    coccinelle.f = cocci.make_ident(res[0])
    coccinelle.d = cocci.make_ident(res[1])

@depends on patch@
identifier tc.t, tcs.f, tcs.d;
expression tc.X;
initializer list tc.il;
position tc.p;
@@
(
- const struct tq_struct t@p = { il };
|
- struct tq_struct t@p = { il };
)
  ...
- X = t;
+ INIT_WORK(&X, f, d);

// (the type as written, or the driver's own name for it: hostap's
// "#define HOSTAP_QUEUE struct tq_struct", or a typedef, which 04-types
// retypes: wqport_tq.task_decl_at())
@r depends on patch && !wqport_blocked && !wqport_unsafe@
type T;
identifier x;
initializer list il;
position p : script:python() { wqport_tq.task_decl_at(p[0].file, int(p[0].line), int(p[0].column)) };
@@
T x@p = { il };

// The routine and data as the driver spells them (identifiers, so that
// spatch prints them verbatim rather than re-pretty-printing casts).
@script:python s@
p << r.p;
f;
d;
@@
res = wqport_tq.initializer_at(p[0].file, int(p[0].line), int(p[0].column))
if res is None:
    cocci.include_match(False)
else:
    coccinelle.f = cocci.make_ident(res[0])
    coccinelle.d = cocci.make_ident(res[1])

@depends on patch@
declarer name DECLARE_WORK;
type r.T;
identifier r.x;
position r.p;
initializer list r.il;
identifier s.f, s.d;
@@
- T x@p = { il };
+ DECLARE_WORK(x, f, d);

// A task initialised inside a file-scope structure's static initializer, in
// any of the three styles (ppa.c's hosts, the sample's tqi_dev): its element
// is removed (designated) or its braces emptied (positional, so the elements
// after it keep their fields), and INIT_WORK(&outer.field, f, d) goes to the
// start of the module_init() function, after its declarations.
// wqport_tq.nested finds them and checks module_init(); a file without one
// (or with several) is reported by 00 and blocked.
@n depends on patch && !wqport_blocked && !wqport_unsafe@
type T;
identifier x;
initializer i;
position p : script:python() { wqport_tq.nested_at(p[0].file, p[0].line, p[0].column, None) };
@@
T x = { ..., i@p, ... };

// One binding for all of them (two additions before one statement would
// clash): the INIT_WORK()s, in the order of the initializers, as one
// verbatim text.
@script:python w@
p << n.p;
iw;
@@
res = wqport_tq.nested_init_calls(p[0].file, p[0].line, p[0].column)
if res is None:
    cocci.include_match(False)
else:
    coccinelle.iw = cocci.make_ident(res)

// Before the first statement of the module_init() function (after its
// declarations), found by wqport_tq.first_statement.
@ins depends on patch@
statement S;
position ps : script:python() { wqport_tq.is_first_statement(ps[0].file, ps[0].line, ps[0].column) };
identifier w.iw;
@@
+ iw;
  S@ps

// Only once the INIT_WORK()s are in.
@depends on patch && ins@
type T;
identifier x;
initializer i;
position p : script:python() { wqport_tq.nested_at(p[0].file, p[0].line, p[0].column, "designated") };
@@
T x = { ...,
- i@p,
  ... };

@depends on patch && ins@
type T;
identifier x;
initializer list il;
position p : script:python() { wqport_tq.nested_at(p[0].file, p[0].line, p[0].column, "positional") };
@@
T x = { ..., {@p
- il
  }, ... };

@depends on context@
identifier x;
initializer list il;
@@
* struct tq_struct x = { il };

@c depends on org || report@
identifier x;
initializer list il;
position p;
@@
struct tq_struct x@p = { il };

@script:python depends on org@
x << c.x;
p << c.p;
@@
cocci.print_main("stage1: struct tq_struct %s initializer -> DECLARE_WORK" % x, p)

@script:python depends on report@
x << c.x;
p << c.p;
@@
coccilib.report.print_report(p[0], "stage1: struct tq_struct %s initializer -> DECLARE_WORK" % x)
