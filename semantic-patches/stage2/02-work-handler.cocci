// SPDX-License-Identifier: GPL-2.0
/// Work handlers: the 2.6.20 work_struct conversion.
///
/// Before 2.6.20 a work item carried a data pointer that its handler got as
/// `void f(void *data)`; INIT_WORK/DECLARE_WORK/PREPARE_WORK took it as third
/// argument.  Since 2.6.20 (David Howells, "WorkStruct: Pass the work_struct
/// pointer instead of context data") a handler is `void f(struct work_struct
/// *work)` and finds its data through the item: container_of(work, T, field),
/// with to_delayed_work(work) first for a struct delayed_work.
///
/// This semantic patch converts a handler when every work item that uses it
/// tells the same story:
///  - the data was the structure that contains the item (INIT_WORK(&p->w, f, p),
///    INIT_WORK(&s.w, f, &s)): the old local `T *x = data;` (or the parameter)
///    becomes container_of(work, T, w); the container may be an array
///    element, INIT_WORK(&d->el[i].w, f, &d->el[i]);
///  - the data was the address of a global (&g): the handler uses g directly;
///  - the data was NULL, or the handler never reads it: only the signature
///    changes;
///  - the handler takes no argument at all and was cast to void (*)(void *)
///    (2.4's atari_NCR5380.c: `routine: (void (*)(void *))NCR5380_main`):
///    it gets the work parameter and ignores it, and its direct calls f()
///    pass NULL, as the kernel itself converted NCR5380_main().
///  - the data was something else (a back-pointer, a member) and the item
///    is a field of a struct (or typedef of one) defined in this file (or,
///    under wqport convert, in a header of the run: see "a header, in its
///    own pass" below), set
///    up by INIT_WORK(&E->w, f, D); statements: the struct gets a field
///    `void *w_data;` after the item, each such INIT_WORK/PREPARE_WORK sets
///    it first (E->w_data = D;, where and when 2.6 stored D in the item),
///    and the handler reads it back: PT data = container_of(work, T,
///    w)->w_data; (as the 2.6.20 humans added priv->port to keyspan_pda).
///    A handler also called directly or used otherwise stays as it is, and
///    a new work function f_work() after it calls it with the data.  A
///    handler that never reads its data just loses it.
/// Under wqport convert, a handler registered in another .c of the run is
/// decided here, where it is defined, from its registrations there too
/// (they pass first and hand them over: see FOREIGN below), and those
/// files then drop the data as this decision says.
/// The data argument, and any cast on the function (one, or two as in
/// 2.6.9's tlan.c: `(void *)(void *)f`), then goes from the INIT_WORK/
/// DECLARE_WORK/PREPARE_WORK calls; prototypes follow; direct calls f(p)
/// become f(&p->w) (f(&w.work) for delayed work).
///
/// Everything else is left alone and reported with what the maintainer must
/// add: data that is not the container where the rule above cannot add the
/// field (a struct defined in a header outside the run, an item nested in
/// an inner struct or union, an item initialised inside an expression), work
/// items that are array elements with separate data, one handler shared by
/// different items, handlers defined outside the run or used other than as
/// a work handler, direct calls that pass something else, a handler whose
/// body uses both `work` and `_work` (otherwise the new parameter is
/// `_work` when the body says `work`).
///
/// Apply after 01-delayed-work.cocci (it names delayed items
/// INIT_DELAYED_WORK/DECLARE_DELAYED_WORK, which this patch recognises); in
/// report mode the input is the 2.6.0-2.6.19 source.
//
// Confidence: High for the converted forms; the reported ones need a human.
// Copyright: wqport project.  License: GPL-2.0-only.
// Options: --no-includes --include-headers
// Keywords: INIT_WORK, DECLARE_WORK, PREPARE_WORK, work_struct, container_of
// Combine: no (it must see the items and calls 01 rewrites as C parsed anew)

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

# The decisions, and the tables the rules below fill: wqport_handler.py
# (tests/decisions tests it).
WH = wqport_module("wqport_handler")
WH.configure(os.environ)

// a new file: forget the previous one (one process may see many files)
@script:python@
@@
WH.new_file(os.environ)

