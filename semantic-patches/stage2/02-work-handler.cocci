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
import re

# All tables are keyed by file name: `make coccicheck` may hand one process
# many files.
H_GLOBALS = {}    # file -> {name: type string} of file-scope variables
H_GLOBALLINE = {} # file -> {name: line of its first declaration}
H_USES = {}       # file -> {handler: [use]}; use: dict(macro, W, D, pos, fpos)
ETYPE = {}      # file -> {(line, col) of a use: type string of its container}
ETYPE2 = {}     # file -> {(line, col) of a use: (type string, member) when its
                # container is reached through a member of a structure}
DEFS = {}       # file -> {handler: dict(ptype, param, pos)}
LOCALT = {}     # file -> {handler: type string of `T *x = data;`}
READS = {}      # file -> set of handlers whose body reads the parameter
CALLS = {}      # file -> {handler: [(pos, arg string)]}
REFS = {}       # file -> {handler: [pos]} every occurrence of the name
H_KNOWN = {}      # file -> set of (line, col) occurrences explained above
DECIDED = {}    # (file, handler) -> decision dict
H_REPORTED = set()
COLLIDE = set()  # (file, handler) whose body already uses the name work:
                 # its new parameter is _work, as 2.6.20's humans named it
COLLIDE_ = set() # ... and the name _work too
H_PROTOS = {}     # file -> {handler: [line of each prototype]}
STMT = {}       # file -> set of (line, col) of INIT/PREPARE uses that are statements
H_TEXT = {}       # file -> its text, comments blanked (h_file_text())

# Set by wqport convert.  A .c's run: the headers of the run it includes
# (copies as stage 1 left them), where a back-pointer's container may be
# defined, and the file to which it writes the fields they need.  A header's
# own run, after its .c files: the fields to add, S:TT:fld:nf (tag or
# typedef name, the other empty).
RUN_HEADERS = [h for h in os.environ.get('WQPORT_RUN_HEADERS', '').split(os.pathsep) if h]
BACKPTR_OUT = os.environ.get('WQPORT_BACKPTR_OUT')
ADD = [tuple(x.split(':')) for x in os.environ.get('WQPORT_BACKPTR_ADD', '').split()]
# Set by wqport convert on a .c: where to write the handlers whose
# signature this file changed, `NAME PARAM` a line (PARAM: work or _work),
# for their prototypes in the other files of the run (08-handler-prototypes).
HANDLERS_OUT = os.environ.get('WQPORT_HANDLERS_OUT')
PATCH = []

def load_json(path):
    import json
    try:
        with open(path) as fh:
            return json.load(fh)
    except (TypeError, IOError, OSError, ValueError):
        return {}

# A handler registered in one .c and defined in another, under wqport convert
# (scripts/wqportlib/convert_handlers.py).  The registering file, first:
# FOREIGN, the handlers it leaves for their definer (no W105), whose
# registrations it writes to USES_OUT.  The defining file: FOREIGN_USES,
# {handler: {uses, others, files}} from those files, decided with its own
# registrations; the decisions go to DECIDED_OUT.  The registering file
# again, 02 alone: FOREIGN_DECIDED, {handler: {kind, file}}, and
# FOREIGN_ONLY: nothing else is decided or said in that pass.
FOREIGN = set(os.environ.get('WQPORT_FOREIGN', '').split())
USES_OUT = os.environ.get('WQPORT_USES_OUT')
FOREIGN_USES = load_json(os.environ.get('WQPORT_FOREIGN_USES'))
DECIDED_OUT = os.environ.get('WQPORT_DECIDED_OUT')
FOREIGN_DECIDED = load_json(os.environ.get('WQPORT_FOREIGN_DECIDED'))
FOREIGN_ONLY = bool(os.environ.get('WQPORT_FOREIGN_ONLY'))
# ... and the handlers of the defining file that a file still to come
# registers (two files that register each other handlers): left as they are
FOREIGN_BLOCKED = set(os.environ.get('WQPORT_FOREIGN_BLOCKED', '').split())
# ... and, in the registering file, those handlers
FOREIGN_CYCLE = set(os.environ.get('WQPORT_FOREIGN_CYCLE', '').split())

def foreign_uses(f, df):
    """The registrations of f in the other files of the run, as uses
    said at the definition of f (df).  They were read after rule 1: in
    report mode, where this file is read before it, their _DELAYED_ goes
    too, or an item delayed in both would look like two."""
    out = []
    for u in FOREIGN_USES.get(f, {}).get('uses', []):
        u = dict(u, pos=df['pos'], foreign=True)
        if not PATCH:
            u['macro'] = u['macro'].replace('_DELAYED', '')
        out.append(u)
    return out

def visible(file, t):
    """Whether struct or typedef t is defined in file or a header of the
    run that it includes: container_of() needs the whole type.  (Not
    seen, it may still come from a header outside the run, as it does to
    the registering file: decide() takes it so when the registering file
    does not define it itself and the handler reads its data as a t.)"""
    return struct_def(h_file_text(file), t) is not None or \
        any(struct_def(h_file_text(h), t) is not None for h in RUN_HEADERS)

