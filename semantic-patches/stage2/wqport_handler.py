# SPDX-License-Identifier: GPL-2.0
"""wqport_handler: stage 2's decision on each work handler, for
02-work-handler.cocci.

A 2.6.0-2.6.19 handler is `void f(void *data)`; 2.6.20's is `void
f(struct work_struct *work)`, which finds its data through the item.  The
patch's rules record what they match in a file (record_*(): the uses of
each handler by INIT_WORK, PREPARE_WORK and DECLARE_WORK, its definition,
prototypes, direct calls and other occurrences, the types of the items'
containers); decide() then says, per handler, how its data is found from
the item (its `kind`: container, global, const, null, noarg, backptr) or
reports why a human must convert it (say(): wqport[ID], docs/reasons/ID.md),
and call_arg() what a direct call passes instead.  The rules that rewrite
read the decisions (is_*()).

Every table is keyed by file: one spatch process may see many files
(`make coccicheck`, a batched run), and new_file() starts each.  The
environment wqport convert sets for a run (configure()) says which
handlers other files of the run register or define.  Needs no spatch:
tests/decisions drives it with positions of its own.
"""

import json
import os
import re

import wqport_ctext as CTEXT
import wqport_say


GLOBALS = {}      # file -> {name: type string} of file-scope variables
GLOBALLINE = {}   # file -> {name: line of its first declaration}
USES = {}         # file -> {handler: [use]}; use: dict(macro, W, D, pos)
ETYPE = {}        # file -> {(line, col) of a use: type string of its container}
ETYPE2 = {}       # file -> {(line, col) of a use: (type string, member) when its
                  # container is reached through a member of a structure}
DEFS = {}         # file -> {handler: dict(ptype, param, pos[, noarg])}
LOCALT = {}       # file -> {handler: type string of `T *x = data;`}
READS = {}        # file -> set of handlers whose body reads the parameter
CALLS = {}        # file -> {handler: [(pos, arg string)]}
REFS = {}         # file -> {handler: [pos]} every occurrence of the name
KNOWN = {}        # file -> set of (line, col) occurrences explained above
DECIDED = {}      # (file, handler) -> decision dict, or None
COLLIDE = set()   # (file, handler) whose body already uses the name work:
                  # its new parameter is _work, as 2.6.20's humans named it
COLLIDE_ = set()  # ... and the name _work too
PROTOS = {}       # file -> {handler: [line of each prototype]}
STMT = {}         # file -> set of (line, col) of INIT/PREPARE uses that are statements
TEXT = {}         # file -> its text, comments blanked (file_text())
CURFILE = [None]  # the file whose rules run now
TAKEN = [None]    # $WQPORT_FILE when the facts were taken (wqport_fileenv)
PATCH = []        # [True] in patch mode
REPORTER = wqport_say.Reporter()
say = REPORTER.say
SAID = REPORTER.said    # what say() said, in order: (position, message)

# Set by configure(), from the environment wqport convert gives a run.
# A .c's run: the headers of the run it includes (copies as stage 1 left
# them), where a back-pointer's container may be defined, and the file to
# which it writes the fields they need.  A header's own run, after its .c
# files: the fields to add, ADD, (S, TT, fld, nf) (tag or typedef name, the
# other empty).
RUN_HEADERS = []
BACKPTR_OUT = None
ADD = []
# On a .c: where to write the handlers whose signature this file changed,
# `NAME PARAM` a line (PARAM: work or _work), for their prototypes in the
# other files of the run (08-handler-prototypes).
HANDLERS_OUT = None
# The run's -I directories, where a header that a file includes is looked
# for (member_type()).
SEARCH_DIRS = []
# A handler registered in one .c and defined in another
# (scripts/wqportlib/convert_handlers.py).  The registering file, first:
# FOREIGN, the handlers it leaves for their definer (no W105), whose
# registrations it writes to USES_OUT.  The defining file: FOREIGN_USES,
# {handler: {uses, others, files}} from those files, decided with its own
# registrations; the decisions go to DECIDED_OUT.  The registering file
# again, 02 alone: FOREIGN_DECIDED, {handler: {kind, file}}, and
# FOREIGN_ONLY: nothing else is decided or said in that pass.
# FOREIGN_BLOCKED: the handlers of the defining file that a file still to
# come registers (two files that register each other's handlers): left as
# they are; FOREIGN_CYCLE: in the registering file, those handlers.
FOREIGN = set()
USES_OUT = None
FOREIGN_USES = {}
DECIDED_OUT = None
FOREIGN_DECIDED = {}
FOREIGN_ONLY = False
FOREIGN_BLOCKED = set()
FOREIGN_CYCLE = set()


