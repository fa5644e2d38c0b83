#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""wqport_combine: several semantic patches of a stage as one.

Usage: wqport_combine.py OUT A.cocci B.cocci ...

spatch starts once per semantic patch, and its start-up (OCaml, then the
embedded Python of the patches that have any) costs more than most rules'
matching.  apply-stage therefore gives spatch the patches a file needs as
one: their text in order, each file's named rules renamed apart (pNN_ plus
the name, NN being the file's number) so that two files may both name a
rule `c`.  In one semantic patch every rule sees the code as the rules
before it left it, but through spatch's rewritten tree, not a new parse
(apply-stage's starts_run() says what differs, and where a stage needs
a new run).

A rule's name is declared in its header line (`@name ...@`, `@script:python
name ...@`) and used in headers (`depends on name`, `extends name`) and in
metavariable declarations (`name.x`, `x << name.y;`).  Python code (the
bodies of script rules, initialize and finalize) is copied as it is: the
patches of a stage share one interpreter, so their module-level Python
names must not collide (python_clashes() refuses a set where they do;
tests/unit checks each stage's).
"""

import ast
import os
import re
import sys

HEADER = re.compile(r'^@([^@\n]*)@[ \t]*(?://.*)?$')
KIND = re.compile(r'^\s*(?:script|initialize|finalize):\w+\s*')
KEYWORDS = {'depends', 'on', 'exists', 'forall', 'disable', 'using', 'extends',
            'expression', 'ever', 'never', 'file', 'in'}
VIRTUAL = re.compile(r'^virtual\s+(.*)$')
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _roles(lines):
    """(role, kind, line, match) for each of LINES: role 'header' (a rule's
    header; @@ alone opens an anonymous rule), 'decl' (its metavariables),
    'end' (the @@ that ends them), 'body', or 'top' before the first rule;
    kind the rule's Python kind (script, initialize, finalize) or None;
    match HEADER's match of a header line."""
    role, kind = 'top', None
    for line in lines:
        m = HEADER.match(line)
        if m and role != 'decl':
            k = re.match(r'\s*(script|initialize|finalize):python', m.group(1))
            role, kind = 'decl', k and k.group(1)
            yield 'header', kind, line, m
        elif m and not m.group(1).strip():
            role = 'body'
            yield 'end', kind, line, m
        else:
            yield role, kind, line, None


def rule_names(lines):
    """The rule names a semantic patch declares, in its header lines."""
    names = []
    for role, _, _, m in _roles(lines):
        if role != 'header':
            continue
        first = re.match(r'\s*([A-Za-z_]\w*)', KIND.sub('', m.group(1)))
        if first and first.group(1) not in KEYWORDS:
            names.append(first.group(1))
    return names


def _outside_strings(text, fn):
    """fn applied to the parts of TEXT outside "..." strings."""
    out, at = [], 0
    for m in STRING.finditer(text):
        out += [fn(text[at:m.start()]), m.group(0)]
        at = m.end()
    return ''.join(out + [fn(text[at:])])


def renamed(text, prefix):
    """TEXT with its rule names prefixed by PREFIX where they are declared
    and used: in rule headers, and in metavariable declarations (but not in
    their strings or in the Python of a script constraint, `{ ... }`);
    other lines (code, Python, comments) unchanged.  Headers are one line
    each, as in every patch of wqport."""
    lines = text.split('\n')
    names = set(rule_names(lines))
    if not names:
        return text, set()
    alt = '|'.join(sorted(names, key=len, reverse=True))
    word = re.compile(r'(?<![\w.])(' + alt + r')\b(?!\s*\()')
    dotted = re.compile(r'(?<![\w.])(' + alt + r')\.(?=[A-Za-z_])')

    def in_header(t):
        return word.sub(lambda w: prefix + w.group(1), t)

    def in_decl(t):
        return dotted.sub(lambda w: prefix + w.group(1) + '.', t)
    out = []
    for role, _, line, m in _roles(lines):
        if role == 'header':
            kind = KIND.match(m.group(1))
            k = kind.group(0) if kind else ''
            line = '@' + k + _outside_strings(m.group(1)[len(k):], in_header) + \
                line[m.end(1):]
        elif role == 'decl':
            brace = line.find('{')
            head, tail = (line, '') if brace < 0 else (line[:brace], line[brace:])
            line = _outside_strings(head, in_decl) + tail
        out.append(line)
    return '\n'.join(out), names


def _python_regions(text):
    """(kind, source) of each piece of Python in TEXT: the bodies of its
    script, initialize and finalize rules (SmPL comment lines dropped)."""
    regions = []
    for role, kind, line, _ in _roles(text.split('\n')):
        if role == 'header':
            regions.append((kind, []))
        elif role == 'body' and kind and not line.lstrip().startswith('//'):
            regions[-1][1].append(line)
    return [(kind, '\n'.join(body)) for kind, body in regions if kind]


def _bindings(tree):
    """(name, node, looped) for each module-level name the statements of
    TREE bind, in blocks (if, try, for, with) too, and the names a `global`
    binds; looped: bound inside a loop or with body, or as its variable."""
    out = []

    def targets(t):
        for n in ast.walk(t):
            if isinstance(n, ast.Name):
                yield n.id

    def visit(stmts, looped):
        for st in stmts:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.append((st.name, st, looped))
                for n in ast.walk(st):
                    if isinstance(n, ast.Global):
                        out.extend((g, n, False) for g in n.names)
                continue
            inner = looped
            if isinstance(st, (ast.Import, ast.ImportFrom)):
                out.extend(((a.asname or a.name).split('.')[0], st, looped) for a in st.names)
            elif isinstance(st, ast.Assign):
                out.extend((n, st, looped) for t in st.targets for n in targets(t))
            elif isinstance(st, (ast.AugAssign, ast.AnnAssign)):
                out.extend((n, st, looped) for n in targets(st.target))
            elif isinstance(st, (ast.For, ast.AsyncFor)):
                out.extend((n, st, True) for n in targets(st.target))
                inner = True
            elif isinstance(st, (ast.With, ast.AsyncWith)):
                out.extend((n, st, True) for i in st.items if i.optional_vars
                           for n in targets(i.optional_vars))
                inner = True
            elif isinstance(st, ast.While):
                inner = True
            elif isinstance(st, ast.Global):
                out.extend((g, st, False) for g in st.names)
            for field in ('body', 'orelse', 'finalbody'):
                visit(getattr(st, field, []) or [], inner)
            for h in getattr(st, 'handlers', []) or []:
                if h.name:
                    out.append((h.name, h, True))
                visit(h.body, inner)
    visit(tree.body, False)
    return out


def python_names(text):
    """name -> how TEXT's Python binds it at module level: the source of a
    function, class or import (the same text in two files is one thing),
    'transient' for a name set before each use (assigned by a script rule
    or finalize, or in a loop or with body), None for state (initialize
    code, `global`, or a name bound two ways)."""
    names = {}
    for kind, src in _python_regions(text):
        try:
            tree = ast.parse(src)
        except SyntaxError:
            continue                            # spatch reports it anyway
        for name, node, looped in _bindings(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                 ast.Import, ast.ImportFrom)):
                sig = ast.dump(node)
            elif isinstance(node, ast.Global):
                sig = None
            elif kind in ('script', 'finalize') or looped:
                sig = 'transient'               # set before each use
            else:
                sig = None
            # bound two ways in one file: anything else binding it clashes
            names[name] = sig if names.get(name, sig) == sig else None
    return names


def python_clashes(texts):
    """The module-level Python names two of TEXTS would both bind, in one
    interpreter, to different things: a name is shared only when both bind
    it to the same function, class or import, or both only assign it in
    script rules."""
    seen = {}
    clashes = set()
    for text in texts:
        for name, sig in python_names(text).items():
            if name in seen and (sig is None or seen[name] is None or sig != seen[name]):
                clashes.add(name)
            seen.setdefault(name, sig)
    return sorted(clashes)


def combine(paths):
    """The semantic patches PATHS as the text of one.  ValueError if their
    Python would clash (python_clashes())."""
    virtuals = []
    parts = []
    texts = []
    used = set()
    for path in paths:
        with open(path, encoding='utf-8') as f:
            texts.append(f.read())
    clashes = python_clashes(texts)
    if clashes:
        raise ValueError('module-level Python names defined in more than one of them: ' +
                         ', '.join(clashes))
    for i, (path, text) in enumerate(zip(paths, texts)):
        num = re.match(r'(\d+)-', os.path.basename(path))
        prefix = 'p%s_' % (num.group(1) if num else i)
        if prefix in used:                      # two files of one number
            prefix = 'p%s_%d_' % (num.group(1) if num else i, i)
        used.add(prefix)
        body = []
        for line in text.split('\n'):
            v = VIRTUAL.match(line)
            if v:
                for name in re.split(r'[\s,]+', v.group(1).strip()):
                    if name and name not in virtuals:
                        virtuals.append(name)
                continue
            body.append(line)
        text, _ = renamed('\n'.join(body), prefix)
        parts.append('// ---- %s\n%s' % (os.path.basename(path), text))
    head = ''.join('virtual %s\n' % v for v in virtuals)
    return head + '\n' + '\n'.join(parts)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write('usage: wqport_combine.py OUT A.cocci...\n')
        return 2
    try:
        text = combine(argv[2:])
    except ValueError as e:
        sys.stderr.write('wqport_combine.py: %s\n' % e)
        return 1
    tmp = argv[1] + '.part'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(tmp, argv[1])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