def local_item(kind, uses):
    """@kind, with no item for direct calls to pass when one of uses is in
    another file: that item is not in scope here."""
    if kind and kind.get('item') and any(u.get('foreign') for u in uses):
        kind['item'] = None
    return kind

def etype_of(file, u):
    """The type of the container of the item of use u, where the C source
    tells it: itself, or the structure whose member points to it."""
    if u.get('foreign'):
        return u.get('etype')
    t = ETYPE.get(file, {}).get(key(u['pos']))
    if t is None and key(u['pos']) in ETYPE2.get(file, {}):
        t = member_type(file, *ETYPE2[file][key(u['pos'])])
    return t

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

CTEXT = wqport_module("wqport_ctext")

def member_type(file, t, g):
    """The structure type that member g of structure t points to (`struct
    X *g;` or `X *g;`), t defined in file, a header of the run, or a header
    that file includes from beside it or the run -I (read only: 2.6.18
    cdev->private, struct ccw_device of <asm/ccwdev.h>); None if unknown."""
    t = ' '.join(t.split())
    texts = [h_file_text(file)] + [h_file_text(h) for h in RUN_HEADERS]
    sd = [x for x in (CTEXT.struct_def(tx, t) for tx in texts) if x is not None]
    if not sd:
        m = re.match(r'^struct (\w+)$', t)
        rx = re.compile(r'\bstruct\s+%s\s*\{' % m.group(1) if m else
                        r'\}\s*%s\s*;' % re.escape(t))
        try:
            dirs = os.environ.get('WQPORT_SEARCH_DIRS', '').split(os.pathsep)
            found = wqport_module('wqport_tq').header_matching(file, rx, dirs)
        except Exception:
            found = None
        if found:
            sd = [x for x in [CTEXT.struct_def(h_file_text(found[0]), t)] if x is not None]
    return CTEXT.pointee(sd[0][2], g) if len(sd) == 1 else None

def stmt_of(file, u):
    """Whether use u is a statement of its own."""
    if u.get('foreign'):
        return u.get('stmt')
    return key(u['pos']) in STMT.get(file, set())

def asked_tag(s):
    """Whether a field of struct s is asked for (a header's own run)."""
    return any(a[0] == s for a in ADD)

h_norm = CTEXT.norm
CONST = CTEXT.CONST

def key(p):
    return (p.line, p.column)

def tbl(t, f, default):
    return t.setdefault(f, default)

def known(p):
    """The occurrence of a handler's name at p is explained (a use, the
    definition, a prototype, a direct call)."""
    tbl(H_KNOWN, p.file, set()).add(key(p))

def ref(f, p):
    """An occurrence of handler f's name at p, explained or not."""
    l = tbl(REFS, p.file, {}).setdefault(f, [])
    if key(p) not in [key(q) for q in l]:
        l.append(p)

def call(f, p, a):
    """A direct call f(a) at p (a is '' for f())."""
    tbl(CALLS, p.file, {}).setdefault(f, []).append((p, a))
    known(p)

strip_void_cast = CTEXT.strip_void_cast
split_item = CTEXT.split_item
backptr_item = CTEXT.backptr_item

def h_file_text(file):
    """file's text without comments, read once ('' if unreadable)."""
    if file not in H_TEXT:
        try:
            with open(file, encoding='utf-8', errors='replace') as fh:
                H_TEXT[file] = CTEXT.uncomment(fh.read())
        except (IOError, OSError):
            H_TEXT[file] = ''
    return H_TEXT[file]

struct_def = CTEXT.struct_def

def same_type(file, a, b):
    """Whether types a and b are one, as file and the headers of the run
    define them (wqport_ctext.same_type)."""
    return CTEXT.same_type(h_file_text(file) + ''.join(h_file_text(h) for h in RUN_HEADERS), a, b)

def classify(f, u):
    """Kind of one use: ('container', E, fld, sep) / ('global', g) / ('null',)
    / ('other', reason, its ID)."""
    file = u['pos'].file
    W, D = u['W'], strip_void_cast(u['D'])
    if D in ('NULL', '0'):
        return ('null',)
    if CONST.match(D):
        return ('const', u['D'])
    if h_norm(D) == h_norm(W) and 'DELAYED' not in u['macro'] and (file, f) not in COLLIDE:
        # the data is the item itself (a handler that queues its own item
        # again): the work parameter is that pointer
        return ('const', 'work')
    # the data is the structure that contains the item; that structure may
    # itself be an array element (&d->el[i].w with data &d->el[i]):
    # container_of(work, T, w) recovers the element whatever the index
    for e, sep, fld in split_item(W):
        if (sep == '->' and D == e) or (sep == '.' and D == '&' + e):
            return ('container', e, fld, sep)
    if '[' in W:
        return ('other', 'the work item %s is an array element: container_of() '
                'cannot recover the container from a variable index; give the '
                'element a struct that holds the item and its data, and '
                'container_of() that' % u['W'], 'W106')
    m = re.match(r'^&(\w+)$', D)
    if m and m.group(1) in H_GLOBALS.get(file, {}) and not u.get('foreign'):
        return ('global', m.group(1))
    where = 'the item' if not u['W'] else u['W']
    return ('other', 'data %s of %s is not the structure containing %s: add '
            'a field for it beside the work item, set it where the item is '
            'initialised, and read it in %s() through container_of()'
            % (u['D'], u['macro'], where, f), 'W107')