_TABLES = (GLOBALS, GLOBALLINE, USES, ETYPE, ETYPE2, DEFS, LOCALT, READS, CALLS, REFS,
           KNOWN, DECIDED, COLLIDE, COLLIDE_, PROTOS, STMT, TEXT, PATCH)


def load_json(path):
    try:
        with open(path, encoding='utf-8') as fh:
            return json.load(fh)
    except (TypeError, IOError, OSError, ValueError):
        return {}


def configure(env, output=None):
    """Forget everything, and take the run's facts from ENV (a mapping:
    os.environ in spatch); say() prints through OUTPUT."""
    global RUN_HEADERS, BACKPTR_OUT, ADD, HANDLERS_OUT, FOREIGN, USES_OUT, FOREIGN_USES
    global DECIDED_OUT, FOREIGN_DECIDED, FOREIGN_ONLY, FOREIGN_BLOCKED, FOREIGN_CYCLE
    global SEARCH_DIRS
    for t in _TABLES:
        t.clear()
    CURFILE[0] = None
    REPORTER.reset(output)
    RUN_HEADERS = [h for h in env.get('WQPORT_RUN_HEADERS', '').split(os.pathsep) if h]
    BACKPTR_OUT = env.get('WQPORT_BACKPTR_OUT')
    ADD = [tuple(x.split(':')) for x in env.get('WQPORT_BACKPTR_ADD', '').split()]
    HANDLERS_OUT = env.get('WQPORT_HANDLERS_OUT')
    SEARCH_DIRS = env.get('WQPORT_SEARCH_DIRS', '').split(os.pathsep)
    FOREIGN = set(env.get('WQPORT_FOREIGN', '').split())
    USES_OUT = env.get('WQPORT_USES_OUT')
    FOREIGN_USES = load_json(env.get('WQPORT_FOREIGN_USES'))
    DECIDED_OUT = env.get('WQPORT_DECIDED_OUT')
    FOREIGN_DECIDED = load_json(env.get('WQPORT_FOREIGN_DECIDED'))
    FOREIGN_ONLY = bool(env.get('WQPORT_FOREIGN_ONLY'))
    FOREIGN_BLOCKED = set(env.get('WQPORT_FOREIGN_BLOCKED', '').split())
    FOREIGN_CYCLE = set(env.get('WQPORT_FOREIGN_CYCLE', '').split())
    TAKEN[0] = env.get('WQPORT_FILE')


def set_mode(mode):
    """The spatch mode the run is in: patch, or report and org, whose
    say() prints through coccilib."""
    if mode == 'patch':
        PATCH[:] = [True]
    REPORTER.set_mode(mode)


def new_file(env=None):
    """A new file: forget which one the rules saw last.  ENV (os.environ
    in spatch) for another file than the facts were taken for (its
    $WQPORT_FILE: semantic-patches/wqport_fileenv.py): the last file is
    finished, as at the end of a process, and ENV's facts taken."""
    CURFILE[0] = None
    if env is not None and env.get('WQPORT_FILE') != TAKEN[0]:
        if TAKEN[0] is not None:
            finish()
        configure(env)


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
    return struct_def(file_text(file), t) is not None or \
        any(struct_def(file_text(h), t) is not None for h in RUN_HEADERS)


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


