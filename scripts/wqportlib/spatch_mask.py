# SPDX-License-Identifier: GPL-2.0
"""spatch_mask: the code spatch 1.1.1 cannot parse, hidden from it line for
line while wqport convert works on a file.

spatch gives up on two places of a GNU attribute that old drivers use:
after an array declarator (2.4's ns83820.c: `char pad[16]
__attribute__((aligned(16)));` in the structure that holds its task) and
inside a macro's argument (2.6's paride/pseudo.h: `static
DEFINE_SPINLOCK(ps_spinlock __attribute__((unused)));`).  It then skips
everything around the attribute, and wqport convert refuses a file whose
deferred-work code is in what it skips.  No rule of the stages reads an
attribute, so hide() puts a comment in the place of each such one, on its
line, and show() puts it back after the stages.
"""
import os
import re
import sys

from . import paths

sys.path.insert(0, os.path.join(paths.TOP, 'semantic-patches', 'stage1'))
import wqport_tq  # noqa: E402

MARK = '/*wqport-attr:%d*/'
MARKS = re.compile(r'/\*wqport-attr:(\d+)\*/')
ATTR = re.compile(r'\b__attribute__\s*\(\(')


def _close(text, i):
    """Index just past the parenthesis that matches text[i] == '(', or
    None when the line ends first."""
    depth = 0
    for j in range(i, len(text)):
        c = text[j]
        if c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
            if depth == 0:
                return j + 1
        elif c == '\n':
            return None
    return None


def hide(text):
    """(TEXT with each attribute spatch cannot parse replaced by a marker
    comment, the attributes in marker order)."""
    blank = wqport_tq.blank_text(text)      # comments and literals aside
    saved, out, at = [], [], 0
    for m in ATTR.finditer(blank):
        end = _close(blank, m.end() - 2)
        if end is None or m.start() < at:
            continue
        before = blank[:m.start()].rstrip(' \t')
        after = blank[end:].lstrip(' \t')
        if not (before.endswith(']') or after.startswith(')')):
            continue
        out.append(text[at:m.start()])
        out.append(MARK % len(saved))
        saved.append(text[m.start():end])
        at = end
    out.append(text[at:])
    return ''.join(out), saved


def show(text, saved, strict=True):
    """TEXT with the attributes SAVED back in the place of their markers.
    STRICT: None when a marker is missing or repeated (a rule rewrote the
    code around it); else whatever markers are there."""
    found = [int(n) for n in MARKS.findall(text)]
    if strict and sorted(found) != list(range(len(saved))):
        return None
    return MARKS.sub(lambda m: saved[int(m.group(1))] if int(m.group(1)) < len(saved)
                     else m.group(0), text)
