# SPDX-License-Identifier: GPL-2.0
"""wqport_delayed: which work items become struct delayed_work, for
01-delayed-work.cocci.

Before 2.6.20 a delayed work item was a plain work_struct; since, it is a
struct delayed_work, and every use of it must say so.  The patch's rules
record each use of an item (record_*(): delayed calls, plain work calls,
the structures that hold field items, wrappers that hand their struct
work_struct * parameter to a delayed call, the items a file declares);
settle() then decides, once per file, which items are delayed (is_ok_*():
the rules that rewrite ask) and reports what stops one (say(): wqport[ID],
docs/reasons/ID.md): a delayed call through a pointer (W101), an item
declared outside the run (W102), an item also handed on as a plain
work_struct (W103), a member of the item used directly (W104).

An item is known by its key: ('var', name) for a variable, ('field',
name) for a field, told apart from another structure's field of the same
name by the structure where the source says it (TYPED, DTYPES).  Under
wqport convert the facts of the run's other files come in the environment
(configure()), and a facts pass writes this file's (write_facts()).

Every table is keyed by file: one spatch process may see many files, and
new_file() starts each.  Needs no spatch: tests/decisions drives it.
"""

import json
import os
import re

import wqport_ctext as CTEXT
import wqport_say


DELAYED = {}      # file -> set of item keys used with a delayed call
BAD = {}          # file -> set of item keys used in other ways
KNOWN = {}        # file -> set of (line, col) of uses in known calls
CANDIDATES = {}   # file -> {function: (index, name) of a work_struct * parameter}
PROTOS = {}       # file -> {function: index of a work_struct * parameter}, prototypes
WRAPDEF = {}      # file -> {function: (index, name) of the parameter it delays}
WRAPCALLS = {}    # file -> {function: [whether it passes an item, per call]}
WRAPKEYS = {}     # file -> [(function, item key, position)] of wrapper calls
WRAPARGS = {}     # file -> set of (line, item) passed to a wrapper
MACRO_USES = {}   # file -> [(macro, argument, position, the wrapper function it is
                  # in when it hands on that function's parameter, else None)]
POINTERS = []     # (position, item, function) of delayed calls through a pointer
DECLARED = {}     # file -> set of item names declared in the file
FIRST = {}        # file -> {key: position of its first delayed call}
TYPED = {}        # (file, line, base, field) -> the structure of base->field / base.field
DTYPES = {}       # file -> {field: set of structures of its delayed uses (None: not told)}
UNTYPED = {}      # file -> set of field names some use of which does not tell its structure
USES = []         # (item, position, delayed?) of this file's work calls
WORKFIELDS = set()  # the field names of this file's work calls
CURFILE = [None]  # the file whose rules run now
REPORTER = wqport_say.Reporter()
say = REPORTER.say
SAID = REPORTER.said    # what say() said, in order: (position, message)

# Set by configure(), from the environment wqport convert gives a run: the
# facts of its other files.  RUN_DELAYED: items another file uses with
# delayed calls; RUN_BAD: those another file hands on as a plain
# work_struct; RUN_DTYPES: {field: the structures of its delayed uses (None:
# a use that does not tell)}; RUN_UNTYPED: field names some use of which
# does not tell its structure; RUN_WRAPPERS, RUN_CANDIDATES: {function:
# index of its work parameter} of the run's wrappers, and of the functions
# that may be (their calls count for the facts); RUN_DECLARED: the items the
# run's files declare.  IN_RUN: run by wqport convert (facts shared);
# FACTS: the facts pass, the file it writes this file's facts to.
RUN_DELAYED = set()
RUN_BAD = set()
RUN_DTYPES = {}
RUN_UNTYPED = set()
RUN_WRAPPERS = {}
RUN_CANDIDATES = {}
RUN_DECLARED = set()
# (macro, parameter) a driver's wrapper macro hands on: in a #define's body
# (spatch's current_element is 'something_else' there) that parameter is
# what each use passes, no item reached through a pointer, when every use
# passes an item (ok_wrapper())
MACRO_PARAMS = set()
MACROS = set()          # the driver's macros that are wrappers of delayed calls
IN_RUN = False
FACTS = None
TAKEN = [None]      # $WQPORT_FILE when the facts were taken (wqport_fileenv)
SEARCH_DIRS = []    # the run's -I directories (declaring_header())


_TABLES = (DELAYED, BAD, KNOWN, CANDIDATES, PROTOS, WRAPDEF, WRAPCALLS, WRAPKEYS, WRAPARGS, MACRO_USES,
           POINTERS, DECLARED, FIRST, TYPED, DTYPES, UNTYPED, USES, WORKFIELDS)