H_REPORT = False
H_ORG = False
H_CURFILE = [None]

def kind_of(f):
    k = decide(H_CURFILE[0], f) if H_CURFILE[0] else None
    return k['kind'] if k else None

def is_container(f):
    return kind_of(f) == 'container'

def is_global(f):
    return kind_of(f) == 'global'

def is_null(f):
    return kind_of(f) == 'null'

def is_const(f):
    return kind_of(f) == 'const'

def is_backptr(f):
    return kind_of(f) == 'backptr'

def is_backptr_wrap(f):
    return is_backptr(f) and bool(decide(H_CURFILE[0], f).get('wrap'))

def is_backptr_in_place(f):
    return is_backptr(f) and not is_backptr_wrap(f)

def is_unread(f):
    # a container handler that never reads its data: only the signature
    # changes (no container_of() local that nothing would use)
    return is_container(f) and f not in READS.get(H_CURFILE[0], set())

def is_read_container(f):
    return is_container(f) and not is_unread(f)

def is_noarg(f):
    return kind_of(f) == 'noarg'

def is_ok(f):
    return kind_of(f) is not None

def is_renamed(f):
    """f becomes a work function whose body already says `work`: its new
    parameter is `_work` (cm.c's cm_work_handler() in 2.6.20:
    `struct cm_work *work = container_of(_work, struct cm_work, work.work);`)."""
    k = decide(H_CURFILE[0], f) if H_CURFILE[0] else None
    return k is not None and not k.get('wrap') and (H_CURFILE[0], f) in COLLIDE

def is_handler_name(f):
    # a handler of this file: the scripts of ini, dec and ddec, which run
    # before hdef, set H_CURFILE to the file of the uses they record (a file
    # with none keeps None: only the handlers other files register count)
    return f in H_USES.get(H_CURFILE[0], {}) or f in FOREIGN_USES or f in FOREIGN_BLOCKED

def h_say(p, wid, msg):
    """Report msg at p once, under its stable ID wid (docs/reasons/)."""
    msg = 'wqport[%s]: %s' % (wid, msg)
    k = (p.file, p.line, p.column, msg)
    if k in H_REPORTED:
        return
    H_REPORTED.add(k)
    if H_REPORT:
        import coccilib.report
        coccilib.report.print_report(p, msg)
    elif H_ORG:
        import coccilib.org
        coccilib.org.print_todo(p, msg)

