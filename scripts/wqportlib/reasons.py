# SPDX-License-Identifier: GPL-2.0
"""The items wqport convert reports, and their stable IDs.

Every reason the stages and the checks can give carries an ID where it is
written (`wqport[W008]: ...` in the stages' output; Item.id here): W0nn for
stage 1 (task queues), W1nn for stage 2 (the 2.6 workqueue API), W2nn for
the checks wqport convert runs on the stages' output.  Each ID has a page,
docs/reasons/ID.md (what, why, what to do, before and after), which
`wqport explain ID` prints and docs/porting-guide.md lists.
"""
import collections
import os
import re

from . import paths

# One reason at one line of the original file.  stage: stage1, stage2 or
# check; id: W0nn/W1nn/W2nn.
Item = collections.namedtuple('Item', 'line stage id reason')

# FILE:LINE: wqport[ID]: REASON, as semantic-patches/apply-stage writes them
REPORT_LINE = re.compile(r'^(.*):(\d+): wqport\[(W\d{3})\]: (.*)$')
ID = re.compile(r'^W\d{3}$')
PAGES = os.path.join(paths.TOP, 'docs', 'reasons')


def normalise(text):
    """TEXT as an ID (w8, 8, W008 all give W008), or None."""
    m = re.match(r'^[Ww]?0*(\d{1,3})$', text.strip())
    return 'W%03d' % int(m.group(1)) if m else None


def page(wid):
    """The text of WID's page, or None when there is none."""
    try:
        with open(os.path.join(PAGES, wid + '.md'), encoding='utf-8') as f:
            return f.read()
    except OSError:
        return None


def titles():
    """{ID: title} of every page, from each page's first heading."""
    out = {}
    try:
        names = sorted(os.listdir(PAGES))
    except OSError:
        return out
    for name in names:
        wid = name[:-3]
        if name.endswith('.md') and ID.match(wid):
            first = (page(wid) or '').split('\n', 1)[0]
            out[wid] = re.sub(r'^#\s*W\d{3}:\s*', '', first).strip()
    return out


def group(items):
    """ITEMS (of one file, sorted) with the repeats of one cause made one:
    [(Item at the first line, [every line])], in the order of first lines.
    One cause is one ID with one reason."""
    seen = {}
    out = []
    for it in items:
        k = (it.id, it.stage, it.reason)
        if k in seen:
            if it.line not in seen[k][1]:
                seen[k][1].append(it.line)
        else:
            seen[k] = (it, [it.line])
            out.append(seen[k])
    return out


def format_line(where, line, lines, wid, reason):
    """One item as a compiler writes a diagnostic, its other lines after."""
    also = ''
    if len(lines) > 1:
        also = ' [also line%s %s]' % ('s' if len(lines) > 2 else '',
                                     ', '.join(str(n) for n in lines[1:]))
    return f'{where}:{line}: wqport[{wid}]: {reason}{also}'