def configure(env, output=None):
    """Forget everything, and take the run's facts from ENV (a mapping:
    os.environ in spatch); say() prints through OUTPUT."""
    global RUN_DELAYED, RUN_BAD, RUN_DTYPES, RUN_UNTYPED, RUN_WRAPPERS, RUN_CANDIDATES
    global RUN_DECLARED, IN_RUN, FACTS, SEARCH_DIRS, MACRO_PARAMS, MACROS

    def names(var):
        return set(env.get(var, '').split())

    def wrappers(var):
        return dict((w.split(':')[0], int(w.split(':')[1])) for w in names(var) if ':' in w)

    for t in _TABLES:
        t.clear()
    CURFILE[0] = None
    REPORTER.reset(output)
    RUN_DELAYED = names('WQPORT_DELAYED')
    RUN_BAD = names('WQPORT_NOT_DELAYED')
    RUN_DECLARED = names('WQPORT_DECLARED')
    RUN_UNTYPED = names('WQPORT_UNTYPED')
    RUN_DTYPES = {}
    for w in names('WQPORT_DELAYED_TYPES'):
        n, _, t = w.partition('/')
        RUN_DTYPES.setdefault(n, set()).add(t.replace('+', ' ') if t != '?' else None)
    RUN_WRAPPERS = wrappers('WQPORT_WRAPPERS')
    RUN_CANDIDATES = wrappers('WQPORT_WRAPPER_CANDIDATES')
    MACRO_PARAMS = set(tuple(w.split(':', 1)) for w in names('WQPORT_MACRO_PARAMS') if ':' in w)
    MACROS = names('WQPORT_MACRO_WRAPPERS')
    IN_RUN = 'WQPORT_DECLARED' in env
    FACTS = env.get('WQPORT_FACTS')
    SEARCH_DIRS = env.get('WQPORT_SEARCH_DIRS', '').split(os.pathsep)
    TAKEN[0] = env.get('WQPORT_FILE')


set_mode = REPORTER.set_mode     # report and org: say() prints through coccilib


def new_file(env=None):
    """A new file: forget which one the rules saw last.  ENV (os.environ
    in spatch) for another file than the facts were taken for (its
    $WQPORT_FILE: semantic-patches/wqport_fileenv.py): the last file's facts
    are written, as at the end of a process, and ENV's taken."""
    CURFILE[0] = None
    if env is not None and env.get('WQPORT_FILE') != TAKEN[0]:
        if TAKEN[0] is not None:
            write_facts()
        configure(env)


norm = CTEXT.norm


item_key = CTEXT.item_key


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
        import wqport_tq    # stage 1's, beside this one's directory
        return wqport_tq.declaring_header(f, name, SEARCH_DIRS)
    except Exception:
        return None


def ok_wrapper_param(f, p):
    d = WRAPDEF.get(CURFILE[0], {}).get(f)
    return ok_wrapper(f) and d is not None and d[1] == p


def wrapper_call(fn, X, p):
    """A call of wrapper fn that passes X where it delays its parameter.
    fn a driver's macro and X the work parameter of the function the call
    is in: that function hands it on to the delayed call, so it is a
    wrapper itself (and the call does not count against the macro, which
    is left as it is: what it is given there is what the function's own
    callers pass)."""
    CURFILE[0] = p.file
    k = item_key(X)
    c = CANDIDATES.get(p.file, {}).get(p.current_element)
    if k is None and fn in MACROS and c is not None and c[1] == norm(X):
        WRAPDEF.setdefault(p.file, {})[p.current_element] = c
        MACRO_USES.setdefault(p.file, []).append((fn, norm(X), p, p.current_element))
        return
    if fn in MACROS:
        MACRO_USES.setdefault(p.file, []).append((fn, norm(X), p, None))
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
    return delayed(item_key(x), use_type(x, p))


def is_ok_item(x, p):
    k = item_key(x)
    return delayed(k, use_type(x, p)) and not bad(k)


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


# ------------------------------------------------- what the rules record
# Each takes the metavariables of its rule: names and expressions as
# strings, positions as coccilib's (file, line, column, current_element).


def record_declared(name, p):
    """Item name (a field or variable of type struct work_struct or
    delayed_work, or DECLARE_WORK's) declared at p."""
    DECLARED.setdefault(p.file, set()).add(name)


def record_typedef_field(fld, T, p):
    """Field fld of a structure known by T at p: a typedef name does not
    tell which structure, so its uses cannot be told apart by it."""
    if tname(T) is None:
        UNTYPED.setdefault(p.file, set()).add(fld)