def decide(file, f):
    """Decision for handler f: dict(kind=...) or None (reported)."""
    if (file, f) in DECIDED:
        return DECIDED[(file, f)]
    if FOREIGN_ONLY and f not in FOREIGN_DECIDED:
        DECIDED[(file, f)] = None
        return None
    d = None
    uses = H_USES.get(file, {}).get(f, [])
    df = DEFS.get(file, {}).get(f)
    if df is not None and f in FOREIGN_BLOCKED:
        h_say(df['pos'], 'W105', '%s() is also registered in another file of the run, '
            'which registers handlers of this file too: stage 2 decides a handler after '
            'the files that register it, and cannot here; convert it by hand' % f)
        DECIDED[(file, f)] = None
        return None
    if df is not None and f in FOREIGN_USES:
        uses = uses + foreign_uses(f, df)
        others = FOREIGN_USES[f].get('others', [])
        if others:
            h_say(df['pos'], 'W116', '%s() is also used in %s, not as a work handler: its '
                'type would change to void (*)(struct work_struct *); convert it and '
                'that use by hand' % (f, ', '.join(others)))
            DECIDED[(file, f)] = None
            return None
    if not uses:
        DECIDED[(file, f)] = None
        return None
    if df is None and f in FOREIGN_DECIDED:
        k = FOREIGN_DECIDED[f]
        if not k['kind']:
            for u in uses:
                h_say(u['pos'], 'W105', '%s() is defined in %s, where stage 2 could not '
                    'convert it for every registration: see the item there, and convert '
                    'it by hand' % (f, k['file'] or 'another file'))
        DECIDED[(file, f)] = k['kind']
        return k['kind']
    if df is None and f in FOREIGN_CYCLE:
        for u in uses:
            h_say(u['pos'], 'W105', '%s() is defined in another file of the run, which '
                'registers handlers of this file too: stage 2 decides a handler after the '
                'files that register it, and cannot here; convert it by hand' % f)
        DECIDED[(file, f)] = None
        return None
    if df is None and f in FOREIGN:
        # its definer decides, once the registrations of this file are written
        DECIDED[(file, f)] = None
        return None
    if df is None:
        for u in uses:
            h_say(u['pos'], 'W105', '%s() is not defined in this file: convert it to '
                'void %s(struct work_struct *work) by hand' % (f, f))
        DECIDED[(file, f)] = None
        return None
    if df.get('noarg'):
        # it never saw the data, whatever the items passed
        kind = checked(file, f, df, dict(kind='noarg'))
        DECIDED[(file, f)] = kind
        return kind
    kinds = [(u, classify(f, u)) for u in uses]
    bad = [(u, k) for u, k in kinds if k[0] == 'other']
    reads = f in READS.get(file, set())
    if bad and not reads and all(k[2] in ('W106', 'W107') for u, k in bad):
        # the handler never reads its data: whatever it was, it goes
        kind = dict(kind='null', item=kinds[0][0]['W'],
                    delayed='DELAYED' in kinds[0][0]['macro'])
        if len(set(u['W'] for u, k in kinds)) != 1:
            kind['item'] = None
        kind = checked(file, f, df, local_item(kind, uses))
        DECIDED[(file, f)] = kind
        return kind
    why = None
    if bad and len(bad) == len(kinds):
        kind = backptr(file, f, df, kinds)
        if isinstance(kind, dict):
            # f itself cannot become the work function (no direct call
            # can pass the item for a back-pointer): a new one calls it
            if problems(file, f, df, kind) and not any(u.get('foreign') for u in uses):
                kind['wrap'] = wrap_name(file, f, df, uses)
                kind['proto'] = bool(kind['wrap']) and \
                    min(int(u['pos'].line) for u in uses) < int(df['pos'].line)
            if not kind.get('wrap'):
                kind = checked(file, f, df, kind)
            request(kind)
            DECIDED[(file, f)] = kind
            return kind
        why = kind
    for u, k in bad:
        h_say(u['pos'], k[2], k[1] + (' (not done here: %s)' % why
                                     if why and k[2] == 'W107' else ''))
    if bad:
        DECIDED[(file, f)] = None
        return None
    conts = [(u, k) for u, k in kinds if k[0] == 'container']
    globs = [(u, k) for u, k in kinds if k[0] == 'global']
    consts = [(u, k) for u, k in kinds if k[0] == 'const']
    nulls = [(u, k) for u, k in kinds if k[0] == 'null']
    values = set('NULL' if k[0] == 'null' else h_norm(k[1]) for u, k in nulls + consts)
    kind = None
    if (nulls or consts) and not conts and not globs and reads and len(values) == 1:
        # the same constant for every item, and the handler reads it: it
        # can hold the value itself
        value = 'NULL' if nulls else consts[0][1][1]
        kind = dict(kind='const', value=value, item=kinds[0][0]['W'],
                    delayed='DELAYED' in kinds[0][0]['macro'])
        if len(set(u['W'] for u, k in kinds)) != 1:
            kind['item'] = None
    elif consts and not reads and not conts and not globs:
        kind = dict(kind='null', item=kinds[0][0]['W'],
                    delayed='DELAYED' in kinds[0][0]['macro'])
        if len(set(u['W'] for u, k in kinds)) != 1:
            kind['item'] = None
    elif consts:
        for u, k in kinds:
            h_say(u['pos'], 'W108', '%s() gets different data (%s): give each item its own '
                'handler, or keep the data beside each item and read it through '
                'container_of()' % (f, ', '.join(sorted(set(x[0]['D'] for x in kinds)))))
    elif conts and not globs and not (nulls and reads):
        flds = set(k[2] for u, k in conts)
        dels = set('DELAYED' in u['macro'] for u, k in conts)
        types = set(etype_of(file, u) for u, k in conts)
        types.discard(None)
        lt = LOCALT.get(file, {}).get(f)
        pt = df['ptype']
        if not types and lt and lt != 'void':
            types.add(lt)
        if not types and pt.endswith('*') and h_norm(pt) != 'void*':
            types.add(pt[:-1].strip())
        if len(flds) > 1 or len(dels) > 1:
            for u, k in conts:
                h_say(u['pos'], 'W109', '%s() serves different work items (%s): '
                    'container_of() cannot tell them apart; give each item '
                    'its own handler' % (f, ', '.join(sorted(
                        set(x['W'] for x, y in conts)))))
            kind = None
        elif len(types) != 1:
            for u, k in conts:
                h_say(u['pos'], 'W110', 'cannot tell the type of %s that contains %s: '
                    'convert %s() by hand with container_of()'
                    % (k[1], u['W'], f))
            kind = None
        else:
            t = types.pop()
            ok = True
            if h_norm(pt) != 'void*' and not (h_norm(pt).endswith('*') and
                                            same_type(file, pt.strip()[:-1], t)):
                ok = False
            if lt and lt != 'void' and not same_type(file, lt, t):
                ok = False
            if not ok:
                for u, k in conts:
                    h_say(u['pos'], 'W111', '%s() takes %s but the item lives in %s: '
                        'convert it by hand' % (f, pt, t))
            elif any(u.get('foreign') for u, k in conts) and not visible(file, t) and \
                    (any(u.get('tdef') for u, k in conts) or not (lt and lt != 'void')):
                h_say(df['pos'], 'W110', '%s() is registered in another file with an item '
                    'of %s, which is not defined here nor in a header of the run that this '
                    'file includes: container_of() needs it; convert %s() by hand'
                    % (f, t, f))
            else:
                kind = dict(kind='container', T=t, fld=flds.pop(),
                            delayed=dels.pop(), sep=conts[0][1][3])
    elif globs and not conts and not (nulls and reads):
        gs = set(k[1] for u, k in globs)
        gline = H_GLOBALLINE.get(file, {})
        late = [g for g in gs if gline.get(g, 0) > int(df['pos'].line)]
        if late:
            for u, k in globs:
                h_say(u['pos'], 'W112', '%s() would use %s directly, but %s is declared '
                    'after %s(): move its declaration above %s() and run '
                    'again' % (f, late[0], late[0], f, f))
        elif len(gs) == 1:
            g = gs.pop()
            kind = dict(kind='global', g=g, GT=H_GLOBALS[file][g],
                        item=globs[0][0]['W'],
                        delayed='DELAYED' in globs[0][0]['macro'])
            if len(set(u['W'] for u, k in globs)) != 1:
                kind['item'] = None
        else:
            for u, k in globs:
                h_say(u['pos'], 'W113', '%s() gets different globals (%s): give each '
                    'item its own handler' % (f, ', '.join(sorted(gs))))
    elif nulls and not conts and not globs and not reads:
        kind = dict(kind='null', item=nulls[0][0]['W'],
                    delayed='DELAYED' in nulls[0][0]['macro'])
        if len(set(u['W'] for u, k in nulls)) != 1:
            kind['item'] = None
    else:
        for u, k in kinds:
            h_say(u['pos'], 'W114', '%s() gets different kinds of data (container, '
                'global, NULL) or reads a NULL one: convert it by hand' % f)
    kind = checked(file, f, df, local_item(kind, uses)) if kind is not None else None
    DECIDED[(file, f)] = kind
    return kind

