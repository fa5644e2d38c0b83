# SPDX-License-Identifier: GPL-2.0
"""wqport convert: work handlers across the files of a run.

A handler registered in one .c and defined in another (ipoib_main.c's
INIT_WORK(&priv->pkey_task, ipoib_pkey_poll, priv->dev), ipoib_pkey_poll()
in ipoib_ib.c) is decided where it is defined, from every registration of
the run: plan() orders the .c files so that those that register it pass
first, each writing its registrations (WQPORT_USES_OUT) instead of
reporting W105; the defining file's pass reads them (WQPORT_FOREIGN_USES)
and writes its decision (WQPORT_DECIDED_OUT); decisions() gives those to
the registering files, whose second pass of 02-work-handler.cocci alone
(WQPORT_FOREIGN_DECIDED, WQPORT_FOREIGN_ONLY) rewrites the registrations.

The prototypes: stage 2's 02-work-handler.cocci gives a handler the 2.6.20
signature where it is defined, and spatch changes that file's prototypes
with it.  A prototype
elsewhere (the driver's header, an extern in another .c of the module, a
header outside the run) would be left taking void *, and the driver would no
longer build.  Each .c's stage-2 pass writes the handlers it converted
(WQPORT_HANDLERS_OUT); share() hands their names to the files that declare
them, whose pass of 08-handler-prototypes.cocci changes the prototypes; check()
reports any prototype left disagreeing, and the calls and other uses of a
converted handler from another file of the run (W122).

All of it happens within a group of the run (cmd_convert.components(): the
files that share a header of the run): a function of another group, or one
that a file defines itself or declares static, is another function of the
same name.
"""
import json
import os
import re

from . import reasons
from .convert_check import args_of, live_text, wqport_tq

_REGISTRATION = re.compile(r'\b(?:(?:INIT|PREPARE)(?:_DELAYED)?_WORK|DECLARE(?:_DELAYED)?_WORK)'
                           r'\s*\(')
_DEFINITION = re.compile(r'(?m)^([^\n;{}#()]*)\bvoid\s+(\w+)\s*\([^()]*\)\s*\{')
# a prototype of NAME that does not take the work item
_OLD_PROTO = r'(?m)^[^\n;{}#]*\bvoid\s+%s\s*\(((?:(?!work_struct)[^()])*)\)\s*;'


def _text(src):
    with open(src.work, encoding=src.encoding, errors='replace') as f:
        return wqport_tq.blank_text(f.read())


def _end(text, i):
    """Index just past the parenthesis matching the one at text[i]."""
    depth = 0
    while i < len(text):
        depth += {'(': 1, ')': -1}.get(text[i], 0)
        i += 1
        if depth == 0:
            break
    return i


def _calls(text, rx):
    """[(start, end)] of the calls in text whose name and ( rx matches."""
    return [(m.start(), _end(text, m.end() - 1)) for m in rx.finditer(text)]


def _registered(text):
    """{handler: [(start, end)]} of the three-argument registrations in text."""
    out = {}
    for m in _REGISTRATION.finditer(text):
        args = args_of(text, m.end() - 1)
        if len(args) != 3:
            continue
        h = re.match(r'^(?:\(\s*[^()]*(?:\([^()]*\)[^()]*)*\)\s*)*&?\s*(\w+)$', args[1])
        if h:
            out.setdefault(h.group(1), []).append((m.start(), _end(text, m.end() - 1)))
    return out


def _defined(text):
    """{name: static?} of the functions returning void that text defines."""
    return {m.group(2): 'static' in m.group(1).split() for m in _DEFINITION.finditer(text)}


def _own(text):
    """The names text defines or declares static: its own functions, not
    another file's of the same name."""
    return set(wqport_tq.function_bodies(text)) | \
        set(re.findall(r'\bstatic\b[^;{}()=]*\b(\w+)\s*\(', text))