@script:python depends on report@
@@
WH.set_mode('report')

@script:python depends on org@
@@
WH.set_mode('org')

@script:python depends on patch@
@@
WH.set_mode('patch')

// ---------------------------------------------------------------- facts

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
T << gv.T;
p << gv.p;
@@
WH.record_global(g, T, p[0])

@ini@
identifier i =~ "^(INIT|PREPARE)(_DELAYED)?_WORK$";
identifier f;
expression W, D;
position p, pf;
type CT, CT2;
@@
(
i@p(W, f@pf, D)
|
i@p(W, &f@pf, D)
|
i@p(W, (CT)f@pf, D)
|
i@p(W, (CT)(CT2)f@pf, D)
)

@script:python@
i << ini.i;
W << ini.W;
D << ini.D;
f << ini.f;
p << ini.p;
pf << ini.pf;
@@
WH.record_use(i, W, D, f, p[0], pf[0])     # (f NULL: see the rule on NULL below)

// the uses that are statements of their own: a back-pointer's store can
// go before them (backptr())
@ist@
identifier ini.i;
position ini.p;
@@
i@p(...);

@script:python@
p << ini.p;
@@
WH.record_statement(p[0])

@dec@
declarer name DECLARE_WORK;
identifier n, f;
expression D;
position pf;
type CT, CT2;
@@
(
DECLARE_WORK(n, f@pf, D);
|
DECLARE_WORK(n, &f@pf, D);
|
DECLARE_WORK(n, (CT)f@pf, D);
|
DECLARE_WORK(n, (CT)(CT2)f@pf, D);
)

@script:python@
n << dec.n;
D << dec.D;
f << dec.f;
pf << dec.pf;
@@
WH.record_declare('DECLARE_WORK', n, D, f, pf[0])

@ddec@
declarer name DECLARE_DELAYED_WORK;
identifier n, f;
expression D;
position pf;
type CT, CT2;
@@
(
DECLARE_DELAYED_WORK(n, f@pf, D);
|
DECLARE_DELAYED_WORK(n, &f@pf, D);
|
DECLARE_DELAYED_WORK(n, (CT)f@pf, D);
|
DECLARE_DELAYED_WORK(n, (CT)(CT2)f@pf, D);
)

@script:python@
n << ddec.n;
D << ddec.D;
f << ddec.f;
pf << ddec.pf;
@@
WH.record_declare('DECLARE_DELAYED_WORK', n, D, f, pf[0])

// the type of the container, where the C source tells it
@et@
identifier ini.i;
position ini.p;
type T;
T *E;
T S;
identifier fld;
@@
(
i@p(&E->fld, ...)
|
i@p(&S.fld, ...)
)

@script:python@
T << et.T;
p << ini.p;
@@
WH.record_container_type(p[0], T)

// ... or of the structure whose member points to it, when the container's
// own type is in a header spatch does not read: &cdev->private->kick_work
@et2@
identifier ini.i;
position ini.p;
type T;
T *E;
T S;
identifier g, fld;
@@
(
i@p(&E->g->fld, ...)
|
i@p(&S.g->fld, ...)
)

@script:python@
T << et2.T;
g << et2.g;
p << ini.p;
@@
WH.record_member_container(p[0], T, g)

// Only the handlers that ini/dec/ddec saw: the rules below inherit one
// environment per function matched here, and each of them visits every
// occurrence of its names in the file (synclink.c of 2.4.27: 80,000
// Python calls and a timeout when this matched every void f(T x)).
@hdef@
identifier f : script:python() { WH.is_handler_name(f) };
identifier data;
type PT;
position p;
@@
void f@p(PT data) { ... }

@script:python@
f << hdef.f;
data << hdef.data;
PT << hdef.PT;
p << hdef.p;
@@
WH.record_def(f, data, PT, p[0])

@hloc@
identifier hdef.f, hdef.data, x;
type hdef.PT, T;
@@
void f(PT data) {
... when != data
(
T *x = data;
|
T *x = (T *)data;
)
...
}

@script:python@
f << hdef.f;
T << hloc.T;
p << hdef.p;
@@
WH.record_local_type(f, T, p[0])

