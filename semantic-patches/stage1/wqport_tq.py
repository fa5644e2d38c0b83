# SPDX-License-Identifier: GPL-2.0
# wqport_tq.py: what stage 1's semantic patches cannot see with SmPL alone.
#
# Imported by every semantic-patches/stage1/*.cocci (their @initialize:python@
# finds it beside the .cocci), by stage1/hooks.py and by wqport convert.  Copy
# it, with wqport_versions.py, with them when dropping them into a kernel tree
# (scripts/coccinelle/wqport/).
#
# analyse(path) reads a 2.4 driver's text once and returns its findings: the
# uses of the task-queue family that the stage must leave to a human.  A finding
# that "blocks" keeps its tasks on the 2.4 API, with everything tied to them
# (plan(): a task and what would have to change type with it, one group);
# the file's other tasks convert, struct tq_struct and struct work_struct
# side by side, which the shim builds.  When no task of the file can convert,
# the whole file stays as it is.  The scan is textual and conservative:
# comments, strings and the branches no target kernel compiles
# (wqport_versions) are blanked first, every other #ifdef branch counts, and
# a name match is enough to block.
# The findings come from _findings(): one _Scan of the file, through _CHECKS,
# a function per concern (_check_initializers, _check_queue_task,
# _check_bottom_halves, _check_unparsed, ...); plan() then decides which
# tasks each finding keeps; mask() hides the kept ones from the patches and
# applies the rewrites the checks planned for the others (stores moved
# together, macro bodies, a bottom-half routine's locks).

import bisect
import functools
import hashlib
import os
import re
import subprocess
import sys