def _cfiles(group):
    return [s for s in group if not s.path.endswith('.h') and not s.refused]


def plan(groups):
    """The .c files in the order of their stage-2 passes, as batches: first
    those that define no handler another file of their group registers,
    then the defining files once every file that registers their handlers
    has passed.  Sets the registering files' WQPORT_FOREIGN (handlers to
    leave for their definer) and WQPORT_USES_OUT, and each definer's
    WQPORT_DECIDED_OUT."""
    out = []
    for group in groups:
        for i, batch in enumerate(_plan(_cfiles(group))):
            if i == len(out):
                out.append([])
            out[i] += batch
    return out


def _plan(cfiles):
    texts = {s: _text(s) for s in cfiles}
    defs = {s: _defined(t) for s, t in texts.items()}
    own = {s: _own(t) for s, t in texts.items()}
    users = {}                        # definer -> {handler: [registering files]}
    for s, t in texts.items():
        for h in _registered(t):
            if h in own[s]:
                continue
            owners = [d for d in cfiles if d is not s and defs[d].get(h) is False]
            if len(owners) == 1:
                users.setdefault(owners[0], {}).setdefault(h, []).append(s)
    if not users:
        return [cfiles]
    batches = [[s for s in cfiles if s not in users]]
    done, left = set(batches[0]), [d for d in cfiles if d in users]
    while left:
        ready = [d for d in left if all(u in done for us in users[d].values() for u in us)]
        if not ready:
            # files that register each other's handlers: the first passes
            # now, and leaves as they are those of its handlers that files
            # still to come register (W105 there and here)
            ready = left[:1]
            blocked = {h: us for h, us in users[ready[0]].items()
                       if not all(u in done for u in us)}
            ready[0].env['WQPORT_FOREIGN_BLOCKED'] = ' '.join(sorted(blocked))
            for h, us in blocked.items():
                for u in us:
                    _add(u.env, 'WQPORT_FOREIGN_CYCLE', h)
            users[ready[0]] = {h: us for h, us in users[ready[0]].items() if h not in blocked}
        batches.append(ready)
        done |= set(ready)
        left = [d for d in left if d not in ready]
    for d, hs in users.items():
        d.env['WQPORT_DECIDED_OUT'] = d.work + '.decided'
        for h, us in hs.items():
            for u in us:
                _add(u.env, 'WQPORT_FOREIGN', h)
                u.env['WQPORT_USES_OUT'] = u.work + '.uses'
    return batches


def _add(env, var, name):
    env[var] = ' '.join(sorted(set(env.get(var, '').split()) | {name}))


def _others_in(text, names):
    """{name: [line]} of the occurrences of each of names in a (blanked)
    text that are neither three-argument registrations nor prototypes."""
    spans = [x for v in _registered(text).values() for x in v]
    out = {}
    for n in names:
        for m in re.finditer(r'\b%s\b' % re.escape(n), text):
            if any(a <= m.start() < b for a, b in spans) or _is_proto(text, m):
                continue
            out.setdefault(n, []).append(text.count('\n', 0, m.start()) + 1)
    return out


def _is_proto(text, m):
    """Whether the name that m matched is declared there: `void NAME(`
    (extern, static or inline before it) ending in `;`."""
    start = max(text.rfind(c, 0, m.start()) for c in ';{}') + 1
    before = ' '.join(' '.join(x for x in text[start:m.start()].split('\n')
                               if not x.lstrip().startswith('#')).split())
    if not re.match(r'^(?:(?:extern|static|inline) )*void$', before):
        return False
    rest = re.match(r'\s*\([^;{}]*\)\s*;', text[m.end():])
    return rest is not None