def record_candidate(fn, n, P, p):
    """fn, defined at p, takes a struct work_struct *P as parameter n."""
    CANDIDATES.setdefault(p.file, {}).setdefault(fn, (int(n), P))


def record_prototype(fn, n, p):
    """A prototype of fn at p with a struct work_struct * parameter n."""
    PROTOS.setdefault(p.file, {}).setdefault(fn, int(n))


def record_delayed_call(X, p, px):
    """A delayed call on X at p (X at px): an item, or a wrapper's
    parameter, or a pointer (W101 unless a wrapper's)."""
    CURFILE[0] = p.file
    use(X, px, True)
    k = item_key(X)
    if k is None:
        c = CANDIDATES.get(p.file, {}).get(p.current_element)
        if c is not None and c[1] == norm(X):
            WRAPDEF.setdefault(p.file, {})[p.current_element] = c
        POINTERS.append((p, norm(X), p.current_element))
    else:
        DELAYED.setdefault(p.file, set()).add(k)
        FIRST.setdefault(p.file, {}).setdefault(k, p)


def record_work_call(X, px):
    """A plain work call on X (INIT_WORK, queue_work, ...) at px."""
    CURFILE[0] = px.file
    use(X, px, False)


def record_type(T, E, fld, p):
    """E->fld (or E.fld) at p, E of structure T (or a T *)."""
    TYPED[(p.file, p.line, norm(E), fld)] = ' '.join(T.split())


def gather_types():
    """Once per file, after the structures of its field uses are known:
    what each work call's item tells."""
    for x, px, d in USES:
        fact_use(x, px, d)
    del USES[:]
    WORKFIELDS.clear()


def record_known(X, p):
    """X at p in a call this patch knows how to carry over."""
    if is_ditem(X, p):
        KNOWN.setdefault(p.file, set()).add((p.line, p.column))


def settle():
    """Once per file, after every use is recorded: what the wrappers'
    calls make delayed; delayed calls through a pointer other than an ok
    wrapper's parameter are reported (W101); a delayed item declared in no
    file of the run is reported and left alone (W102)."""
    f = CURFILE[0]
    if f is None:
        return
    for fn, k, p in WRAPKEYS.get(f, []):
        if ok_wrapper(fn):
            DELAYED.setdefault(f, set()).add(k)
            if k[0] == 'field':
                DTYPES.setdefault(f, {}).setdefault(k[1], set()).add(None)
            FIRST.setdefault(f, {}).setdefault(k, p)
    for p, X, fn in POINTERS:
        if p.file == f and not (ok_wrapper(fn) and
                                WRAPDEF.get(f, {}).get(fn, (0, None))[1] == X) and \
                not (fn == 'something_else' and
                     X in {m[1] for m in MACRO_PARAMS if ok_wrapper(m[0])}):
            say(p, 'W101', 'delayed call on %s, a work item reached through a pointer: '
                'make the item it points to a struct delayed_work and this pointer a '
                'struct delayed_work * by hand' % X)
    # a driver's macro that some use gives what is not an item converts
    # nothing, and each use expands to a delayed call on a work_struct; so
    # does a use handing on the parameter of a wrapper that is not one of
    # the run (a caller passes what is not an item, or there is none)
    for fn, X, p, outer in MACRO_USES.get(f, []):
        if not ok_wrapper(outer or fn):
            say(p, 'W101', 'delayed call through %s() on %s: %s() is given something other '
                'than a work item this run converts (a pointer, or a parameter not declared '
                'struct work_struct *), so nothing it is given becomes struct delayed_work: '
                'make the items it is given struct delayed_work by hand' % (fn, X, fn))
    if FACTS:
        return
    known_here = DECLARED.get(f, set()) | RUN_DECLARED
    for k, p in sorted(FIRST.get(f, {}).items(), key=lambda x: (x[1].line, x[0])):
        if k[1] in known_here or bad(k):
            continue
        BAD.setdefault(f, set()).add(k)
        alias = typedef_declared(f, k[1])
        if alias:
            say(p, 'W102', '%s is used with delayed calls, but it is declared with %s, a '
                'typedef of struct work_struct (line %d): it is not converted to struct '
                'delayed_work; declare it struct delayed_work (the typedef may stay for '
                'items used as plain work) and convert its uses by hand' % ((k[1],) + alias))
            continue
        hdr = declaring_header(f, k[1])
        say(p, 'W102', '%s is used with delayed calls, but its struct work_struct is declared '
            'outside %s (%s): it is not converted to struct delayed_work; convert that '
            'header in the same run%s, or make it struct delayed_work and convert its '
            'uses by hand'
            % (k[1], 'this run' if IN_RUN else 'this file',
               'in ' + hdr if hdr else 'a header?',
               '' if hdr and hdr.startswith('"') else ' (wqport convert -I for <...>)'))