# semantic-patches/wqport_spatch.py: the options every spatch run shares.
# Copied into a kernel tree without it, parse checks use spatch's own macros
# (as make coccicheck's runs do).
sys.path.append(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    from wqport_spatch import macro_args as _macro_args
except ImportError:
    def _macro_args(spatch):
        return []

# the preprocessor branches no target kernel compiles: both stages' concern
from wqport_versions import (FLOOR_STAGE1, blank_dead, dead_branches,  # noqa: E402
                             hide_dead, show_dead)

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


_parse_logs = {}     # sha1 of a text -> spatch --parse-c's log of it


def _parse_log_file(digest):
    """Where the log of a text goes for the other processes of a run (the
    spatch runs' Python): under $WQPORT_PARSE_LOGS, if set."""
    d = os.environ.get("WQPORT_PARSE_LOGS")
    return os.path.join(d, digest) if d else None


def _keep_log(digest, log):
    _parse_logs[digest] = log
    where = _parse_log_file(digest)
    if where:
        os.makedirs(os.path.dirname(where), exist_ok=True)
        with open(where + ".part", "w", encoding="latin-1") as fh:
            fh.write(log)
        os.replace(where + ".part", where)


def _digest(text):
    return hashlib.sha1(text.encode("latin-1", "replace")).hexdigest()


def _parse_command(paths):
    spatch = os.environ.get("SPATCH", "spatch")
    return ([spatch, "--parse-c", "--no-includes"] + _macro_args(spatch)
            + paths)


def preparse(paths):
    """spatch --parse-c on PATHS in one process, each one's log kept for
    parse_log() (and under $WQPORT_PARSE_LOGS): one spatch start-up for
    the files of a run.  spatch
    --parse-c parses each file on its own and heads its log with
    "PARSING: FILE"."""
    texts = {}
    for path in paths:
        try:
            with open(path, encoding="latin-1") as fh:
                text = fh.read()
        except OSError:
            continue
        digest = _digest(text)
        if digest in _parse_logs:
            _keep_log(digest, _parse_logs[digest])     # for the spatch runs too
        else:
            texts[path] = text
    if len(texts) < 2:
        for path, text in texts.items():
            parse_log(path, text)
        return
    try:
        res = subprocess.run(_parse_command(list(texts)), stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=120 * len(texts))
    except (OSError, subprocess.SubprocessError):
        return
    parts = re.split(r"^PARSING: (.*)\n", res.stdout.decode("latin-1"), flags=re.M)
    for name, log in zip(parts[1::2], parts[2::2]):
        if name in texts:
            _keep_log(_digest(texts[name]), log)


def parse_log(path, text=None):
    """spatch --parse-c's log of PATH, whose text is TEXT (default: read
    now); None if spatch cannot be run.  Kept by the text's digest: a run
    parses a text once, whichever copy of it is asked for."""
    if text is None:
        try:
            with open(path, encoding="latin-1") as fh:
                text = fh.read()
        except OSError:
            return None
    digest = _digest(text)
    if digest in _parse_logs:
        return _parse_logs[digest]
    where = _parse_log_file(digest)
    if where and os.path.exists(where):
        with open(where, encoding="latin-1") as fh:
            _parse_logs[digest] = fh.read()
        return _parse_logs[digest]
    try:
        res = subprocess.run(_parse_command([path]), stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    _keep_log(digest, res.stdout.decode("latin-1"))
    return _parse_logs[digest]


# (a "semantic error" is a region given up on too: ndiswrapper's
# `void WRAP_EXPORT(NdisMRegisterInterrupt)(...) {...}`, its macro in a
# header, is "WRAP_EXPORT declared as function returning a function")
_LOG_EVENT = re.compile(r"^ERROR-RECOV: found sync (.*) line (\d+)|"
                        r"^(?:parse|semantic) error[^\n]*\n\s*=\s*File \"([^\"]*)\", "
                        r"line (\d+), column (\d+)", re.M)
_BADCOUNT = re.compile(r"^badcount: (\d+)", re.M)


def parse_errors(path, log, nlines):
    """(first, last, line, column) of each region spatch --parse-c gave up
    on in PATH (NLINES lines long), from its LOG; first and last None when
    the log does not say (then the caller finds the toplevel around line).
    spatch resumes at a sync line and counts the lines it skipped up to it
    ("badcount"): those are the region.  The place it names can lie
    outside it: in a macro file (standard.h: an expansion it cannot parse),
    or at a #define of the file whose expansions fail further down (a
    function-local "#define card ((sdla_t *)dev_id)"); the line and column
    are then the region's first line and 0."""
    out, sync, sync_col0 = [], None, False
    events = list(_LOG_EVENT.finditer(log))
    for k, m in enumerate(events):
        if m.group(2):
            sync, sync_col0 = int(m.group(2)), m.group(1).startswith("col 0")
            continue
        line, col = int(m.group(4)), int(m.group(5))
        here = os.path.basename(m.group(3)) == os.path.basename(path)
        count = _BADCOUNT.search(log, m.end(),
                                 events[k + 1].start() if k + 1 < len(events) else len(log))
        if sync is None or count is None:
            first = end = None
            if not here:
                line, first, end, col = 1, 1, nlines, 0
        else:
            end = sync - 1 if sync_col0 else sync
            first = max(1, end - int(count.group(1)) + 1)
            if not (here and first <= line <= end):
                line, col = first, 0
        out.append((first, end, line, col))
    return out


def unparsed(path, text):
    """(first, last, error line) of each region spatch --parse-c gives up on."""
    src = _source(path)
    log = parse_log(path, src[0]) if src else None
    if log is None:
        return [(1, text.count("\n") + 1, 1)]
    lines = text.split("\n")
    regions, prev_end = [], 0
    syncs = [int(m.group(1)) for m in re.finditer(r"ERROR-RECOV: found sync .* line (\d+)", log)]
    for first, end, err, _ in parse_errors(path, log, len(lines)):
        if end is None:
            end = min([l for l in syncs if l >= err] or [len(lines)])
            first = err
            while first > prev_end + 1:                 # back to the toplevel's start
                prev = lines[first - 2]
                if re.match(r"^(\}|[^\s#].*;\s*$|#)", prev):
                    break
                first -= 1
        end = min(end, len(lines))
        first = min(first, end)
        while first < end and not lines[first - 1].strip():      # blank lines: no code
            first += 1
        while end > first and not lines[end - 1].strip():
            end -= 1
        err = min(max(err, first), end)
        regions.append((first, end, err))
        prev_end = max(prev_end, end)
    return regions


class Finding(object):
    """One use of the task-queue family that needs a human.  off: its offset
    in the file; tasks: the nodes (see plan()) it keeps on the 2.4 API when
    it blocks, None for those of its statement."""

    def __init__(self, line, reason, blocks, off=None, tasks=None, header=None):
        self.line, self.reason, self.blocks = line, reason, blocks
        self.off, self.tasks = off, tasks
        # the file of the header outside the run that declares its task
        # (W020, W021): what wqport convert --with-headers brings in
        self.header = header

    def __repr__(self):
        return "%d: %s%s" % (self.line, self.reason, " [blocks]" if self.blocks else "")


# What blank_text() blanks, in the order it looks for it at each place: a
# comment (to its end, or the text's), a // comment, a string or character
# literal (to its closing quote or the end of its line, which it keeps; a
# backslash escapes any character, a newline too).
_LEX = re.compile(r'/\*[\s\S]*?(?:\*/|\Z)|//[^\n]*|'
                  r'"(?:\\[\s\S]?|[^"\\\n])*[\s\S]?|\'(?:\\[\s\S]?|[^\'\\\n])*[\s\S]?')
_NOT_NL = re.compile(r"[^\n]")


def _blanked(m):
    s = m.group(0)
    if s[0] == "/":
        return _NOT_NL.sub(" ", s)
    if len(s) < 2:
        return s
    return s[0] + _NOT_NL.sub(" ", s[1:-1]) + s[-1]


@functools.lru_cache(maxsize=64)
def blank_text(text):
    """Comments and string/char literals replaced by spaces, newlines kept
    (a literal keeps its quotes).  The last texts asked are kept: a run
    asks for the same file's many times."""
    return _LEX.sub(_blanked, text)


def _source(path):
    """(raw text, blank_text()ed text) of path, read once per process; None if it
    cannot be read.  Every analysis here reads the file through it."""
    key = ("src", path)
    if key not in _cache:
        try:
            with open(path, encoding="latin-1") as f:
                raw = f.read()
        except (IOError, OSError):
            _cache[key] = None
        else:
            # what spatch skips reads as nothing: comments, literals,
            # #if 0 and the branches of kernels before 2.6.0
            _cache[key] = (raw, blank_dead(blank_text(raw), FLOOR_STAGE1))
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


def not_a_task(expr):
    """Whether expr, a queue_task()/schedule_task() argument, cannot be a
    pointer to a task: a number, or arithmetic other than + and - at its top
    level (what brackets hold is not looked at); a conditional or an
    assignment may yield a task."""
    e = expr.strip()
    flat, depth = [], 0
    for c in e:
        if c in ")]":
            depth -= 1
        if depth == 0:
            flat.append(c)
        if c in "([":
            depth += 1
    flat = "".join(flat).replace("->", ".")
    return bool(re.match(r"^[\d'\"]", e) or re.search(r"[/%|^~!<>]", flat)
                or re.search(r"[\w)\]]\s*\*\s*[\w(]", flat))


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
    named = r"^(?:\.\s*(\w+)\s*=|(\w+)\s*:(?!:))\s*(.*)$"
    for e in elements:
        # "NULL /* next */, 0 /* sync */, f" (lirc's drivers): fields and
        # empty values are read without the comments (as the analysis reads
        # them, blanked); routine and data keep theirs, as block comments
        # (the value may end up on one line with what follows)
        e = re.sub(r"//([^\n]*)", lambda c: "/*" + c.group(1).replace("*/", "* /") + " */",
                   e.strip())
        bare = blank_text(e).strip()
        m = re.match(named, bare, re.S)
        if m:
            field, value = m.group(1) or m.group(2), m.group(3).strip()
            mo = re.match(named, e, re.S)
            text = mo.group(3).strip() if mo else value
        else:
            field, value = ["list", "sync", "routine", "data"][pos] if pos < 4 else "?", bare
            text = e
            pos += 1
        if field == "routine":
            routine = text if value else value
        elif field == "data":
            data = text if value not in ("", "0") else value
        elif field == "sync":
            if value not in ("0", "0UL", "0L"):
                return None
        elif field == "list":
            if not re.match(r"^\{\s*(NULL|0)?\s*(,\s*(NULL|0)\s*)?,?\s*\}$|^LIST_HEAD_INIT|^(NULL|0)$",
                            value):
                return None
        else:
            return None
    if not routine or blank_text(routine).strip() in ("NULL", "0"):
        return None
    # a plain 0 for the data pointer is NULL (2.4's positional { 0, 0, f, 0 })
    return routine, (data if data and data != "0" else "NULL")


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
    if inits[0] not in function_bodies(text):
        return None, "module_init(%s) names a function not defined in this file" % inits[0]
    return inits[0], None


def _task_fields(text, o, e, names, tqf):
    """The elements of the brace list text[o:e] (a structure's initializer;
    names: its fields in order, or None) that initialise one of its task
    fields tqf: (start, end, value start, field, "designated"/"positional")."""
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
        if field in tqf:
            found.append((a, b, vs, field, "designated" if d else "positional"))
    return found


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
        if m.group(3):
            # an array of structures: each element's own braces hold the
            # fields (by position or by name); none can be moved to one
            # INIT_WORK(), so each element that sets a task field is an item
            for a, b in _split_spans(text, o + 1, e - 1):
                el = re.match(r"(?:\[[^\]]*\]\s*=\s*)?\{", text[a:b])
                if not el:
                    continue
                bo = a + el.end() - 1
                for fa, fb, _, field, _ in _task_fields(text, bo, _close(text, bo, "{", "}"),
                                                        names, tqf):
                    problems.append((fa, fb, "wqport[W001]: task routine of %s[].%s set in an "
                                     "element of an array of structures; give each element "
                                     "an INIT_WORK() in the init path by hand" % (outer, field)))
            continue
        found = _task_fields(text, o, e, names, tqf)
        if not found:
            continue
        if not top[m.start()]:
            for a, b, vs, field, kind in found:
                problems.append((a, b, "wqport[W001]: task routine of %s.%s set in an initializer of "
                                 "an enclosing structure that is not at file scope; move it to "
                                 "an INIT_WORK() by hand" % (outer, field)))
            continue
        for a, b, vs, field, kind in found:
            if text[vs] != "{" or _close(text, vs, "{", "}") != b:
                problems.append((a, b, "wqport[W002]: %s.%s is initialised by something other than a "
                                 "brace list; write its INIT_WORK() by hand" % (outer, field)))
                continue
            r = None
            ve = b
            parts = [re.sub(r"\s+", " ", raw[x:y]) for x, y in _split_spans(text, vs + 1, ve - 1)]
            r = split_initializer(parts)
            if r is None:
                problems.append((a, b, "wqport[W003]: initializer of %s.%s without a routine or with "
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
                problems.append((t["span"][0], t["span"][1], "wqport[W001]: task routine of %s.%s set in an "
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
    # a type name and a variable, apart (blanks or a *): "a = b" is no
    # declaration, though "a" and " = " around an empty blank would match
    r"|[A-Za-z_]\w*(?:\s*\*\s*|\s+)(?:\*\s*)*[A-Za-z_]\w*\s*[;,=\[]"
    r"|[A-Za-z_]\w*\s*\*+\s*[A-Za-z_]\w*\s*[;,=\[])")
NOT_TYPE = re.compile(r"(?:return|goto|case|default|else|do|if|while|for|switch|break|continue)\b")


def first_statement(path, fn=None):
    """(line, col 0-based) of the first statement of function fn (by
    default the module_init() function), after its declarations, or None."""
    return _body_start(path, fn, False)[0]


def last_declaration(path, fn, fresh=False):
    """(line, col 0-based) of the last declaration at the start of function
    fn's body, or None when it starts with a statement.  fresh: path may
    have changed since it was read (spatch's copy of a function a rule
    changed), read it again when it did."""
    return _body_start(path, fn, fresh)[1]


def _body_start(path, fn, fresh):
    key = ("first", path, fn)
    if fresh:
        try:
            st = os.stat(path)
            stamp = (st.st_size, st.st_mtime_ns)
        except OSError:
            return None, None
        if _cache.get(("stamp", path)) != stamp:
            for k in list(_cache):
                if k == ("src", path) or (k[:1] == ("first",) and k[1] == path):
                    del _cache[k]
            _cache[("stamp", path)] = stamp
    if key in _cache:
        return _cache[key]
    src = _source(path)
    if src is None:
        return None, None
    text = src[1]
    res = last = None

    def at(i):
        return (_line(text, i), i - (text.rfind("\n", 0, i) + 1))
    if fn is None:
        fn, _ = module_init_fn(text)
    if fn and fn in function_bodies(text):
        s, e = function_bodies(text)[fn]
        decls, i = _leading_declarations(text, s, e)
        if decls:
            last = at(decls[-1][0])
        if i < e - 1:
            res = at(i)
    _cache[key] = (res, last)
    return res, last


def _leading_declarations(text, s, e):
    """The declarations at the start of the function body text[s:e] (its
    braces included), as [(start, end)], and the offset of what follows
    them (its first statement, or a preprocessor line)."""
    out = []
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
            out.append((i, j + 1))
            i = j + 1
            continue
        break
    return out, i


# What a declaration's initializer may call and still run no code of the
# driver's before the workqueue is allocated.
NO_CODE = {"sizeof", "typeof", "__typeof__", "offsetof", "container_of", "ARRAY_SIZE",
           "__alignof__", "_Alignof", "to_pci_dev", "dev_get_drvdata", "BIT", "GENMASK"}


def is_first_statement(path, line, col, fn=None):
    return first_statement(path, fn) == (int(line), int(col))


def module_fns(text):
    """(init, exit, why): the functions the module's loading and unloading
    run, both defined in text: those module_init() and module_exit() name
    (one of each), or 2.4's init_module() and cleanup_module(); else None,
    None and why not."""
    bodies = function_bodies(text)
    for a, b in (("module_init", "module_exit"), (None, None)):
        if a is None:
            fi, fe = "init_module", "cleanup_module"
            if fi in bodies and fe in bodies:
                return fi, fe, None
            continue
        ins = set(re.findall(r"^[ \t]*%s\s*\(\s*(\w+)\s*\)" % a, text, re.M))
        outs = set(re.findall(r"^[ \t]*%s\s*\(\s*(\w+)\s*\)" % b, text, re.M))
        if len(ins) == 1 and len(outs) == 1:
            fi, fe = ins.pop(), outs.pop()
            if fi in bodies and fe in bodies:
                return fi, fe, None
    return None, None, "no module_init() and module_exit() functions defined in the file"


def bare_alias(names):
    """A #define that is only another name for one of names (a driver's
    "#define FLUSH_SCHEDULED_WORK flush_scheduled_work"): groups the
    macro's name, the name it stands for."""
    return re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(%s)[ \t]*$" % "|".join(names),
                      re.M)


# The calls of the system workqueue a private one takes over.
SYSTEM_WQ_NAMES = ("schedule_work", "schedule_delayed_work", "schedule_delayed_work_on",
                   "schedule_work_on", "flush_scheduled_work")
SYSTEM_WQ_CALLS = re.compile(r"\b(%s)\s*\(" % "|".join(SYSTEM_WQ_NAMES))
# A macro that stands for one of them: its name, the call.
SYSTEM_WQ_ALIAS = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\b[^\n]*?\b(%s)\b"
                             % "|".join(SYSTEM_WQ_NAMES), re.M)
SYSTEM_WQ_BARE_ALIAS = bare_alias(SYSTEM_WQ_NAMES)


# A #define line with its continuations.
DEFINE_LINES = re.compile(r"^[ \t]*#[ \t]*define\b(?:[^\n]*\\\n)*[^\n]*", re.M)


def _defines_blanked(text):
    """text with its #define lines (and their continuations) blanked: where
    a macro is used, not defined."""
    return DEFINE_LINES.sub("", text)
_RETURN = re.compile(r"\breturn\b([^;]*);")


def return_kind(expr):
    """How a return of the init function must treat a private workqueue
    allocated at its start: "ok" (0, or a positive constant: loaded), "fail"
    (a negative constant: destroy it first), "ident" (a variable: destroy
    it if nonzero), "expr" (anything else: through a variable)."""
    e = re.sub(r"\s+", "", expr)
    while e.startswith("(") and e.endswith(")") and _close(e, 0, "(", ")") == len(e):
        e = e[1:-1]
    if e == "" or re.match(r"^(0+|0[xX]0+|[1-9]\d*[uUlL]*)$", e):
        return "ok"
    if re.match(r"^-\(?\s*(\w+)\s*\)?$", e):
        return "fail"
    if re.match(r"^[A-Za-z_]\w*$", e):
        return "ident"
    return "expr"


def private_wq(path):
    """What giving the file a private workqueue in place of the system one
    takes: dict(name, init, exit, anchor (the function whose definition
    the declaration goes before), calls (lines of the calls of the system
    workqueue), tmp (the variable a return through an expression goes
    through, or None), has_decl (whether the init function's body starts
    with declarations)), or (None, why not).  The file must define the
    module's init and exit functions; the name is derived from the file's
    and appears nowhere in it (nor in the headers beside it)."""
    key = ("private", path)
    if key in _cache:
        return _cache[key]
    src = _source(path)
    if src is None:
        return None, "cannot read the file"
    raw, text = src
    fi, fe, why = module_fns(text)
    if fi is None:
        _cache[key] = (None, why)
        return _cache[key]
    bodies = function_bodies(text)
    words = set(re.findall(r"\w+", raw))
    htexts = []
    for h in local_headers(path):
        try:
            with open(h, encoding="latin-1") as fh:
                htexts.append(blank_text(fh.read()))
        except OSError:
            pass
        else:
            words |= set(re.findall(r"\w+", htexts[-1]))
    # a macro of the driver that stands for a call of the system workqueue
    # (#define SCHEDULE_WORK schedule_work: acx, ndiswrapper): its uses
    # would stay on the system queue while the flush moved away
    # (a macro of the file itself that calls one has its call rewritten
    # with the others: only a bare alias there)
    for t, rx in [(text, SYSTEM_WQ_BARE_ALIAS)] + [(h, SYSTEM_WQ_ALIAS) for h in htexts]:
        for m in rx.finditer(t):
            if re.search(r"\b%s\b" % m.group(1), _defines_blanked(text)):
                _cache[key] = (None, "the file reaches the system workqueue through its macro "
                               "%s (%s), which a private workqueue would not take over"
                               % (m.group(1), m.group(2)))
                return _cache[key]
    base = re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    if not re.match(r"^[A-Za-z]", base):
        base = "drv_" + base
    name, n = base + "_wq", 1
    while name in words:
        n += 1
        name = "%s_wq%d" % (base, n)
    calls = [m.start() for m in SYSTEM_WQ_CALLS.finditer(text)]
    # a macro's calls need the declaration where it is used, not defined
    defines = [(m.start(), m.end()) for m in
               DEFINE_LINES.finditer(text)]
    used = [o for o in calls if not any(a <= o < b for a, b in defines)]
    # ... there: the uses of a macro whose body calls it (or calls such a
    # macro) are uses of the workqueue
    named = {}
    for a, b in defines:
        m = re.match(r"[ \t]*#[ \t]*define[ \t]+(\w+)", text[a:b])
        if m:
            named[m.group(1)] = (a + m.end(), b)
    macros = {x for x, (a, b) in named.items() if any(a <= o < b for o in calls)}
    grew = True
    while grew:
        more = {x for x, (a, b) in named.items() if x not in macros and
                any(re.search(r"\b%s\b" % re.escape(y), text[a:b]) for y in macros)}
        macros |= more
        grew = bool(more)
    for x in macros:
        used += [m.start() for m in re.finditer(r"\b%s\b" % re.escape(x), text)
                 if not any(a <= m.start() < b for a, b in defines)]
    # the declaration goes before the first function that needs it, or the
    # last one before it that no #if encloses
    pp = []
    for m in re.finditer(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|endif)\b.*$", text, re.M):
        pp.append((m.start(), 1 if m.group(1) != "endif" else -1))
    def pp_depth(off):
        return sum(d for o, d in pp if o < off)
    first_use = min(used + [bodies[fi][0], bodies[fe][0]])
    anchor = None
    for fn, (s, e) in sorted(bodies.items(), key=lambda kv: kv[1][0]):
        if s > first_use:
            break
        if pp_depth(s) == 0:
            anchor = fn
    if anchor is None:
        _cache[key] = (None, "no function outside #if comes before the first use of the "
                       "system workqueue, for a private one's declaration to go before")
        return _cache[key]
    s, e = bodies[fi]
    # the allocation goes after the init function's declarations: one that
    # calls the driver's code (int err = register_...();) would run first,
    # and could queue on a workqueue not yet allocated
    decls, after = _leading_declarations(text, s, e)
    if text.startswith("#", after):
        # declarations under #if at the start: the allocation, put before
        # the #if, would come before them
        end = text.find("#endif", after)
        inside = text[after:end if 0 <= end < e else e].split("\n")[1:]
        if any(DECL_START.match(ln.strip()) and not NOT_TYPE.match(ln.strip())
               for ln in inside):
            _cache[key] = (None, "%s() starts with declarations under #if, and the private "
                           "workqueue's allocation must follow every declaration: allocate "
                           "it by hand" % fi)
            return _cache[key]
    for a, b in decls:
        init = text[a:b].partition("=")[2]
        call = next((c for c in re.findall(r"\b([A-Za-z_]\w*)\s*\(", init)
                     if c not in NO_CODE), None)
        if call:
            _cache[key] = (None, "the declarations of %s() call %s() before any statement, "
                           "where the private workqueue would be allocated: move that call "
                           "below the declarations, then convert again" % (fi, call))
            return _cache[key]
    body = text[s:e]
    tmp = None
    if any(return_kind(m.group(1)) == "expr" for m in _RETURN.finditer(body)):
        for t in ("err", "ret", "rc", name + "_err"):
            if not re.search(r"\b%s\b" % t, body):
                tmp = t
                break
    res = dict(name=name, init=fi, exit=fe, anchor=anchor, tmp=tmp,
               has_decl=last_declaration(path, fi) is not None,
               calls=sorted({_line(text, o) for o in calls}))
    _cache[key] = (res, None)
    return _cache[key]


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


def function_bodies(text):
    """name -> (start, end) of each function definition, found textually:
    at the top level only (a statement macro in a body, 2.6.18 ipr.c's
    list_for_each_entry(res, ...) {, is no definition)."""
    bodies = {}
    inside = -1
    # (one parenthesised list, nested one level at most, with no # in it
    # and the name on no preprocessor line: 2.6.18 baycom_epp.c's `#define
    # GETTICK(x)` then `#endif`, isp1301_omap.c's `#define TIMER_JIFFIES
    # (TIMER_MINUTES * 60 * HZ)`, then the next function, are no
    # definitions of GETTICK or TIMER_JIFFIES)
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\([^;{}#()]*(?:\([^;{}#()]*\)[^;{}#()]*)*\)"
                         r"\s*\{", text):
        name = m.group(1)
        if name in ("if", "while", "for", "switch", "return", "sizeof") or m.start() < inside:
            continue
        if text[text.rfind("\n", 0, m.start()) + 1:m.start()].lstrip().startswith("#"):
            continue
        # a definition starts its line's statement: the text before it on
        # the previous non-blank characters ends with }, ;, ) or a type word
        before = text[:m.start()].rstrip()
        if before and before[-1] in "=,(":
            continue
        o = m.end() - 1
        end = _close(text, o, "{", "}")
        bodies.setdefault(name, (o, end))
        if end < len(text):
            inside = max(inside, end)
    return bodies


def task_names(text, aliases=()):
    """Names declared struct tq_struct in (blanked) text: variables, fields,
    pointers, arrays; with ALIASES (see tq_aliases), also those declared
    through one of them, and the aliases text defines."""
    defined = tq_aliases(text)
    if defined:
        # "#define ALIAS struct tq_struct" declares nothing (not the next
        # line's first word)
        text = _TQ_ALIAS.sub(lambda m: " " * len(m.group(0)) if m.group(1) else m.group(0), text)
    names = set(re.findall(r"\bstruct\s+tq_struct\s*\**\s*([A-Za-z_]\w*)", text))
    for m in re.finditer(r"\bstruct\s+tq_struct\s+[^;{}]*;", text):
        decl = re.sub(r"=[^,;]*", "", m.group(0))          # not what initialisers name
        names.update(re.findall(r"[,\s*]([A-Za-z_]\w*)\s*(?:\[|,|;|=)", decl))
    names.discard("tq_struct")
    if aliases:
        al = r"(?<![\w#])(?:%s)\b" % "|".join(re.escape(a) for a in sorted(aliases))
        for m in re.finditer(al + r"(\s*\**\s*([A-Za-z_]\w*)[^;{}#]*);?", text):
            if text[text.rfind("\n", 0, m.start()) + 1:m.start()].lstrip().startswith("#"):
                continue                # the alias defined, tested, undefined
            names.add(m.group(2))
            decl = re.sub(r"=[^,;]*", "", " " + m.group(1) + ";")
            if "(" not in decl:         # not a prototype or a cast
                names.update(re.findall(r"[,\s*]([A-Za-z_]\w*)\s*(?:\[|,|;|=)", decl))
        names -= set(aliases)
        names |= defined & set(aliases)
    return names


# A driver's own name for the task type: "#define HOSTAP_QUEUE struct
# tq_struct" (hostap's compat header, which defines it per kernel), or a
# typedef.  Its declarations "HOSTAP_QUEUE reset_queue;" declare tasks.
_TQ_ALIAS = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+struct[ \t]+tq_struct"
                       r"[ \t]*$|\btypedef\s+struct\s+tq_struct\s+([A-Za-z_]\w*)\s*;", re.M)


def tq_aliases(text):
    """The names (blanked) text gives struct tq_struct: an object-like
    #define of exactly that type, a typedef of it, and the same of those
    names ("#define Q struct tq_struct" then "typedef Q q_t;")."""
    out = {m.group(1) or m.group(2) for m in _TQ_ALIAS.finditer(text)}
    while out:
        names = "|".join(map(re.escape, sorted(out)))
        more = {m.group(1) or m.group(2) for m in re.finditer(
            r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+(?:%s)[ \t]*$|"
            r"\btypedef\s+(?:%s)\s+([A-Za-z_]\w*)\s*;" % (names, names), text, re.M)}
        if more <= out:
            break
        out |= more
    return out


def type_aliases(path):
    """The aliases of struct tq_struct (tq_aliases) that path, its local
    headers (local_headers) and the other files of a wqport convert run
    (WQPORT_ALIASES, space-separated) define, outside the branches of
    kernels before 2.6.0."""
    key = ("aliases", path)
    if key not in _cache:
        out = set(os.environ.get("WQPORT_ALIASES", "").split())
        for h in [path] + local_headers(path):
            src = _source(h)
            if src is not None:
                out |= tq_aliases(src[1])
        _cache[key] = out
    return _cache[key]


def task_decl_at(path, line, col):
    """Whether the declaration whose name starts at line:col (0-based col)
    declares a task: its type is struct tq_struct or one of path's aliases
    of it (type_aliases: "static HOSTAP_QUEUE poll_task = {...};")."""
    src = _source(path)
    if src is None:
        return False
    text = src[1]
    lines = text.split("\n")
    if line < 1 or line > len(lines):
        return False
    off = sum(len(l) + 1 for l in lines[:line - 1]) + col
    start = max(text.rfind(c, 0, off) for c in ";{}") + 1
    decl = text[start:off]
    return (re.search(r"\bstruct\s+tq_struct\b", decl) is not None
            or bool(set(re.findall(r"[A-Za-z_]\w*", decl)) & type_aliases(path)))


def family_defs(text, aliases=()):
    """([helpers], [macros]) text defines, in text order: functions
    (defined or declared) with a struct tq_struct parameter, or one of
    ALIASES (names of that type), and macros whose body uses the
    task-queue family."""
    tq_types = r"\bstruct\s+tq_struct\b"
    if aliases:
        tq_types += r"|\b(?:%s)\b" % "|".join(re.escape(a) for a in sorted(aliases))
    fns = [m.group(1) for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(([^;{}]*)\)\s*[{;]", text)
           if m.group(1) not in ("if", "while", "for", "switch", "return", "sizeof")
           and re.search(tq_types, m.group(2))]
    macros = [m.group(1) for m in
              re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)((?:[^\n]*\\\n)*[^\n]*)", text, re.M)
              if re.search(TQ_TOKENS, m.group(2))]
    return fns, macros


def header_family(path):
    """(helpers, macros) that the local headers of path (local_headers)
    define (family_defs): hostap's static inline HOSTAP_QUEUE_INIT(struct
    tq_struct *tq, ...), its schedule macros; converted with the headers,
    they are the driver's own, not code outside the family."""
    key = ("hdr-family", path)
    if key not in _cache:
        fns, macros = set(), set()
        for h in local_headers(path):
            src = _source(h)
            if src is None:
                continue
            f, m = family_defs(src[1], tq_aliases(src[1]) | type_aliases(path))
            fns.update(f)
            macros.update(m)
        _cache[key] = (fns, macros)
    return _cache[key]


def aliased_tasks(path):
    """The task names path and its local headers declare through an alias
    of struct tq_struct (type_aliases), and the aliases themselves: the
    driver declares them, but spatch cannot type them (it does not expand
    the alias), so their field stores are no rule's."""
    key = ("aliased", path)
    if key not in _cache:
        al = type_aliases(path)
        names = set()
        if al:
            for h in [path] + local_headers(path):
                src = _source(h)
                if src is not None:
                    names |= task_names(src[1], al) - task_names(src[1])
        _cache[key] = names
    return _cache[key]


def local_headers(path):
    """The files path includes with #include "NAME" that exist beside it
    (NAME neither absolute nor with a .. component), and the files those
    include in the same way, beside themselves."""
    inc = os.environ.get("WQPORT_INCLUDE_DIR")
    out, todo = [], [path]
    while todo:
        cur = todo.pop(0)
        src = _source(cur)
        if src is None:
            continue
        # the raw text: blank_text() empties the quoted name
        for m in re.finditer(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"]+)"|<([^>]+)>)', src[0], re.M):
            name = m.group(1) or m.group(2)
            if name.startswith("/") or ".." in name.split("/"):
                continue                # as wqport_stage.quoted_includes
            if m.group(1):
                h = os.path.join(os.path.dirname(cur), name)
            elif inc:
                h = os.path.join(inc, name)     # a header of the same wqport convert run
            else:
                continue
            if os.path.isfile(h) and h not in out and h != path:
                out.append(h)
                todo.append(h)
    return out


def forget(path):
    """Drop what was worked out for path (not its text): the run's facts in
    the environment changed."""
    for k in list(_cache):
        if k == path or (isinstance(k, tuple) and len(k) == 2 and k[1] == path
                         and k[0] != "src"):
            del _cache[k]


def release(paths):
    """Drop everything read or worked out for PATHS, their text too: the
    run is done with those copies (wqport convert --with-headers analyses
    a tree's copies once before the run's own)."""
    paths = set(paths)
    for k in list(_cache):
        if k in paths or (isinstance(k, tuple) and len(k) > 1 and k[1] in paths):
            del _cache[k]


def declaring_header(path, name, dirs, rx=None, skip=()):
    """The header that declares name (a task or work item: struct tq_struct,
    work_struct or delayed_work; or whatever rx, a compiled pattern, finds),
    among those path includes, found beside it or under dirs (a wqport
    convert run's -I), as "<NAME>" or "NAME"; None if none does.  Headers
    whose real path is in skip are read for their includes only."""
    if rx is None:
        rx = re.compile(r"\bstruct\s+(?:tq_struct|work_struct|delayed_work)\s+[^;{}()]*\b%s\b"
                        % re.escape(name))
    found = header_matching(path, rx, dirs, skip)
    return found[1] if found else None


def task_rx(name):
    """A pattern for a header that declares task NAME: struct tq_struct, or
    a macro or typedef of it the header defines before (hostap's #define
    HOSTAP_QUEUE struct tq_struct)."""
    n = re.escape(name)
    return re.compile(r"\bstruct\s+tq_struct\s+[^;{}()]*\b%s\b|"
                      r"(?:#[ \t]*define[ \t]+(\w+)[ \t]+struct\s+tq_struct\b|"
                      r"\btypedef\s+struct\s+tq_struct\s+(\w+)\s*;)"
                      r"[\s\S]*?\b(?:\1|\2)\s+[^;{}()]*\b%s\b" % (n, n))


def task_header(path, name):
    """(file, shown) of the header that declares task NAME (shown as
    declaring_header names it), read beside PATH or under the run's -I
    (_search_dirs), through a macro or typedef of struct tq_struct too
    (task_rx); (None, None) if none does."""
    return header_matching(path, task_rx(name), _search_dirs()) or (None, None)


def held_header(hfile):
    """What an item on a task of header HFILE adds when wqport convert
    --with-headers left that header out (WQPORT_HELD_HEADERS: one
    "FILE<TAB>INCLUDER, ... [and N more]" a line): the files outside the
    run that include it; "" otherwise."""
    if not hfile:
        return ""
    real = os.path.realpath(hfile)
    for line in os.environ.get("WQPORT_HELD_HEADERS", "").split("\n"):
        if line.split("\t")[0] == real and "\t" in line:
            who = line.split("\t", 1)[1]
            return ("; --with-headers left the header as it is: %s, not in the run, "
                    "include%s it too (give them to the run)"
                    % (who, "" if ", " in who or who.endswith(" more") else "s"))
    return ""


def header_matching(path, rx, dirs, skip=()):
    """(file, "<NAME>" or "NAME") of the first header that path includes,
    directly or not, whose text (comments and strings blanked) rx finds:
    beside the includer or under dirs; None if none."""
    seen, todo = set(), [(path, None)]
    while todo:
        cur, shown = todo.pop(0)
        try:
            with open(cur, encoding="latin-1") as fh:
                text = fh.read()
        except (IOError, OSError):
            continue
        if shown and os.path.realpath(cur) not in skip and rx.search(blank_text(text)):
            return cur, shown
        for m in re.finditer(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"]+)"|<([^>]+)>)', text, re.M):
            n = m.group(1) or m.group(2)
            cands = ([os.path.join(os.path.dirname(cur), n)] if m.group(1) else []) + \
                [os.path.join(d, n) for d in dirs if d]
            for c in cands:
                if os.path.isfile(c) and os.path.realpath(c) not in seen:
                    seen.add(os.path.realpath(c))
                    todo.append((c, '"%s"' % n if m.group(1) else "<%s>" % n))
                    break
    return None


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
                names |= task_names(src[1])
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
    funcs = function_bodies(text)
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


_BETWEEN_STORES = re.compile(r"^(?:\s|#[^\n]*(?:\n|$)|INIT_LIST_HEAD\s*\([^;]*\)\s*;|"
                             r"[\w.\->\[\]]+?\s*(?:\.|->)\s*sync\s*=\s*0\s*;)*$")


_SYNC0 = r"(?:\s*[\w.\->\[\]]+?\s*(?:\.|->)\s*sync\s*=\s*0\s*;)*"


def _data_before_queueing(text, obj, ds):
    """Whether every queueing of obj comes right after one of the data
    stores ds (so that the data an INIT_WORK() gives it is never used)."""
    for name in ("queue_task", "schedule_task"):
        for off, args in _calls(text, name):
            if not args or _last_name(args[0]) != obj:
                continue
            if not any(d["e"] <= off and re.match(_SYNC0 + r"\s*(?:if\s*\(\s*!?\s*)?$",
                                                   text[d["e"]:off]) for d in ds):
                return False
    return True


def _queued_after(text, end, obj):
    """Whether the statement after offset end queues task obj (a
    `obj.sync = 0;` between them is the 2.4 reset, which 02 drops)."""
    m = re.match(_SYNC0 + r"\s*(?:if\s*\(\s*!?\s*)?(queue_task|schedule_task)\s*\(", text[end:])
    if not m:
        return False
    args = next(_calls(text[end + m.start(1):], m.group(1)), (0, []))[1]
    return bool(args) and _last_name(args[0]) == obj


def _sync_read(text, start, end):
    """Whether the .sync of the task expression ending at end (its last
    name at start) is only read: not assigned, incremented, or taken the
    address of (02 makes a read work_pending(), which is 2.4's bit 0 of
    sync: queued and not yet run)."""
    if re.match(r"\s*(?:[-+*/%&|^]|<<|>>)?=(?!=)|\s*(?:\+\+|--)", text[end:]):
        return False
    before = text[max(0, start - 160):start]
    expr = re.search(r"[\w\s.\->\[\]()]*$", before).group(0)
    lead = before[:len(before) - len(expr)].rstrip()
    if lead.endswith(("&", "++", "--")) or re.match(r"\s*(?:\+\+|--|&)", expr):
        return False
    if re.search(r"&\s*\(?\s*[\w.\->\[\]\s]*$", before):
        return False
    return True


def _defines(text):
    """(start, end, name, params or None) of each #define of text."""
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\([^)]*\))?(?:[^\n]*\\\n)*[^\n]*",
                         text, re.M):
        params = None
        if m.group(2):
            params = [p.strip() for p in m.group(2)[1:-1].split(",")]
        yield m.start(), m.end(), m.group(1), params