// (a plain match plus current_element: <+... data ...+> over a whole body
// can take minutes on macro-heavy handlers)
@hread@
identifier hdef.data;
position q;
@@
data@q

@script:python@
f << hdef.f;
p << hdef.p;
q << hread.q;
@@
WH.record_read(f, p[0], q[0])

// the new parameter is called `work`: a handler that already says `work`
// (a local, a global item named work) would see it shadowed
@hwork@
position q;
@@
work@q

@script:python@
f << hdef.f;
q << hwork.q;
@@
WH.record_name(f, 'work', q[0])

@hwork_@
position q;
@@
_work@q

@script:python@
f << hdef.f;
q << hwork_.q;
@@
WH.record_name(f, '_work', q[0])

@hproto@
identifier hdef.f;
parameter list[1] ps;
position p;
@@
void f@p(ps);

@script:python@
f << hdef.f;
p << hproto.p;
@@
WH.record_proto(f, p[0])

@hcall@
identifier hdef.f;
expression A;
position p;
@@
f@p(A)

@script:python@
f << hdef.f;
A << hcall.A;
p << hcall.p;
@@
WH.call(f, p[0], A)

// an item's func compared with the handler (2.6.18 fbcon.c: `if
// (!info->queue.func || info->queue.func == fb_flashcursor)`): the same
// comparison holds once both are work functions
@hcmp@
identifier hdef.f;
expression E, E2;
position p;
@@
(
 E.func == f@p
|
 E.func != f@p
|
 f@p == E.func
|
 f@p != E.func
|
 E2->func == f@p
|
 E2->func != f@p
|
 f@p == E2->func
|
 f@p != E2->func
)

@script:python@
p << hcmp.p;
@@
WH.known(p[0])

@href@
identifier hdef.f;
position p;
@@
f@p

@script:python@
f << hdef.f;
p << href.p;
@@
WH.ref(f, p[0])

// a handler that takes no argument, cast where it is used
@hdef0@
identifier f : script:python() { WH.is_handler_name(f) };
position p;
@@
(
void f@p(void) { ... }
|
void f@p() { ... }
)

@script:python@
f << hdef0.f;
p << hdef0.p;
@@
WH.record_def_noarg(f, p[0])

@hproto0@
identifier hdef0.f;
position p;
@@
(
void f@p(void);
|
void f@p();
)

@script:python@
p << hproto0.p;
@@
WH.known(p[0])

@hcall0@
identifier hdef0.f;
position p;
@@
f@p()

@script:python@
f << hdef0.f;
p << hcall0.p;
@@
WH.call(f, p[0], '')

@href0@
identifier hdef0.f;
position p;
@@
f@p

@script:python@
f << hdef0.f;
p << href0.p;
@@
WH.ref(f, p[0])

// ------------------------------------------------------------- decisions
// One matching rule per kind of handler, gated by decide(); each is followed
// by the script that makes its metavariables.  (A script that only filters
// would drop the environments the other kinds need.)

@hc@
identifier f : script:python() { WH.is_read_container(f) };
identifier data;
type PT;
@@
void f(PT data) { ... }

@script:python okc@
f << hc.f;
T;
fld;
WE;
@@
k = WH.decision(f)
coccinelle.T = cocci.make_type(k['T'])
coccinelle.fld = cocci.make_ident(k['fld'])
coccinelle.WE = cocci.make_expr('to_delayed_work(work)' if k['delayed']
                                else 'work')

@hk@
identifier f : script:python() { WH.is_const(f) };
identifier data;
type PT;
@@
void f(PT data) { ... }

@script:python okk@
f << hk.f;
V;
@@
coccinelle.V = cocci.make_expr(WH.decision(f)['value'])

@hb@
identifier f : script:python() { WH.is_backptr(f) };
identifier data;
type PT;
@@
void f(PT data) { ... }

@script:python okb@
f << hb.f;
fld;
NF;
@@
k = WH.decision(f)
coccinelle.fld = cocci.make_ident(k['fld'])
coccinelle.NF = cocci.make_ident(k['nf'])

@hg@
identifier f : script:python() { WH.is_global(f) };
identifier data;
type PT;
@@
void f(PT data) { ... }