def give_uses(batch, groups):
    """Before a batch passes: for each of its files, what the other files of
    its group do with the handlers it defines (WQPORT_FOREIGN_USES): their
    registrations (the files before it wrote them) and their other uses (a
    call, a pointer), which keep a handler from being converted."""
    texts, own = {}, {}             # each file read once per batch
    for d in batch:
        group = [s for s in next(g for g in groups if d in g) if not s.refused]
        for u in group:
            if u not in texts:
                texts[u] = _text(u)
                own[u] = _own(texts[u])
        text = texts[d]
        handlers = {n for n, st in _defined(text).items() if not st}
        registered = set(_registered(text))
        for u in group:
            registered |= set(u.env.get('WQPORT_FOREIGN', '').split()) & handlers
        handlers &= registered
        uses = {}
        for u in group:
            names = handlers - own[u]
            if u is d or not names:
                continue
            got = {}
            if names & set(u.env.get('WQPORT_FOREIGN', '').split()):
                try:
                    with open(u.work + '.uses') as f:
                        got = json.load(f)
                except (OSError, ValueError):
                    pass
            others = _others_in(texts[u], names)
            for n in names:
                if n not in got and n not in others:
                    continue
                e = uses.setdefault(n, {'uses': [], 'others': [], 'files': []})
                e['uses'] += got.get(n, [])
                e['others'] += [f'{os.path.basename(u.path)}:{u.back(x)}'
                                for x in others.get(n, [])]
                e['files'].append(os.path.basename(u.path))
        if uses:
            path = d.work + '.foreign.json'
            with open(path, 'w') as f:
                json.dump(uses, f)
            d.env['WQPORT_FOREIGN_USES'] = path


def decisions(groups):
    """The registering files whose handlers' definers decided: each gets
    them (WQPORT_FOREIGN_DECIDED) for its second pass of 02 alone.  A
    decision goes to the files of the definer's group only: two drivers of
    one run may each define a handler of the same name."""
    again = []
    for group in groups:
        again += _decisions(_cfiles(group))
    return again


def _decisions(cfiles):
    decided = {}
    for d in cfiles:
        if 'WQPORT_DECIDED_OUT' not in d.env:
            continue
        try:
            with open(d.env['WQPORT_DECIDED_OUT']) as f:
                for n, k in json.load(f).items():
                    decided[n] = {'kind': k, 'file': os.path.basename(d.path)}
        except (OSError, ValueError):
            pass
    again = []
    for u in cfiles:
        names = set(u.env.get('WQPORT_FOREIGN', '').split())
        if not names:
            continue
        path = u.work + '.decided.json'
        with open(path, 'w') as f:
            json.dump({n: decided.get(n, {'kind': None, 'file': None}) for n in names}, f)
        u.env['WQPORT_FOREIGN_DECIDED'] = path
        u.env['WQPORT_FOREIGN_ONLY'] = '1'
        again.append(u)
    return again


def _converted(src):
    """{name: parameter name} of the handlers SRC's stage 2 converted that
    other files can see (not static)."""
    try:
        with open(src.work + '.handlers') as f:
            found = dict(line.split() for line in f if len(line.split()) == 2)
    except OSError:
        return {}
    text = _text(src)
    return {n: p for n, p in found.items()
            if not re.search(r'\bstatic\b[^;{}()]*\b%s\s*\(' % re.escape(n), text)}


def prepare(live):
    """Where each .c's stage-2 pass writes its converted handlers."""
    for s in live:
        if not s.path.endswith('.h'):
            s.env['WQPORT_HANDLERS_OUT'] = s.work + '.handlers'


def _theirs(groups):
    """[(file, {name: (parameter, the .c that converted it)})]: for each
    file of the run, the handlers another .c of its group converted, that
    it neither defines nor declares static itself."""
    out = []
    for group in groups:
        conv = {s: _converted(s) for s in _cfiles(group)}
        if not any(conv.values()):
            continue
        for s in group:
            # (a refused file is read as it is: its prototypes count too)
            own = _own(wqport_tq.blank_text(s.data.decode(s.encoding, 'replace'))
                       if s.refused else _text(s))
            theirs = {n: (p, o) for o, c in conv.items() if o is not s
                      for n, p in c.items() if n not in own}
            if theirs:
                out.append((s, theirs))
    return out