def backptr(file, f, df, kinds):
    """Decision for handler f whose every item gets data that is not its
    container (kinds: its uses, all 'other'): dict(kind='backptr', ...) when
    the data can move into a new field beside the item, else a string: why
    not."""
    if not h_norm(df['ptype']).endswith('*'):
        return 'its parameter is not a pointer'
    items = set()
    for u, k in kinds:
        it = backptr_item(u['W'])
        t = etype_of(file, u)
        if it is None or u['macro'].startswith('DECLARE'):
            return 'the item is not a field of a structure'
        if not stmt_of(file, u):
            return '%s is not a statement of its own' % u['macro']
        if not t:
            return 'the type of %s is not known here' % it[0]
        items.add((' '.join(t.split()), it[2], 'DELAYED' in u['macro']))
    if len(items) != 1:
        return '%s() serves several items' % f
    t, fld, delayed = items.pop()
    text = h_file_text(file)
    sd = struct_def(text, t)
    nf = fld + '_data'
    hdr = None
    if sd is None:
        # a header of the run that this file includes: its own run adds
        # the field (wqport convert hands it over)
        found = [(h, struct_def(h_file_text(h), t)) for h in RUN_HEADERS]
        found = [(h, x) for h, x in found if x is not None]
        if len(found) != 1:
            return '%s is not defined in this file%s' % (
                t, ' or in one header of this run' if RUN_HEADERS else
                ', nor in a header given to the same wqport convert run')
        hdr, sd = found[0]
    tag, tname, body = sd
    if not re.search(r'(?:^|[;{}])\s*(?:#[^\n]*\n\s*)*struct\s+(?:work_struct|delayed_work)'
                     r'\s+%s\s*;' % re.escape(fld), body):
        named = re.search(r'(?:^|[;{}])\s*(?:#[^\n]*\n\s*)*([A-Za-z_]\w*)\s+%s\s*;'
                          % re.escape(fld), body)
        if named and named.group(1) not in ('struct', 'union', 'const', 'volatile'):
            return ('%s declares %s with the type name %s (a macro or typedef); '
                    'declared struct work_struct, it would get the field'
                    % (t, fld, named.group(1)))
        return '%s declares %s only nested or beside another member' % (t, fld)
    if re.search(r'\b%s\b' % re.escape(nf), text + (h_file_text(hdr) if hdr else '')):
        return 'the name %s is taken' % nf
    return dict(kind='backptr', S=tag, TT=tname, T=t, fld=fld, nf=nf, delayed=delayed,
                hdr=hdr, line=int(kinds[0][0]['pos'].line))

def request(kind):
    """Ask for @kind's field in the header that defines its container
    (wqport convert adds it there in the header's own run)."""
    if kind and kind.get('hdr') and BACKPTR_OUT:
        with open(BACKPTR_OUT, 'a') as fh:
            fh.write('%s:%s:%s:%s %s %d\n' % (kind['S'] or '', kind['TT'] or '', kind['fld'],
                                             kind['nf'], kind['hdr'], kind['line']))

