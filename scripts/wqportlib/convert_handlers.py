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

The prototypes: stage 2's 02-work-handler.cocci gives a handler the 2.6.20 signature where it
is defined, and spatch changes that file's prototypes with it.  A prototype
elsewhere (the driver's header, an extern in another .c of the module, a
header outside the run) would be left taking void *, and the driver would no
longer build.  Each .c's stage-2 pass writes the handlers it converted
(WQPORT_HANDLERS_OUT); share() hands their names to the files that declare
them, whose pass of 08-handler-prototypes.cocci changes the prototypes; check()
reports any prototype left disagreeing, and the calls of a converted handler
from another file of the run, which still pass the old data (W122).
"""
import json
import os
import re

from . import reasons
from .convert_check import args_of, wqport_tq

_REGISTRATION = re.compile(r'\b(?:(?:INIT|PREPARE)(?:_DELAYED)?_WORK|DECLARE(?:_DELAYED)?_WORK)'
                           r'\s*\(')
_DEFINITION = re.compile(r'(?m)^([^\n;{}#()]*)\bvoid\s+(\w+)\s*\([^()]*\)\s*\{')


def _text(src):
    with open(src.work, encoding=src.encoding, errors='replace') as f:
        return wqport_tq._blank(f.read())


def _registered(text):
    """{handler: [(start, end)]} of the three-argument registrations in text."""
    out = {}
    for m in _REGISTRATION.finditer(text):
        args = args_of(text, m.end() - 1)
        if len(args) != 3:
            continue
        h = re.match(r'^(?:\(\s*[^()]*(?:\([^()]*\)[^()]*)*\)\s*)*&?\s*(\w+)$', args[1])
        if h:
            depth, i = 0, m.end() - 1
            while i < len(text):
                depth += {'(': 1, ')': -1}.get(text[i], 0)
                i += 1
                if depth == 0:
                    break
            out.setdefault(h.group(1), []).append((m.start(), i))
    return out


def _defined(text):
    """{name: static?} of the functions returning void that text defines."""
    return {m.group(2): 'static' in m.group(1).split() for m in _DEFINITION.finditer(text)}


def plan(cfiles):
    """The .c files in the order of their stage-2 passes, as batches: first
    those that define no handler another file registers, then the defining
    files once every file that registers their handlers has passed.  Sets
    the registering files' WQPORT_FOREIGN (handlers to leave for their
    definer) and WQPORT_USES_OUT, and each definer's WQPORT_DECIDED_OUT."""
    texts = {s: _text(s) for s in cfiles}
    defs = {s: _defined(t) for s, t in texts.items()}
    users = {}                        # definer -> {handler: [registering files]}
    for s, t in texts.items():
        for h in _registered(t):
            if h in defs[s]:
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
            blocked = sorted(h for h, us in users[ready[0]].items()
                             if not all(u in done for u in us))
            ready[0].env['WQPORT_FOREIGN_BLOCKED'] = ' '.join(blocked)
            users[ready[0]] = {h: us for h, us in users[ready[0]].items()
                               if h not in blocked}
        batches.append(ready)
        done |= set(ready)
        left = [d for d in left if d not in ready]
    for d, hs in users.items():
        d.env['WQPORT_DECIDED_OUT'] = d.work + '.decided'
        for h, us in hs.items():
            for u in us:
                names = set(u.env.get('WQPORT_FOREIGN', '').split()) | {h}
                u.env['WQPORT_FOREIGN'] = ' '.join(sorted(names))
                u.env['WQPORT_USES_OUT'] = u.work + '.uses'
    return batches


def _others(src, names):
    """{handler: [line]} of the occurrences of each of names in src's stage-2
    output that are neither three-argument registrations nor prototypes."""
    text = _text(src)
    spans = [x for v in _registered(text).values() for x in v]
    out = {}
    for n in names:
        for m in re.finditer(r'\b%s\b' % re.escape(n), text):
            if any(a <= m.start() < b for a, b in spans):
                continue
            start = text.rfind('\n', 0, m.start()) + 1
            if re.match(r'\s*(?:extern\s+)?void\s*$', text[start:m.start()]):
                continue
            out.setdefault(n, []).append(text.count('\n', 0, m.start()) + 1)
    return out


def give_uses(batch, cfiles):
    """Before a batch of definers passes: the registrations of their
    handlers that the files before them wrote (WQPORT_FOREIGN_USES)."""
    for d in batch:
        if 'WQPORT_DECIDED_OUT' not in d.env:
            continue
        mine = {n for n, st in _defined(_text(d)).items() if not st}
        uses = {}
        for u in cfiles:
            names = set(u.env.get('WQPORT_FOREIGN', '').split()) & mine
            if u is d or not names:
                continue
            try:
                with open(u.work + '.uses') as f:
                    got = json.load(f)
            except (OSError, ValueError):
                got = {}
            others = _others(u, names)
            for n in names:
                e = uses.setdefault(n, {'uses': [], 'others': [], 'files': []})
                e['uses'] += got.get(n, [])
                e['others'] += [f'{os.path.basename(u.path)}:{u.back(x)}'
                                for x in others.get(n, [])]
                e['files'].append(os.path.basename(u.path))
        path = d.work + '.foreign.json'
        with open(path, 'w') as f:
            json.dump(uses, f)
        d.env['WQPORT_FOREIGN_USES'] = path