TYPEDEF_WORK = re.compile(r'\btypedef\s+struct\s+work_struct\s+(\w+)\s*;')


def typedef_declared(f, name):
    """(typedef, its line) when name is declared in file f with a typedef
    of struct work_struct the file makes, else None."""
    try:
        with open(f, errors='replace') as fh:
            text = fh.read()
    except OSError:
        return None
    for m in TYPEDEF_WORK.finditer(text):
        if re.search(r'\b%s\s+(?:\w+\s*,\s*)*%s\s*[;,\[]' % (m.group(1), re.escape(name)),
                     text):
            return m.group(1), text.count('\n', 0, m.start()) + 1
    return None


def record_any_use(X, p):
    """Any use of delayed item X at p: one no known call explains (nor a
    wrapper's argument) hands the item on as a work_struct (W103)."""
    if (p.line, p.column) in KNOWN.get(p.file, set()) or \
            (p.line, norm(X)) in WRAPARGS.get(p.file, set()):
        return
    k = item_key(X)
    BAD.setdefault(p.file, set()).add(k)
    try:
        with open(p.file, encoding='latin-1') as fh:
            text = fh.read().split('\n')[int(p.line) - 1]
    except (OSError, IndexError, ValueError):
        text = ''
    m = re.search(r'\b(tasklet_\w+)\s*\(', text)
    if m:
        # a name that is a tasklet in one configuration (#ifdef) and a
        # work item in another: no struct work_struct is handed on here
        say(p, 'W103', '%s is used with delayed calls but is given to %s() here (a '
            'tasklet of the same name, in another preprocessor branch?): its uses cannot '
            'be told apart by branch, so it is not converted to struct delayed_work; '
            'convert the work branch by hand' % (norm(X), m.group(1)))
    else:
        # stored in a variable: name it, and the calls through it are
        # that variable's (their type errors are this item's)
        last = re.findall(r'\w+', norm(X))
        v = re.search(r'\b(\w+)\s*=(?!=)\s*&?[\w\s.>()\[\]-]*\b%s\s*;' % re.escape(last[-1]),
                      text) if last else None
        say(p, 'W103', '%s is used with delayed calls but also handed on here as a '
            'struct work_struct%s: it is not converted to struct delayed_work; '
            'convert it by hand (the struct work_struct inside is %s.work)'
            % (norm(X), ' (to %s, and the delayed calls through %s)' % (v.group(1), v.group(1))
               if v else '', norm(X)))


def record_member(fld, m, E, p, pe):
    """Member m of field item fld used directly at p (E->fld.m, E at pe):
    W104, unless the source tells that E->fld is another structure's field
    of the name (2.6.18 infiniband cm.c: timewait_info->work is a struct
    cm_work)."""
    t = TYPED.get((pe.file, pe.line, norm(E), fld))
    if delayed(('field', fld), tname(t)):
        BAD.setdefault(p.file, set()).add(('field', fld))
        say(p, 'W104', 'member %s of work item %s is used directly: %s is not converted '
            'to struct delayed_work; convert it by hand' % (m, fld, fld))


def write_facts():
    """The facts pass: this file's facts, for the run's other files."""
    if not FACTS:
        return
    out = dict(delayed=[], bad=[], wrappers={}, wcalls={}, wkeys={}, declared=[])
    for f in set(DELAYED) | set(WRAPDEF) | set(WRAPCALLS) | set(DECLARED) | set(BAD) | \
            set(DTYPES) | set(UNTYPED):
        out['delayed'] += sorted(k[1] for k in DELAYED.get(f, set()))
        for n, ts in DTYPES.get(f, {}).items():
            out.setdefault('dtypes', {}).setdefault(n, []).extend(
                sorted(t or '?' for t in ts))
        out.setdefault('untyped', []).extend(sorted(UNTYPED.get(f, set())))
        out['bad'] += sorted(k[1] for k in BAD.get(f, set()) if k)
        out['wrappers'].update(dict((fn, d[0]) for fn, d in WRAPDEF.get(f, {}).items()))
        for fn, calls in WRAPCALLS.get(f, {}).items():
            out['wcalls'].setdefault(fn, []).extend(calls)
        for fn, k, p in WRAPKEYS.get(f, []):
            out['wkeys'].setdefault(fn, []).append(k[1])
        out['declared'] += sorted(DECLARED.get(f, set()))
    with open(FACTS, 'w', encoding='utf-8') as fh:
        json.dump(out, fh)