def share(groups):
    """Each file of the run that declares a handler another .c of its group
    converted gets its name for its pass of 08 (WQPORT_HANDLERS,
    WQPORT_HANDLERS_RENAMED).  Returns the .c files that need that pass
    (the headers have theirs after the .c files anyway)."""
    again = []
    for s, theirs in _theirs(groups):
        if s.refused:
            continue
        text = _text(s)
        names = {n: p for n, (p, o) in theirs.items()
                 if re.search(_OLD_PROTO % re.escape(n), text)}
        if not names:
            continue
        s.env['WQPORT_HANDLERS'] = ' '.join(sorted(names))
        s.env['WQPORT_HANDLERS_RENAMED'] = ' '.join(sorted(n for n, p in names.items()
                                                           if p == '_work'))
        if not s.path.endswith('.h'):
            again.append(s)
    return again


def check(groups, run):
    """W122 for each prototype of a converted handler that still takes
    something else than the work item, and each other use of it, in the
    other files of its group (their output); and for a prototype in a
    header outside the run (RUN: the real paths of the run's files) that a
    .c which converted it includes."""
    for s, theirs in _theirs(groups):
        text = wqport_tq.blank_text(s.output.decode(s.encoding, 'replace'))
        # a registration, converted or reported already, is no other use
        spans = _calls(text, _REGISTRATION)
        for n, (p, o) in sorted(theirs.items()):
            for m in re.finditer(r'\b%s\b' % re.escape(n), text):
                line = text.count('\n', 0, m.start()) + 1
                if any(a <= m.start() < b for a, b in spans):
                    continue
                if _is_proto(text, m):
                    params = re.match(r'\s*\(([^()]*)\)', text[m.end():]).group(1)
                    if 'work_struct' in params:
                        continue
                    what = (f'{n}() now takes struct work_struct *{p} where it is defined '
                            f'({os.path.basename(o.path)}), but this prototype still takes '
                            f'{" ".join(params.split())}: make it agree by hand')
                elif re.match(r'\s*\(', text[m.end():]):
                    what = (f'direct call of {n}(), which now takes the work item (converted '
                            f'in {os.path.basename(o.path)}): pass its struct work_struct '
                            'instead of the old data')
                else:
                    what = (f'{n}() is used here as a function of its old type, but it now '
                            f'takes struct work_struct * (converted in '
                            f'{os.path.basename(o.path)}): convert this use by hand')
                s.items.append(reasons.Item(s.back(line), 'stage2', 'W122', what))
    for group in groups:
        for s in _cfiles(group):
            dirs = s.env.get('WQPORT_SEARCH_DIRS', '').split(os.pathsep)
            conv = _converted(s)
            for n in sorted(conv):
                rx = re.compile(_OLD_PROTO % re.escape(n))
                hdr = wqport_tq.declaring_header(s.path, n, dirs, rx=rx, skip=run)
                if hdr is None:
                    continue
                out = s.output.decode(s.encoding, 'replace')
                m = re.search(r'(?m)^[^\n;{}#]*\b%s\s*\(\s*struct\s+work_struct\s*\*\s*\w+\s*\)'
                              r'\s*\{' % re.escape(n), wqport_tq.blank_text(out))
                line = out.count('\n', 0, m.start()) + 1 if m else 1
                s.items.append(reasons.Item(
                    s.back(line), 'stage2', 'W122',
                    f'{n}() now takes struct work_struct *{conv[n]}, but its prototype '
                    f'in {hdr}, outside this run, still takes void *: give that header to the '
                    'same wqport convert run, or change the prototype by hand'))


