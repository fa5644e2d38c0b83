# SPDX-License-Identifier: GPL-2.0
# wqport_versions.py: which preprocessor branches of a driver no target
# kernel compiles, for both stages: their code is left as it is.
#
# dead_branches(text, floor) evaluates each #if/#ifdef chain's conditions
# on LINUX_VERSION_CODE (and the driver's own names for KERNEL_VERSION())
# at the kernels from FLOOR up; blank_dead() blanks what is dead for the
# analyses, hide_dead()/show_dead() hide it from spatch in a work copy,
# line for line, and bring it back.  Imported by stage 1's analysis
# (wqport_tq, which re-exports these names), stage 2's hooks and wqport
# convert; copy it with the .cocci files (scripts/coccinelle/wqport/).

import json
import os
import re


# Preprocessor branches that no target kernel compiles.  A 2.4 driver may
# keep branches for 2.2 (`#if LINUX_VERSION_CODE < 0x020400`), an
# out-of-tree 2.6 driver branches for the kernels before and after 2.6.20:
# code in a branch that is false for every kernel from FLOOR up is left as
# it is (no finding, no conversion, no leftover), like `#if 0`.  FLOOR is
# the oldest kernel a stage's output is for: 2.6.0 for stage 1 (a driver's
# branch for 2.4 beside one for 2.5/2.6, in sources that build on both,
# stays whole: half rewritten it would build on neither), 2.6.20 for
# stage 2.

FLOOR_STAGE1 = (2, 6, 0)
# Names that no kernel from 2.6.0 up defines as a macro: "#ifdef
# work_struct" is how 2.4 drivers with a workqueue emulation in a header
# (chelsio cxgb2.c: #define work_struct tq_struct) test for it.
NEVER_MACROS = {"work_struct", "delayed_work"}
# Macros every kernel from 2.6.0 defines (and the shim's overlay with it):
# "#ifdef DECLARE_TASKLET ... #else <task queue> #endif" (linux-wlan-ng)
# chose tasklets on 2.4 already, and its #else is no 2.6 kernel's.
ALWAYS_MACROS = {"DECLARE_TASKLET", "DECLARE_TASKLET_DISABLED", "DECLARE_WORK", "INIT_WORK",
                 "DECLARE_WAITQUEUE", "DECLARE_WAIT_QUEUE_HEAD", "KERNEL_VERSION"}
FLOOR_STAGE2 = (2, 6, 20)
_SAMPLES = [(2, 4, 0), (2, 4, 18), (2, 4, 37), (2, 5, 0), (2, 5, 41), (2, 6, 0), (2, 6, 9),
            (2, 6, 18), (2, 6, 19), (2, 6, 20), (2, 6, 30), (3, 0, 0), (3, 15, 0), (4, 0, 0),
            (5, 0, 0), (6, 1, 0), (6, 12, 0)]


def _kv(a, b, c):
    return (a << 16) + (b << 8) + c


_VERSION_ALIAS = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*\)"
                            r"[ \t]*([^\n]*)$", re.M)


def version_aliases(text):
    """The driver's own names for KERNEL_VERSION() in text: a 3-parameter
    macro defined as (a << 16) + (b << 8) + c, with + or |, in any
    parentheses (2.0-2.2 drivers' "#define VERSION_CODE(v,p,s)
    (((v)<<16)+(p<<8)+s)", MOXA's, Cyclades')."""
    out = set()
    for m in _VERSION_ALIAS.finditer(text):
        a, b, c = m.group(2), m.group(3), m.group(4)
        body = re.sub(r"[\s()]", "", re.sub(r"/\*.*?\*/|//.*", "", m.group(5)))
        parts = sorted(re.split(r"[+|]", body))
        if parts == sorted([a + "<<16", b + "<<8", c]):
            out.add(m.group(1))
    return out