def _macro_param(text, off, arg):
    """Whether arg, in the #define around offset off, is one of its parameters."""
    for a, b, name, params in _defines(text):
        if a <= off < b:
            return params is not None and arg.strip() in params
    return False


def _queue_wrappers(text):
    """(macro, index of its task parameter, index of its queue parameter)
    for each #define that calls queue_task() with both from its caller: by
    name, or as its variadic arguments (#define M(...)
    queue_task(__VA_ARGS__), GNU's M(args...) queue_task(args))."""
    for a, b, name, params in _defines(text):
        if not params:
            continue
        for off, args in _calls(text[a:b], "queue_task"):
            if len(args) == 2:
                t, q = _last_name(args[0]), re.sub(r"^&\s*", "", args[1]).strip()
                if t in params and q in params:
                    yield name, params.index(t), params.index(q)
            elif len(args) == 1 and params[-1].endswith("..."):
                if args[0].strip() == (params[-1][:-3].strip() or "__VA_ARGS__"):
                    yield name, len(params) - 1, len(params)


def queue_wrappers(path, text):
    """_queue_wrappers() of text, then of the headers path includes beside
    it or from the run (a driver's macro is defined in its header)."""
    out = list(_queue_wrappers(text))
    seen = {w[0] for w in out}
    for h in local_headers(path):
        src = _source(h)
        for w in _queue_wrappers(src[1]) if src else ():
            if w[0] not in seen:
                seen.add(w[0])
                out.append(w)
    return out


