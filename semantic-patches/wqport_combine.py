#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""wqport_combine: several semantic patches of a stage as one.

Usage: wqport_combine.py OUT A.cocci B.cocci ...

spatch starts once per semantic patch, and its start-up (OCaml, then the
embedded Python of the patches that have any) costs more than most rules'
matching.  apply-stage therefore gives spatch the patches a file needs as
one: their text in order, each file's named rules renamed apart (NN_ plus
the name, NN being the file's number) so that two files may both name a
rule `c`.  In one semantic patch every rule sees the code as the rules
before it left it, as when each file ran on the previous one's output.

A rule's name is declared in its header line (`@name ...@`, `@script:python
name ...@`) and used in headers (`depends on name`, `extends name`) and in
metavariable declarations (`name.x`, `x << name.y;`).  Python code (the
bodies of script rules, initialize and finalize) is copied as it is: the
patches of a stage share one interpreter, so their module-level Python
names must not collide (tests/unit checks it).
"""

import os
import re
import sys

HEADER = re.compile(r'^@([^@\n]*)@[ \t]*$')
KIND = re.compile(r'^\s*(?:script|initialize|finalize):\w+\s*')
KEYWORDS = {'depends', 'on', 'exists', 'forall', 'disable', 'using', 'extends',
            'expression', 'ever', 'never', 'file', 'in'}
VIRTUAL = re.compile(r'^virtual\s+(.*)$')


def rule_names(lines):
    """The rule names a semantic patch declares, in its header lines."""
    names = []
    for line in lines:
        m = HEADER.match(line)
        if not m or not m.group(1).strip():
            continue
        head = KIND.sub('', m.group(1))
        first = re.match(r'\s*([A-Za-z_]\w*)', head)
        if first and first.group(1) not in KEYWORDS:
            names.append(first.group(1))
    return names


def renamed(text, prefix):
    """TEXT with its rule names prefixed by PREFIX where they are declared
    and used; other lines (code, Python, comments) unchanged."""
    lines = text.split('\n')
    names = set(rule_names(lines))
    if not names:
        return text, set()
    word = re.compile(r'(?<![\w.])(' + '|'.join(sorted(names, key=len, reverse=True)) +
                      r')\b(?!\s*\()')
    dotted = re.compile(r'(?<![\w.])(' + '|'.join(sorted(names, key=len, reverse=True)) +
                        r')\.(?=[A-Za-z_])')
    out = []
    in_decls = False
    for line in lines:
        m = HEADER.match(line)
        if m and m.group(1).strip():
            kind = KIND.match(m.group(1))
            k = kind.group(0) if kind else ''
            out.append('@' + k + word.sub(lambda w: prefix + w.group(1),
                                          m.group(1)[len(k):]) + '@')
            in_decls = True
            continue
        if in_decls and line.strip() == '@@':
            in_decls = False
        elif in_decls:
            line = dotted.sub(lambda w: prefix + w.group(1) + '.', line)
        out.append(line)
    return '\n'.join(out), names


def python_names(text):
    """The module-level Python names TEXT's Python defines, as three dicts
    name -> text: functions and classes (name -> their definition), the
    state of its initialize and finalize code and its `global` names (name
    -> ''), and the names its script rules assign at their top level."""
    defs, state, transient = {}, {}, {}
    lines = text.split('\n')
    i = 0
    kind = None                 # None: SmPL; else the kind of Python rule
    while i < len(lines):
        line = lines[i]
        m = HEADER.match(line)
        if m and m.group(1).strip():
            kind = re.match(r'\s*(script|initialize|finalize):python', m.group(1))
            kind = kind and kind.group(1)
            while i < len(lines) and lines[i].strip() != '@@':
                i += 1          # its metavariables
            i += 1
            continue
        i += 1
        if not kind:
            continue
        g = re.search(r'\bglobal\s+([\w\s,]+)', line)
        if g:
            for n in re.split(r'[\s,]+', g.group(1).strip()):
                state[n] = ''
        d = re.match(r'(?:def|class)\s+(\w+)', line)
        if d:
            j = i
            while j < len(lines) and (not lines[j].strip() or lines[j][0] in ' \t'):
                j += 1
            defs[d.group(1)] = '\n'.join(lines[i - 1:j]).rstrip()
            continue
        a = re.match(r'([A-Za-z_]\w*)\s*(?:[-+|&]?=)(?!=)', line)
        if a:
            (transient if kind == 'script' else state)[a.group(1)] = ''
    return defs, state, transient


def python_clashes(texts):
    """The module-level Python names two of TEXTS would both define in one
    interpreter, other than the same function defined the same way and
    names that only scripts assign (set before each use)."""
    seen = {}
    clashes = set()
    for text in texts:
        defs, state, transient = python_names(text)
        for name in set(defs) | set(state) | set(transient):
            mine = defs.get(name, None if name in state else 'transient'
                            if name in transient else None)
            if name in seen:
                theirs = seen[name]
                if mine is None or theirs is None or (mine != theirs and
                                                      'transient' not in (mine, theirs)):
                    clashes.add(name)
                elif 'transient' in (mine, theirs) and mine != theirs:
                    clashes.add(name)
            else:
                seen[name] = mine
    return sorted(clashes)


def combine(paths):
    """The semantic patches PATHS as the text of one.  ValueError if their
    Python would clash (python_clashes())."""
    virtuals = []
    parts = []
    texts = []
    for path in paths:
        with open(path, encoding='utf-8') as f:
            texts.append(f.read())
    clashes = python_clashes(texts)
    if clashes:
        raise ValueError('module-level Python names defined in more than one of them: ' +
                         ', '.join(clashes))
    for path, text in zip(paths, texts):
        num = re.match(r'(\d+)-', os.path.basename(path))
        prefix = 'p%s_' % (num.group(1) if num else str(len(parts)))
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
