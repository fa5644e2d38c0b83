# wqport_tq.py: what stage 1's semantic patches cannot see with SmPL alone.
#
# Imported by every semantic-patches/stage1/*.cocci (their @initialize:python@
# finds it beside the .cocci).  Copy it with them when dropping them into a
# kernel tree (scripts/coccinelle/wqport/).
#
# analyse(path) reads a 2.4 driver's text once and returns its findings: the
# uses of the task-queue family that the stage must leave to a human.  A finding
# that "blocks" keeps the whole file's task-queue code as it is (a file is
# converted all or nothing: converting some task objects and not others would
# leave struct tq_struct and struct work_struct mixed in one object's uses).
# The scan is textual and conservative: comments and strings are blanked first,
# every #ifdef branch counts, and a name match is enough to block.

import os
import re
import subprocess

__all__ = ["analyse", "blocked", "bh_queue", "split_initializer", "report_lines"]

FAMILY = {
    # calls that may be handed a struct tq_struct *
    "queue_task", "schedule_task", "INIT_TQUEUE", "PREPARE_TQUEUE",
    "INIT_WORK", "PREPARE_WORK", "DECLARE_WORK", "schedule_work", "schedule_delayed_work",
    "INIT_LIST_HEAD", "sizeof", "memset", "if", "while", "for", "return", "switch",
}
BH_QUEUES = {"tq_timer", "tq_immediate"}
# Tasks that 2.4's tty structures hold (include/linux/tty.h): a
# driver may queue them, but its conversion cannot change their type.
KERNEL_TASKS = re.compile(r"\bflip\s*\.\s*tqueue\s*\)*\s*$|"
                          r"(?:->|\.)\s*(?:tq_hangup|SAK_tq)\s*\)*\s*$")
REASON_TAIL = " (task queues in this file left as they are)"

_cache = {}
TQ_TOKENS = (r"\b(tq_struct|queue_task|schedule_task|INIT_TQUEUE|PREPARE_TQUEUE|tq_timer|"
             r"tq_immediate|tq_disk|run_task_queue|flush_scheduled_tasks|mark_bh)\b|"
             r"(\.|->)\s*routine\b")


