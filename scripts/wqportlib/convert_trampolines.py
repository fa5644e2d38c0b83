# SPDX-License-Identifier: GPL-2.0
"""convert_trampolines: no handler cast left in stage 1's output.

2.4 drivers registered routines of their own type with a cast,
INIT_TQUEUE(&nl->immediate, (void (*)(void *))plip_bh, dev), and stage 1
keeps the cast in the INIT_WORK() it writes: the shim calls the handler
through void (*)(void *), which traps under kCFI (W203).  When stage 1 is
the last stage (wqport convert --to 2.6), such a handler gets a trampoline
of the type it is called through, before the first top-level declaration
or function that registers it, and the registrations name the trampoline:

    static void plip_bh_work(void *data)
    {
            plip_bh(data);
    }

So are a routine's stores and initializers (x.routine = (void *)f,
routine: (void (*)(void *))f), those of a task kept on the 2.4 API too:
the shim calls its routine the same way.  The handler itself is left as
it is, so its other callers are too.  (Stage 2 gives the handler the
modern prototype itself.)  A handler of more than one parameter, of a
structure by value, or declared neither in the file nor in a header of
the run keeps its cast, and its W203 item.
"""

import re

from . import convert_check as check

REGISTER = re.compile(r'\b(?:INIT_WORK|PREPARE_WORK|DECLARE_WORK|INIT_TQUEUE|PREPARE_TQUEUE)\s*\(')
# a routine stored, or given in an initializer: x.routine = f, routine: f
ROUTINE = re.compile(r'\broutine\s*(?::|=(?!=))')
KEYWORDS = {'char', 'short', 'int', 'long', 'signed', 'unsigned', 'const'}
INTEGER = re.compile(r'^(?:(?:const|unsigned|signed|long|int|short|char)\s*)+$|'
                     r'^(?:u|s|__u|__s)(?:8|16|32|64)$|^(?:ulong|size_t|uintptr_t)$')
DIRECTIVE = re.compile(r'^[ \t]*#(?:[^\n]*\\\n)*[^\n]*', re.M)


def _call(name, params, before):
    """The trampoline's call of handler NAME, by its PARAMS (the text
    between the parentheses of its declaration); None when it cannot be
    called with the data pointer alone.  BEFORE: the text before the
    registration (where a pointer typedef would be)."""
    p = params.strip()
    if p in ('', 'void'):
        return f'{name}();'
    if ',' in p or '(' in p or '...' in p or '[' in p:
        return None
    if '*' in p:
        return f'{name}(data);'
    words = p.split()
    typ = p if len(words) == 1 or words[-1] in KEYWORDS else ' '.join(words[:-1])
    if re.match(r'(?:const\s+)?(?:struct|union)\b', typ):
        return None                     # a structure by value
    if not INTEGER.match(typ) and \
            re.search(r'\btypedef\b[^;{}]*\*\s*%s\s*;' % re.escape(typ), before):
        return f'{name}(data);'
    # an integer (the data pointer held a number), or a typedef of an
    # integer or of a pointer: the cast suits both, with no warning
    return f'{name}(({typ})data);' if typ == 'unsigned long' else \
        f'{name}(({typ})(unsigned long)data);'


def _depths(blank):
    """depth[i]: the brace depth of BLANK before offset i (len + 1 of them)."""
    depth = [0]
    for c in blank:
        depth.append(max(0, depth[-1] + (c == '{') - (c == '}')))
    return depth


def _insertion(blank, depth, at, directives):
    """The offset at which a top-level definition goes before the one
    around offset AT: after the line of the last top-level ';' or '}', or
    the last preprocessor directive (DIRECTIVES: their (start, end), with
    their continuation lines), before it; DEPTH: _depths(BLANK)."""
    i = at
    while i > 0 and depth[i]:
        i -= 1
    # i: where the construct around AT opens its body, or AT at depth 0
    ends = [e for s, e in directives if s < i]
    last = max(ends) if ends else -1
    for j in range(i - 1, last, -1):
        if blank[j] in ';}' and depth[j + 1] == 0:
            end = blank.find('\n', j)
            return len(blank) if end < 0 else end + 1
    return 0 if last < 0 else min(len(blank), last + 1)