@script:python okg@
f << hg.f;
g;
GT;
@@
k = WH.decision(f)
coccinelle.g = cocci.make_ident(k['g'])
coccinelle.GT = cocci.make_type(k['GT'])

// --------------------------------------------------------------- context

@depends on context@
identifier i =~ "^(INIT|PREPARE)(_DELAYED)?_WORK$";
expression W, F, D;
@@
* i(W, F, D)

@depends on context@
declarer name DECLARE_WORK;
identifier n;
expression F, D;
@@
* DECLARE_WORK(n, F, D);

// ----------------------------------------------------------------- patch

// the handler's local `T *x = data;` becomes the container_of()
@c1 depends on patch@
identifier hc.f, hc.data, x;
identifier okc.fld;
type okc.T, T3, hc.PT;
expression okc.WE;
@@
 void f(
- PT data
+ struct work_struct *work
 ) {
 ... when != data
(
- T3 *x = data;
+ T3 *x = container_of(WE, T, fld);
|
- T3 *x = (T3 *)data;
+ T3 *x = container_of(WE, T, fld);
)
 <...
- data
+ x
 ...>
 }

// no such local: the parameter's name becomes the local
@c2 depends on patch@
identifier hc.f, hc.data;
identifier okc.fld;
type okc.T, hc.PT;
expression okc.WE;
@@
 void f(
- PT data
+ struct work_struct *work
 ) {
+ T *data = container_of(WE, T, fld);
 ...
 }

@g1 depends on patch@
identifier hg.f, hg.data, fx;
identifier okg.g;
type okg.GT, hg.PT, T2;
@@
 void f(
- PT data
+ struct work_struct *work
 ) {
 <...
(
- *(GT *)data
+ g
|
- ((GT *)data)->fx
+ g.fx
|
- data->fx
+ g.fx
|
- *data
+ g
|
- (T2 *)data
+ (T2 *)&g
|
- data
+ &g
)
 ...>
 }

// the same constant for every item: the handler holds it
@k1 depends on patch@
identifier hk.f, hk.data;
type hk.PT;
expression okk.V;
@@
 void f(
- PT data
+ struct work_struct *work
 ) {
+ PT data = V;
 ...
 }

// data kept beside the item: the struct gets the field, the handler reads it
@script:python okbs@
f << hb.f;
S;
@@
# (not include_match(False): that would drop hb's environment for b0/b1;
# a name no struct has matches nothing)
k = WH.decision(f)
coccinelle.S = cocci.make_ident(k['S'] or '__wqport_untagged')

@depends on patch@
identifier okbs.S, okb.fld, okb.NF;
type WT;
@@
 struct S {
 ...
 WT fld;
+ void *NF;
 ...
 };

// (defined with a variable: `static struct S {...} s0;`)
@depends on patch@
identifier okbs.S, okb.fld, okb.NF, v;
type WT;
@@
 struct S {
 ...
 WT fld;
+ void *NF;
 ...
 } v;

@script:python okbt@
f << hb.f;
TT;
@@
k = WH.decision(f)
coccinelle.TT = cocci.make_type(k['TT'] or '__wqport_tagged')

@depends on patch@
type okbt.TT, WT;
identifier okb.fld, okb.NF;
@@
 typedef struct {
 ...
 WT fld;
+ void *NF;
 ...
 } TT;

// the handler itself becomes the work function ...
@hbi@
identifier f : script:python() { WH.is_backptr_in_place(f) };
identifier data;
type PT;
@@
void f(PT data) { ... }

@script:python okbi@
f << hbi.f;
V;
@@
coccinelle.V = cocci.make_expr(WH.backptr_value(WH.decision(f)))

@b0 depends on patch@
identifier hbi.f, hbi.data, x;
type hbi.PT, T3;
expression okbi.V;
@@
 void f(
- PT data
+ struct work_struct *work
 ) {
 ... when != data
(
- T3 *x = data;
+ T3 *x = V;
|
- T3 *x = (T3 *)data;
+ T3 *x = V;
)
 <...
- data
+ x
 ...>
 }

@b1 depends on patch@
identifier hbi.f, hbi.data;
type hbi.PT;
expression okbi.V;
@@
 void f(
- PT data
+ struct work_struct *work
 ) {
+ PT data = V;
 ...
 }