def member_type(file, t, g):
    """The structure type that member g of structure t points to (`struct
    X *g;` or `X *g;`), t defined in file, a header of the run, or a header
    that file includes from beside it or the run -I (read only: 2.6.18
    cdev->private, struct ccw_device of <asm/ccwdev.h>); None if unknown."""
    t = ' '.join(t.split())
    texts = [file_text(file)] + [file_text(h) for h in RUN_HEADERS]
    sd = [x for x in (CTEXT.struct_def(tx, t) for tx in texts) if x is not None]
    if not sd:
        m = re.match(r'^struct (\w+)$', t)
        rx = re.compile(r'\bstruct\s+%s\s*\{' % m.group(1) if m else
                        r'\}\s*%s\s*;' % re.escape(t))
        try:
            import wqport_tq    # stage 1's, beside this one's directory
            found = wqport_tq.header_matching(file, rx, SEARCH_DIRS)
        except Exception:
            found = None
        if found:
            sd = [x for x in [CTEXT.struct_def(file_text(found[0]), t)] if x is not None]
    return CTEXT.pointee(sd[0][2], g) if len(sd) == 1 else None


def stmt_of(file, u):
    """Whether use u is a statement of its own."""
    if u.get('foreign'):
        return u.get('stmt')
    return key(u['pos']) in STMT.get(file, set())


def asked_tag(s):
    """Whether a field of struct s is asked for (a header's own run)."""
    return any(a[0] == s for a in ADD)


norm = CTEXT.norm
CONST = CTEXT.CONST


def key(p):
    return (p.line, p.column)


def tbl(t, f, default):
    return t.setdefault(f, default)


def known(p):
    """The occurrence of a handler's name at p is explained (a use, the
    definition, a prototype, a direct call)."""
    tbl(KNOWN, p.file, set()).add(key(p))


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


def file_text(file):
    """file's text without comments, read once ('' if unreadable)."""
    if file not in TEXT:
        try:
            with open(file, encoding='utf-8', errors='replace') as fh:
                TEXT[file] = CTEXT.uncomment(fh.read())
        except (IOError, OSError):
            TEXT[file] = ''
    return TEXT[file]


struct_def = CTEXT.struct_def


def same_type(file, a, b):
    """Whether types a and b are one, as file and the headers of the run
    define them (wqport_ctext.same_type)."""
    return CTEXT.same_type(file_text(file) + ''.join(file_text(h) for h in RUN_HEADERS), a, b)


def classify(f, u):
    """Kind of one use: ('container', E, fld, sep) / ('global', g) / ('null',)
    / ('other', reason, its ID)."""
    file = u['pos'].file
    W, D = u['W'], strip_void_cast(u['D'])
    if D in ('NULL', '0'):
        return ('null',)
    if CONST.match(D):
        return ('const', u['D'])
    if norm(D) == norm(W) and 'DELAYED' not in u['macro'] and (file, f) not in COLLIDE:
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
    if m and m.group(1) in GLOBALS.get(file, {}) and not u.get('foreign'):
        return ('global', m.group(1))
    where = 'the item' if not u['W'] else u['W']
    return ('other', 'data %s of %s is not the structure containing %s: add '
            'a field for it beside the work item, set it where the item is '
            'initialised, and read it in %s() through container_of()'
            % (u['D'], u['macro'], where, f), 'W107')


def kind_of(f):
    k = decision(f)
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
    return is_backptr(f) and bool(decide(CURFILE[0], f).get('wrap'))


def is_backptr_in_place(f):
    return is_backptr(f) and not is_backptr_wrap(f)


def is_unread(f):
    # a container handler that never reads its data: only the signature
    # changes (no container_of() local that nothing would use)
    return is_container(f) and f not in READS.get(CURFILE[0], set())


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
    k = decision(f)
    return k is not None and not k.get('wrap') and (CURFILE[0], f) in COLLIDE


def is_handler_name(f):
    # a handler of this file: the scripts of ini, dec and ddec, which run
    # before hdef, set CURFILE to the file of the uses they record (a file
    # with none keeps None: only the handlers other files register count)
    return f in USES.get(CURFILE[0], {}) or f in FOREIGN_USES or f in FOREIGN_BLOCKED