def _unparsed(path, text):
    """(first, last, error line) of each region spatch --parse-c gives up on."""
    try:
        res = subprocess.run([os.environ.get("SPATCH", "spatch"), "--parse-c", "--no-includes",
                              path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             timeout=120)
        log = res.stdout.decode("latin-1")
    except (OSError, subprocess.SubprocessError):
        return [(1, text.count("\n") + 1, 1)]
    lines = text.split("\n")
    regions, prev_end = [], 0
    errs = [int(m.group(1)) for m in re.finditer(r'parse error\s*\n\s*= File "[^"]*", line (\d+)', log)]
    syncs = [int(m.group(1)) for m in re.finditer(r"ERROR-RECOV: found sync .* line (\d+)", log)]
    for err in errs:
        end = min([l for l in syncs if l >= err] or [len(lines)])
        start = err
        while start > prev_end + 1:                     # back to the toplevel's start
            prev = lines[start - 2]
            if re.match(r"^(\}|[^\s#].*;\s*$|#)", prev):
                break
            start -= 1
        regions.append((start, end, err))
        prev_end = end
    return regions


class Finding(object):
    def __init__(self, line, reason, blocks):
        self.line, self.reason, self.blocks = line, reason, blocks

    def __repr__(self):
        return "%d: %s%s" % (self.line, self.reason, " [blocks]" if self.blocks else "")


def _blank(text):
    """Comments and string/char literals replaced by spaces, newlines kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + (text[j - 1] if j - 1 > i else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _source(path):
    """(raw text, _blank()ed text) of path, read once per process; None if it
    cannot be read.  Every analysis here reads the file through it."""
    key = ("src", path)
    if key not in _cache:
        try:
            with open(path, encoding="latin-1") as f:
                raw = f.read()
        except (IOError, OSError):
            _cache[key] = None
        else:
            _cache[key] = (raw, _blank(raw))
    return _cache[key]


def _close(text, i, open_c, close_c):
    """Index just past the bracket matching text[i] == open_c (or len)."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == open_c:
            depth += 1
        elif text[j] == close_c:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def _split_args(s):
    """Top-level comma split of s (no outer brackets)."""
    args, depth, cur = [], 0, []
    for c in s:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        args.append("".join(cur).strip())
    return args


def _calls(text, name):
    """(offset, [args]) for each call of name."""
    for m in re.finditer(r"\b%s\s*\(" % re.escape(name), text):
        o = m.end() - 1
        e = _close(text, o, "(", ")")
        yield m.start(), _split_args(text[o + 1:e - 1])


def _last_name(expr):
    """The object a task expression names: &dev->tq, dev.tq[i] -> tq."""
    names = re.findall(r"[A-Za-z_]\w*", re.sub(r"\[[^\]]*\]", "", expr))
    return names[-1] if names else expr.strip()


def split_initializer(elements):
    """Initializer elements of one struct tq_struct -> (routine, data) or None.

    Accepts GNU old-style (routine: f), C99 (.routine = f) and positional
    ({list}, sync, routine, data) forms; data defaults to NULL.  None when there
    is no routine, or a list/sync value other than the empty ones."""
    routine = data = None
    pos = 0
    for e in elements:
        e = e.strip()
        m = re.match(r"^(?:\.\s*(\w+)\s*=|(\w+)\s*:(?!:))\s*(.*)$", e, re.S)
        if m:
            field, value = m.group(1) or m.group(2), m.group(3).strip()
        else:
            field, value = ["list", "sync", "routine", "data"][pos] if pos < 4 else "?", e
            pos += 1
        if field == "routine":
            routine = value
        elif field == "data":
            data = value
        elif field == "sync":
            if value not in ("0", "0UL", "0L"):
                return None
        elif field == "list":
            if not re.match(r"^\{\s*(NULL|0)?\s*(,\s*(NULL|0)\s*)?,?\s*\}$|^LIST_HEAD_INIT", value):
                return None
        else:
            return None
    if not routine or routine in ("NULL", "0"):
        return None
    return routine, (data if data else "NULL")


def _split_spans(text, s, e):
    """(start, end) offsets of the top-level comma-separated elements of
    text[s:e] (blanked text), surrounding whitespace excluded."""
    spans, depth, start = [], 0, s
    for j in range(s, e + 1):
        c = text[j] if j < e else ","
        if j < e and c in "([{":
            depth += 1
        elif j < e and c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            a, b = start, j
            while a < b and text[a].isspace():
                a += 1
            while b > a and text[b - 1].isspace():
                b -= 1
            if a < b:
                spans.append((a, b))
            start = j + 1
    return spans


def _struct_fields(text):
    """struct name -> (list of field names in order, or None when the body has
    nested braces, set of its struct tq_struct fields)."""
    out = {}
    for m in re.finditer(r"\bstruct\s+(\w+)\s*\{", text):
        o = m.end() - 1
        e = _close(text, o, "{", "}")
        body = text[o + 1:e - 1]
        tq = set()
        names = []
        for d in body.split(";"):
            d = re.sub(r"^\s*#.*$", "", d, flags=re.M).strip()
            if not d:
                continue
            if "{" in d or "}" in d or "(" in d:
                names = None
            for n in _split_args(re.sub(r"\[[^\]]*\]|:\s*\d+", "", d)):
                w = re.findall(r"[A-Za-z_]\w*", n)
                if not w:
                    continue
                if names is not None:
                    names.append(w[-1])
                if re.search(r"\bstruct\s+tq_struct\b", d) and "*" not in n:
                    tq.add(w[-1])
        out.setdefault(m.group(1), (names, tq))
    return out


def _depth0(text):
    """Offsets in text at brace depth 0 (outside every function and initializer)."""
    depth, out = 0, []
    for c in text:
        out.append(depth == 0)
        if c == "{":
            depth += 1
        elif c == "}":
            depth = max(0, depth - 1)
    return out


def module_init_fn(text):
    """(name, reason): the function module_init() names, when there is exactly
    one and it is defined in the file; else (None, why not)."""
    inits = [m.group(1) for m in re.finditer(r"^[ \t]*module_init\s*\(\s*(\w+)\s*\)", text, re.M)]
    if not inits:
        return None, "the file has no module_init()"
    if len(set(inits)) > 1:
        return None, "the file has several module_init()s (%s)" % ", ".join(sorted(set(inits)))
    if inits[0] not in _function_bodies(text):
        return None, "module_init(%s) names a function not defined in this file" % inits[0]
    return inits[0], None


def nested(path):
    """Task initializers nested in a file-scope structure's static initializer.

    Returns (targets, problems): targets are dicts with outer, field, routine,
    data (as written), kind ("designated": the element is removed; or
    "positional": its braces are emptied), line and col (0-based) of the
    element (designated) or of its opening brace (positional), and span; problems
    are (start, end, reason) of nested initializers that cannot be moved."""
    key = ("nested", path)
    if key in _cache:
        return _cache[key]
    src = _source(path)
    if src is None:
        _cache[key] = ([], [])
        return _cache[key]
    raw, text = src
    structs = _struct_fields(text)
    top = _depth0(text)
    targets, problems = [], []
    for m in re.finditer(r"\bstruct\s+(\w+)\s+(\w+)\s*(\[[^\]]*\])?\s*=\s*\{", text):
        tname, outer = m.group(1), m.group(2)
        if tname == "tq_struct" or tname not in structs or not structs[tname][1]:
            continue
        names, tqf = structs[tname]
        o = m.end() - 1
        e = _close(text, o, "{", "}")
        found = []
        pos = 0
        for a, b in _split_spans(text, o + 1, e - 1):
            el = text[a:b]
            d = re.match(r"(?:\.\s*(\w+)\s*=(?!=)|(\w+)\s*:(?!:))\s*", el)
            if d:
                field = d.group(1) or d.group(2)
                vs = a + d.end()
                if names is not None and field in names:
                    pos = names.index(field) + 1
                else:
                    pos = None
            else:
                field = names[pos] if names is not None and pos is not None and pos < len(names) else None
                if pos is not None:
                    pos += 1
                vs = a
            if field not in tqf:
                continue
            found.append((a, b, vs, field, "designated" if d else "positional"))
        if not found:
            continue
        if m.group(3):
            continue            # arrays: left to the checks in analyse()
        if not top[m.start()]:
            for a, b, vs, field, kind in found:
                problems.append((a, b, "wqport: task routine of %s.%s set in an initializer of "
                                 "an enclosing structure that is not at file scope; move it to "
                                 "an INIT_WORK() by hand" % (outer, field)))
            continue
        for a, b, vs, field, kind in found:
            if text[vs] != "{" or _close(text, vs, "{", "}") != b:
                problems.append((a, b, "wqport: %s.%s is initialised by something other than a "
                                 "brace list; write its INIT_WORK() by hand" % (outer, field)))
                continue
            r = None
            ve = b
            parts = [re.sub(r"\s+", " ", raw[x:y]) for x, y in _split_spans(text, vs + 1, ve - 1)]
            r = split_initializer(parts)
            if r is None:
                problems.append((a, b, "wqport: initializer of %s.%s without a routine or with "
                                 "list/sync values; write its INIT_WORK() by hand" % (outer, field)))
                continue
            at = a if kind == "designated" else vs
            line = _line(text, at)
            col = at - (text.rfind("\n", 0, at) + 1)
            targets.append(dict(outer=outer, field=field, routine=r[0], data=r[1], kind=kind,
                                line=line, col=col, span=(a, b)))
    if targets:
        fn, why = module_init_fn(text)
        if fn is not None and first_statement(path) is None:
            fn, why = None, "the first statement of %s() is not one it can go before" % fn
        if fn is None:
            for t in targets:
                problems.append((t["span"][0], t["span"][1], "wqport: task routine of %s.%s set in an "
                                 "initializer of an enclosing structure, and %s to put its "
                                 "INIT_WORK() in; move it to the init path by hand"
                                 % (t["outer"], t["field"], why)))
            targets = []
    _cache[key] = (targets, problems)
    return _cache[key]


def nested_at(path, line, col, kind):
    """Whether a nested task initializer of kind starts at line:col (0-based)."""
    return any(t["line"] == int(line) and t["col"] == int(col) and kind in (None, t["kind"])
               for t in nested(path)[0])


DECL_START = re.compile(
    r"(?:(?:static|const|volatile|register|unsigned|signed|struct|union|enum|char|short|int|long|"
    r"float|double|void|_Bool|bool|u8|u16|u32|u64|s8|s16|s32|s64|size_t|ssize_t)\b"
    r"|[A-Za-z_]\w*\s*(?:\*\s*)*[A-Za-z_]\w*\s*[;,=\[]"
    r"|[A-Za-z_]\w*\s*\*+\s*[A-Za-z_]\w*\s*[;,=\[])")
NOT_TYPE = re.compile(r"(?:return|goto|case|default|else|do|if|while|for|switch|break|continue)\b")


def first_statement(path):
    """(line, col 0-based) of the first statement of the module_init()
    function, after its declarations, or None."""
    key = ("first", path)
    if key in _cache:
        return _cache[key]
    src = _source(path)
    if src is None:
        return None
    text = src[1]
    res = None
    fn, _ = module_init_fn(text)
    if fn:
        s, e = _function_bodies(text)[fn]
        i = s + 1
        while i < e - 1:
            while i < e - 1 and text[i].isspace():
                i += 1
            rest = text[i:e - 1]
            if rest.startswith("#"):
                break
            if DECL_START.match(rest) and not NOT_TYPE.match(rest):
                j = i
                while j < e - 1 and text[j] != ";":
                    if text[j] in "({[":
                        j = _close(text, j, text[j], {"(": ")", "{": "}", "[": "]"}[text[j]]) - 1
                    j += 1
                i = j + 1
                continue
            break
        if i < e - 1:
            res = (_line(text, i), i - (text.rfind("\n", 0, i) + 1))
    _cache[key] = res
    return res


def is_first_statement(path, line, col):
    return first_statement(path) == (int(line), int(col))


def nested_init_calls(path, line, col):
    """For the first nested initializer (at line:col), the text of every
    INIT_WORK() call, separated by newlines and the init function's
    indentation, without the last semicolon; None for the others."""
    targets = nested(path)[0]
    if not targets or (targets[0]["line"], targets[0]["col"]) != (int(line), int(col)):
        return None
    first = first_statement(path)
    if first is None:
        return None
    src = _source(path)
    if src is None:
        return None
    raw_line = src[0].split("\n")[first[0] - 1]
    indent = raw_line[:len(raw_line) - len(raw_line.lstrip())]
    return (";\n" + indent).join("INIT_WORK(&%s.%s, %s, %s)" % (t["outer"], t["field"], t["routine"],
                                                            t["data"]) for t in targets)


def nested_init(path, line, col):
    """(object, routine, data) of the INIT_WORK() for the nested initializer at
    line:col, or None."""
    for t in nested(path)[0]:
        if t["line"] == int(line) and t["col"] == int(col):
            return "%s.%s" % (t["outer"], t["field"]), t["routine"], t["data"]
    return None


def _line(text, off):
    return text.count("\n", 0, off) + 1


def _function_bodies(text):
    """name -> (start, end) of each function definition, found textually."""
    bodies = {}
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\([^;{}]*\)\s*\{", text):
        name = m.group(1)
        if name in ("if", "while", "for", "switch", "return", "sizeof"):
            continue
        # a definition starts its line's statement: the text before it on
        # the previous non-blank characters ends with }, ;, ) or a type word
        before = text[:m.start()].rstrip()
        if before and before[-1] in "=,(":
            continue
        o = m.end() - 1
        bodies.setdefault(name, (o, _close(text, o, "{", "}")))
    return bodies


def _tq_names(text):
    """Names declared struct tq_struct in (blanked) text: variables, fields,
    pointers, arrays."""
    names = set(re.findall(r"\bstruct\s+tq_struct\s*\**\s*([A-Za-z_]\w*)", text))
    for m in re.finditer(r"\bstruct\s+tq_struct\s+[^;{}]*;", text):
        names.update(re.findall(r"[,\s*]([A-Za-z_]\w*)\s*(?:\[|,|;|=)", m.group(0)))
    names.discard("tq_struct")
    return names


def local_headers(path):
    """The files path includes with #include "NAME" that exist beside it
    (NAME neither absolute nor with a .. component)."""
    src = _source(path)
    if src is None:
        return []
    out = []
    # the raw text: _blank() empties the quoted name
    for m in re.finditer(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', src[0], re.M):
        if m.group(1).startswith("/") or ".." in m.group(1).split("/"):
            continue                    # as apply-stage's copy_local_includes
        h = os.path.join(os.path.dirname(path), m.group(1))
        if os.path.isfile(h) and h not in out:
            out.append(h)
    return out


def header_tasks(path):
    """Names declared struct tq_struct in the local headers of path (see
    local_headers): a driver's own header, converted with it.  Stage 1 then
    runs spatch with --local-includes so that its typed rules see them."""
    key = ("hdr", path)
    if key not in _cache:
        names = set()
        for h in local_headers(path):
            src = _source(h)
            if src is not None:
                names |= _tq_names(src[1])
        _cache[key] = names
    return _cache[key]


def _enclosing(funcs, off):
    """Name of the function whose body holds offset off, or None."""
    for name, (s, e) in funcs.items():
        if s <= off < e:
            return name
    return None


def bh_queue(path):
    """The private task queue that a driver's own bottom half runs, when stage
    1 can turn its tasks into work items: a dict with q (the queue), nr (the
    bottom-half number), fn (the bottom-half function), or None.

    The 2.4 serial idiom, as its 2.6 ports replaced it by hand:

        static DECLARE_TASK_QUEUE(Q);
        static void F(void) { run_task_queue(&Q); }
        init_bh(N, F);                          init
        queue_task(&t, &Q); mark_bh(N);         wherever work turns up
        remove_bh(N); run_task_queue(&Q);       exit (the drain is optional)

    Safe when the file uses Q, N and F in these ways only: F does nothing but
    run Q, nothing else runs Q except a drain after remove_bh(N) in the same
    function, every function that queues onto Q marks N, and N is not
    disabled.  Then each task becomes a work item of its own queued with
    schedule_work() (which, like queue_task(), returns 1 only when it newly
    queued it), init_bh/mark_bh and F go, and remove_bh plus the drain become
    flush_scheduled_work().  One such queue per file; with several, none."""
    key = ("bhq", path)
    if key in _cache:
        return _cache[key]
    whys = _cache[("bhq-why", path)] = {}      # queue -> why it is not converted
    src = _source(path)
    if src is None:
        _cache[key] = None
        return None
    text = src[1]
    funcs = _function_bodies(text)
    found = []
    for m in re.finditer(r"^[ \t]*(?:static\s+)?DECLARE_TASK_QUEUE\s*\(\s*(\w+)\s*\)\s*;", text, re.M):
        q = m.group(1)
        ok, why = _bh_queue_ok(text, funcs, q)
        if ok:
            found.append(ok)
        else:
            whys[q] = why
    res = found[0] if len(found) == 1 else None
    if len(found) > 1:
        for ok in found:
            whys[ok["q"]] = "stage 1 converts one such queue per file, and this file has %d" % len(found)
    _cache[key] = res
    return res


def _bh_queue_ok(text, funcs, q):
    """(dict, None) when private queue q can be converted, else (None, why)."""
    uses = len(re.findall(r"\b%s\b" % re.escape(q), text))
    queues = [(o, a) for o, a in _calls(text, "queue_task")
              if len(a) == 2 and re.sub(r"^&\s*", "", a[1]).strip() == q]
    runs = [o for o, a in _calls(text, "run_task_queue")
            if len(a) == 1 and re.sub(r"^&\s*", "", a[0]).strip() == q]
    if not queues:
        return None, "nothing queues onto it here"
    # the bottom-half function: its body is run_task_queue(&Q); and nothing else
    bh = [name for name, (s, e) in funcs.items()
          if re.sub(r"\s+", "", text[s + 1:e - 1]) == "run_task_queue(&%s);" % q]
    if len(bh) != 1:
        return None, ("no function of the driver does nothing but run it, as a bottom half "
                      "would")
    if uses != 1 + len(queues) + len(runs):
        return None, "it is used other than by queue_task() and run_task_queue()"
    fn = bh[0]
    inits = [a for o, a in _calls(text, "init_bh") if len(a) == 2 and a[1] == fn]
    if len(inits) != 1 or not re.match(r"^\w+$", inits[0][0]) or inits[0][0] == "IMMEDIATE_BH":
        return None, "%s() is not installed by exactly one init_bh() of its own number" % fn
    nr = inits[0][0]
    # F: its definition, init_bh, and perhaps a prototype
    fn_uses = len(re.findall(r"\b%s\b" % re.escape(fn), text))
    protos = len(re.findall(r"\b%s\s*\([^()]*\)\s*;" % re.escape(fn), text))
    if fn_uses != 2 + protos:
        return None, "%s() is used other than by init_bh()" % fn
    # N: init_bh, mark_bh, remove_bh (and the #define of a driver's own number)
    marks = [o for o, a in _calls(text, "mark_bh") if a == [nr]]
    removes = [o for o, a in _calls(text, "remove_bh") if a == [nr]]
    defines = len(re.findall(r"^[ \t]*#[ \t]*define[ \t]+%s\b" % re.escape(nr), text, re.M))
    if len(re.findall(r"\b%s\b" % re.escape(nr), text)) != 1 + len(marks) + len(removes) + defines:
        return None, "%s is used other than by init_bh(), mark_bh() and remove_bh()" % nr
    # every run of Q outside F is a drain after remove_bh(N) in its function
    s, e = funcs[fn]
    for o in runs:
        if s <= o < e:
            continue
        where = _enclosing(funcs, o)
        if where is None or not any(_enclosing(funcs, r) == where and r < o for r in removes):
            return None, "it is also run synchronously, not only after remove_bh(%s)" % nr
    # every function that queues onto Q marks N
    for o, _ in queues:
        where = _enclosing(funcs, o)
        if where is None or not any(_enclosing(funcs, mk) == where for mk in marks):
            return None, "a function queues onto it without mark_bh(%s)" % nr
    return dict(q=q, nr=nr, fn=fn), None


def analyse(path):
    if path in _cache:
        return _cache[path]
    src = _source(path)
    if src is None:
        _cache[path] = []
        return []
    raw, text = src
    out = []
    # converted by 06-private-bh-queue, through apply-stage only: no finding
    bhq = bh_queue(path)
    not_converted = dict(_cache[("bhq-why", path)])    # queue -> why
    if bhq and not os.environ.get("WQPORT_APPLY_STAGE"):
        not_converted[bhq["q"]] = "the serial idiom, which only semantic-patches/apply-stage converts"
        bhq = None
    conv_q = {bhq["q"]} if bhq else set()
    conv_nr = {bhq["nr"]} if bhq else set()

    def find(off, reason, blocks):
        out.append(Finding(_line(text, off), reason + (REASON_TAIL if blocks else ""), blocks))

    # Names of task objects: variables, fields, pointers, arrays; also those
    # of the driver's own headers beside the file (converted with it).
    tq_names = _tq_names(text) | header_tasks(path)
    funcs = _function_bodies(text)

    # Declarations the initializer patch converts: struct tq_struct x = {...};
    decl_spans = []
    for m in re.finditer(r"\bstruct\s+tq_struct\s+([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*=\s*\{", text):
        o = m.end() - 1
        e = _close(text, o, "{", "}")
        if m.group(2):
            find(m.start(), "wqport: array of struct tq_struct with a static initializer; "
                 "give each element an INIT_WORK() in the init path by hand", True)
            continue
        if split_initializer(_split_args(text[o + 1:e - 1])) is None:
            find(m.start(), "wqport: static initializer of %s without a routine or with list/sync "
                 "values; write its INIT_WORK() by hand" % m.group(1), True)
            continue
        decl_spans.append((m.start(), e))

    # Initializers nested in a file-scope structure's initializer: moved to
    # INIT_WORK()s at the start of the module_init() function by 01.
    targets, problems = nested(path)
    for off, _, reason in problems:
        find(off, reason, True)
    moved = [t["span"] for t in targets] + [(a, b) for a, b, _ in problems]

    # Initializers nested in another structure's initializer, or in a macro.
    for m in re.finditer(r"[{,]\s*(?:\.\s*routine\s*=(?!=)|routine\s*:(?!:))", text):
        if any(s <= m.start() < e for s, e in decl_spans):
            continue
        if any(s <= m.start() < e for s, e in moved):
            continue
        # the brace this designator is in, and the field it initialises
        depth, j = 0, m.start() + (0 if text[m.start()] == "{" else -1)
        while j >= 0:
            if text[j] == "}":
                depth += 1
            elif text[j] == "{":
                if depth == 0:
                    break
                depth -= 1
            j -= 1
        field = re.search(r"(?:\.\s*(\w+)\s*=|(\w+)\s*:)\s*$", text[max(0, j - 80):max(0, j)])
        if not field or (field.group(1) or field.group(2)) not in tq_names:
            continue                    # some other structure's routine field
        find(m.start(), "wqport: task routine set in an initializer of an enclosing structure "
             "(or a macro); move it to an INIT_WORK() in the init path by hand", True)

    # queue_task onto queues other than tq_timer / tq_immediate.
    for off, args in _calls(text, "queue_task"):
        if len(args) != 2:
            continue
        q = re.sub(r"^&\s*", "", args[1]).strip()
        if q in BH_QUEUES or q in conv_q:
            continue
        if q == "tq_disk":
            find(off, "wqport: queue_task() onto tq_disk (block-layer unplugging) has no "
                 "workqueue equivalent; use the request queue's unplug_fn by hand", True)
        elif q == "tq_scheduler":
            find(off, "wqport: queue_task() onto tq_scheduler (gone since 2.4.0); "
                 "schedule_work() is the likely replacement, check by hand", True)
        else:
            find(off, "wqport: queue_task() onto %s, a private or unknown task queue (run by "
                 "the driver's own bottom half?); convert each task to a work item by hand" % q, True)

    for m in re.finditer(r"\bDECLARE_TASK_QUEUE\s*\(\s*(\w+)", text):
        if m.group(1) in conv_q:
            continue
        why = not_converted.get(m.group(1))
        find(m.start(), "wqport: private task queue %s%s; convert its tasks to work items and "
             "drop the queue by hand" % (m.group(1), " (not converted: %s)" % why if why else ""),
             True)

    for off, args in _calls(text, "run_task_queue"):
        q = re.sub(r"^&\s*", "", args[0]).strip() if args else "?"
        if q == "tq_timer" or q in conv_q:
            continue
        if q == "tq_disk":
            find(off, "wqport: run_task_queue(&tq_disk) unplugs the block layer; nothing runs "
                 "tq_disk on 2.6+: use blk_run_queues()/the queue's unplug_fn by hand", False)
        else:
            find(off, "wqport: run_task_queue(&%s) runs a private or bottom-half queue "
                 "synchronously; convert by hand" % q, True)

    # Custom bottom halves.
    for name in ("init_bh", "remove_bh", "mark_bh"):
        for off, args in _calls(text, name):
            if args and args[0] != "IMMEDIATE_BH" and args[0] not in conv_nr:
                find(off, "wqport: %s(%s): a custom bottom half; convert it to a tasklet or a "
                     "work item by hand" % (name, args[0]), False)
    for name in ("disable_bh", "enable_bh", "start_bh_atomic", "end_bh_atomic",
                 "synchronize_bh"):
        for off, args in _calls(text, name):
            find(off, "wqport: %s() excludes bottom halves; task routines become work items "
                 "in process context, which it no longer excludes" % name, True)

    # Macros that hide task-queue code behind several statements.
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)((?:[^\n]*\\\n)*[^\n]*)", text, re.M):
        body = m.group(2)
        if not re.search(r"\b(queue_task|schedule_task|tq_struct|INIT_TQUEUE|PREPARE_TQUEUE|"
                         r"tq_timer|tq_immediate|run_task_queue)\b", body):
            continue
        b = re.sub(r"\\\n", " ", body).strip()
        if b.startswith("("):
            b = b[_close(b, 0, "(", ")"):].strip()
        b = re.sub(r"^do\s*\{.*\}\s*while\s*\(\s*0\s*\)$", "", b, flags=re.S)
        if ";" in b.rstrip(";") or (b.endswith(";") and not b.startswith("{")):
            find(m.start(), "wqport: macro %s hides task-queue code in several statements, "
                 "which spatch cannot see through; expand or convert it by hand" % m.group(1), True)

    # Task object internals, and stores that are not an initialisation.
    names = "|".join(sorted(re.escape(n) for n in tq_names)) or "(?!)"
    for m in re.finditer(r"\b(?:%s)\s*(?:\[[^\]]*\]\s*)?(?:\.|->)\s*(sync|list|routine)\b(\s*=(?!=))?" % names, text):
        field, store = m.group(1), m.group(2)
        if field == "routine" and store:
            continue                                     # checked below
        if field == "sync" and store and re.match(r"\s*=\s*0\s*;", text[m.end(1):]):
            continue
        if field == "list" and re.search(r"INIT_LIST_HEAD\s*\(\s*&[^;]*$", text[max(0, m.start() - 80):m.start()]):
            continue
        find(m.start(), "wqport: reads or writes tq_struct.%s, which struct work_struct "
             "does not have; convert by hand" % field, True)

    # routine stores: need a data store beside them, or no data store at all.
    stores = {}
    for m in re.finditer(r"([\w.\->\[\]]+?)\s*(?:\.|->)\s*(routine|data)\s*=(?!=)([^;]*);", text):
        obj = _last_name(m.group(1))
        if obj in tq_names:
            stores.setdefault(obj, []).append((m.start(), m.end(), m.group(2)))
    for obj, ss in stores.items():
        for i, (s, e, field) in enumerate(ss):
            if field != "routine":
                continue
            near = [t for t in ss if t[2] == "data" and
                    (abs(t[0] - e) < 3 or abs(s - t[1]) < 3 or
                     re.match(r"^\s*$", text[min(e, t[1]):max(s, t[0])]))]
            if not near and any(t[2] == "data" for t in ss):
                find(s, "wqport: %s.routine is stored apart from %s.data; "
                     "write its INIT_WORK() by hand" % (obj, obj), True)

    # Field stores on a task whose struct tq_struct is declared elsewhere (a
    # header): 02's store rules need the type, so they would miss them while
    # 03 converts the queueing.
    tasks = set()
    foreign = []
    in_define = [False] * (len(text) + 1)
    for m in re.finditer(r"^[ \t]*#[ \t]*define\b(?:[^\n]*\\\n)*[^\n]*", text, re.M):
        in_define[m.start():m.end()] = [True] * (m.end() - m.start())
    for name in ("queue_task", "schedule_task", "INIT_TQUEUE", "PREPARE_TQUEUE"):
        for off, args in _calls(text, name):
            if args:
                tasks.add(_last_name(args[0]))
                if ((_last_name(args[0]) not in tq_names or KERNEL_TASKS.search(args[0]))
                        and not in_define[off] and re.match(r"^[\w\s&.\->\[\]()*]+$", args[0])):
                    # the tty layer's tty->flip.tqueue, or a header's task:
                    # its struct tq_struct would stay while the call changed
                    foreign.append((off, "wqport: %s() of %s, whose struct tq_struct this "
                                    "driver does not declare (a kernel structure's, such as "
                                    "the tty flip buffer's tty->flip.tqueue, or a header's "
                                    "that is not converted with it); convert by hand "
                                    "(tty_flip_buffer_push() for the flip buffer)"
                                    % (name, args[0].strip()), _last_name(args[0])))
    stored_apart = set()
    for m in re.finditer(r"([\w.\->\[\]]+?)\s*(?:\.|->)\s*(routine|data|sync)\s*=(?!=)", text):
        obj = _last_name(m.group(1))
        if obj in tasks and obj not in tq_names:
            stored_apart.add(obj)
            find(m.start(), "wqport: %s.%s is stored, but %s's struct tq_struct is declared "
                 "outside this file (a header?); the field stores need its type: convert the "
                 "driver's header with this file (both in one wqport convert), or by hand"
                 % (obj, m.group(2), obj), True)

    for off, reason, obj in foreign:
        if obj not in stored_apart:             # said once per task object
            find(off, reason, True)

    # PREPARE_TQUEUE as a task's only initialisation (ns83820.c): faithful
    # as PREPARE_WORK, but a 2.6 item wants INIT_WORK before it is queued
    # (DEBUG_OBJECTS_WORK reports one that never had it).  Not blocking.
    initialised = set()
    for off, args in _calls(text, "INIT_TQUEUE"):
        if args:
            initialised.add(_last_name(args[0]))
    for m in re.finditer(r"([\w.\->\[\]]+?)\s*(?:\.|->)\s*routine\s*=(?!=)", text):
        initialised.add(_last_name(m.group(1)))
    for m in re.finditer(r"\bstruct\s+tq_struct\s+(\w+)\s*(?:\[[^\]]*\])?\s*=", text):
        initialised.add(m.group(1))
    initialised |= {t["field"] for t in targets}
    for off, args in _calls(text, "PREPARE_TQUEUE"):
        # &task only: through a pointer (a parameter) the task is the caller's
        if (args and args[0].strip().startswith("&") and not in_define[off]
                and _last_name(args[0]) not in initialised):
            find(off, "wqport: PREPARE_TQUEUE() is the only initialisation of %s: 2.6 wants "
                 "INIT_WORK() before an item is first queued (DEBUG_OBJECTS_WORK reports one "
                 "that never had it); make this one INIT_WORK() if %s cannot be queued here"
                 % (args[0].strip(), args[0].strip()), False)

    # Routines that ran in bottom-half context and take a lock that process
    # context takes with spin_lock_bh(): as work items they would need _bh too.
    routines = {}
    for name in ("INIT_TQUEUE", "PREPARE_TQUEUE"):
        for off, args in _calls(text, name):
            if len(args) == 3:
                routines.setdefault(_last_name(args[0]), set()).add(_last_name(args[1]))
    for m in re.finditer(r"([\w.\->\[\]]+?)\s*(?:\.|->)\s*routine\s*=(?!=)([^;]*);", text):
        routines.setdefault(_last_name(m.group(1)), set()).add(_last_name(m.group(2)))
    for m in re.finditer(r"\bstruct\s+tq_struct\s+(\w+)\s*=\s*\{", text):
        o = m.end() - 1
        r = split_initializer(_split_args(text[o + 1:_close(text, o, "{", "}") - 1]))
        if r:
            routines.setdefault(m.group(1), set()).add(_last_name(r[0]))
    for t in targets:
        routines.setdefault(t["field"], set()).add(_last_name(t["routine"]))
    in_bh = set()
    for off, args in _calls(text, "queue_task"):
        if len(args) == 2 and re.sub(r"^&\s*", "", args[1]).strip() in BH_QUEUES | conv_q:
            in_bh |= routines.get(_last_name(args[0]), set())
    bh_locked = set()
    for name in ("spin_lock_bh", "read_lock_bh", "write_lock_bh", "local_bh_disable"):
        for off, args in _calls(text, name):
            bh_locked.add(_last_name(args[0]) if args else "*")
    for r in sorted(in_bh):
        if r not in funcs:
            continue
        s, e = funcs[r]
        body = text[s:e]
        for name in ("spin_lock", "read_lock", "write_lock"):
            for off, args in _calls(body, name):
                lk = _last_name(args[0]) if args else "?"
                if lk in bh_locked or "*" in bh_locked:
                    find(s + off, "wqport: %s() ran in bottom-half context and takes %s with "
                         "%s(), while process context takes it with _bh; as a work item it "
                         "would race with bottom halves: convert by hand" % (r, lk, name), True)

    # A struct tq_struct handed to code outside the task-queue family.
    macros = set(re.findall(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", text, re.M))
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", text):
        fn = m.group(1)
        if fn in FAMILY or fn in funcs or fn in macros or fn.startswith("__builtin"):
            continue
        o = m.end() - 1
        args = _split_args(text[o + 1:_close(text, o, "(", ")") - 1])
        for a in args:
            if re.match(r"^\(?\s*&?[\w.\->\[\]\s]*$", a) and "&" in a and _last_name(a) in tq_names:
                find(m.start(), "wqport: %s is handed to %s(), outside the task-queue family; "
                     "convert by hand" % (a.strip(), fn), True)

    # Code spatch cannot parse is skipped by every rule, silently: a task
    # declared or used there would end half converted.
    if re.search(TQ_TOKENS, text):
        all_lines = text.split("\n")
        macro_lines = set()                 # lines of the #defines reported above
        for f in out:
            if f.reason.startswith("wqport: macro "):
                n = f.line
                macro_lines.add(n)
                while n <= len(all_lines) and all_lines[n - 1].rstrip().endswith("\\"):
                    n += 1
                    macro_lines.add(n)
        for start, end, line in _unparsed(path, text):
            # inside a #define the macro check already reported: once is enough
            if line in macro_lines:
                continue
            chunk = "\n".join(text.split("\n")[start - 1:end])
            if re.search(TQ_TOKENS, chunk):
                out.append(Finding(line, "wqport: spatch cannot parse lines %d-%d, which hold "
                                   "task-queue code; convert by hand" % (start, end) + REASON_TAIL,
                                   True))

    out.sort(key=lambda f: (f.line, f.reason))
    _cache[path] = out
    return out


def blocked(path):
    return any(f.blocks for f in analyse(path))


def report_lines(path):
    return [(f.line, f.reason) for f in analyse(path)]


def initializer_at(path, line, col):
    """(routine, data) as written in the source, for the declaration whose
    name starts at line:col (0-based col), or None.  Used instead of the
    token-spaced text spatch gives for an initializer list, so the driver's
    own spelling (casts, spacing) is kept."""
    src = _source(path)
    if src is None:
        return None
    raw, text = src
    lines = text.split("\n")
    off = sum(len(l) + 1 for l in lines[:line - 1]) + col
    o = text.find("{", off)
    if o < 0:
        return None
    e = _close(text, o, "{", "}")
    parts, depth, start = [], 0, o + 1
    for j in range(o + 1, e - 1):
        c = text[j]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(_element(raw, text, start, j))
            start = j + 1
    if raw[start:e - 1].strip():
        parts.append(_element(raw, text, start, e - 1))
    return split_initializer(parts)


_DESIGNATOR = re.compile(r"\.\s*\w+\s*=|\w+\s*:(?!:)")


def _element(raw, text, a, b):
    """Initializer element raw[a:b] on one line, as the driver wrote it, but
    with its designator first: a comment before `data: d` (one that closed
    the line above) goes after the designator, with the value, so that
    split_initializer() still reads the field and the comment is kept."""
    t = text[a:b]
    k = len(t) - len(t.lstrip())
    m = _DESIGNATOR.match(t, k)
    el = raw[a:b]
    if m and k:
        lead = raw[a:a + k].strip()
        el = raw[a + k:a + m.end()] + " " + lead + " " + raw[a + m.end():b]
    return re.sub(r"\s+", " ", el.strip())


def has_initializer(path):
    """Whether path declares a struct tq_struct with an initializer."""
    src = _source(path)
    if src is None:
        return True
    return (re.search(r"\bstruct\s+tq_struct\s+\w+\s*=", src[1]) is not None
            or bool(nested(path)[0]))