def _sites(blank, in_define):
    """(where, start, end) of each place BLANK gives a routine or handler:
    the second argument of a registration call, the value of a .routine
    store or initializer (routine: f, .routine = f); WHERE: the offset
    that places its trampoline."""
    for m in REGISTER.finditer(blank):
        if not in_define[m.start()]:
            spans = check.arg_spans(blank, m.end() - 1)
            if len(spans) == 3:
                yield (m.start(),) + spans[1]
    for m in ROUTINE.finditer(blank):
        if in_define[m.start()]:
            continue
        depth, i = 0, m.end()
        while i < len(blank):
            c = blank[i]
            if c in '([':
                depth += 1
            elif c in ')]':
                depth -= 1
            elif depth <= 0 and c in ',;}':
                break
            i += 1
        yield m.start(), m.end(), i


def _params(h, blank, at, extra):
    """The parameters of handler H as a declaration of it says (before AT
    in BLANK, else anywhere in it, else in EXTRA: the headers of the run
    the file includes); None if none does."""
    rx = re.compile(r'\bvoid\s+%s\s*\(([^()]*)\)\s*[;{]' % re.escape(h))
    d = rx.search(blank, 0, at) or rx.search(blank) or rx.search(extra)
    return d.group(1) if d else None


def add(text, blank_text, extra=''):
    """TEXT (stage 1's output) with a trampoline for each handler or
    routine cast where it is registered (BLANK_TEXT: wqport_tq.blank_text,
    comments and literals blanked; EXTRA: the texts of the run's headers
    the file includes, where a handler may be declared)."""
    blank = blank_text(text)
    extra = blank_text(extra)
    directives = [(m.start(), m.end()) for m in DIRECTIVE.finditer(blank)]
    in_define = [False] * (len(text) + 1)
    for s, e in directives:
        if re.match(r'\s*#\s*define\b', blank[s:e]):
            in_define[s:e] = [True] * (e - s)
    fn_types = {'work_func_t'} | set(check.FN_TYPEDEF.findall(blank + extra))
    cast = r'(?:%s|\(\s*(?:%s)\s*\))' % (check.CAST.pattern,
                                         '|'.join(sorted(map(re.escape, fn_types))))
    arg = re.compile(r'\s*(?:%s\s*)+\(?\s*&?\s*(\w+)\s*\)?\s*$' % cast)
    words = set(re.findall(r'\w+', blank))
    depth = None        # (worked out for the first trampoline)
    tramps = {}         # handler -> (trampoline name, insertion offset, text)
    edits = []          # (start, end, replacement)
    for where, s, e in sorted(_sites(blank, in_define)):
        a = arg.match(blank[s:e])
        if not a:
            continue
        h = a.group(1)
        if h not in tramps:
            params = _params(h, blank, where, extra)
            if params is None or re.match(r'^\s*void\s*\*\s*\w*\s*$', params):
                continue            # undeclared, or the cast changes nothing
            call = _call(h, params, blank[:where] + extra)
            if call is None:
                continue
            name, n = h + '_work', 2
            while name in words:
                name, n = f'{h}_work{n}', n + 1
            words.add(name)
            depth = depth or _depths(blank)
            at = _insertion(blank, depth, where, directives)
            tramps[h] = (name, at, f'static void {name}(void *data)\n{{\n\t{call}\n}}\n')
        lead = len(blank[s:e]) - len(blank[s:e].lstrip())
        trail = len(blank[s:e]) - len(blank[s:e].rstrip())
        edits.append((s + lead, e - trail, (' ' if not lead else '') + tramps[h][0]))
    by_place = {}
    for name, at, body in tramps.values():
        by_place.setdefault(at, []).append(body)
    for at, bodies in by_place.items():
        # a blank line before and after each
        new = '\n'.join(bodies)
        if at > 0 and not text[:at].endswith('\n\n'):
            new = '\n' + new
        if not text[at:].startswith('\n'):
            new += '\n'
        edits.append((at, at, new))
    for start, end, new in sorted(edits, key=lambda x: (x[0], x[1]), reverse=True):
        text = text[:start] + new + text[end:]
    return text