def _cond_values(cond, versions, aliases=()):
    """The value of a #if condition at each version (a tuple, one of True,
    False, None for unknown: any macro but LINUX_VERSION_CODE and
    KERNEL_VERSION or one of its ALIASES, defined(), ...)."""
    cond = re.sub(r"/\*.*?\*/|//.*", " ", cond)
    toks = re.findall(r"0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|\w+|&&|\|\||[<>=!]=|[<>!()+,-]", cond)
    out = []
    for v in versions:
        pos = [0]

        def peek():
            return toks[pos[0]] if pos[0] < len(toks) else None

        def take():
            pos[0] += 1
            return toks[pos[0] - 1]

        def primary():
            t = take() if peek() is not None else None
            if t is None:
                raise ValueError
            if t == "(":
                x = orr()
                if take() != ")":
                    raise ValueError
                return x
            if t == "!":
                x = primary()
                return None if x is None else (not x)
            if t == "-":
                x = primary()
                return None if x is None else -x
            if t == "defined":
                if peek() == "(":
                    take()
                    name = take()
                    take()
                else:
                    name = take()
                return False if name in NEVER_MACROS else True if name in ALWAYS_MACROS else None
            if t == "KERNEL_VERSION" or t in aliases:
                take()
                a = orr()
                take()
                b = orr()
                take()
                c = orr()
                take()
                return None if None in (a, b, c) else _kv(a, b, c)
            if t == "LINUX_VERSION_CODE":
                return _kv(*v)
            m = re.match(r"^(0[xX][0-9a-fA-F]+|\d+)", t)
            if m:
                return int(m.group(1), 0) if not re.match(r"^0\d", m.group(1)) else int(m.group(1), 8)
            if re.match(r"^\w+$", t):
                if peek() == "(":           # a function-like macro: skip it
                    depth = 0
                    while peek() is not None:
                        x = take()
                        depth += x == "("
                        depth -= x == ")"
                        if depth == 0:
                            break
                return None
            raise ValueError

        def additive():
            x = primary()
            while peek() in ("+", "-"):
                op, y = take(), primary()
                x = None if None in (x, y) else (x + y if op == "+" else x - y)
            return x

        def rel():
            x = additive()
            while peek() in ("<", ">", "<=", ">=", "==", "!="):
                op, y = take(), additive()
                if x is None or y is None:
                    x = None
                else:
                    x = {"<": x < y, ">": x > y, "<=": x <= y, ">=": x >= y,
                         "==": x == y, "!=": x != y}[op]
            return x

        def truth(x):
            return None if x is None else bool(x)

        def andd():
            x = rel()
            while peek() == "&&":
                take()
                y = rel()
                tx, ty = truth(x), truth(y)
                x = False if False in (tx, ty) else (None if None in (tx, ty) else True)
            return x

        def orr():
            x = andd()
            while peek() == "||":
                take()
                y = andd()
                tx, ty = truth(x), truth(y)
                x = True if True in (tx, ty) else (None if None in (tx, ty) else False)
            return x

        try:
            val = orr()
            if peek() is not None:
                val = None
        except (ValueError, IndexError):
            val = None
        out.append(None if val is None else bool(val))
    return tuple(out)