def _data_kind(d):
    """"null", "container" (the task's own structure) or None, for a data
    store dict (value, base, bsep)."""
    v = re.sub(r"\s+", "", d["value"])
    if v in ("NULL", "0", "(void*)0"):
        return "null"
    if d["base"] is not None and ((d["bsep"] == "->" and v == re.sub(r"\s+", "", d["base"]))
                                  or (d["bsep"] == "." and v == "&" + re.sub(r"\s+", "", d["base"]))):
        return "container"
    return None


def _stores(raw, text, tq_names):
    """task -> list of its routine and data stores (dicts)."""
    stores = {}
    for m in re.finditer(r"([\w.\->\[\]]+?)\s*(\.|->)\s*(routine|data)\s*=(?!=)\s*([^;]*);", text):
        obj = _last_name(m.group(1))
        if obj not in tq_names:
            continue
        lv = raw[m.start(1):m.end(1)]
        b = re.match(r"^(.*?)\s*(->|\.)\s*(\w+)\s*$", lv, re.S)
        stores.setdefault(obj, []).append(dict(
            s=m.start(), e=m.end(), field=m.group(3), lv=lv, sep=m.group(2),
            base=b.group(1) if b else None, bsep=b.group(2) if b else None,
            value=raw[m.start(4):m.end(4)].strip()))
    return stores


def data_facts(path):
    """What path tells of its tasks' data, for the other files of a wqport
    convert run (WQPORT_DATA): task -> (kinds of the data its stores and
    INIT_TQUEUE()s give: "null", "container", "other"; whether it sets a
    routine)."""
    src = _source(path)
    if src is None:
        return {}
    raw, text = src
    names = task_names(text) | header_tasks(path) | aliased_tasks(path) | run_tasks()
    out = {}
    for obj, ss in _stores(raw, text, names).items():
        kinds = {_data_kind(d) or "other" for d in ss if d["field"] == "data"}
        out[obj] = (kinds, any(d["field"] == "routine" for d in ss))
    for name in ("INIT_TQUEUE", "PREPARE_TQUEUE"):
        for off, args in _calls(text, name):
            if len(args) == 3:
                obj = _last_name(args[0])
                k, r = out.get(obj, (set(), False))
                out[obj] = (k | {x or "other" for x in _other_data_kinds(text, obj)}, True)
    return out


def run_data():
    """task -> (set of data kinds, routine set) across a wqport convert run
    (WQPORT_DATA: "NAME=KIND,KIND:R" words), or None outside one."""
    if "WQPORT_DATA" not in os.environ:
        return None
    out = {}
    for w in os.environ["WQPORT_DATA"].split():
        m = re.match(r"^(\w+)=([\w,]*):([01])$", w)
        if m:
            out[m.group(1)] = (set(x for x in m.group(2).split(",") if x), m.group(3) == "1")
    return out


def _stores_apart(raw, text, tq_names, rewrites, notes):
    """The routine stores that 02 cannot make an INIT_WORK() of, as
    (offset, task) pairs, after the rewrites that let it (appended to
    rewrites, for mask()), and in notes (offset, task) of a lone routine
    store of a header's task whose data no file of the run stores: a data
    store that only the list/sync preamble or
    preprocessor lines separate from its routine store moves up to it; a
    data store elsewhere whose value is the task's own container or NULL,
    the same for every store, moves next to the task's one routine store;
    a data store right before each queueing of a task with one routine
    becomes PREPARE_TQUEUE(&task, routine, data) (2.4's own spelling of the
    two stores, which 02 makes PREPARE_WORK())."""
    stores = _stores(raw, text, tq_names)
    run = run_data()
    local = task_names(text)             # declared here, not in a header
    defines = [(m.start(2), m.end(2)) for m in _DEFINE.finditer(text)]
    out = []
    for obj, ss in stores.items():
        rs = [x for x in ss if x["field"] == "routine"]
        ds = [x for x in ss if x["field"] == "data"]
        # what the other files of the run store (none outside a run)
        rk = run.get(obj, (set(), False))[0] if run is not None else set()
        if not ds and (obj in local or run is None or not rk or rk == {"null"}):
            # a lone routine: 02 gives it NULL data, which is what a zeroed
            # task had; a task of a header whose data no file of the run
            # stores might get it from a file outside the run: said
            if obj not in local and run is not None and not rk and \
                    not _other_data_kinds(text, obj):
                for r in rs:
                    notes.append((r["s"], obj))
            continue
        for r in rs:
            r["paired"] = False

        def gap(a, b):
            lo, hi = (a, b) if a["s"] < b["s"] else (b, a)
            return text[lo["e"]:hi["s"]]

        paired, moves, macro_ops = set(), [], []
        for r in rs:
            for d in ds:
                if id(d) in paired:
                    continue
                g = gap(r, d)
                body = _define_at(defines, r["s"])
                if body:
                    lo, hi = (r, d) if r["s"] < d["s"] else (d, r)
                    g = text[lo["e"]:_lv_start(text, hi["s"])]
                if body and body == _define_at(defines, d["s"]) and \
                        _BETWEEN_STORES.match(g.replace("\\\n", "\n")):
                    # in a macro's body, where 02 cannot type the task:
                    # the pair becomes INIT_TQUEUE() here, which 03 converts
                    paired.add(id(d))
                    r["paired"] = True
                    macro_ops += _macro_pair(raw, r, d)
                    break
                if re.match(r"^\s*$", g):
                    paired.add(id(d))
                    r["paired"] = True
                    break
                if _BETWEEN_STORES.match(g):
                    paired.add(id(d))
                    r["paired"] = True
                    moves.append((r, d))
                    break
        lone_r = [r for r in rs if not r.get("paired")]
        lone_d = [d for d in ds if id(d) not in paired]
        ops = macro_ops
        for r, d in moves:
            ops += _move_store(raw, r, d, d["value"])
        if lone_r or lone_d:
            kind = _data_kind
            kinds = {kind(d) for d in ds} | _other_data_kinds(text, obj) | \
                {None if k == "other" else k for k in rk}
            rvals = [r["value"] for r in rs] + _other_routines(text, obj)
            routines = {re.sub(r"\s+", "", v) for v in rvals}
            nulls = [r for r in lone_r if re.sub(r"\s+", "", r["value"]) in ("NULL", "0")]
            if len(kinds) == 1 and None not in kinds and not nulls:
                # every store gives the same data (the container, or NULL):
                # each routine store gets it, the lone data stores go
                k = kinds.pop()
                bad = [r for r in lone_r if k == "container" and r["base"] is None]
                if bad:
                    out.extend((r["s"], obj, "routine") for r in bad)
                    continue
                for r in lone_r:
                    value = "NULL" if k == "null" else \
                        (r["base"] if r["bsep"] == "->" else "&" + r["base"])
                    ops.append((r["e"], r["e"], " %s%sdata = %s;" % (r["lv"], r["sep"], value)))
                for d in lone_d:
                    ops.append(_delete_statement(raw, d["s"], d["e"]))
            elif (len(routines) == 1 and lone_d
                  and all(_queued_after(text, d["e"], obj) for d in lone_d)
                  and (not lone_r or _data_before_queueing(text, obj, lone_d))):
                rv = rvals[0]
                for d in lone_d:
                    ops.append((d["s"], d["e"], "PREPARE_TQUEUE(&%s, %s, %s);"
                                % (d["lv"], rv, d["value"])))
            else:
                for x in (lone_r or lone_d):
                    out.append((x["s"], obj, x["field"]))
                continue
        for a, b, t in ops:
            rewrites.append(dict(start=a, end=b, text=t, at=a, node=obj))
    return out


def _other_routines(text, obj):
    """The routines INIT_TQUEUE/PREPARE_TQUEUE or an initializer give obj."""
    out = []
    for name in ("INIT_TQUEUE", "PREPARE_TQUEUE"):
        for off, args in _calls(text, name):
            if len(args) == 3 and _last_name(args[0]) == obj:
                out.append(args[1])
    for m in re.finditer(r"\bstruct\s+tq_struct\s+%s\s*=\s*\{" % re.escape(obj), text):
        o = m.end() - 1
        r = split_initializer(_split_args(text[o + 1:_close(text, o, "{", "}") - 1]))
        if r:
            out.append(r[0])
    return out


def _other_data_kinds(text, obj):
    """The kinds ("null", "container", None for other) of the data that
    INIT_TQUEUE/PREPARE_TQUEUE or an initializer give obj."""
    out = set()
    for name in ("INIT_TQUEUE", "PREPARE_TQUEUE"):
        for off, args in _calls(text, name):
            if len(args) == 3 and _last_name(args[0]) == obj:
                item = re.sub(r"\s+", "", args[0])
                d = re.sub(r"\s+", "", args[2])
                b = re.match(r"^&\(?(.*?)(->|\.)\w+\)?$", item)
                if d in ("NULL", "0", "(void*)0"):
                    out.add("null")
                elif b and ((b.group(2) == "->" and d == b.group(1)) or
                            (b.group(2) == "." and d == "&" + b.group(1))):
                    out.add("container")
                else:
                    out.add(None)
    for m in re.finditer(r"\bstruct\s+tq_struct\s+%s\s*=\s*\{" % re.escape(obj), text):
        o = m.end() - 1
        r = split_initializer(_split_args(text[o + 1:_close(text, o, "{", "}") - 1]))
        if r:
            out.add("null" if re.sub(r"\s+", "", r[1]) in ("NULL", "0") else None)
    return out


def _move_store(raw, r, d, value):
    """Edits that put data store d right after routine store r."""
    line_start = raw.rfind("\n", 0, r["s"]) + 1
    indent = re.match(r"[ \t]*", raw[line_start:]).group(0)
    ins = "\n%s%s%sdata = %s;" % (indent, d["lv"], d["sep"], value)
    if d["s"] < r["s"]:
        return [_delete_statement(raw, d["s"], d["e"]), (r["e"], r["e"], ins)]
    return [(r["e"], r["e"], ins), _delete_statement(raw, d["s"], d["e"])]


_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)((?:[^\n]*\\\n)*[^\n]*)", re.M)


def _define_at(defines, off):
    """The (start, end) of the #define body holding off, or None."""
    return next((d for d in defines if d[0] <= off < d[1]), None)


def _lv_start(raw, s):
    """Where the lvalue of a store that _stores() found at s begins: before
    the parenthesised macro argument it starts with, as in (p)->tq."""
    while s > 0 and raw[s - 1] == ")":
        depth, j = 0, s - 1
        while j >= 0:
            depth += {")": 1, "(": -1}.get(raw[j], 0)
            if depth == 0:
                break
            j -= 1
        s = j
        while s > 0 and (raw[s - 1].isalnum() or raw[s - 1] in "_.>-"):
            s -= 1
    return s


def _macro_pair(raw, r, d):
    """The edits that make a routine store R and a data store D of one task
    in a macro's body (lines joined by backslashes) one INIT_TQUEUE() in
    place of R: D's line goes, with its backslash, when it holds nothing
    else."""
    start = _lv_start(raw, r["s"])
    task = raw[start:r["s"] + len(r["lv"])].strip()
    edits = [(start, r["e"], "INIT_TQUEUE(&%s, %s, %s);" % (task, r["value"], d["value"]))]
    ds = _lv_start(raw, d["s"])
    a = raw.rfind("\n", 0, ds) + 1
    b = raw.find("\n", d["e"])
    if b > 0 and re.match(r"^\s*$", raw[a:ds]) and re.match(r"^\s*\\?\s*$", raw[d["e"]:b]):
        edits.append((a, b + 1, ""))
    else:
        edits.append((ds, d["e"], ""))
    return edits


def _delete_statement(raw, s, e):
    """The edit that deletes raw[s:e], with its line when nothing else is on it."""
    a = raw.rfind("\n", 0, s) + 1
    b = raw.find("\n", e)
    b = len(raw) if b < 0 else b
    if not raw[a:s].strip() and not raw[e:b].strip():
        return (a, min(b + 1, len(raw)), "")
    return (s, e, "")


_MACRO_OK = re.compile(r"\b(?:queue_task|schedule_task|INIT_TQUEUE|PREPARE_TQUEUE|"
                       r"flush_scheduled_tasks|run_task_queue|mark_bh|tq_struct|tq_timer|"
                       r"tq_immediate)\b")


