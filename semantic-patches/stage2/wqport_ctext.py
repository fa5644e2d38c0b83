# SPDX-License-Identifier: GPL-2.0
"""What stage 2 reads of C types from source text, where spatch's own type
information does not reach (its patches run with --no-includes): a
structure's definition and members, a typedef of it, the parts of a work
item's expression, the parameters of the macro around a line.  Used by
02-work-handler.cocci and 07-flush-scheduled-work.cocci; tests in
tests/unit.

Text given to these functions has its comments blanked (uncomment(), or
blank_comments() where line numbers must stay)."""
import re

# data that is a constant: a number, a character, a string, cast or not
CONST = re.compile(r'^(?:\([\w\s*]+\))?\(?-?(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*\)?$|'
                   r"^'(?:\\.|[^'])'$|^\"[^\"]*\"$")


def uncomment(text):
    """text with its comments replaced by a space."""
    return re.sub(r'/\*.*?\*/|//[^\n]*', ' ', text, flags=re.S)


def blank_comments(text):
    """text with each comment replaced by a space and the newlines it held:
    line numbers stay."""
    text = re.sub(r'/\*.*?\*/', lambda m: '\n' * m.group(0).count('\n') + ' ', text,
                  flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def norm(s):
    """s without white space."""
    return re.sub(r'\s+', '', s)


def item_key(x):
    """A work item as the stage knows it, whatever expression names it:
    &p->name, &s.name, &(p->name) (with an optional [i]) -> ('field',
    name); &name -> ('var', name); anything else None."""
    x = norm(x)
    if x.startswith('&(') and x.endswith(')'):
        x = '&' + x[2:-1]
    m = re.match(r'^&(.+)(->|\.)(\w+)(\[[^\]]*\])?$', x)
    if m:
        return ('field', m.group(3))
    m = re.match(r'^&(\w+)(\[[^\]]*\])?$', x)
    if m:
        return ('var', m.group(1))
    return None


def braced(text, start):
    """text from start (just after a '{') to its closing brace, or None."""
    i, depth = start, 1
    while i < len(text) and depth:
        depth += {'{': 1, '}': -1}.get(text[i], 0)
        i += 1
    return text[start:i - 1] if depth == 0 else None


# what may stand between `struct` and its tag: an attribute, or a name
# (a macro for one) followed by another name
LEAD_ATTR = r'(?:__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)|\w+(?=\s+\w))'


def struct_def(text, t):
    """Where type t (`struct tag` or a typedef name) is defined in text:
    (tag, typedef name, its own members: nested structs and unions left
    out), tag or typedef name None; None if not defined there or defined
    more than once."""
    m = re.match(r'^struct\s+(\w+)$', t.strip())
    if not m:
        # a typedef name of a structure defined apart (a forward typedef:
        # acx100's typedef struct acx_device acx_device_t;)
        fwd = re.findall(r'\btypedef\s+struct\s+(\w+)\s+%s\s*;' % re.escape(t.strip()), text)
        if len(set(fwd)) == 1:
            m = re.match(r'^(\w+)$', fwd[0])
    if m:
        # (an attribute may come between: `struct __packed foo {`,
        # ndiswrapper's `struct packed ndis_handle {`)
        found = [(m.group(1), None, x.end()) for x in
                 re.finditer(r'\bstruct\s+(?:%s\s*)*%s\s*\{'
                             % (LEAD_ATTR, re.escape(m.group(1))), text)]
    else:
        found = []
        for x in re.finditer(r'\btypedef\s+struct\s*(\w*)\s*\{', text):
            body = braced(text, x.end())
            end = x.end() + len(body) + 1 if body is not None else 0
            if body is not None and re.match(r'\s*%s\s*;' % re.escape(t.strip()), text[end:]):
                found.append((x.group(1) or None, None if x.group(1) else t.strip(),
                              x.end()))
    if len(found) != 1:
        return None
    tag, tname, start = found[0]
    body = braced(text, start)
    if body is None:
        return None
    while True:
        inner = re.sub(r'\{[^{}]*\}', '', body)
        if inner == body:
            return tag, tname, body
        body = inner


def same_type(text, a, b):
    """Whether types a and b are one: the same words, or a struct tag and a
    typedef name of it (2.6.18 act2000: `typedef struct act2000_card {...}
    act2000_card;`, the handler taking `struct act2000_card *`), as text
    defines them."""
    a, b = ' '.join(a.split()), ' '.join(b.split())
    if norm(a) == norm(b):
        return True
    for x, y in ((a, b), (b, a)):
        m = re.match(r'^struct (\w+)$', x)
        if not m or not re.match(r'^\w+$', y):
            continue
        if re.search(r'\btypedef\s+struct\s+%s\s+%s\s*;' % (m.group(1), y), text):
            return True
        for d in re.finditer(r'\btypedef\s+struct\s+%s\s*\{' % m.group(1), text):
            body = braced(text, d.end())
            end = d.end() + len(body) + 1 if body is not None else 0
            if body is not None and re.match(r'\s*%s\s*;' % y, text[end:]):
                return True
    return False


def pointee(members, g):
    """The type that member g points to, among a structure's members
    (struct_def()'s third part): `struct X *g;` gives `struct X`, `X *g;`
    gives X; None for another member or a pointer to a basic type."""
    m = re.search(r'(?:^|[;{}])\s*(struct\s+\w+|\w+)\s*\*\s*%s\s*;' % re.escape(g), members)
    if not m or m.group(1) in ('void', 'char', 'int', 'long', 'short', 'unsigned'):
        return None
    return ' '.join(m.group(1).split())


def strip_void_cast(d):
    """d (white space removed) without a leading (void *) cast."""
    m = re.match(r'^\(void\*\)(.*)$', d)
    if m:
        d = m.group(1)
        if d.startswith('(') and d.endswith(')'):
            d = d[1:-1]
    return d


def split_item(w):
    """&E->a.b / &E.a -> list of (E, sep, fieldpath) splits, shortest E first."""
    if not w.startswith('&'):
        return []
    body = w[1:]
    if body.startswith('(') and body.endswith(')'):
        body = body[1:-1]
    out = []
    for m in re.finditer(r'(->|\.)', body):
        e, sep, fld = body[:m.start()], m.group(1), body[m.end():]
        if re.match(r'^\w+(\.\w+)*$', fld):
            out.append((e, sep, fld))
    return out


def backptr_item(w):
    """&E->fld / &E.fld with fld one identifier and E free of side effects:
    (E, sep, fld), else None."""
    splits = [x for x in split_item(w) if re.match(r'^\w+$', x[2])]
    if not splits:
        return None
    e, sep, fld = splits[-1]
    if not re.match(r'^\w+(?:\[\w+\])*(?:(?:->|\.)\w+(?:\[\w+\])*)*$', e):
        return None
    return (e, sep, fld)


def macro_at(text, line):
    """(name, parameters) of the function-like #define whose body holds
    line (1-based) of text, continuation lines included, or None: a
    driver's compat macro (#define SCHEDULE_WORK(w) schedule_work(w)),
    whose parameters name no item and no handler of the driver."""
    lines = text.split('\n')
    n = line - 1
    if not 0 <= n < len(lines):
        return None
    while n > 0 and lines[n - 1].rstrip().endswith('\\'):
        n -= 1
    m = re.match(r'^\s*#\s*define\s+(\w+)\(([^)]*)\)', lines[n])
    if not m:
        return None
    return m.group(1), [a.strip() for a in m.group(2).split(',') if a.strip()]


def struct_instances(text, tag):
    """The objects of type struct TAG that text (comments blanked, lines
    kept) declares: [(name, line, whether a one-dimensional array)]; None
    when they cannot all be told (a declarator list, an array of more
    dimensions, an object of an unread form, sizeof(struct TAG)).
    Pointers, the definition, forward declarations and type arguments
    (container_of(p, struct TAG, f)) declare none."""
    inst = []
    for m in re.finditer(r'\bstruct\s+%s\b\s*(.)' % re.escape(tag), text):
        c = m.group(1)
        if c in '*{;':
            continue
        if c in ',)':
            if re.search(r'\bsizeof\s*\($', text[:m.start()].rstrip()):
                return None
            continue
        rest = text[m.end() - 1:]
        d = re.match(r'(?:const\s+|volatile\s+|__\w+\s+)*(\w+)\s*([;=\[,])', rest)
        if not d or d.group(2) == ',':
            return None
        if d.group(2) == '[' and not re.match(r'\[[^\[\]]*\]\s*[;=]', rest[d.end() - 1:]):
            return None
        inst.append((d.group(1), text.count('\n', 0, m.start()) + 1, d.group(2) == '['))
    return inst


def loop_initialises(text, g, f):
    """Whether a loop over the whole of array g (for (i = 0; i < N or
    ARRAY_SIZE(g); ...), N g's dimension) initialises field f of its
    elements: INIT_WORK or INIT_DELAYED_WORK(&X.f or &X->f, ...) in its
    body (a brace block, or one statement)."""
    m = re.search(r'\b%s\s*\[\s*([^\[\]]*?)\s*\]\s*[;=]' % re.escape(g), text)
    if not m:
        return False
    bounds = {norm(m.group(1)), 'ARRAY_SIZE(%s)' % g}
    for fm in re.finditer(r'\bfor\s*\(\s*(?:int\s+|unsigned\s+int\s+|unsigned\s+)?(\w+)\s*=\s*0\s*;'
                          r'\s*\1\s*<\s*([^;]+?)\s*;[^;{}]*?\)', text):
        if norm(fm.group(2)) not in bounds:
            continue
        j = fm.end()
        while j < len(text) and text[j].isspace():
            j += 1
        if j < len(text) and text[j] == '{':
            body = braced(text, j + 1)
            if body is None:
                body = text[j:]                 # unbalanced: the rest
        else:
            body = text[j:text.find(';', j) + 1]
        if re.search(r'\bINIT_(?:DELAYED_)?WORK\s*\(\s*&[^,;]*(?:\.|->)\s*%s\s*,'
                     % re.escape(f), body):
            return True
    return False
