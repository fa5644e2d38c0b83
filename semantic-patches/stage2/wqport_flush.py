# SPDX-License-Identifier: GPL-2.0
"""wqport_flush: what stage 2 does with each flush_scheduled_work(), for
07-flush-scheduled-work.cocci.

flush_scheduled_work() waits for everything on the system workqueue and
warns on Linux 6.12.  The patch's rules record what a file puts on that
queue (record_*(): the items it schedules, delayed or not, their handlers,
the file-scope variables, the sizeof()s that could allocate a structure);
site_plan() then says what one flush_scheduled_work() becomes: flush_work()
of up to three items the file owns (an item of a structure with one
instance counts, as does every element of a file-scope array, flushed in a
loop), or why not; when not, private() says whether the file can be given
a private workqueue instead (stage 1's wqport_tq.private_wq: its init and
exit functions, where it is declared) and why_not() what is reported.

Every table is keyed by file: one spatch process may see many files, and
new_file() starts each.  Needs no spatch: tests/decisions drives it.
"""

import re

import wqport_ctext as CTEXT


GLOBALS = {}        # file -> set of file-scope variable names
GLOBALLINE = {}     # file -> {name: line of its first declaration}
ITEMS = {}          # file -> list of (item string, delayed?) in order
PTYPE = {}          # file -> {item string &p->f: type of *p}
SIZED = {}          # file -> set of types some sizeof() measures
UNKNOWN_SIZEOF = set()  # files with a sizeof(expression) of unknown type
TYPED_SZ = set()    # (file, line, column) of a sizeof(expression) of known type
UNTYPED_SZ = set()  # (file, line, column) of every sizeof(expression)
FIRSTFS = {}        # file -> line of its first flush_scheduled_work()
FS_FUNCS = {}       # file -> the functions that call flush_scheduled_work()
SEEN = {}           # file -> lines of the calls of the system workqueue the rules matched
HANDLER_OF = {}     # file -> [(item as registered, its handler)]
TEXT = {}           # file -> its text, comments blanked (read once)
PRIVATE = {}        # file -> private()'s answer
CURFILE = [None]    # the file of the flush_scheduled_work() seen last
TAKEN = [None]      # $WQPORT_FILE when the facts were taken (wqport_fileenv)
# Set by wqport convert: the other files of the module that use the system
# workqueue (a private one given to this file would not hold their items).
OTHERS = []


_TABLES = (GLOBALS, GLOBALLINE, ITEMS, PTYPE, SIZED, UNKNOWN_SIZEOF, TYPED_SZ, UNTYPED_SZ,
           FIRSTFS, FS_FUNCS, SEEN, HANDLER_OF, TEXT, PRIVATE)


def configure(env):
    """Forget everything, and take the run's facts from ENV (a mapping:
    os.environ in spatch)."""
    global OTHERS
    for t in _TABLES:
        t.clear()
    CURFILE[0] = None
    OTHERS = env.get('WQPORT_OTHER_SCHEDULERS', '').split()
    TAKEN[0] = env.get('WQPORT_FILE')


def _tq():
    """stage 1's module (the loader of the .cocci puts its directory on
    sys.path)."""
    import wqport_tq
    return wqport_tq


def new_file(env=None):
    """A new file: forget the last one's private workqueue.  ENV
    (os.environ in spatch) for another file than the facts were taken
    for (its $WQPORT_FILE: semantic-patches/wqport_fileenv.py): ENV's."""
    CURFILE[0] = None
    PRIVATE.clear()
    if env is not None and env.get('WQPORT_FILE') != TAKEN[0]:
        configure(env)


norm = CTEXT.norm


def plan(file):
    """List of flush_work() arguments, or (None, reason)."""
    items = ITEMS.get(file, [])
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
        if not m or m.group(1) not in GLOBALS.get(file, set()):
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


def file_text(file):
    """file's text without comments, or None if it cannot be read.  Latin-1:
    old drivers are, and every byte decodes."""
    if file not in TEXT:
        try:
            with open(file, encoding='latin-1') as f:
                TEXT[file] = CTEXT.blank_comments(f.read())
        except OSError:
            TEXT[file] = None
    return TEXT[file]


def macro_param(file, line, x):
    """Is x a parameter of the function-like #define whose body holds line
    (SCHEDULE_WORK(w) schedule_work(w) in a driver's compat header)?  Such
    an x names no item of the driver: its users do."""
    text = file_text(file)
    m = CTEXT.macro_at(text, int(line)) if text else None
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
    text = file_text(file)
    if text is None:
        return None
    tag = m.group(1)
    if not re.search(r'\bstruct\s+%s\s*\{' % tag, text):
        return None
    inst = CTEXT.struct_instances(text, tag)
    if inst is None:
        return None
    if len(inst) != 1 or inst[0][0] not in GLOBALS.get(file, set()):
        return None
    # declared above every flush_scheduled_work() that would name it
    if inst[0][1] >= FIRSTFS.get(file, 0):
        return None
    return ('[] ' if inst[0][2] else '') + inst[0][0]


def all_initialised(file, g, f):
    """Whether a loop over the whole of array g initialises field f of its
    elements (wqport_ctext.loop_initialises)."""
    text = file_text(file)
    return text is not None and CTEXT.loop_initialises(text, g, f)


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