def decisions(cfiles):
    """The registering files whose handlers' definers decided: each gets
    them (WQPORT_FOREIGN_DECIDED) for its second pass of 02 alone."""
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

_PROTO = r'(?m)^[^\n;{}#]*\bvoid\s+%s\s*\(([^()]*)\)\s*;'
# ... one that does not take the work item
_OLD_PROTO = r'(?m)^[^\n;{}#]*\bvoid\s+%s\s*\(((?:(?!work_struct)[^()])*)\)\s*;'


def _converted(src):
    """{name: parameter name} of the handlers SRC's stage 2 converted that
    other files can see (not static)."""
    try:
        with open(src.work + '.handlers') as f:
            found = dict(line.split() for line in f if len(line.split()) == 2)
        with open(src.work, encoding=src.encoding, errors='replace') as f:
            text = wqport_tq._blank(f.read())
    except OSError:
        return {}
    return {n: p for n, p in found.items()
            if not re.search(r'\bstatic\b[^;{}()]*\b%s\s*\(' % re.escape(n), text)}


def prepare(live):
    """Where each .c's stage-2 pass writes its converted handlers."""
    for s in live:
        if not s.path.endswith('.h'):
            s.env['WQPORT_HANDLERS_OUT'] = s.work + '.handlers'


def _declares(text, names):
    return any(re.search(_OLD_PROTO % re.escape(n), text) for n in names)


def share(live):
    """{name: parameter} of every handler the run's .c files converted; each
    file of the run that declares one of them, defined elsewhere, gets their
    names for its 08 pass (WQPORT_HANDLERS, WQPORT_HANDLERS_RENAMED).
    Returns (the names, the .c files that need that pass: the headers have
    theirs after the .c files anyway)."""
    names, mine = {}, {}
    for s in live:
        if not s.path.endswith('.h'):
            mine[s] = _converted(s)
            names.update(mine[s])
    again = []
    if not names:
        return names, again
    for s in live:
        theirs = {n: p for n, p in names.items() if n not in mine.get(s, {})}
        with open(s.work, encoding=s.encoding, errors='replace') as f:
            text = wqport_tq._blank(f.read())
        if not theirs or not _declares(text, theirs):
            continue
        s.env['WQPORT_HANDLERS'] = ' '.join(sorted(theirs))
        s.env['WQPORT_HANDLERS_RENAMED'] = ' '.join(sorted(n for n, p in theirs.items()
                                                           if p == '_work'))
        if not s.path.endswith('.h'):
            again.append(s)
    return names, again


def check(sources, names):
    """W122 for each prototype of a converted handler that still takes
    something else than the work item: in a file of the run (its output), or
    in a header outside the run that a .c which converted it includes."""
    if not names:
        return
    run = {os.path.realpath(s.path) for s in sources}
    for s in sources:
        if s.refused or s.output is None:
            continue
        text = wqport_tq._blank(s.output.decode(s.encoding, 'replace'))
        for n in sorted(names):
            for m in re.finditer(_PROTO % re.escape(n), text):
                if 'work_struct' in m.group(1):
                    continue
                line = text.count('\n', 0, m.start(1)) + 1
                s.items.append(reasons.Item(
                    s.back(line), 'stage2', 'W122',
                    f'{n}() now takes struct work_struct *{names[n]} where it is defined, '
                    f'but this prototype still takes {" ".join(m.group(1).split())}: '
                    'make it agree by hand'))
    owner = {n: s for s in sources if not s.refused and not s.path.endswith('.h')
             for n in _converted(s)}
    for s in sources:
        if s.refused or s.output is None:
            continue
        text = wqport_tq._blank(s.output.decode(s.encoding, 'replace'))
        for n, o in sorted(owner.items(), key=lambda x: x[0]):
            if o is s:
                continue
            for m in re.finditer(r'(?<![\w.>])%s\s*\(' % re.escape(n), text):
                start = text.rfind('\n', 0, m.start()) + 1
                if re.match(r'\s*(?:extern\s+)?void\s*$', text[start:m.start()]):
                    continue          # a prototype: the loop above
                line = text.count('\n', 0, m.start()) + 1
                s.items.append(reasons.Item(
                    s.back(line), 'stage2', 'W122',
                    f'direct call of {n}(), which now takes the work item (converted in '
                    f'{os.path.basename(o.path)}): pass its struct work_struct instead of '
                    'the old data'))
    for s in sources:
        if s.refused or s.path.endswith('.h'):
            continue
        dirs = s.env.get('WQPORT_SEARCH_DIRS', '').split(os.pathsep)
        for n in sorted(_converted(s)):
            rx = re.compile(_OLD_PROTO % re.escape(n))
            hdr = wqport_tq.declaring_header(s.path, n, dirs, rx=rx, skip=run)
            if hdr is None:
                continue
            out = s.output.decode(s.encoding, 'replace')
            m = re.search(r'(?m)^[^\n;{}#]*\b%s\s*\(\s*struct\s+work_struct\s*\*\s*\w+\s*\)'
                          r'\s*\{' % re.escape(n), wqport_tq._blank(out))
            line = out.count('\n', 0, m.start()) + 1 if m else 1
            s.items.append(reasons.Item(
                s.back(line), 'stage2', 'W122',
                f'{n}() now takes struct work_struct *{_converted(s)[n]}, but its prototype '
                f'in {hdr}, outside this run, still takes void *: give that header to the '
                'same wqport convert run, or change the prototype by hand'))