def wrap_name(file, f, df, uses):
    """The name of a new work function that calls f with the data, for a
    back-pointer handler also called directly or used otherwise: f stays
    as it is.  None when the name is taken or an item is set up before f
    is defined (the new function goes right after f)."""
    name = f + '_work'
    if re.search(r'\b%s\b' % re.escape(name), h_file_text(file)):
        return None
    first = min(int(u['pos'].line) for u in uses)
    if first < int(df['pos'].line) and not wrap_proto(file, f, first):
        return None
    return name

def wrap_proto(file, f, first):
    """Whether f has a prototype before line first (its first use as a
    handler, before its definition: 2.6.18's tlan.c), beside which the new
    work function gets one too."""
    return any(l < first for l in H_PROTOS.get(file, {}).get(f, []))

def backptr_value(k):
    """What a back-pointer handler's data is, read from the work item."""
    return 'container_of(%s, %s, %s)->%s' % (
        'to_delayed_work(work)' if k['delayed'] else 'work', k['T'], k['fld'], k['nf'])

def problems(file, f, df, kind):
    """What stops f itself from becoming @kind's work function, as
    (position, ID, message); empty when nothing does: the new parameter
    would shadow a name the body uses, or f has uses that the conversion
    would not fix."""
    if (file, f) in COLLIDE and (file, f) in COLLIDE_:
        return [(df['pos'], 'W115', '%s() already uses the names work and _work, which '
                 'its new parameter struct work_struct *work (or *_work) would shadow: '
                 'rename one of them first' % f)]
    # every other occurrence of the name must be explained
    known = H_KNOWN.get(file, set())
    found = [(p, 'W116', '%s() is also used here, not as a work handler: its '
              'type changes to void (*)(struct work_struct *); '
              'convert this use by hand' % f)
             for p in REFS.get(file, {}).get(f, []) if key(p) not in known]
    if found:
        return found
    return [(p, 'W117', 'direct call %s(%s): pass the work item instead of '
             'the old data' % (f, a))
            for p, a in CALLS.get(file, {}).get(f, []) if call_arg(kind, a) is None]

def checked(file, f, df, kind):
    """@kind, or None once its problems() are reported."""
    found = problems(file, f, df, kind)
    for p, wid, msg in found:
        h_say(p, wid, msg)
    return None if found else kind

def item_addr(kind, item):
    """The work_struct address for a work item expression &x (delayed: &x.work)."""
    if kind['delayed']:
        return item + '.work'
    return item

def call_arg(kind, a):
    """New argument for a direct call f(a), or None."""
    a = h_norm(a)
    if kind['kind'] == 'noarg':
        return 'NULL' if a == '' else None
    if kind['kind'] == 'container':
        if kind['sep'] == '->':
            # anything but a name or a member chain may be a void * (the
            # old parameter's type: netdev_priv(dev)): cast it to the
            # container's pointer before ->
            w = '&%s->%s' % (a if re.match(r'^[\w.>-]+$', a) else
                             '((%s *)%s)' % (kind['T'], a if re.match(r'^[\w.>-]*\(.*\)$', a)
                                             else '(' + a + ')'),
                             kind['fld'])
        elif a.startswith('&'):
            w = '&%s.%s' % (a[1:], kind['fld'])
        else:
            return None
        return w + '.work' if kind['delayed'] else w
    if kind['kind'] == 'global':
        if kind['item'] and a in ('&' + kind['g'], '(void*)&' + kind['g']):
            return item_addr(kind, kind['item'])
        return None
    if kind['kind'] == 'null' and kind['item'] and a in ('NULL', '0'):
        return item_addr(kind, kind['item'])
    if kind['kind'] == 'const' and kind['item'] and (
            a == h_norm(kind['value']) or (a in ('NULL', '0') and kind['value'] == 'NULL')):
        return item_addr(kind, kind['item'])
    return None

// a new file: forget the previous one (one process may see many files)
@script:python@
@@
H_CURFILE[0] = None

@script:python depends on report@
@@
H_REPORT = True

@script:python depends on org@
@@
H_ORG = True

@script:python depends on patch@
@@
PATCH[:] = [True]

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
if p[0].current_element == g and '(' not in T:
    tbl(H_GLOBALS, p[0].file, {})[g] = T
    tbl(H_GLOBALLINE, p[0].file, {}).setdefault(g, int(p[0].line))

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
H_CURFILE[0] = p[0].file
if f != 'NULL':     # no handler yet: see the rule on NULL below
    tbl(H_USES, p[0].file, {}).setdefault(f, []).append(
        dict(macro=i, W=h_norm(W), D=h_norm(D), pos=p[0]))
    known(pf[0])

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
tbl(STMT, p[0].file, set()).add(key(p[0]))

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
H_CURFILE[0] = pf[0].file
tbl(H_USES, pf[0].file, {}).setdefault(f, []).append(
    dict(macro='DECLARE_WORK', W='&' + n, D=h_norm(D), pos=pf[0]))