// ... or, when it is also called directly or used otherwise, a new work
// function after it calls it with the data, and it stays as it is
@hbw@
identifier f : script:python() { WH.is_backptr_wrap(f) };
identifier data;
type PT;
@@
void f(PT data) { ... }

@script:python okbw@
f << hbw.f;
fw;
V;
@@
k = WH.decision(f)
coccinelle.fw = cocci.make_ident(k['wrap'])
coccinelle.V = cocci.make_expr(WH.backptr_value(k))

@depends on patch@
identifier hbw.f, hbw.data, okbw.fw;
type hbw.PT;
expression okbw.V;
@@
 void f(PT data) { ... }
+
+static void fw(struct work_struct *work)
+{
+	PT data = V;
+
+	f(data);
+}

// ... with a prototype beside f's when an item is set up before f
@script:python okbwp@
f << hbw.f;
fw;
@@
k = WH.decision(f)
if k.get('proto'):
    coccinelle.fw = cocci.make_ident(k['wrap'])
else:
    cocci.include_match(False)

// (before it: spatch adds nothing after a prototype that is only context)
@depends on patch@
identifier hbw.f, okbwp.fw;
parameter list[1] ps;
@@
+static void fw(struct work_struct *work);
 void f(ps);

@bu depends on patch@
identifier F : script:python() { WH.is_backptr(F) };
identifier i =~ "^(INIT|PREPARE)(_DELAYED)?_WORK$";
expression W, D;
position p;
type CT, CT2;
@@
(
i@p(W, F, D);
|
i@p(W, (CT)F, D);
|
i@p(W, (CT)(CT2)F, D);
)

@script:python bus@
F << bu.F;
W << bu.W;
A;
G;
@@
a, g = WH.backptr_store(F, W)
coccinelle.A = cocci.make_expr(a)
coccinelle.G = cocci.make_ident(g)

@depends on patch@
identifier bu.F, bu.i, bus.G;
expression bu.W, bu.D, bus.A;
position bu.p;
type CT, CT2;
@@
(
+ A = D;
 i@p(W,
- F, D
+ G
 );
|
+ A = D;
 i@p(W,
- (CT)F, D
+ G
 );
|
+ A = D;
 i@p(W,
- (CT)(CT2)F, D
+ G
 );
)

@n1 depends on patch@
identifier f : script:python() { WH.is_null(f) or WH.is_unread(f) };
identifier data;
type PT;
@@
 void f(
- PT data
+ struct work_struct *work
 ) { ... }

// no argument: the work parameter is added, and ignored
@z1 depends on patch@
identifier f : script:python() { WH.is_noarg(f) };
@@
(
 void f(
- void
+ struct work_struct *work
 ) { ... }
|
 void f(
+ struct work_struct *work
 ) { ... }
)

@depends on patch@
identifier f : script:python() { WH.is_noarg(f) };
@@
(
 void f(
- void
+ struct work_struct *work
 );
|
 void f(
+ struct work_struct *work
 );
)

@depends on patch@
identifier f : script:python() { WH.is_noarg(f) };
@@
- f()
+ f(NULL)

// a body that already says `work`: the new parameter is _work, and so is
// what the rules above read it as
@depends on patch@
identifier f : script:python() { WH.is_renamed(f) };
@@
 void f(struct work_struct *
- work
+ _work
 ) {
 <...
(
 container_of(
- work
+ _work
 , ...)
|
 to_delayed_work(
- work
+ _work
 )
)
 ...>
 }

// an item set up with no handler yet (a later PREPARE_WORK gives it one
// with its data, 2.6.18 tty_io.c and libata-core.c): its data goes, as
// 2.6.20 wrote INIT_WORK(&tty->SAK_work, NULL)
@depends on patch@
identifier i =~ "^INIT(_DELAYED)?_WORK$";
expression W, D;
@@
 i(W, NULL
- , D
 )

// the data argument and the casts on the function go
@depends on patch@
identifier F : script:python() { WH.is_ok(F) and not WH.is_backptr(F) };
identifier i =~ "^(INIT|PREPARE)(_DELAYED)?_WORK$";
expression W, D;
type CT, CT2;
@@
(
 i(W, F
- , D
 )
|
 i(W,
- (CT)
  F
- , D
 )
|
 i(W,
- (CT)(CT2)
  F
- , D
 )
)