def with_item(kind, uses, **more):
    """Decision KIND (with MORE) for a handler of USES, (use, class) pairs:
    the item they all name, for direct calls to pass (None if they name
    several), and whether the first is delayed."""
    items = set(u['W'] for u, _ in uses)
    return dict(more, kind=kind, item=uses[0][0]['W'] if len(items) == 1 else None,
                delayed='DELAYED' in uses[0][0]['macro'])


def decide(file, f):
    """Decision for handler f: dict(kind=...) or None (reported)."""
    if (file, f) in DECIDED:
        return DECIDED[(file, f)]
    if FOREIGN_ONLY and f not in FOREIGN_DECIDED:
        DECIDED[(file, f)] = None
        return None
    uses = USES.get(file, {}).get(f, [])
    df = DEFS.get(file, {}).get(f)
    if df is not None and f in FOREIGN_BLOCKED:
        say(df['pos'], 'W105', '%s() is also registered in another file of the run, '
            'which registers handlers of this file too: stage 2 decides a handler after '
            'the files that register it, and cannot here; convert it by hand' % f)
        DECIDED[(file, f)] = None
        return None
    if df is not None and f in FOREIGN_USES:
        uses = uses + foreign_uses(f, df)
        others = FOREIGN_USES[f].get('others', [])
        if others:
            say(df['pos'], 'W116', '%s() is also used in %s, not as a work handler: its '
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
                say(u['pos'], 'W105', '%s() is defined in %s, where stage 2 could not '
                    'convert it for every registration: see the item there, and convert '
                    'it by hand' % (f, k['file'] or 'another file'))
        DECIDED[(file, f)] = k['kind']
        return k['kind']
    if df is None and f in FOREIGN_CYCLE:
        for u in uses:
            say(u['pos'], 'W105', '%s() is defined in another file of the run, which '
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
            say(u['pos'], 'W105', '%s() is not defined in this file: convert it to '
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
        kind = checked(file, f, df, local_item(with_item('null', kinds), uses))
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
        say(u['pos'], k[2], k[1] + (' (not done here: %s)' % why
                                     if why and k[2] == 'W107' else ''))
    if bad:
        DECIDED[(file, f)] = None
        return None
    conts = [(u, k) for u, k in kinds if k[0] == 'container']
    globs = [(u, k) for u, k in kinds if k[0] == 'global']
    consts = [(u, k) for u, k in kinds if k[0] == 'const']
    nulls = [(u, k) for u, k in kinds if k[0] == 'null']
    values = set('NULL' if k[0] == 'null' else norm(k[1]) for u, k in nulls + consts)
    kind = None
    if (nulls or consts) and not conts and not globs and reads and len(values) == 1:
        # the same constant for every item, and the handler reads it: it
        # can hold the value itself
        value = 'NULL' if nulls else consts[0][1][1]
        kind = with_item('const', kinds, value=value)
    elif consts and not reads and not conts and not globs:
        kind = with_item('null', kinds)
    elif consts:
        for u, k in kinds:
            say(u['pos'], 'W108', '%s() gets different data (%s): give each item its own '
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
        if not types and pt.endswith('*') and norm(pt) != 'void*':
            types.add(pt[:-1].strip())
        if len(flds) > 1 or len(dels) > 1:
            for u, k in conts:
                say(u['pos'], 'W109', '%s() serves different work items (%s): '
                    'container_of() cannot tell them apart; give each item '
                    'its own handler' % (f, ', '.join(sorted(
                        set(x['W'] for x, y in conts)))))
            kind = None
        elif len(types) != 1:
            for u, k in conts:
                say(u['pos'], 'W110', 'cannot tell the type of %s that contains %s: '
                    'convert %s() by hand with container_of()'
                    % (k[1], u['W'], f))
            kind = None
        else:
            t = types.pop()
            ok = True
            if norm(pt) != 'void*' and not (norm(pt).endswith('*') and
                                            same_type(file, pt.strip()[:-1], t)):
                ok = False
            if lt and lt != 'void' and not same_type(file, lt, t):
                ok = False
            if not ok:
                for u, k in conts:
                    say(u['pos'], 'W111', '%s() takes %s but the item lives in %s: '
                        'convert it by hand' % (f, pt, t))
            elif any(u.get('foreign') for u, k in conts) and not visible(file, t) and \
                    (any(u.get('tdef') for u, k in conts) or not (lt and lt != 'void')):
                say(df['pos'], 'W110', '%s() is registered in another file with an item '
                    'of %s, which is not defined here nor in a header of the run that this '
                    'file includes: container_of() needs it; convert %s() by hand'
                    % (f, t, f))
            else:
                kind = dict(kind='container', T=t, fld=flds.pop(),
                            delayed=dels.pop(), sep=conts[0][1][3])
    elif globs and not conts and not (nulls and reads):
        gs = set(k[1] for u, k in globs)
        gline = GLOBALLINE.get(file, {})
        late = [g for g in gs if gline.get(g, 0) > int(df['pos'].line)]
        if late:
            for u, k in globs:
                say(u['pos'], 'W112', '%s() would use %s directly, but %s is declared '
                    'after %s(): move its declaration above %s() and run '
                    'again' % (f, late[0], late[0], f, f))
        elif len(gs) == 1:
            g = gs.pop()
            kind = with_item('global', globs, g=g, GT=GLOBALS[file][g])
        else:
            for u, k in globs:
                say(u['pos'], 'W113', '%s() gets different globals (%s): give each '
                    'item its own handler' % (f, ', '.join(sorted(gs))))
    elif nulls and not conts and not globs and not reads:
        kind = with_item('null', nulls)
    else:
        for u, k in kinds:
            say(u['pos'], 'W114', '%s() gets different kinds of data (container, '
                'global, NULL) or reads a NULL one: convert it by hand' % f)
    kind = checked(file, f, df, local_item(kind, uses)) if kind is not None else None
    DECIDED[(file, f)] = kind
    return kind


def backptr(file, f, df, kinds):
    """Decision for handler f whose every item gets data that is not its
    container (kinds: its uses, all 'other'): dict(kind='backptr', ...) when
    the data can move into a new field beside the item, else a string: why
    not."""
    if not norm(df['ptype']).endswith('*'):
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
    text = file_text(file)
    sd = struct_def(text, t)
    nf = fld + '_data'
    hdr = None
    if sd is None:
        # a header of the run that this file includes: its own run adds
        # the field (wqport convert hands it over)
        found = [(h, struct_def(file_text(h), t)) for h in RUN_HEADERS]
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
    if re.search(r'\b%s\b' % re.escape(nf), text + (file_text(hdr) if hdr else '')):
        return 'the name %s is taken' % nf
    return dict(kind='backptr', S=tag, TT=tname, T=t, fld=fld, nf=nf, delayed=delayed,
                hdr=hdr, line=int(kinds[0][0]['pos'].line))


def request(kind):
    """Ask for @kind's field in the header that defines its container
    (wqport convert adds it there in the header's own run), or, "-" for
    the header, say that this file's pass adds it (wqport convert checks
    that it did: a container spatch does not parse as one gets no field)."""
    if isinstance(kind, dict) and kind.get('kind') == 'backptr' and BACKPTR_OUT:
        with open(BACKPTR_OUT, 'a') as fh:
            fh.write('%s:%s:%s:%s %s %d\n' % (kind['S'] or '', kind['TT'] or '', kind['fld'],
                                             kind['nf'], kind.get('hdr') or '-', kind['line']))


def wrap_name(file, f, df, uses):
    """The name of a new work function that calls f with the data, for a
    back-pointer handler also called directly or used otherwise: f stays
    as it is.  None when the name is taken or an item is set up before f
    is defined (the new function goes right after f)."""
    name = f + '_work'
    if re.search(r'\b%s\b' % re.escape(name), file_text(file)):
        return None
    first = min(int(u['pos'].line) for u in uses)
    if first < int(df['pos'].line) and not wrap_proto(file, f, first):
        return None
    return name


def wrap_proto(file, f, first):
    """Whether f has a prototype before line first (its first use as a
    handler, before its definition: 2.6.18's tlan.c), beside which the new
    work function gets one too."""
    return any(l < first for l in PROTOS.get(file, {}).get(f, []))


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
    known = KNOWN.get(file, set())
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
        say(p, wid, msg)
    return None if found else kind


def item_addr(kind, item):
    """The work_struct address for a work item expression &x (delayed: &x.work)."""
    if kind['delayed']:
        return item + '.work'
    return item


def call_arg(kind, a):
    """New argument for a direct call f(a), or None."""
    a = norm(a)
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
            a == norm(kind['value']) or (a in ('NULL', '0') and kind['value'] == 'NULL')):
        return item_addr(kind, kind['item'])
    return None


# ------------------------------------------------- what the rules record
# Each takes the metavariables of its rule: names and expressions as
# strings, positions as coccilib's (file, line, column, current_element).


def record_global(g, T, p):
    """A file-scope variable g of type T declared at p."""
    if p.current_element == g and '(' not in T:
        tbl(GLOBALS, p.file, {})[g] = T
        tbl(GLOBALLINE, p.file, {}).setdefault(g, int(p.line))


def record_use(macro, W, D, f, p, pf):
    """macro(W, f, D) at p (INIT_WORK, PREPARE_WORK and their _DELAYED_
    forms), the handler's name at pf."""
    CURFILE[0] = p.file
    if f != 'NULL':     # no handler yet: 02's rule on NULL handles it
        tbl(USES, p.file, {}).setdefault(f, []).append(
            dict(macro=macro, W=norm(W), D=norm(D), pos=p))
        known(pf)


def record_statement(p):
    """The use at p is a statement of its own: a back-pointer's store can
    go before it (backptr())."""
    tbl(STMT, p.file, set()).add(key(p))


def record_declare(macro, n, D, f, pf):
    """macro(n, f, D); (DECLARE_WORK, DECLARE_DELAYED_WORK), f at pf."""
    CURFILE[0] = pf.file
    tbl(USES, pf.file, {}).setdefault(f, []).append(
        dict(macro=macro, W='&' + n, D=norm(D), pos=pf))
    known(pf)


def record_container_type(p, T):
    """The item of the use at p is &E->fld or &S.fld, E a T * or S a T."""
    tbl(ETYPE, p.file, {})[key(p)] = T


def record_member_container(p, T, g):
    """The item of the use at p is &E->g->fld, E a T *: its container is
    what member g of T points to (member_type())."""
    tbl(ETYPE2, p.file, {})[key(p)] = (T, g)


def record_def(f, data, PT, p):
    """void f(PT data) { ... } at p."""
    CURFILE[0] = p.file
    if f in USES.get(p.file, {}) or f in FOREIGN_USES or f in FOREIGN_BLOCKED:
        tbl(DEFS, p.file, {})[f] = dict(ptype=PT, param=data, pos=p)
        known(p)


def record_def_noarg(f, p):
    """void f(void) { ... } at p: a handler that was cast where it is
    used."""
    CURFILE[0] = p.file
    if (f in USES.get(p.file, {}) or f in FOREIGN_USES) and f not in DEFS.get(p.file, {}):
        tbl(DEFS, p.file, {})[f] = dict(ptype='', param=None, pos=p, noarg=True)
        known(p)


def record_local_type(f, T, p):
    """f (defined at p) says `T *x = data;` before any other use of data."""
    tbl(LOCALT, p.file, {}).setdefault(f, T)


def record_read(f, p, q):
    """f's parameter named at q, f defined at p: a read unless q is the
    parameter's own declaration."""
    if q.current_element == f and (q.line, q.column) != (p.line, p.column):
        if int(q.line) > int(p.line) or q.column != p.column:
            tbl(READS, p.file, set()).add(f)


def record_name(f, name, q):
    """The name `work` or `_work` at q: in f's body, the new parameter
    could not take it."""
    if q.current_element == f:
        (COLLIDE if name == 'work' else COLLIDE_).add((CURFILE[0], f))


def record_proto(f, p):
    """A prototype of f at p."""
    known(p)
    tbl(PROTOS, p.file, {}).setdefault(f, []).append(int(p.line))


# ---------------------------------------- what the rewriting rules read


def decision(f):
    """decide() for f in the file whose rules run now (None before its
    first use is recorded)."""
    return decide(CURFILE[0], f) if CURFILE[0] else None


def backptr_store(f, W):
    """(where a back-pointer handler's data is stored for item W, the
    function the item gets: f, or its new wrapper)."""
    k = decision(f)
    e, sep, _ = backptr_item(norm(W))
    return '%s%s%s' % (e, sep, k['nf']), k.get('wrap') or f


def header_field(tag, item):
    """The field to add after member item of struct tag (a header's own
    run), or None."""
    nf = [a[3] for a in ADD if a[0] == tag and a[2] == item]
    return nf[0] if nf else None


def header_typedef_field():
    """(typedef name, item, field) to add to an untagged typedef (a
    header's own run: the first asked for; wqport convert reports a
    second), or None."""
    nf = [a for a in ADD if not a[0] and a[1]]
    return nf[0][1:4] if nf else None


def finish():
    """At the end of the run: hand the run's other files what they need
    (the handlers whose signature changed, this file's registrations of
    handlers defined elsewhere, the decisions on handlers registered
    elsewhere) and report each handler that a file registers but does
    not define, where no decision reaches it."""
    if HANDLERS_OUT and PATCH:
        with open(HANDLERS_OUT, 'a', encoding='utf-8') as fh:
            for (file, f), k in sorted(DECIDED.items()):
                if k and not k.get('wrap') and f in DEFS.get(file, {}):
                    fh.write('%s %s\n' % (f, '_work' if (file, f) in COLLIDE else 'work'))
    if USES_OUT and PATCH and not FOREIGN_ONLY:
        with open(USES_OUT, 'w', encoding='utf-8') as fh:
            json.dump(dict((f, [dict(macro=u['macro'], W=u['W'], D=u['D'],
                                     etype=etype_of(file, u), stmt=stmt_of(file, u),
                                     tdef=bool(etype_of(file, u)) and
                                     struct_def(file_text(file), etype_of(file, u)) is not None)
                                for u in us])
                           for file, fs in USES.items() for f, us in fs.items()
                           if f in FOREIGN), fh)
    if DECIDED_OUT and PATCH and not FOREIGN_ONLY:
        with open(DECIDED_OUT, 'w', encoding='utf-8') as fh:
            json.dump(dict((f, DECIDED.get((file, f)))
                           for file, fs in DEFS.items() for f in fs if f in FOREIGN_USES), fh)
    for file, fs in USES.items():
        try:
            with open(file, encoding='utf-8', errors='replace') as fh:
                text = fh.read()
        except (IOError, OSError):
            continue
        for f, uses in sorted(fs.items()):
            undefined(file, text, f, uses)


def undefined(file, text, f, uses):
    """Report handler f of USES in FILE (TEXT) when FILE does not define
    it and no decision of its definer reaches it."""
    if (f in FOREIGN_DECIDED or f in FOREIGN_CYCLE) and f not in DEFS.get(file, {}):
        decide(file, f)     # W105 when its definer could not convert it
        return
    if (file, f) in DECIDED or f in DEFS.get(file, {}) or f in FOREIGN or FOREIGN_ONLY:
        return
    name = re.escape(f)
    proto = re.search(r'\bvoid\s+%s\s*\([^;{)]*\)\s*;' % name, text)
    body = re.search(r'\b%s\s*\([^;{)]*\)\s*\{' % name, text)
    if body:
        return
    # declared here, or in a header (aoe.h for aoedev.c of 2.6.18), or a
    # function pointer
    where = '' if proto else ' (defined in another file, or a pointer to a function)'
    for u in uses:
        m = CTEXT.macro_at(text, int(u['pos'].line))
        if m and f in m[1]:
            # a compat macro of the driver: its users give the handlers
            say(u['pos'], 'W105', '%s is a parameter of the macro %s, around a '
                '3-argument %s(): the handlers its users give stay void f(void *); '
                'make the macro take two arguments and convert each such handler to '
                'void f(struct work_struct *work) by hand' % (f, m[0], u['macro']))
            continue
        say(u['pos'], 'W105', '%s() is not defined in this file%s: convert it to '
            'void %s(struct work_struct *work) by hand' % (f, where, f))