known(pf[0])

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
H_CURFILE[0] = pf[0].file
tbl(H_USES, pf[0].file, {}).setdefault(f, []).append(
    dict(macro='DECLARE_DELAYED_WORK', W='&' + n, D=h_norm(D), pos=pf[0]))
known(pf[0])

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
tbl(ETYPE, p[0].file, {})[key(p[0])] = T

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
tbl(ETYPE2, p[0].file, {})[key(p[0])] = (T, g)

// Only the handlers that ini/dec/ddec saw: the rules below inherit one
// environment per function matched here, and each of them visits every
// occurrence of its names in the file (synclink.c of 2.4.27: 80,000
// Python calls and a timeout when this matched every void f(T x)).
@hdef@
identifier f : script:python() { is_handler_name(f) };
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
H_CURFILE[0] = p[0].file
if f in H_USES.get(p[0].file, {}) or f in FOREIGN_USES or f in FOREIGN_BLOCKED:
    tbl(DEFS, p[0].file, {})[f] = dict(ptype=PT, param=data, pos=p[0])
    known(p[0])

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
tbl(LOCALT, p[0].file, {}).setdefault(f, T)

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
if q[0].current_element == f and (q[0].line, q[0].column) != (p[0].line, p[0].column):
    if int(q[0].line) > int(p[0].line) or q[0].column != p[0].column:
        tbl(READS, p[0].file, set()).add(f)

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
if q[0].current_element == f:
    COLLIDE.add((H_CURFILE[0], f))

@hwork_@
position q;
@@
_work@q

@script:python@
f << hdef.f;
q << hwork_.q;
@@
if q[0].current_element == f:
    COLLIDE_.add((H_CURFILE[0], f))

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
known(p[0])
tbl(H_PROTOS, p[0].file, {}).setdefault(f, []).append(int(p[0].line))

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
call(f, p[0], A)

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
known(p[0])

@href@
identifier hdef.f;
position p;
@@
f@p

@script:python@
f << hdef.f;
p << href.p;
@@
ref(f, p[0])

// a handler that takes no argument, cast where it is used
@hdef0@
identifier f : script:python() { is_handler_name(f) };
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
H_CURFILE[0] = p[0].file
if (f in H_USES.get(p[0].file, {}) or f in FOREIGN_USES) and f not in DEFS.get(p[0].file, {}):
    tbl(DEFS, p[0].file, {})[f] = dict(ptype='', param=None, pos=p[0],
                                       noarg=True)
    known(p[0])

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
known(p[0])

@hcall0@
identifier hdef0.f;
position p;
@@
f@p()

@script:python@
f << hdef0.f;
p << hcall0.p;
@@
call(f, p[0], '')

@href0@
identifier hdef0.f;
position p;
@@
f@p

@script:python@
f << hdef0.f;
p << href0.p;
@@
ref(f, p[0])

// ------------------------------------------------------------- decisions
// One matching rule per kind of handler, gated by decide(); each is followed
// by the script that makes its metavariables.  (A script that only filters
// would drop the environments the other kinds need.)

@hc@
identifier f : script:python() { is_read_container(f) };
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
k = decide(H_CURFILE[0], f)
coccinelle.T = cocci.make_type(k['T'])
coccinelle.fld = cocci.make_ident(k['fld'])
coccinelle.WE = cocci.make_expr('to_delayed_work(work)' if k['delayed']
                                else 'work')

@hk@
identifier f : script:python() { is_const(f) };
identifier data;
type PT;
@@
void f(PT data) { ... }

@script:python okk@
f << hk.f;
V;
@@
coccinelle.V = cocci.make_expr(decide(H_CURFILE[0], f)['value'])

@hb@
identifier f : script:python() { is_backptr(f) };
identifier data;
type PT;
@@
void f(PT data) { ... }

@script:python okb@
f << hb.f;
fld;
NF;
@@
k = decide(H_CURFILE[0], f)
coccinelle.fld = cocci.make_ident(k['fld'])
coccinelle.NF = cocci.make_ident(k['nf'])

@hg@
identifier f : script:python() { is_global(f) };
identifier data;
type PT;
@@
void f(PT data) { ... }

@script:python okg@
f << hg.f;
g;
GT;
@@
k = decide(H_CURFILE[0], f)
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
k = decide(H_CURFILE[0], f)
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

@script:python okbt@
f << hb.f;
TT;
@@
k = decide(H_CURFILE[0], f)
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
identifier f : script:python() { is_backptr_in_place(f) };
identifier data;
type PT;
@@
void f(PT data) { ... }

@script:python okbi@
f << hbi.f;
V;
@@
coccinelle.V = cocci.make_expr(backptr_value(decide(H_CURFILE[0], f)))

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
identifier f : script:python() { is_backptr_wrap(f) };
identifier data;
type PT;
@@
void f(PT data) { ... }

