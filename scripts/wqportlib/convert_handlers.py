# SPDX-License-Identifier: GPL-2.0
"""wqport convert: the prototypes of the work handlers that stage 2 converts.

Stage 2's 02-work-handler.cocci gives a handler the 2.6.20 signature where it
is defined, and spatch changes that file's prototypes with it.  A prototype
elsewhere (the driver's header, an extern in another .c of the module, a
header outside the run) would be left taking void *, and the driver would no
longer build.  Each .c's stage-2 pass writes the handlers it converted
(WQPORT_HANDLERS_OUT); share() hands their names to the files that declare
them, whose pass of 08-handler-prototypes.cocci changes the prototypes; check()
reports any prototype left disagreeing, and the calls of a converted handler
from another file of the run, which still pass the old data (W122).
"""
import os
import re

from . import reasons
from .convert_check import wqport_tq

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