def _convert_macro_body(raw, blank):
    """A macro body of several statements with the 2.4 calls of 03 (and the
    type of 04) in 2.6 form, spelled as 03 would; None when it holds
    anything else of the family (field stores, other queues)."""
    if re.search(r"(?:\.|->)\s*(?:routine|data|sync|list)\b|\btq_disk\b", blank):
        return None
    edits = []
    for off, args in _calls(blank, "queue_task"):
        e = _close(blank, blank.index("(", off), "(", ")")
        q = re.sub(r"\s+", "", args[1]) if len(args) == 2 else ""
        task = raw[blank.index("(", off) + 1:e - 1].rsplit(",", 1)[0].strip() if len(args) == 2 else ""
        if q == "&tq_immediate":
            edits.append((off, e, "schedule_work(%s)" % task))
        elif q == "&tq_timer":
            edits.append((off, e, "schedule_delayed_work(%s, 1)" % task))
        else:
            return None
    for off, args in _calls(blank, "run_task_queue"):
        if [re.sub(r"\s+", "", a) for a in args] != ["&tq_timer"]:
            return None
        edits.append((off, _close(blank, blank.index("(", off), "(", ")"), "flush_scheduled_work()"))
    for m in re.finditer(r"\bmark_bh\s*\(\s*IMMEDIATE_BH\s*\)\s*;", blank):
        edits.append((m.start(), m.end(), ""))
    for m in re.finditer(r"\bmark_bh\b", blank):
        if not any(a <= m.start() < b for a, b, _ in edits):
            return None                 # another bottom half
    for name, new in (("schedule_task", "schedule_work"), ("INIT_TQUEUE", "INIT_WORK"),
                      ("PREPARE_TQUEUE", "PREPARE_WORK"),
                      ("flush_scheduled_tasks", "flush_scheduled_work")):
        for m in re.finditer(r"\b%s\b" % name, blank):
            edits.append((m.start(), m.end(), new))
    for m in re.finditer(r"\bstruct\s+tq_struct\b", blank):
        edits.append((m.start(), m.end(), "struct work_struct"))
    out = raw
    for a, b, t in sorted(edits, reverse=True):
        out = out[:a] + t + out[b:]
    if _MACRO_OK.search(blank_text(out)):
        return None
    return out


class _Scan:
    """One file as the checks of _findings() read it, and what they find.
    Each check takes a scan and adds Findings with find(); a few leave what
    a later one reads (decl_spans, targets, private), and the macro and
    no-task checks what mask() rewrites (rewrites)."""

    def __init__(self, path, raw, text):
        self.path, self.raw, self.text = path, raw, text
        self.out = []
        # converted by 06-private-bh-queue, through apply-stage only: no finding
        bhq = bh_queue(path)
        self.not_converted = dict(_cache[("bhq-why", path)])    # queue -> why
        if bhq and not os.environ.get("WQPORT_APPLY_STAGE"):
            self.not_converted[bhq["q"]] = ("the serial idiom, which only "
                                            "semantic-patches/apply-stage converts")
            bhq = None
        self.conv_q = {bhq["q"]} if bhq else set()
        self.conv_nr = {bhq["nr"]} if bhq else set()
        # what mask() rewrites in the text for the tasks that convert, so that
        # the patches see the forms they know: dict(start, end, text, at)
        self.rewrites = _cache[("rewrites", path)] = []
        self.in_define = [False] * (len(text) + 1)
        for m in DEFINE_LINES.finditer(text):
            self.in_define[m.start():m.end()] = [True] * (m.end() - m.start())
        # Names of task objects: variables, fields, pointers, arrays; also
        # those of the driver's own headers beside the file (converted with
        # it), and those the other files of a wqport convert run declare.
        self.visible = task_names(text) | header_tasks(path)     # what spatch can type
        self.aliased = aliased_tasks(path) - self.visible       # declared through an alias
        self.tq_names = self.visible | self.aliased | run_tasks()
        self.funcs = function_bodies(text)
        self.decl_spans = []    # the struct tq_struct x = {...}; 01 converts
        self.targets = []       # nested(): initializers 01 moves to module_init()
        self.private = {}       # private queue -> the reason said at each of its uses

    def find(self, off, reason, blocks, tasks=None, header=None):
        self.out.append(Finding(_line(self.text, off), reason, blocks, off, tasks, header))


def _check_initializers(scan):
    """The declarations 01 converts (struct tq_struct x = {...};), and those it
    cannot: an array, an initializer without a routine or with list/sync values."""
    text, find = scan.text, scan.find
    decl_spans = []
    for m in re.finditer(r"\bstruct\s+tq_struct\s+([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*=\s*\{", text):
        o = m.end() - 1
        e = _close(text, o, "{", "}")
        if m.group(2):
            find(m.start(), "wqport[W004]: array of struct tq_struct with a static initializer; "
                 "give each element an INIT_WORK() in the init path by hand", True)
            continue
        if split_initializer(_split_args(text[o + 1:e - 1])) is None:
            find(m.start(), "wqport[W003]: static initializer of %s without a routine or with list/sync "
                 "values; write its INIT_WORK() by hand" % m.group(1), True)
            continue
        decl_spans.append((m.start(), e))
    scan.decl_spans = decl_spans


def _check_nested(scan):
    """Initializers nested in a file-scope structure's initializer (01 moves
    them to INIT_WORK()s at the start of module_init()), and a routine set
    in an initializer of another enclosing structure or a macro."""
    path, text, find, tq_names, decl_spans = scan.path, scan.text, scan.find, scan.tq_names, scan.decl_spans
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
        find(m.start(), "wqport[W001]: task routine set in an initializer of an enclosing structure "
             "(or a macro); move it to an INIT_WORK() in the init path by hand", True)
    scan.targets = targets


def _check_private_queues(scan):
    """Private queues the file declares and does not convert: one cause, so
    the declaration, each queue_task() onto it and each run_task_queue() of
    it carry the same reason (wqport convert makes them one item)."""
    text, find, conv_q, not_converted = scan.text, scan.find, scan.conv_q, scan.not_converted
    private = {}
    for m in re.finditer(r"\bDECLARE_TASK_QUEUE\s*\(\s*(\w+)", text):
        if m.group(1) in conv_q:
            continue
        why = not_converted.get(m.group(1))
        private[m.group(1)] = (
            "wqport[W008]: private task queue %s, queued and run by the driver itself%s; "
            "convert its tasks to work items and drop the queue by hand"
            % (m.group(1), " (not converted: %s)" % why if why else ""))
        find(m.start(), private[m.group(1)], True)
    scan.private = private


def _check_queue_task(scan):
    """queue_task() onto queues other than tq_timer and tq_immediate, and
    through wrapper macros that take the queue as an argument."""
    text, find, in_define, conv_q, private = scan.text, scan.find, scan.in_define, scan.conv_q, scan.private
    for off, args in _calls(text, "queue_task"):
        if len(args) != 2:
            continue
        q = re.sub(r"^&\s*", "", args[1]).strip()
        if q in BH_QUEUES or q in conv_q:
            continue
        if q == "tq_disk":
            find(off, "wqport[W005]: queue_task() onto tq_disk (block-layer unplugging) has no "
                 "workqueue equivalent: since 2.6.39 a submitter plugs its own batch "
                 "(blk_start_plug()/blk_finish_plug()) and a blk-mq driver starts the I/O "
                 "when queue_rq() sees bd->last or in its commit_rqs(); move the task's "
                 "work there by hand", True)
        elif q == "tq_scheduler":
            # no 2.4 kernel has it: this is a branch for 2.2 that no target
            # kernel compiles (#ifdef LINUX_2_4 ... #else), left as it is
            find(off, "wqport[W007]: queue_task() onto tq_scheduler (gone since 2.4.0), in a branch "
                 "no 2.4 or later kernel compiles: left as it is; delete the branch or "
                 "make it schedule_work() by hand", False)
        elif in_define[off] and _macro_param(text, off, q):
            continue                    # a wrapper: its uses are checked below
        elif q in private:
            find(off, private[q], True)
        else:
            find(off, "wqport[W009]: queue_task() of %s onto %s, a private or unknown task queue "
                 "(run by the driver's own bottom half?); convert each task to a work item by hand"
                 % (args[0].strip(), q), True)

    # wrappers: #define M(t, q) queue_task(t, q), a queue given by the caller
    for name, ti, qi in queue_wrappers(scan.path, text):
        for off, args in _calls(text, name):
            if in_define[off] or len(args) <= max(ti, qi):
                continue
            find(off, "wqport[W011]: %s is queued through %s(), a macro that takes the queue as "
                 "an argument, which the patches do not follow; write its queue_task() (or "
                 "the 2.6 call) out by hand" % (args[ti].strip(), name), True,
                 {_last_name(args[ti])})


def _check_run_task_queue(scan):
    """run_task_queue(): of tq_timer (what replaces it only waits), tq_disk,
    a private or bottom-half queue."""
    text, find, in_define, conv_q, private = scan.text, scan.find, scan.in_define, scan.conv_q, scan.private
    timer_tasks = [args[0].strip() for off, args in _calls(text, "queue_task")
                   if len(args) > 1 and re.sub(r"^&\s*", "", args[1]).strip() == "tq_timer"]
    for off, args in _calls(text, "run_task_queue"):
        q = re.sub(r"^&\s*", "", args[0]).strip() if args else "?"
        if q == "tq_timer" and timer_tasks and not in_define[off]:
            # 2.4 ran the timer tasks here, now; what replaces the call
            # only waits for work already queued
            find(off, "wqport[W026]: run_task_queue(&tq_timer) ran %s now, in the caller; "
                 "flush_scheduled_work(), which replaces it, does not run a task whose tick "
                 "has not come: it still runs later, after this code goes on (and frees "
                 "what it uses?); cancel it before the flush (cancel_delayed_work(), then "
                 "flush_scheduled_work()), or after stage 2 run it now with "
                 "flush_delayed_work()" % ", ".join(sorted(set(timer_tasks))), False)
            continue
        if q == "tq_timer" or q in conv_q:
            continue
        if q in private:
            find(off, private[q], True)
        elif q == "tq_disk":
            find(off, "wqport[W006]: run_task_queue(&tq_disk) unplugs the block layer; nothing runs "
                 "tq_disk on 2.6+ and there is no global unplug since 2.6.39 (blk_run_queues() "
                 "and unplug_fn are gone): drop the call; to batch I/O, wrap the submission "
                 "in blk_start_plug()/blk_finish_plug()", False)
        else:
            find(off, "wqport[W010]: run_task_queue(&%s) runs a private or bottom-half queue "
                 "synchronously; convert by hand" % q, True,
                 _bh_tasks(text, set(), {q}) if q in BH_QUEUES else None)


def _check_bottom_halves(scan):
    """Custom bottom halves, and the calls that exclude bottom halves, which
    work items no longer are."""
    text, find, conv_q, conv_nr = scan.text, scan.find, scan.conv_q, scan.conv_nr
    for name in ("init_bh", "remove_bh", "mark_bh"):
        for off, args in _calls(text, name):
            if args and args[0] != "IMMEDIATE_BH" and args[0] not in conv_nr:
                # one cause per bottom half: init_bh, mark_bh and remove_bh
                # of it say the same (wqport convert makes them one item)
                find(off, "wqport[W012]: custom bottom half %s (its init_bh(), mark_bh() and "
                     "remove_bh()); convert it to a tasklet or a work item by hand" % args[0],
                     False)
    for name in ("disable_bh", "enable_bh", "start_bh_atomic", "end_bh_atomic",
                 "synchronize_bh"):
        for off, args in _calls(text, name):
            find(off, "wqport[W013]: %s() excludes bottom halves; task routines become work items "
                 "in process context, which it no longer excludes" % name, True,
                 _bh_tasks(text, conv_q) or {ALL})
    # local_bh_disable() (softirqs, which ran the bottom halves in 2.4)
    # keeps the routines of tasks queued for a bottom half out only while
    # they run there; a driver uses it for its own softirq work too, so it
    # is an item only when the file has such tasks
    bh_tasks = _bh_tasks(text, conv_q)
    for name in ("local_bh_disable", "local_bh_enable") if bh_tasks else ():
        for off, args in _calls(text, name):
            find(off, "wqport[W013]: local_bh_disable()/local_bh_enable() exclude bottom "
                 "halves; the routines of %s become work items in process context, which "
                 "they no longer exclude" % ", ".join(sorted(bh_tasks)), True, bh_tasks)


def _check_macros(scan):
    """Macros that hide task-queue code behind several statements: their body
    rewritten for the patches where it can be (rewrites), else reported."""
    raw, text, find, rewrites = scan.raw, scan.text, scan.find, scan.rewrites
    for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)((?:[^\n]*\\\n)*[^\n]*)", text, re.M):
        body = m.group(2)
        if m.group(1) in OWN_API:
            continue                    # the driver's own fallback (mask())
        if not re.search(r"\b(queue_task|schedule_task|tq_struct|INIT_TQUEUE|PREPARE_TQUEUE|"
                         r"tq_timer|tq_immediate|run_task_queue)\b", body):
            continue
        b = re.sub(r"\\\n", " ", body).strip()
        if b.startswith("("):
            b = b[_close(b, 0, "(", ")"):].strip()
        b = re.sub(r"^do\s*\{.*\}\s*while\s*\(\s*0\s*\)$", "", b, flags=re.S)
        if ";" in b.rstrip(";") or (b.endswith(";") and not b.startswith("{")):
            new = _convert_macro_body(raw[m.start(2):m.end(2)], body)
            if new is not None:
                rewrites.append(dict(start=m.start(2), end=m.end(2), text=new, at=m.start()))
                continue
            find(m.start(), "wqport[W015]: macro %s hides task-queue code in several statements, "
                 "which spatch cannot see through; expand or convert it by hand" % m.group(1), True)


def _check_fields(scan):
    """Task object internals (sync, list, routine), and routine and data
    stored apart."""
    raw, text, find, rewrites, visible, tq_names = scan.raw, scan.text, scan.find, scan.rewrites, scan.visible, scan.tq_names
    names = "|".join(sorted(re.escape(n) for n in tq_names)) or "(?!)"
    for m in re.finditer(r"\b(?:%s)\s*(?:\[[^\]]*\]\s*)?(?:\.|->)\s*(sync|list|routine)\b(\s*=(?!=))?" % names, text):
        field, store = m.group(1), m.group(2)
        if field == "routine" and store:
            continue                                     # checked below
        if field == "sync" and store and re.match(r"\s*=\s*0\s*;", text[m.end(1):]):
            continue
        if field == "sync" and not store and _last_name(m.group(0)[:m.start(1) - m.start()]) \
                in visible and _sync_read(text, m.start(), m.end(1)):
            continue                    # 02 makes it work_pending()
        if field == "list" and re.search(r"INIT_LIST_HEAD\s*\(\s*&[^;]*$", text[max(0, m.start() - 80):m.start()]):
            continue
        find(m.start(), "wqport[W017]: reads or writes tq_struct.%s, which struct work_struct "
             "does not have; convert by hand" % field, True)

    # routine stores: need a data store beside them, or no data store at all.
    lone = []
    for s, obj, field in _stores_apart(raw, text, tq_names, rewrites, lone):
        find(s, "wqport[W018]: %s.%s is stored apart from %s.%s; write its INIT_WORK() by hand"
             % (obj, field, obj, "data" if field == "routine" else "routine"), True)
    for s, obj in lone:
        find(s, "wqport[W019]: %s.routine is stored with no %s.data in any file of this run, so "
             "INIT_WORK() gives it NULL, as a zeroed task had; %s is declared in a header: "
             "if a file outside the run stores its data, convert that file in the same run"
             % (obj, obj, obj), False)