def dead_branches(text, floor):
    """The branches of text's #if chains that no kernel from floor up
    compiles: a list of dict(first, last) (1-based lines of the code between
    the directive and the next one of its chain), directive (the line of the
    directive that opens the branch), kind ("if0": a literal #if 0;
    "false": a condition false from floor up; "else": an #elif/#else after a
    branch true from floor up), head (the line of the chain's #if),
    hideable (spatch skips it once that #if reads "#if 0" (false) or
    "#if 1" (else)), outer (the lines of the #if of each chain it is
    nested in, outermost first)."""
    versions = [v for v in _SAMPLES if v >= floor]
    aliases = version_aliases(text)
    lines = text.split("\n")
    out, stack = [], []
    i = 0
    while i < len(lines):
        start = i
        line = lines[i]
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + " " + lines[i]
        m = re.match(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$", line)
        i += 1
        if not m:
            continue
        d, rest = m.group(1), m.group(2)
        if d in ("if", "ifdef", "ifndef"):
            if d == "if":
                vals = _cond_values(rest, versions, aliases)
                literal0 = re.match(r"^\s*0\s*(/[*/].*)?$", rest) is not None
            else:
                name = rest.split("/")[0].strip()
                vals, literal0 = (None,), False
                if name in NEVER_MACROS:
                    vals = ((d == "ifndef"),)
                elif name in ALWAYS_MACROS:
                    vals = ((d == "ifdef"),)
            fr = dict(head=start + 1, taken=False, branches=[],
                      outer=[f["head"] for f in stack])
            stack.append(fr)
            _open_branch(fr, start + 1, vals, literal0, "if")
        elif d in ("elif", "else") and stack:
            fr = stack[-1]
            _close_branch(fr, start, out)
            vals = _cond_values(rest, versions, aliases) if d == "elif" else (True,)
            _open_branch(fr, start + 1, vals, False, d)
        elif d == "endif" and stack:
            fr = stack.pop()
            _close_branch(fr, start, out)
    return out


def _open_branch(fr, line, vals, literal0, kind):
    always_true = all(v is True for v in vals)
    always_false = all(v is False for v in vals)
    dead = fr["taken"] or always_false
    why = "else" if fr["taken"] else ("if0" if literal0 else "false")
    fr["cur"] = dict(directive=line, first=line + 1, dead=dead, kind=why, d=kind)
    fr["taken"] = fr["taken"] or always_true
    fr["branches"].append(fr["cur"])


def _close_branch(fr, end_line0, out):
    """Close fr's open branch at the directive on 0-based line end_line0."""
    b = fr.get("cur")
    if b is None:
        return
    fr["cur"] = None
    if not b["dead"]:
        return
    first_branch = fr["branches"][0]
    hide = (b["d"] == "if" and b["kind"] == "false") or \
        (b["kind"] == "else" and first_branch["d"] == "if" and not first_branch["dead"]
         and len(fr["branches"]) == 2 and b["d"] == "else")
    out.append(dict(first=b["first"], last=end_line0, directive=b["directive"],
                    kind=b["kind"], head=fr["head"], hideable=hide, outer=fr["outer"]))


def blank_dead(text, floor):
    """text with the code of its dead branches (see dead_branches) blanked,
    lines kept: what no target kernel compiles reads as nothing."""
    dead = dead_branches(text, floor)
    if not dead:
        return text
    lines = text.split("\n")
    for b in dead:
        for n in range(b["first"], b["last"] + 1):
            if 1 <= n <= len(lines):
                lines[n - 1] = re.sub(r"[^\n]", " ", lines[n - 1])
    return "\n".join(lines)


HIDDEN = "__wqport_hidden_"


_BOOL_IF = re.compile(r"^\s*#\s*if\s+[01]\s*(/[*/].*)?$")


def hide_dead(path, floor):
    """Rewrite in path (a work copy) the #if of each chain whose dead branch
    spatch can be made to skip: "#if 0" before a branch false from floor
    up, "#if 1" before an #else that no such kernel takes; the directive as
    it was goes to path.hidden.json for show_dead().  spatch does not look
    into the branches of an "#if 0" or "#if 1" chain for more of them
    (hostap_compat.h: "#if < 2.4.0 ... #else" holding "#if < 2.5.44"), so
    the code of a dead branch nested in such a chain is blanked instead,
    its lines kept, and goes to the same file.  True if any."""
    with open(path, encoding="latin-1") as fh:
        raw = fh.read()
    lines = raw.split("\n")
    saved = {}
    dead = dead_branches(raw, floor)
    heads = set()                       # the chains spatch reads as #if 0 or #if 1
    for b in dead:
        if not b["hideable"] or b["kind"] == "if0":
            continue
        n = b["head"] - 1
        if lines[n].rstrip().endswith("\\") or HIDDEN in lines[n]:
            continue
        k = len(saved)
        saved[str(k)] = lines[n]
        lines[n] = "#if %d /* %s%d */" % (0 if b["kind"] == "false" else 1, HIDDEN, k)
        heads.add(b["head"])
    heads |= {n + 1 for n, x in enumerate(lines) if _BOOL_IF.match(x)}
    blanked = []                        # (first, last) of each blanked branch
    for b in dead:
        first, last = b["first"], b["last"]
        if not (set(b["outer"]) & heads) or last < first \
                or any(a <= first and last <= z for a, z in blanked) \
                or lines[b["directive"] - 1].rstrip().endswith("\\"):
            continue
        k = len(saved)
        saved[str(k)] = "\n".join(lines[first - 1:last])
        lines[first - 1] = "/* %s%d */" % (HIDDEN, k)
        for n in range(first, last):
            lines[n] = ""
        blanked.append((first, last))
    if not saved:
        return False
    with open(path, "w", encoding="latin-1") as fh:
        fh.write("\n".join(lines))
    with open(path + ".hidden.json", "w") as fh:
        json.dump(saved, fh)
    return True


def show_dead(path):
    """Undo hide_dead() in path."""
    side = path + ".hidden.json"
    if not os.path.exists(side):
        return
    with open(side) as fh:
        saved = json.load(fh)
    with open(path, encoding="latin-1") as fh:
        raw = fh.read()

    def code(m):
        # a blanked branch: its first line and the empty lines after it
        old = saved.get(m.group(1))
        if old is None:
            return m.group(0)
        return old + m.group(2)[len(old.split("\n")) - 1:]
    # a blanked branch can hold the marks of others (a hidden #if, a
    # blanked branch nested in it): put back until none is left
    for _ in range(len(saved) + 1):
        new = re.sub(r"^[ \t]*#[ \t]*if [01] /\* %s(\d+) \*/[ \t]*$" % HIDDEN,
                     lambda m: saved.get(m.group(1), m.group(0)), raw, flags=re.M)
        new = re.sub(r"^/\* %s(\d+) \*/(\n*)" % HIDDEN, code, new, flags=re.M)
        if new == raw:
            break
        raw = new
    with open(path, "w", encoding="latin-1") as fh:
        fh.write(raw)
    os.unlink(side)