# W105 on a handler that is a parameter of the driver's own wrapper of the
# registration: a macro (the item says so) or a function (hostap's static
# inline HOSTAP_QUEUE_INIT(wq, routine, data) around INIT_WORK(), where the
# item could only say that routine() is not defined in the file)
_MACRO_PARAM = re.compile(r'^(\w+) is a parameter of the macro (\w+),')
_NOT_DEFINED = re.compile(r'^(\w+)\(\) is not defined in this file')
_CALLED = re.compile(r'^(?:\(\s*[^()]*(?:\([^()]*\)[^()]*)*\)\s*)*&?\s*(\w+)$')


def _wrapper_at(text, line, f):
    """(name, index of parameter f, 'macro' or 'function') of the wrapper
    whose definition in text (live, offsets kept) holds 1-based line and
    takes f as a parameter, or None."""
    lines = text.split('\n')
    if not 0 < line <= len(lines):
        return None
    off = sum(len(x) + 1 for x in lines[:line - 1])
    n = line - 1
    while n > 0 and lines[n - 1].rstrip().endswith('\\'):
        n -= 1
    m = re.match(r'^\s*#\s*define\s+(\w+)\(([^)]*)\)', lines[n])
    if m:
        params = [a.strip() for a in m.group(2).split(',')]
        return (m.group(1), params.index(f), 'macro') if f in params else None
    for name, (o, e) in wqport_tq.function_bodies(text).items():
        if o <= off < e:
            head = text[text.rfind(name, 0, o):o]
            params = args_of(head, head.index('('))
            for i, p in enumerate(params):
                # void (*routine)(void *), work_func_t routine, ...
                if re.search(r'(?:\(\s*\*\s*%s\s*\)|\b%s\s*$)' % (re.escape(f), re.escape(f)),
                             p):
                    return name, i, 'function'
            return None
    return None


def name_wrapped(groups):
    """Rewrite each W105 item whose handler is a parameter of a wrapper of
    the registration (see _wrapper_at) so that it names the handlers the
    wrapper's callers give, with where, across the files of the run (those
    that see the wrapper: the whole group of its file)."""
    sources = [s for group in groups for s in group]
    texts = {id(s): live_text(s.text, ('stage2',)) for s in sources if not s.refused}
    of = {id(s): group for group in groups for s in group}
    for s in sources:
        if id(s) not in texts:
            continue
        for k, it in enumerate(s.items):
            if it.id != 'W105':
                continue
            m = _MACRO_PARAM.match(it.reason) or _NOT_DEFINED.match(it.reason)
            w = m and _wrapper_at(texts[id(s)], it.line, m.group(1))
            if not w:
                continue
            name, idx, kind = w
            given = {}
            for t in of[id(s)]:
                text = texts.get(id(t))
                if text is None:
                    continue
                for c in re.finditer(r'\b%s\s*\(' % re.escape(name), text):
                    ls = text.rfind('\n', 0, c.start()) + 1
                    if text[ls:c.start()].lstrip().startswith('#') or \
                            re.match(r'\s*\{', text[_end(text, c.end() - 1):]):
                        continue            # its definition
                    args = args_of(text, c.end() - 1)
                    h = _CALLED.match(args[idx]) if idx < len(args) else None
                    if h:
                        given.setdefault(h.group(1), []).append(
                            '%s:%d' % (os.path.basename(t.path),
                                       text.count('\n', 0, c.start()) + 1))
            if not given:
                continue
            # each handler once, with every place that gives it
            shown = ['%s (%s)' % (h, ', '.join(dict.fromkeys(at))) for h, at in given.items()]
            s.items[k] = it._replace(reason=(
                '%s is a parameter of the %s %s, around a 3-argument registration: the '
                'handlers its users give stay void f(void *): %s; make %s take two '
                'arguments and convert each of them to void f(struct work_struct *work) '
                'by hand' % (m.group(1), kind, name + ('()' if kind == 'function' else ''),
                             ', '.join(shown), name)))