def _check_foreign_tasks(scan):
    """Calls on a task whose struct tq_struct this file does not declare (a
    kernel structure's, a header's), calls given no task at all, and field
    stores on a task declared elsewhere."""
    path, text, find, rewrites, in_define, visible = scan.path, scan.text, scan.find, scan.rewrites, scan.in_define, scan.visible
    declared = visible | scan.aliased
    tasks = set()
    foreign = []
    for name in ("queue_task", "schedule_task", "INIT_TQUEUE", "PREPARE_TQUEUE"):
        for off, args in _calls(text, name):
            if name == "queue_task" and flip_push(args):
                continue                # 03 makes it tty_flip_buffer_push()
            if args:
                tasks.add(_last_name(args[0]))
                if ((_last_name(args[0]) not in declared or KERNEL_TASKS.search(args[0]))
                        and not in_define[off] and re.match(r"^[\w\s&.\->\[\]()*+]+$", args[0])):
                    # the tty layer's tty->flip.tqueue, or a header's task:
                    # its struct tq_struct would stay while the call changed
                    hfile, hdr = ((None, None) if KERNEL_TASKS.search(args[0]) else
                                  task_header(path, _last_name(args[0])))
                    if hdr:
                        reason = ("wqport[W020]: %s() of %s, whose struct tq_struct is declared "
                                  "in %s, a header not converted with this file: convert the "
                                  "header in the same run (both in one wqport convert%s, or "
                                  "--with-headers), or by hand%s"
                                  % (name, args[0].strip(), hdr,
                                     ", -I for <...>" if hdr.startswith("<") else "",
                                     held_header(hfile)))
                    else:
                        reason = ("wqport[W020]: %s() of %s, whose struct tq_struct this "
                                  "driver does not declare (a kernel structure's, such as "
                                  "the tty flip buffer's tty->flip.tqueue, or a header's "
                                  "that is not converted with it); convert by hand "
                                  "(tty_flip_buffer_push() for the flip buffer)"
                                  % (name, args[0].strip()))
                    foreign.append((off, reason, _last_name(args[0]), hfile))
    # A call given something that cannot be a task (sa1100fb.c's
    # schedule_task(200 * HZ / 1000), meant for schedule_timeout()): the
    # call stays as it is, named, and the file's tasks convert.
    no_task = []
    for name in ("queue_task", "schedule_task"):
        for off, args in _calls(text, name):
            if args and not in_define[off] and not_a_task(args[0]):
                find(off, "wqport[W025]: %s(%s) is given no task (a number or an arithmetic "
                     "expression); the call is left as it is: fix it by hand" % (name, args[0]),
                     False)
                rewrites.append(dict(start=off, end=off + len(name), text=KEPT + name, at=off))
                no_task.append(off)
    if no_task:
        rewrites += [dict(start=at, end=at, text=KEPT, at=no_task[0])
                     for at in tqueue_includes(text)]
    stored_apart = set()
    aliases = type_aliases(path)
    for m in re.finditer(r"([\w.\->\[\]]+?)\s*(?:\.|->)\s*(routine|data|sync)\s*=(?!=)", text):
        obj = _last_name(m.group(1))
        if obj in scan.aliased and not in_define[m.start()]:
            # spatch does not expand the alias: no typed rule sees the store
            stored_apart.add(obj)
            find(m.start(), "wqport[W021]: %s.%s is stored, but %s is declared through %s, a "
                 "macro or typedef for struct tq_struct, which spatch cannot see through; write "
                 "its INIT_WORK() by hand (or declare it struct tq_struct)"
                 % (obj, m.group(2), obj, " or ".join(sorted(aliases)) or "an alias"), True,
                 tasks=[obj])
        elif obj in tasks and obj not in visible:
            stored_apart.add(obj)
            hfile, hdr = task_header(path, obj)
            find(m.start(), "wqport[W021]: %s.%s is stored, but %s's struct tq_struct is declared "
                 "outside this file (%s); the field stores need its type: convert the "
                 "driver's header with this file (both in one wqport convert%s%s), or by "
                 "hand%s"
                 % (obj, m.group(2), obj, "in " + hdr if hdr else "a header?",
                    ", -I for <...>" if hdr and hdr.startswith("<") else "",
                    ", or --with-headers" if hdr else "", held_header(hfile)),
                 True, header=hfile)

    for off, reason, obj, hfile in foreign:
        if obj not in stored_apart:             # said once per task object
            find(off, reason, True, header=hfile)


def _check_prepare_only(scan):
    """PREPARE_TQUEUE() as a task's only initialisation (ns83820.c)."""
    text, find, in_define, targets = scan.text, scan.find, scan.in_define, scan.targets
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
            find(off, "wqport[W022]: PREPARE_TQUEUE() is the only initialisation of %s: 2.6 wants "
                 "INIT_WORK() before an item is first queued (DEBUG_OBJECTS_WORK reports one "
                 "that never had it); make this one INIT_WORK() if %s cannot be queued here"
                 % (args[0].strip(), args[0].strip()), False)


# a lock's plain forms and the _bh forms of bh_lock_edits()
_PLAIN_LOCKS = {"spin_lock": "spin_unlock", "read_lock": "read_unlock",
                "write_lock": "write_unlock"}


def bh_locks(path):
    """The names of the locks path takes with a _bh form, and "*" when it
    disables bottom halves with local_bh_disable() (its text as every
    analysis here reads it: _source())."""
    src = _source(path)
    out = set()
    for name in ("spin_lock_bh", "read_lock_bh", "write_lock_bh", "local_bh_disable"):
        for off, args in _calls(src[1] if src else "", name):
            out.add(_last_name(args[0]) if args else "*")
    return out


def run_bh_locks():
    """The names of the locks that other files of a wqport convert run
    (those sharing declarations with this one) take with a _bh form
    (WQPORT_BH_LOCKS, space-separated)."""
    return set(os.environ.get("WQPORT_BH_LOCKS", "").split())


def _lock_declared(texts, lk):
    """Whether one of TEXTS declares the lock LK (a spinlock_t or rwlock_t
    variable or field, not extern; DEFINE_SPINLOCK(), DEFINE_RWLOCK())."""
    rx = re.compile(r"\b(?:spinlock_t|rwlock_t)\b[^;{}()]*?\b%s\b|\bDEFINE_(?:SPIN|RW)LOCK\s*"
                    r"\(\s*%s\s*\)" % (re.escape(lk), re.escape(lk)))
    for t in texts:
        for m in rx.finditer(t):
            head = t[max(t.rfind(c, 0, m.start()) for c in ";{}") + 1:m.start()]
            if not re.search(r"\bextern\b", head):
                return True
    return False


