# SPDX-License-Identifier: GPL-2.0
"""spatch_mask: the code spatch 1.1.1 cannot parse, hidden from it line for
line while wqport convert works on a file.

spatch gives up on every GNU attribute that has arguments, wherever it is
(2.4's ns83820.c: `char pad[16] __attribute__((aligned(16)));` in the
structure that holds its task; `int v __attribute__((section(".x")));`),
and on any attribute inside a macro's argument (2.6's paride/pseudo.h:
`static DEFINE_SPINLOCK(ps_spinlock __attribute__((unused)));`); also on a
driver's own name for one (`#define __DMA_ALIGN__
__attribute__((__aligned__(L1_CACHE_BYTES)))`, a vendor MoCA driver, used
after its fields), and a name for one without arguments it takes for
something else.  It then skips everything around it, and wqport convert
refuses a file whose deferred-work code is in what it skips.  No rule of
the stages reads an attribute, so hide() puts a comment in the place of
each such one, on its line, and show() puts it back after the stages.
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


# `#define NAME __attribute__((...))`: a name of the driver's for an attribute
ATTR_MACRO = re.compile(r'^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+'
                        r'(__attribute__[ \t]*\(\(.*\)\))[ \t]*$', re.M)


def attr_macros(text):
    """The names TEXT defines as an attribute: spatch cannot parse one with
    arguments, and takes any other it does not know for a declarator
    (ndiswrapper's `#define packed __attribute__((packed))`: `struct foo
    {...} packed;` is to spatch a variable, not the definition stage 2
    adds a field to)."""
    blank = wqport_tq.blank_text(text)
    return {m.group(1) for m in ATTR_MACRO.finditer(blank)}


def _unparsed(attr):
    """Is ATTR, an `__attribute__((...))`, one spatch cannot parse where it
    stands alone: one with arguments?"""
    inner = attr[attr.index('((') + 2:-2]
    return '(' in inner


def hide(text, names=()):
    """(TEXT with each attribute spatch cannot parse replaced by a marker
    comment, the attributes in marker order).  NAMES: more names of such
    attributes (the run's headers define them), beside those TEXT
    defines; their #define lines stay."""
    blank = wqport_tq.blank_text(text)      # comments and literals aside
    names = set(names) | attr_macros(text)
    spans = []
    for m in ATTR.finditer(blank):
        end = _close(blank, m.end() - 2)
        if end is None:
            continue
        after = blank[end:].lstrip(' \t')
        if _unparsed(blank[m.start():end]) or after.startswith(')'):
            spans.append((m.start(), end))
    if names:
        rx = re.compile(r'\b(?:%s)\b' % '|'.join(sorted(map(re.escape, names))))
        for m in rx.finditer(blank):
            line = blank[blank.rfind('\n', 0, m.start()) + 1:m.start()]
            if not line.lstrip().startswith('#'):
                spans.append((m.start(), m.end()))
    saved, out, at = [], [], 0
    for start, end in sorted(spans):
        if start < at:
            continue
        out.append(text[at:start])
        out.append(MARK % len(saved))
        saved.append(text[start:end])
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
