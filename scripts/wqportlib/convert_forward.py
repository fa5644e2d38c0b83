# SPDX-License-Identifier: GPL-2.0
"""A driver's forwarding macro of INIT_WORK or PREPARE_WORK, converted
through its uses (stage 2).

Out-of-tree drivers of 2005-2006 wrapped the calls that changed in 2.6.20 in
macros of their own: acx100's

	#define INIT_WORK_COMPAT(w, f, d) INIT_WORK(w, f, d)

Stage 2's rules see INIT_WORK only inside the #define, where the handler is
a macro parameter (W105), and not at the uses, where the handlers are named.
So for a macro that only forwards its three parameters, in order, to the
old 3-argument form, and is defined once in its group of files (the
files tied by the run's headers; cmd_convert.components()): before stage
2 each use M(a, b, c) in the work copies becomes INIT_WORK/*wqport:M*/(a, b, c) (a
call the rules convert like any other; they keep the comment) and the
#define's body is hidden from them; after stage 2 each use the rules
converted becomes M(a, b) again and the #define takes two parameters.  A
use they left with its data (an item says why) stays written out as
INIT_WORK(a, b, c), which the leftover check reports; with no use converted
everything is put back as it was (and the leftover check reports the
#define).  Line counts never change, so the report's lines hold.
"""
import re

from .convert_check import args_of, live_text

FORWARD = re.compile(
    r'^(?P<head>[ \t]*#[ \t]*define[ \t]+(?P<name>\w+)\((?P<params>[ \t]*(?P<w>\w+)[ \t]*,'
    r'[ \t]*(?P<f>\w+)[ \t]*,[ \t]*(?P<d>\w+)[ \t]*)\))(?P<gap>[ \t]+|[ \t]*\\\n[ \t]*)'
    r'(?P<call>INIT_WORK|PREPARE_WORK)(?P<args>\([ \t]*(?P=w)[ \t]*,[ \t]*(?P=f)[ \t]*,'
    r'[ \t]*(?P=d)[ \t]*\))[ \t]*;?[ \t]*$', re.M)
HIDDEN = 'wqport_forward_'
MARK = re.compile(r'\b(INIT_WORK|PREPARE_WORK)/\*wqport:(\w+)\*/\(')


def _live(text):
    """text as stage 2's output is checked: comments, literals and branches
    no 2.6.20+ kernel compiles blanked, offsets kept."""
    return live_text(text, ('stage2',))


def find(texts):
    """{name: call} of the forwarding macros defined once in TEXTS (the
    work copies of a group of files, before stage 2)."""
    found, defined = {}, {}
    for text in texts:
        live = _live(text)
        for m in re.finditer(r'^[ \t]*#[ \t]*define[ \t]+(\w+)', live, re.M):
            defined[m.group(1)] = defined.get(m.group(1), 0) + 1
        for m in FORWARD.finditer(live):
            # no comment in or after it: restore() rewrites it as written
            if text[m.start():m.end()] == m.group(0):
                found[m.group('name')] = m.group('call')
    return {n: c for n, c in found.items() if defined.get(n) == 1}


def hide(text, macros):
    """TEXT with each 3-argument use of MACROS marked as its call and each
    one's #define body hidden from the rules; unchanged if none is there."""
    if not macros:
        return text
    live = _live(text)
    edits = []
    for m in FORWARD.finditer(live):
        if m.group('name') in macros:
            edits.append((m.start('call'), m.start('call'), HIDDEN))
    use = re.compile(r'\b(%s)[ \t]*\(' % '|'.join(map(re.escape, sorted(macros))))
    for m in use.finditer(live):
        line_start = live.rfind('\n', 0, m.start()) + 1
        if re.match(r'[ \t]*#[ \t]*define\b', live[line_start:m.start()]):
            continue
        if len(args_of(live, m.end() - 1)) == 3:
            name = m.group(1)
            edits.append((m.start(1), m.end(1), f'{macros[name]}/*wqport:{name}*/'))
    for a, b, new in sorted(edits, reverse=True):
        text = text[:a] + new + text[b:]
    return text


def converted(texts):
    """The macros at least one marked use of which stage 2 converted (two
    arguments left), across TEXTS (the run's work copies after stage 2)."""
    done = set()
    for text in texts:
        for m in MARK.finditer(text):
            if len(args_of(text, m.end() - 1)) == 2:
                done.add(m.group(2))
    return done


def restore(text, done):
    """TEXT with the marks and hidden bodies gone: a converted use of a
    macro of DONE is the macro again, its #define takes two parameters; a
    use left with its data stays the written-out call; a macro not in DONE
    is put back whole."""
    def use(m):
        if m.group(2) not in done:
            return m.group(2) + '('
        if len(args_of(text, m.end() - 1)) == 2:
            return m.group(2) + '('
        return m.group(1) + '('
    text = MARK.sub(use, text)

    def define(m):
        if m.group('name') not in done:
            return m.group(0)
        return (m.group('head').replace(m.group('params'), f'{m.group("w")}, {m.group("f")}')
                + m.group('gap') + HIDDEN + m.group('call') + f'({m.group("w")}, {m.group("f")})')
    text = HIDDEN_FORWARD.sub(define, text)
    return text.replace(HIDDEN, '')


HIDDEN_FORWARD = re.compile(FORWARD.pattern.replace('(?P<call>', HIDDEN + '(?P<call>'), re.M)