def _check_bh_locks(scan):
    """Routines that ran in bottom-half context and take a lock that process
    context takes with spin_lock_bh(): as work items they need _bh too.
    Where the routine takes and releases the lock in its own body, and the
    lock is this driver's (declared in the file or in its own headers, so
    that its other takers are the driver's too), the routine's plain calls
    become their _bh forms for the tasks that convert (a rewrite of mask();
    in a 2.4 bottom half the _bh form is harmless too); anything else about
    such a lock stays W014."""
    text, find, funcs, conv_q, targets = scan.text, scan.find, scan.funcs, scan.conv_q, scan.targets
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
    bh_locked = bh_locks(scan.path) | run_bh_locks()
    if not (bh_locked and in_bh):
        return
    own = [text] + [_source(h)[1] for h in local_headers(scan.path) if _source(h)]

    def taken(body):
        """{lock: [(offset in body, call, args)]} of BODY's plain lock and
        unlock calls of the locks process context takes with _bh."""
        out = {}
        for lock, unlock in _PLAIN_LOCKS.items():
            for name in (lock, unlock, lock.replace("_lock", "_trylock")):
                for off, args in _calls(body, name):
                    lk = _last_name(args[0]) if args else "?"
                    if lk in bh_locked or "*" in bh_locked:
                        out.setdefault(lk, []).append((off, name, args))
        return out

    for r in sorted(in_bh):
        if r not in funcs:
            continue
        s, e = funcs[r]
        tasks = {t for t, rs in routines.items() if r in rs}
        say = "wqport[W014]: %s() ran in bottom-half context and " % r

        def keep(off, why):
            find(s + off, say + why + ", while process context takes it with _bh; as a work "
                 "item it would race with bottom halves: convert by hand", True, tasks or {ALL})
        body = text[s:e]
        for lk, calls in sorted(taken(body).items()):
            names = [c[1] for c in calls]
            locks = [c for c in calls if not c[1].endswith("_unlock")]
            if not locks:
                continue                # released only: taken elsewhere, seen there
            lock = locks[0][1]
            tried = [n for n in names if n.endswith("_trylock")]
            if tried:
                keep(locks[0][0], "tries %s with %s()" % (lk, tried[0]))
            elif names.count(lock) != names.count(_PLAIN_LOCKS[lock]) or len(set(names)) != 2:
                keep(locks[0][0], "takes %s with %s() and releases it elsewhere" % (lk, lock))
            elif any(scan.in_define[s + off] for off, _, _ in calls):
                keep(locks[0][0], "takes %s with %s() in a macro" % (lk, lock))
            elif not _lock_declared(own, lk):
                keep(locks[0][0], "takes %s with %s(), a lock declared outside this driver "
                     "(other code may take it)" % (lk, lock))
            else:
                for off, name, _ in calls:
                    scan.rewrites.append(dict(start=s + off, end=s + off + len(name),
                                              text=name + "_bh", at=s + off,
                                              nodes=tasks or None))
        # what it calls of this file: a plain lock there is out of reach
        for fn in sorted(set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", body)) & set(funcs) - {r}):
            fs, fe = funcs[fn]
            for lk, calls in sorted(taken(text[fs:fe]).items()):
                lock = [c[1] for c in calls if c[1] in _PLAIN_LOCKS]
                if lock:
                    off = re.search(r"\b%s\s*\(" % fn, body).start()
                    keep(off, "calls %s(), which takes %s with %s()" % (fn, lk, lock[0]))


def _check_handed_out(scan):
    """A struct tq_struct handed to code outside the task-queue family."""
    text, find, tq_names, funcs = scan.text, scan.find, scan.tq_names, scan.funcs
    macros = set(re.findall(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", text, re.M))
    hfns, hmacros = header_family(scan.path)
    macros |= hfns | hmacros                # the driver's own, in its headers
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", text):
        fn = m.group(1)
        if fn in FAMILY or fn in funcs or fn in macros or fn.startswith("__builtin"):
            continue
        o = m.end() - 1
        args = _split_args(text[o + 1:_close(text, o, "(", ")") - 1])
        for a in args:
            if re.match(r"^\(?\s*&?[\w.\->\[\]\s]*$", a) and "&" in a and _last_name(a) in tq_names:
                find(m.start(), "wqport[W023]: %s is handed to %s(), outside the task-queue family; "
                     "convert by hand" % (a.strip(), fn), True)


def _check_unparsed(scan):
    """Code spatch cannot parse is skipped by every rule, silently: a task
    declared or used there would end half converted."""
    path, text, out, find = scan.path, scan.text, scan.out, scan.find
    if re.search(TQ_TOKENS, text):
        all_lines = text.split("\n")
        macro_lines = set()                 # lines of the #defines reported above
        for f in out:
            if f.reason.startswith("wqport[W015]: "):
                n = f.line
                macro_lines.add(n)
                while n <= len(all_lines) and all_lines[n - 1].rstrip().endswith("\\"):
                    n += 1
                    macro_lines.add(n)
        for start, end, line in unparsed(path, text):
            # inside a #define the macro check already reported: once is enough
            if line in macro_lines:
                continue
            chunk = "\n".join(text.split("\n")[start - 1:end])
            if re.search(TQ_TOKENS, chunk):
                a = sum(len(l) + 1 for l in all_lines[:start - 1])
                b = a + len(chunk)
                find(a, "wqport[W016]: spatch cannot parse lines %d-%d, which hold task-queue "
                     "code; convert by hand" % (start, end), True,
                     _nodes_between(path, a, b) or {ALL})
                out[-1].line = line


# _findings()'s checks, by concern, in the order they run
_CHECKS = (_check_initializers, _check_nested, _check_private_queues, _check_queue_task,
           _check_run_task_queue, _check_bottom_halves, _check_macros, _check_fields,
           _check_foreign_tasks, _check_prepare_only, _check_bh_locks, _check_handed_out,
           _check_unparsed)


def _findings(path):
    """The uses that need a human, before plan() decides which tasks they
    keep: Findings without a tail on their reason."""
    key = ("findings", path)
    if key in _cache:
        return _cache[key]
    src = _source(path)
    if src is None:
        _cache[key] = []
        return []
    scan = _Scan(path, *src)
    for check in _CHECKS:
        check(scan)
    out = scan.out
    out.sort(key=lambda f: (f.line, f.reason))
    _cache[key] = out
    return out

# Per task, not per file.  Converting one task object and not another is
# safe when nothing ties them: the shim builds struct tq_struct and struct
# work_struct side by side.  plan() puts every task of a file in a group
# with everything that would have to change type with it, and keeps on the
# 2.4 API only the groups that a blocking finding touches.
#
# Nodes are names: a task (variable, field, pointer, parameter, typedef:
# one name is one node, whatever structure it is a field of), a private
# queue ("q:Q"), a helper function that takes a task ("fn:F"), a macro that
# uses the task-queue family ("m:M"), a task of a kernel structure ("k:...").
# Ties: the nodes of one statement (a pointer set from a task, a call of a
# helper, a macro's body and its uses, one declaration of several tasks), a
# function that returns a task and what it returns, a private queue and the
# tasks queued on it.  A type use that names no task (a cast, a sizeof)
# with no task in its statement ties every task of the file.

ALL = "*"                   # a finding whose tasks cannot be told: all of them
KEPT = "__wqport_kept_"     # what mask() prefixes to what stays on the 2.4 API
KEPT2 = "__wqport_kept2_"   # ... and to a flush that must also flush work items
FAMILY_CALLS = ("queue_task", "schedule_task", "INIT_TQUEUE", "PREPARE_TQUEUE")
MASKED_CALLS = FAMILY_CALLS + ("run_task_queue", "flush_scheduled_tasks", "mark_bh",
                               "init_bh", "remove_bh", "DECLARE_TASK_QUEUE")
# The task-queue API's own names: a driver's #define of one is its
# fallback for a kernel older than 2.4 (linux-wlan-ng: "#ifndef INIT_TQUEUE
# / #define INIT_TQUEUE(...) ... PREPARE_TQUEUE(...)"), an implementation
# of the old API, not a use: its body is left as it is (own_api_defines()).
# Not the 2.6 names: "#define schedule_work(t) schedule_task(t)" is a 2.6
# driver's way back to 2.4, which the stages must convert or report.
OWN_API = ("INIT_TQUEUE", "PREPARE_TQUEUE", "queue_task", "schedule_task", "run_task_queue",
           "flush_scheduled_tasks", "DECLARE_TASK_QUEUE", "TQ_ACTIVE")
_OWN_API_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(?:%s)\b((?:[^\n]*\\\n)*[^\n]*)"
                             % "|".join(OWN_API), re.M)


def own_api_defines(text):
    """(start, end) of the body of each #define of text that defines one of
    the APIs' own names (OWN_API)."""
    return [(m.start(1), m.end(1)) for m in _OWN_API_DEFINE.finditer(text)]


# What mask() prefixes with KEPT in code the patches must leave: struct
# tq_struct, the family's calls, the task fields (unmask() takes it off)
_KEEP = ((r"\bstruct(\s+)tq_struct\b", r"struct\1" + KEPT + "tq_struct"),
         (r"\b(%s)(\s*\()" % "|".join(MASKED_CALLS), KEPT + r"\1\2"),
         (r"(\.|->)(\s*)(routine|data|sync|list)\b", r"\1\2" + KEPT + r"\3"))


def _keep_edits(text, a, b):
    """The edits that hide text[a:b] (blanked text) from the patches."""
    return [(a + m.start(), a + m.end(), m.expand(repl))
            for pattern, repl in _KEEP for m in re.finditer(pattern, text[a:b])]


def _own_api_edits(raw):
    """The edits that hide from the patches what the bodies of the driver's
    own definitions of the APIs' names use."""
    text = blank_text(raw)
    return [e for a, b in own_api_defines(text) for e in _keep_edits(text, a, b)]


FLIP = re.compile(r"^&\s*\(?\s*(.+?)\s*->\s*flip\s*\.\s*tqueue\s*\)?$", re.S)
KERNEL_EXPR = re.compile(r"(?:->|\.)\s*flip\s*\.\s*tqueue\b|->\s*SAK_tq\b")


def flip_push(args):
    """TTY for queue_task(&TTY->flip.tqueue, &tq_timer), which is what 2.4's
    tty_flip_buffer_push(TTY) did for a tty without low_latency; else None."""
    if len(args) != 2 or re.sub(r"\s+", "", args[1]) != "&tq_timer":
        return None
    m = FLIP.match(args[0].strip())
    return m.group(1) if m else None


def _search_dirs():
    """Where to look for the headers a file includes, to name one in an
    item (never converted): a wqport convert run's -I (WQPORT_SEARCH_DIRS),
    then the file's own directory (WQPORT_SOURCE_DIR: the analysis reads a
    work copy, beside which only the run's headers are)."""
    dirs = [d for d in os.environ.get("WQPORT_SEARCH_DIRS", "").split(os.pathsep) if d]
    own = os.environ.get("WQPORT_SOURCE_DIR")
    return dirs + [own] if own else dirs


def run_tasks():
    """Task names that other files of a wqport convert run declare
    (WQPORT_TASKS, space-separated): their uses here are task uses too."""
    return set(os.environ.get("WQPORT_TASKS", "").split())


def forced():
    """name -> file, for the tasks another file of the run keeps on the 2.4
    API (WQPORT_KEEP: one "NAME<TAB>FILE" a line): kept here too."""
    out = {}
    for line in os.environ.get("WQPORT_KEEP", "").split("\n"):
        if "\t" in line:
            n, who = line.split("\t", 1)
            out.setdefault(n.strip(), who.strip())
    return out


def _split_stmts(text, a, b, out):
    start = a
    for m in re.compile(r"[;{}]").finditer(text, a, b):
        out.append((start, m.end()))
        start = m.end()
    if start < b:
        out.append((start, b))


def _spans(text):
    """(start, end) of each statement of (blanked) text: a preprocessor
    directive with its continuation lines whole, elsewhere the text between
    two of ; { }."""
    spans, pos = [], 0
    for m in re.finditer(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", text, re.M):
        _split_stmts(text, pos, m.start(), spans)
        spans.append((m.start(), m.end()))
        pos = m.end()
    _split_stmts(text, pos, len(text), spans)
    return spans


class _Find(object):
    """Union-find over node names."""

    def __init__(self):
        self.up = {}

    def root(self, n):
        self.up.setdefault(n, n)
        while self.up[n] != n:
            self.up[n] = self.up[self.up[n]]
            n = self.up[n]
        return n

    def tie(self, nodes):
        nodes = list(nodes)
        for n in nodes[1:]:
            a, b = self.root(nodes[0]), self.root(n)
            if a != b:
                self.up[b] = a


def routine_tasks(text, fn):
    """The tasks whose routine is FN, as TEXT registers them: INIT_TQUEUE(),
    PREPARE_TQUEUE(), a store to .routine, an initializer's routine."""
    f = re.escape(fn)
    cast = r"(?:\([^()]*(?:\([^()]*\)[^()]*)*\)\s*)?"
    out = set()
    for m in re.finditer(r"\b(?:INIT|PREPARE)_TQUEUE\s*\(\s*&?\s*([^,;]+?)\s*,\s*%s%s\s*,"
                         % (cast, f), text):
        out.add(_last_name(m.group(1)))
    for m in re.finditer(r"([\w.\->\[\]]+?)\s*(?:\.|->)\s*routine\s*=\s*%s%s\s*;" % (cast, f), text):
        out.add(_last_name(m.group(1)))
    for m in re.finditer(r"\b(\w+)\s*(?:\[[^\]]*\])?\s*=\s*\{[^;]*?(?:\broutine\s*:|\.routine\s*=)"
                         r"\s*%s%s\b" % (cast, f), text):
        out.add(m.group(1))
    return out


# the members of struct tq_struct: after . or -> never the name of a task
TQ_MEMBERS = ("routine", "data", "sync", "list")


def _graph(path):
    """The nodes of path's statements and the groups they form: a dict with
    text, spans, starts, nodes (one set per span), find (_Find), queued
    (queue -> set of task nodes queued onto tq_timer, tq_immediate, or
    scheduled: "schedule_task"), anon (spans of a type use tied to no task)."""
    key = ("graph", path)
    if key in _cache:
        return _cache[key]
    raw, text = _source(path)
    spans = _spans(text)
    starts = [a for a, _ in spans]
    names = task_names(text) | header_tasks(path) | aliased_tasks(path) | run_tasks()
    idmap = {n: n for n in names}
    queued = {"tq_timer": set(), "tq_immediate": set(), "schedule_task": set()}
    params = []                         # (start, end, parameters) of each #define
    for a, b, _, ps in _defines(text):
        if ps:
            # a variadic macro's arguments: __VA_ARGS__, or GNU's args...
            params.append((a, b, set(ps) | {p[:-3].strip() or "__VA_ARGS__"
                                            for p in ps if p.endswith("...")}))

    def param(off, arg):
        return any(a <= off < b and arg.strip() in ps for a, b, ps in params)
    for name in FAMILY_CALLS:
        for off, args in _calls(text, name):
            if not args or (name == "queue_task" and flip_push(args)):
                continue
            if param(off, args[0]):
                continue                # a wrapper macro's parameter: its callers' tasks
            k = KERNEL_EXPR.search(args[0])
            t = _kernel_node(k.group(0)) if k else _last_name(args[0])
            if not k and t not in ("NULL", "0") and re.match(r"^[A-Za-z_]\w*$", t):
                idmap.setdefault(t, t)
            if name == "schedule_task":
                queued["schedule_task"].add(t)
            elif name == "queue_task" and len(args) == 2:
                q = re.sub(r"^&\s*", "", args[1]).strip()
                if q in queued:
                    queued[q].add(t)
                elif re.match(r"^[\w.\->\[\]]+$", q) and q not in ("tq_disk", "tq_scheduler") \
                        and not param(off, q):
                    idmap.setdefault(_last_name(q), "q:" + _last_name(q))
    # a task queued through a wrapper macro that takes the queue: on that
    # queue too (a mark_bh(IMMEDIATE_BH) after it stays with it)
    for name, ti, qi in queue_wrappers(path, text):
        for off, args in _calls(text, name):
            if len(args) > max(ti, qi) and not param(off, args[ti]):
                q = re.sub(r"^&\s*", "", args[qi]).strip()
                if q in ("tq_timer", "tq_immediate"):
                    queued[q].add(_last_name(args[ti]))
    for m in re.finditer(r"\bDECLARE_TASK_QUEUE\s*\(\s*(\w+)", text):
        idmap.setdefault(m.group(1), "q:" + m.group(1))
    for off, args in _calls(text, "run_task_queue"):
        q = re.sub(r"^&\s*", "", args[0]).strip() if args else ""
        if q and q not in ("tq_timer", "tq_immediate", "tq_disk") and \
                re.match(r"^[\w.\->\[\]]+$", q):
            idmap.setdefault(_last_name(q), "q:" + _last_name(q))
    # helpers: functions (defined or declared here) with a task parameter
    typedefs = re.findall(r"\btypedef\s+struct\s+tq_struct\s*\**\s*(\w+)\s*;", text)
    own_fns, own_macros = family_defs(text, typedefs)
    for n in own_fns:
        idmap.setdefault(n, "fn:" + n)
    # the helpers and macros of the driver's own headers: their uses here
    # tie the tasks they are given to what the header keeps
    hfns, hmacros = header_family(path)
    for n in hfns:
        idmap.setdefault(n, "fn:" + n)
    for n in hmacros:
        idmap.setdefault(n, "m:" + n)
    # macros that use the task-queue family: their uses are ties
    for n in own_macros:
        idmap.setdefault(n, "m:" + n)
    f = _Find()
    span_nodes = [set() for _ in spans]
    anon = []
    i = 0
    includes = {j for j, (a, b) in enumerate(spans)
                if re.match(r"\s*#\s*include\b", text[a:b])}
    for m in re.finditer(r"[A-Za-z_]\w*|" + KERNEL_EXPR.pattern, text):
        while i + 1 < len(spans) and spans[i + 1][0] <= m.start():
            i += 1
        if i in includes:
            continue                    # <linux/tqueue.h> names no task
        w = m.group(0)
        if not re.match(r"[A-Za-z_]", w):
            span_nodes[i].add(_kernel_node(w))
        elif w in TQ_MEMBERS and re.search(r"(\.|->)\s*$", text[max(0, m.start() - 4):m.start()]):
            continue                    # t.data, t->routine: a member, not a routine's data
        elif w in idmap:
            span_nodes[i].add(idmap[w])
    for i, (a, b) in enumerate(spans):
        if span_nodes[i]:
            f.tie(span_nodes[i])
        elif re.search(r"\bstruct\s+tq_struct\s*\**\s*\)", text[a:b]):
            anon.append(i)
    # a function that returns a task, and what it returns
    bodies = function_bodies(text)
    for name, (s, e) in bodies.items():
        if idmap.get(name) == name:
            for j in range(bisect.bisect_right(starts, s), bisect.bisect_left(starts, e)):
                if re.match(r"\s*return\b", text[spans[j][0]:spans[j][1]]) and span_nodes[j]:
                    f.tie([name] + sorted(span_nodes[j]))
    # a routine that queues its own data pointer as a task (2.4's
    # self-requeueing tick: queue_task((struct tq_struct *)data, &tq_timer))
    # queues the tasks it is the routine of: they go together
    for name, (s, e) in bodies.items():
        head = re.search(r"\(([^()]*)\)\s*$", text[:s])
        fparams = set(re.findall(r"(\w+)\s*(?:,|$)", head.group(1))) if head else set()
        mine = set()
        for call in ("queue_task", "schedule_task"):
            for off, args in _calls(text[s:e], call):
                if args and _last_name(args[0]) in fparams and _last_name(args[0]) in idmap:
                    mine.add(idmap[_last_name(args[0])])
        if mine:
            for t in routine_tasks(text, name):
                f.tie(sorted(mine) + [idmap.setdefault(t, t)])
    for ns in span_nodes:
        for n in ns:
            f.root(n)
    # pointers (parameters, locals): what they point to is named instead
    objects = set(re.findall(r"\bstruct\s+tq_struct\s+([A-Za-z_]\w*)", text)) | header_tasks(path) \
        | aliased_tasks(path)
    pointers = set(re.findall(r"\bstruct\s+tq_struct\s*\*+\s*([A-Za-z_]\w*)", text)) - objects
    g = dict(text=text, spans=spans, starts=starts, nodes=span_nodes, find=f,
             queued=queued, anon=anon, pointers=pointers)
    _cache[key] = g
    return g


def _kernel_node(expr):
    """The node of a kernel structure's task (->flip.tqueue, ->SAK_tq)."""
    return "k:" + re.sub(r"\s+", "", expr).lstrip(".->")


def _span_at(g, off):
    return max(0, bisect.bisect_right(g["starts"], off) - 1)


def _nodes_between(path, a, b):
    """The nodes of the statements between offsets a and b of path."""
    g = _graph(path)
    out = set()
    for j in range(_span_at(g, a), _span_at(g, max(a, b - 1)) + 1):
        out |= g["nodes"][j]
    return out


def _bh_tasks(text, conv_q, queues=None):
    """Names of the tasks queued onto tq_timer/tq_immediate (or queues), or
    onto a private queue that 06 converts: their routines ran in a bottom half."""
    qs = set(queues) if queues is not None else BH_QUEUES | set(conv_q)
    out = set()
    for off, args in _calls(text, "queue_task"):
        if len(args) == 2 and re.sub(r"^&\s*", "", args[1]).strip() in qs \
                and not flip_push(args):
            out.add(_last_name(args[0]))
    return out


def _shown(nodes, pointers=()):
    """Nodes as the report names them (not pointers to tasks)."""
    out = []
    for n in sorted(nodes):
        if n in pointers:
            continue
        if n.startswith("q:"):
            out.append("queue " + n[2:])
        elif n.startswith("k:"):
            out.append("the kernel's " + n[2:])
        elif n.startswith("fn:"):
            out.append("the helper %s()" % n[3:])
        elif n.startswith("m:"):
            out.append("the macro %s" % n[2:])
        elif not re.match(r"^(fn|m):", n) and n != ALL:
            out.append(n)
    return out


def plan(path):
    """What stage 1 keeps of path on the 2.4 API: a dict with
    findings (Findings, reasons with their tail), kept (nodes), whole (every
    task of the file kept, or nothing to convert), partial (some kept, some
    converted), graph (see _graph)."""
    key = ("plan", path)
    if key in _cache:
        return _cache[key]
    raw_findings = _findings(path)
    src = _source(path)
    if src is None:
        _cache[key] = dict(findings=[], kept=set(), whole=False, partial=False, graph=None)
        return _cache[key]
    g = _graph(path)
    f = g["find"]
    allnodes = set(f.up)
    direct = {}                         # finding -> its nodes
    seeds = set()
    for x in raw_findings:
        if not x.blocks:
            continue
        ns = set(x.tasks) if x.tasks is not None else set(g["nodes"][_span_at(g, x.off)])
        direct[id(x)] = ns or {ALL}
        seeds |= direct[id(x)]
    force = {n: who for n, who in forced().items() if n in allnodes}
    if seeds - allnodes:
        seeds.add(ALL)                  # a task the statements do not show
    seeds |= set(force)
    if ALL in seeds or (seeds and g["anon"]):
        kept = set(allnodes)
        whole = bool(seeds)
    else:
        roots = {f.root(n) for n in seeds if n in allnodes}
        kept = {n for n in allnodes if f.root(n) in roots}
        whole = bool(seeds) and kept >= allnodes
    if whole:
        kept = set(allnodes)
    partial = bool(kept) and not whole
    out = []
    own = set()
    for x in raw_findings:
        reason = x.reason
        if x.blocks and whole:
            reason += REASON_TAIL
        elif x.blocks:
            ns = direct[id(x)]
            own |= ns
            group = {n for n in kept if any(f.root(n) == f.root(m) for m in ns if m in allnodes)}
            reason += " (left on the 2.4 task-queue API: %s; the rest of the file is converted)" \
                % ", ".join(_shown(group or ns, g["pointers"]) or _shown(ns) or ["its task"])
        out.append(Finding(x.line, reason, x.blocks, x.off, x.tasks, x.header))
    if kept:
        # a kept task with no finding of its own: say why it stays (when
        # the whole file stays for its own findings, their tail says it)
        first = {}
        for j, ns in enumerate(g["nodes"]):
            for n in ns:
                first.setdefault(n, j)
        for n in sorted(kept - own):
            if n not in first or re.match(r"^(fn|m):", n) or not _shown([n], g["pointers"]):
                continue
            if whole and n not in force:
                continue
            off = g["spans"][first[n]][0]
            off += len(g["text"][off:]) - len(g["text"][off:].lstrip())
            shown = _shown([n])[0]
            if n in force:
                why = ("%s keeps it (see its items), and its type must agree in every file "
                       "of the run" % force[n])
            else:
                cause = [(x.line, _shown(direct[id(x)])) for x in raw_findings
                         if x.blocks and any(m in allnodes and f.root(m) == f.root(n)
                                             for m in direct[id(x)])]
                if cause:
                    line, who = cause[0]
                    who = [x for x in who if x not in g["pointers"]] or who
                    why = ("a helper, a pointer or a statement ties it to %s, which line %d "
                           "keeps there" % (", ".join(who) or "a task", line))
                else:
                    # (the task that keeps it is another file's: its items say why)
                    why = ("a helper, a pointer or a statement ties it to a task that stays "
                           "on the 2.4 API (see the run's other items)")
            out.append(Finding(_line(g["text"], off), "wqport[W024]: %s is left on the 2.4 "
                               "task-queue API: %s; convert them together by hand%s"
                               % (shown, why, REASON_TAIL if whole else
                                  " (the rest of the file is converted)"), True, off))
        # a helper (a function that takes a task) another file of the run
        # keeps: one function, one prototype, so its tasks stay here too
        for n in sorted(m for m in force if re.match(r"^(fn|m):", m) and m in first):
            off = g["spans"][first[n]][0]
            off += len(g["text"][off:]) - len(g["text"][off:].lstrip())
            out.append(Finding(_line(g["text"], off), "wqport[W024]: %s is left on the 2.4 "
                               "task-queue API with the tasks it takes: %s keeps it (see its "
                               "items), and its %s must agree in every file of the "
                               "run; convert them together by hand%s"
                               % (_shown([n])[0], force[n],
                                  "prototype" if n.startswith("fn:") else "body",
                                  REASON_TAIL if whole else
                                  " (the rest of the file is converted)"), True, off))
    out.sort(key=lambda x: (x.line, x.reason))
    res = dict(findings=out, kept=kept, whole=whole, partial=partial, graph=g)
    _cache[key] = res
    return res


def analyse(path):
    """Every finding for path, its reason with the tail that says what it
    keeps: "(task queues in this file left as they are)" when the whole
    file stays, "(left on the 2.4 task-queue API: X, Y; ...)" per task."""
    return plan(path)["findings"]


def blocked(path):
    """Whether stage 1 leaves every task of path as it is."""
    return plan(path)["whole"]


def partial(path):
    """Whether stage 1 converts some tasks of path and keeps others."""
    return plan(path)["partial"]


def kept_names(path, pointers=True):
    """The task names (and "q:" queues) path keeps on the 2.4 API; with
    pointers=False, not those of pointers to tasks (parameters, locals)."""
    p = plan(path)
    skip = p["graph"]["pointers"] if p["graph"] and not pointers else ()
    return {n for n in p["kept"] if not re.match(r"^(fn|m|k):", n) and n != ALL
            and n not in skip}


def report_lines(path):
    return [(f.line, f.reason) for f in analyse(path)]


def mask(path):
    """Rewrite path (a work copy, analysed as it is) for the stage's patches:
    in the statements of the tasks that stay on the 2.4 API, struct
    tq_struct, the family's calls and the task fields get the KEPT prefix
    (unmask() takes it off again); for the tasks that convert, the
    rewrites _findings() planned (stores moved together, macro bodies); the
    branches of kernels before 2.6.0 hidden (hide_dead)."""
    p = plan(path)
    with open(path, encoding="latin-1") as fh:
        raw = fh.read()
    edits = _kept_edits(raw, p, type_aliases(path)) if p["partial"] else []
    edits += _rewrites(path, p)
    taken = [(a, b) for a, b, _ in edits]
    edits += [e for e in _own_api_edits(raw)
              if not any(a < e[1] and e[0] < b for a, b in taken)]
    for a, b, r in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        raw = raw[:a] + r + raw[b:]
    if edits:
        with open(path, "w", encoding="latin-1") as fh:
            fh.write(raw)
    hide_dead(path, FLOOR_STAGE1)


def _rewrites(path, p):
    """The planned rewrites of the tasks that convert, as edits."""
    g = p["graph"]
    if g is None or p["whole"]:
        return []
    out = []
    for rw in _cache.get(("rewrites", path), []):
        if rw.get("nodes"):             # for what any of these tasks needs
            if not rw["nodes"] <= p["kept"]:
                out.append((rw["start"], rw["end"], rw["text"]))
            continue
        nodes = {rw["node"]} if rw.get("node") else g["nodes"][_span_at(g, rw["at"])]
        if not (nodes & p["kept"]):
            out.append((rw["start"], rw["end"], rw["text"]))
    return out


def needs_mask(path):
    """Whether mask() has anything to do for path."""
    p = plan(path)
    if p["partial"] or _rewrites(path, p):
        return True
    src = _source(path)
    if src is not None and own_api_defines(src[0]):
        return True
    return src is not None and any(b["hideable"] and b["kind"] != "if0"
                                   for b in dead_branches(src[0], FLOOR_STAGE1))


def _kept_edits(raw, p, aliases=()):
    """The edits that hide p's kept tasks from the patches; in their
    statements, the driver's ALIASES of struct tq_struct too (a kept
    "static fz_task_t t = {...};" is no task declaration to 01)."""
    g = p["graph"]
    text, spans, kept = g["text"], g["spans"], p["kept"]
    edits = []                          # (start, end, replacement)
    alias = re.compile(r"\b(?:%s)\b" % "|".join(map(re.escape, sorted(aliases)))) \
        if aliases else None

    def rename(a, b, pattern, repl):
        for m in re.finditer(pattern, text[a:b]):
            edits.append((a + m.start(), a + m.end(), m.expand(repl)))

    kept_on = {q: bool(ns & kept) for q, ns in g["queued"].items()}
    conv_on = {q: bool(ns - kept) for q, ns in g["queued"].items()}
    for j, (a, b) in enumerate(spans):
        s = text[a:b]
        if g["nodes"][j] & kept:
            edits += _keep_edits(text, a, b)
            if alias:
                edits += [(m.start(), m.end(), KEPT + m.group(0))
                          for m in alias.finditer(text, a, b)]
            continue
        if g["nodes"][j]:
            continue
        if re.search(r"\bmark_bh\s*\(\s*IMMEDIATE_BH\s*\)", s) and kept_on["tq_immediate"]:
            prev = text[spans[j - 1][0]:spans[j - 1][1]] if j else ""
            if not (re.search(r"\bqueue_task\s*\(.*&\s*tq_immediate\s*\)", prev, re.S)
                    and not (g["nodes"][j - 1] & kept)):
                rename(a, b, r"\b(mark_bh)(\s*\()", KEPT + r"\1\2")
        elif re.search(r"\bflush_scheduled_tasks\s*\(", s) and kept_on["schedule_task"]:
            rename(a, b, r"\b(flush_scheduled_tasks)(\s*\()",
                   (KEPT2 if conv_on["schedule_task"] else KEPT) + r"\1\2")
        elif re.search(r"\brun_task_queue\s*\(\s*&\s*tq_timer\s*\)", s) and kept_on["tq_timer"]:
            rename(a, b, r"\b(run_task_queue)(\s*\()",
                   (KEPT2 if conv_on["tq_timer"] else KEPT) + r"\1\2")
    edits += [(at, at, KEPT) for at in tqueue_includes(raw)]
    return edits


def tqueue_includes(text):
    """Where each #include <linux/tqueue.h> of text names the header: mask()
    puts KEPT there, so that 05-include keeps it for what stays on the 2.4
    API."""
    return [m.start(1) for m in
            re.finditer(r"^[ \t]*#[ \t]*include[ \t]*<linux/(tqueue\.h>)", text, re.M)]


WORK_API = re.compile(r"\bstruct\s+work_struct\b|\b(?:INIT_WORK|PREPARE_WORK|DECLARE_WORK|"
                      r"schedule_work|schedule_delayed_work|flush_scheduled_work)\s*\(")


def unmask(path):
    """Undo mask() in path, after the patches ran: the kept names back; a
    flush of kept tasks that converted ones shared is followed by
    flush_scheduled_work(); <linux/workqueue.h> after <linux/tqueue.h> when
    the file now uses work items and includes neither it nor a header the
    stage added it after."""
    show_dead(path)
    with open(path, encoding="latin-1") as fh:
        raw = fh.read()
    before = raw

    def both(m):
        return "%s%s%s;\n%sflush_scheduled_work();" % (m.group(1), m.group(2), m.group(3),
                                                         m.group(1))
    raw = re.sub(r"^([ \t]*)" + KEPT2 + r"(flush_scheduled_tasks|run_task_queue)(\s*\([^;\n]*\))\s*;",
                 both, raw, flags=re.M)
    raw = raw.replace(KEPT2, "").replace(KEPT, "")
    if WORK_API.search(blank_text(raw)) and not re.search(r"#\s*include\s*<linux/workqueue\.h>", raw):
        raw = re.sub(r"^([ \t]*#[ \t]*include[ \t]*<linux/tqueue\.h>[^\n]*\n)",
                     r"\1#include <linux/workqueue.h>\n", raw, count=1, flags=re.M)
    if raw != before:
        with open(path, "w", encoding="latin-1") as fh:
            fh.write(raw)


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
    elif not m and "\n" in t[:k]:
        # positional: a comment that closed the line above is the element
        # before's ("NULL,\t/* next */\n\t0,\t/* sync */")
        el = raw[a + t.rfind("\n", 0, k) + 1:b]
    return re.sub(r"\s+", " ", el.strip())


def has_initializer(path):
    """Whether path declares a struct tq_struct, or one through an alias
    (type_aliases), with an initializer."""
    src = _source(path)
    if src is None:
        return True
    types = r"struct\s+tq_struct"
    if type_aliases(path):
        types += "|" + "|".join(re.escape(a) for a in sorted(type_aliases(path)))
    return (re.search(r"(?<![\w#])(?:%s)\s+\w+\s*=" % types, src[1]) is not None
            or bool(nested(path)[0]))