@depends on patch@
declarer name DECLARE_WORK;
identifier F : script:python() { WH.is_ok(F) };
identifier n;
expression D;
type CT, CT2;
@@
(
 DECLARE_WORK(n, F
- , D
 );
|
 DECLARE_WORK(n,
- (CT)
  F
- , D
 );
|
 DECLARE_WORK(n,
- (CT)(CT2)
  F
- , D
 );
)

@depends on patch@
declarer name DECLARE_DELAYED_WORK;
identifier F : script:python() { WH.is_ok(F) };
identifier n;
expression D;
type CT, CT2;
@@
(
 DECLARE_DELAYED_WORK(n, F
- , D
 );
|
 DECLARE_DELAYED_WORK(n,
- (CT)
  F
- , D
 );
|
 DECLARE_DELAYED_WORK(n,
- (CT)(CT2)
  F
- , D
 );
)

// direct calls pass the work item
@dcall depends on patch@
identifier F : script:python() { WH.is_ok(F) };
expression A;
position p;
@@
F@p(A)

@script:python dcs@
f << dcall.F;
A << dcall.A;
p << dcall.p;
NA;
@@
k = WH.decision(f)
na = WH.call_arg(k, A) if k else None
if na is None:
    cocci.include_match(False)
else:
    coccinelle.NA = cocci.make_expr(na)

@depends on patch@
identifier dcall.F;
expression dcall.A, dcs.NA;
position dcall.p;
@@
 F@p(
- A
+ NA
 )

// ------------------------------------------- a header, in its own pass
// The back-pointer fields that the .c files of the run need in a structure
// this header defines (WQPORT_BACKPTR_ADD, from wqport convert): `void *NF;`
// after the item, as in a .c that defines its container.

@hfield depends on patch@
identifier ST : script:python() { WH.asked_tag(ST) };
identifier fld;
type WT;
@@
 struct ST {
 ...
 WT fld;
 ...
 };

@script:python okadd@
tag << hfield.ST;
item << hfield.fld;
NF;
@@
nf = WH.header_field(tag, item)
if nf:
    coccinelle.NF = cocci.make_ident(nf)
else:
    cocci.include_match(False)

@depends on patch@
identifier hfield.ST, hfield.fld, okadd.NF;
type hfield.WT;
@@
 struct ST {
 ...
 WT fld;
+ void *NF;
 ...
 };

// (the header defines it with a variable)
@hfieldv depends on patch@
identifier ST : script:python() { WH.asked_tag(ST) };
identifier fld, v;
type WT;
@@
 struct ST {
 ...
 WT fld;
 ...
 } v;

@script:python okaddv@
tag << hfieldv.ST;
item << hfieldv.fld;
NF;
@@
nf = WH.header_field(tag, item)
if nf:
    coccinelle.NF = cocci.make_ident(nf)
else:
    cocci.include_match(False)

@depends on patch@
identifier hfieldv.ST, hfieldv.fld, hfieldv.v, okaddv.NF;
type hfieldv.WT;
@@
 struct ST {
 ...
 WT fld;
+ void *NF;
 ...
 } v;

// an untagged typedef: the first one asked for (a second is reported by
// wqport convert, which checks that every field asked for was added)
@script:python okadt depends on patch@
TT;
fld;
NF;
@@
nf = WH.header_typedef_field()
if nf:
    coccinelle.TT = cocci.make_type(nf[0])
    coccinelle.fld = cocci.make_ident(nf[1])
    coccinelle.NF = cocci.make_ident(nf[2])
else:
    cocci.include_match(False)

@depends on patch@
type okadt.TT, WT;
identifier okadt.fld, okadt.NF;
@@
 typedef struct {
 ...
 WT fld;
+ void *NF;
 ...
 } TT;

// A handler the file does not define (a prototype, an extern, a header's,
// a function pointer): its definition is elsewhere, where this file's
// decision cannot reach.  decide()
// is asked only for the handlers defined here, so these are said here.
@finalize:python@
@@
WH.finish()