def private(file):
    """(dict, None): flush_scheduled_work() cannot name the file's items, so
    the file gets a private workqueue (see wqport_tq.private_wq); or (None,
    why not)."""
    if file in PRIVATE:
        return PRIVATE[file]
    if CURFILE[0] != file:
        return None, None     # its flush_scheduled_work() not seen yet
    res = None, None
    out, why = plan(file)
    if out is not None:
        res = None, None
    elif not ITEMS.get(file):
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
            info, whynot = _tq().private_wq(file)
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
    return private(CURFILE[0])[0] if CURFILE[0] else None


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
    last = _tq().last_declaration(p.file, info["init"], fresh=True)
    return last == (int(p.line), int(p.column))


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
    return _tq().return_kind(e)


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
        if not m or m.group(1) not in GLOBALS.get(file, set()):
            return None
        mine |= {x, x + '.work'}
    return mine


def site_plan(p):
    """plan() for the flush_scheduled_work() at p.  In a work handler (2.6
    ran the rest of the queue by hand when keventd flushed it): not the
    handler's own items, whose flush from their own handler would wait for
    itself; None where that cannot be told."""
    file = p.file
    out, why = plan(file)
    fn = p.current_element
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
        if m and GLOBALLINE.get(file, {}).get(m.group(1), 0) > int(p.line):
            return None, ('flush_scheduled_work() warns on Linux 6.12: it would become '
                          'flush_work() of %s, declared below this call: move the '
                          'declaration above it and convert again' % m.group(1))
    return out, why


def in_handler(file):
    """The work handler (of an item the file schedules) that calls
    flush_scheduled_work(), or None: a private workqueue flushed there
    would be flushed from its own work."""
    scheduled = set(x for x, _ in ITEMS.get(file, []))
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


# ------------------------------------------------- what the rules record
# Each takes the metavariables of its rule: names and expressions as
# strings, positions as coccilib's (file, line, column, current_element).


def record_global(g, p):
    """A file-scope variable g declared at p (DECLARE_WORK's n too)."""
    if p.current_element == g:
        GLOBALS.setdefault(p.file, set()).add(g)
        GLOBALLINE.setdefault(p.file, {}).setdefault(g, int(p.line))


def record_declare(n, p):
    """DECLARE_WORK(n, ...) or DECLARE_DELAYED_WORK(n, ...) at p."""
    GLOBALS.setdefault(p.file, set()).add(n)
    GLOBALLINE.setdefault(p.file, {}).setdefault(n, int(p.line))


def record_handler(W, f, p):
    """Item W's handler is f (INIT_WORK(W, f, ...) and the like at p; for
    DECLARE_WORK(n, f, ...), W is &n)."""
    HANDLER_OF.setdefault(p.file, []).append((norm(W), f))


def record_schedule(X, p):
    """X put on the system workqueue at p (schedule_work() and the like)."""
    items = ITEMS.setdefault(p.file, [])
    if norm(X) not in [x for x, _ in items] and not macro_param(p.file, p.line, norm(X)):
        items.append((norm(X), False))
    SEEN.setdefault(p.file, set()).add(int(p.line))


def record_delayed(X, p):
    """X put on the system workqueue as delayed work at p."""
    ITEMS[p.file] = [(x, True if x == norm(X) else d) for x, d in ITEMS.get(p.file, [])]


def record_pointer_item(T, P, fld, p):
    """&P->fld scheduled at p, P a T *."""
    PTYPE.setdefault(p.file, {})['&%s->%s' % (norm(P), fld)] = \
        norm(T).replace('struct', 'struct ', 1)


def record_sizeof_expr(p, T=None):
    """sizeof(E) at p, E of type T; T None: the rule that sees every
    sizeof(E) (one of a type spatch does not know may measure any
    structure)."""
    if T is not None:
        record_sizeof_type(T, p)
    (UNTYPED_SZ if T is None else TYPED_SZ).add((p.file, p.line, p.column))


def record_sizeof_type(T, p):
    """sizeof(T) at p, T a type (or the type of sizeof(E)'s E)."""
    SIZED.setdefault(p.file, set()).add(re.sub(r'\s+', ' ', T.strip()))


def record_flush(p):
    """flush_scheduled_work() at p: the rules that rewrite run on its file
    now, every sizeof of it seen."""
    CURFILE[0] = p.file
    SEEN.setdefault(p.file, set()).add(int(p.line))
    FIRSTFS[p.file] = min(FIRSTFS.get(p.file, 1 << 30), int(p.line))
    FS_FUNCS.setdefault(p.file, set()).add(p.current_element)
    if any(k[0] == p.file for k in UNTYPED_SZ - TYPED_SZ):
        UNKNOWN_SIZEOF.add(p.file)


# ------------------------------------- what the rewriting rules read


def why_not(p):
    """What to report for the flush_scheduled_work() at p (W121), or None:
    it becomes flush_work() of the file's items, or the file gets a
    private workqueue."""
    out, why = site_plan(p)
    info, whynot = private(p.file)
    if out is not None or info is not None:
        return None
    return 'wqport[W121]: ' + why + ('; ' + whynot if whynot else '')


def private_names():
    """(workqueue, temporary) names of the file's private workqueue, or
    None."""
    info = current_private()
    if info is None:
        return None
    return info['name'], info['tmp'] or info['name'] + '_err'