@script:python okbw@
f << hbw.f;
fw;
V;
@@
k = decide(H_CURFILE[0], f)
coccinelle.fw = cocci.make_ident(k['wrap'])
coccinelle.V = cocci.make_expr(backptr_value(k))

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
k = decide(H_CURFILE[0], f)
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
identifier F : script:python() { is_backptr(F) };
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
k = decide(H_CURFILE[0], F)
e, sep, fld = backptr_item(h_norm(W))
coccinelle.A = cocci.make_expr('%s%s%s' % (e, sep, k['nf']))
coccinelle.G = cocci.make_ident(k.get('wrap') or F)

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
identifier f : script:python() { is_null(f) or is_unread(f) };
identifier data;
type PT;
@@
 void f(
- PT data
+ struct work_struct *work
 ) { ... }

// no argument: the work parameter is added, and ignored
@z1 depends on patch@
identifier f : script:python() { is_noarg(f) };
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
identifier f : script:python() { is_noarg(f) };
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
identifier f : script:python() { is_noarg(f) };
@@
- f()
+ f(NULL)

// a body that already says `work`: the new parameter is _work, and so is
// what the rules above read it as
@depends on patch@
identifier f : script:python() { is_renamed(f) };
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
identifier F : script:python() { is_ok(F) and not is_backptr(F) };
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
identifier F : script:python() { is_ok(F) };
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
identifier F : script:python() { is_ok(F) };
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
identifier F : script:python() { is_ok(F) };
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
k = decide(H_CURFILE[0], f)
na = call_arg(k, A) if k else None
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
identifier ST : script:python() { asked_tag(ST) };
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
nf = [a[3] for a in ADD if a[0] == tag and a[2] == item]
if nf:
    coccinelle.NF = cocci.make_ident(nf[0])
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

// an untagged typedef: the first one asked for (a second is reported by
// wqport convert, which checks that every field asked for was added)
@script:python okadt depends on patch@
TT;
fld;
NF;
@@
nf = [a for a in ADD if not a[0] and a[1]]
if nf:
    coccinelle.TT = cocci.make_type(nf[0][1])
    coccinelle.fld = cocci.make_ident(nf[0][2])
    coccinelle.NF = cocci.make_ident(nf[0][3])
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
import re as _re
if HANDLERS_OUT and PATCH:
    with open(HANDLERS_OUT, 'a') as fh:
        for (file, f), k in sorted(DECIDED.items()):
            if k and not k.get('wrap') and f in DEFS.get(file, {}):
                fh.write('%s %s\n' % (f, '_work' if (file, f) in COLLIDE else 'work'))
if USES_OUT and PATCH and not FOREIGN_ONLY:
    import json
    with open(USES_OUT, 'w') as fh:
        json.dump(dict((f, [dict(macro=u['macro'], W=u['W'], D=u['D'],
                                 etype=etype_of(file, u), stmt=stmt_of(file, u),
                                 tdef=bool(etype_of(file, u)) and
                                 struct_def(h_file_text(file), etype_of(file, u)) is not None)
                            for u in us])
                       for file, fs in H_USES.items() for f, us in fs.items()
                       if f in FOREIGN), fh)
if DECIDED_OUT and PATCH and not FOREIGN_ONLY:
    import json
    with open(DECIDED_OUT, 'w') as fh:
        json.dump(dict((f, DECIDED.get((file, f)))
                       for file, fs in DEFS.items() for f in fs if f in FOREIGN_USES), fh)
for file, fs in H_USES.items():
    try:
        with open(file, encoding='utf-8', errors='replace') as fh:
            text = fh.read()
    except (IOError, OSError):
        continue
    for f, uses in sorted(fs.items()):
        if (f in FOREIGN_DECIDED or f in FOREIGN_CYCLE) and f not in DEFS.get(file, {}):
            decide(file, f)     # W105 when its definer could not convert it
            continue
        if (file, f) in DECIDED or f in DEFS.get(file, {}) or f in FOREIGN or FOREIGN_ONLY:
            continue
        name = _re.escape(f)
        proto = _re.search(r'\bvoid\s+%s\s*\([^;{)]*\)\s*;' % name, text)
        body = _re.search(r'\b%s\s*\([^;{)]*\)\s*\{' % name, text)
        if not body:
            # declared here, or in a header (aoe.h for aoedev.c of 2.6.18),
            # or a function pointer
            where = ' (defined in another file, or a pointer to a function)'
            if proto:
                where = str()
            for u in uses:
                m = CTEXT.macro_at(text, int(u['pos'].line))
                if m and f in m[1]:
                    # a compat macro of the driver: its users give the handlers
                    h_say(u['pos'], 'W105', '%s is a parameter of the macro %s, around a '
                        '3-argument %s(): the handlers its users give stay void f(void *); '
                        'make the macro take two arguments and convert each such handler to '
                        'void f(struct work_struct *work) by hand' % (f, m[0], u['macro']))
                    continue
                h_say(u['pos'], 'W105', '%s() is not defined in this file%s: convert it to '
                    'void %s(struct work_struct *work) by hand' % (f, where, f))
