# SPDX-License-Identifier: GPL-2.0
"""wqport convert: rewrite driver sources with the semantic patches.

The pipeline for a run: every file is copied to a scratch directory, with
the headers of the run it includes beside it (or under an include
directory, for #include <...>); spatch must parse the deferred-work code of
each (a file whose deferred-work code or handlers it cannot parse is
refused alone, the others go on); stage 1 decides per task what stays on the
2.4 API, and a task kept in one file is kept in every file of the run that
shares a header with it; stage 1 reports and rewrites each file; stage 2
gathers per file which work items are delayed, shares that across the files
of a run the same way, then reports and rewrites each file.  What the
stages leave of the old APIs, a handler cast to another function type, and a
work field whose type disagrees with a use anywhere in the run are items.
A file spatch fails on (an internal error, a crash) is left as it was read,
with an item (W208), and the others go on.  Nothing is written until every
file is done and none changed meanwhile.
Writes are atomic (temporary file, rename) and keep the mode bits.
"""
import argparse
import concurrent.futures
import contextlib
import difflib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from . import convert_check as check
from . import convert_cache, convert_forward, convert_handlers, convert_headers
from . import convert_macros, convert_trampolines
from . import paths, reasons, spatch_mask
from .linemap import line_map
from .paths import WqportError

# Stage 1's analysis, beside the semantic patches it serves: its task-queue
# tokens, its reading of spatch --parse-c and its plan
# of what each file keeps on the 2.4 API.
sys.path[:0] = [os.path.join(paths.TOP, 'semantic-patches'),
                os.path.join(paths.TOP, 'semantic-patches', 'stage1')]
import wqport_stage  # noqa: E402
import wqport_tq  # noqa: E402
import wqport_versions  # noqa: E402

STAGES = {'2.6': ['stage1'], 'modern': ['stage1', 'stage2']}
LOCAL_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
SYS_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*<([^>]+)>', re.M)
TQ_MACRO = re.compile(r'^[ \t]*#[ \t]*define[ \t]+tq_struct[ \t]+(\w+)', re.M)


def add_parser(sub):
    p = sub.add_parser('convert', help='rewrite driver sources with the semantic patches',
                       description='Convert the C files (.c and .h, directories '
                       'recursively) of PATH...: stage 1 (task queues -> 2.6 workqueue '
                       'API), then stage 2 (-> modern API) unless --to 2.6.  By default '
                       'print a unified diff and write nothing.  Items that need a '
                       'human go to stderr as FILE:LINE: wqport[ID]: REASON (`wqport '
                       'explain ID`: what it means and what to do).  Exit 0: '
                       'nothing left for a human; 1: items reported (a file spatch '
                       'fails on, W208, or cannot parse the deferred-work code of, W209, '
                       'is one: written as read, the others converted); 2: error in '
                       'what was asked (nothing written).')
    p.add_argument('--to', choices=('2.6', 'modern'), default='modern')
    out = p.add_mutually_exclusive_group()
    out.add_argument('--diff', action='store_true', help='print a unified diff (default)')
    out.add_argument('--out', metavar='DIR',
                     help='write every file read under DIR, paths relative to the PATH given')
    out.add_argument('--in-place', action='store_true', help='rewrite the files')
    p.add_argument('--report', metavar='FILE', help='also write the report as JSON '
                   '(- : on stdout, with --out or --in-place, which leave stdout free)')
    p.add_argument('--mode', choices=('patch', 'context', 'org'), default='patch',
                   help="patch (the default): convert; context or org: coccicheck's "
                   'modes, the lines each stage would change (a diff, each marked as '
                   'removed, or Emacs org TODO items) on stdout, nothing written; '
                   "stage 2 reads stage 1's output, and its lines are that output's")
    p.add_argument('--ignore', action='append', default=[], metavar='ID[,ID...]',
                   help='leave items with these IDs out of the report and of the exit '
                   'status (the conversion is the same); `wqport explain ID` says what '
                   'an ID means')
    p.add_argument('--jobs', type=int, default=os.cpu_count() or 1, metavar='N',
                   help='convert N files at once (default: one per CPU)')
    p.add_argument('--quiet', action='store_true',
                   help='no progress on stderr (by default: on a terminal one line, '
                   'files done, items so far, time spent and left; else a line [N/M] '
                   'FILE as each file of a run of more than 3 is done)')
    p.add_argument('--no-cache', action='store_true',
                   help='convert again even if this very run (the same files, headers, '
                   'options and wqport) was done before; by default its result is '
                   'replayed from ~/.cache/wqport/convert ($WQPORT_CACHE_DIR)')
    p.add_argument('--force', action='store_true',
                   help='--in-place even in a git tree with uncommitted changes')
    p.add_argument('-I', '--include-dir', action='append', default=[], metavar='DIR',
                   help='where #include <...> finds headers: a header of the run found '
                   'there is converted together with the files that include it, and a '
                   'task or work item declared in a header outside the run is named '
                   'with that header in its item')
    p.add_argument('--with-headers', action='store_true',
                   help='a header outside the run (beside a file, or under -I) that '
                   'declares a task the run uses comes with it and is converted and '
                   'written like the rest (under --out: in a directory named after the '
                   '-I directory it is in), unless a file of its tree that is not in '
                   'the run includes it (the item then names those files); the '
                   'report lists the headers')
    p.add_argument('--strict', action='store_true',
                   help='stop the run, writing nothing, at any line spatch cannot parse; '
                   'by default a file is converted when none of those lines holds '
                   'deferred-work code or a handler (a note names them), and only a '
                   'file whose deferred-work code spatch cannot parse is refused (a '
                   'file with no deferred-work code, nor a tie to any, is copied '
                   'as it is, never parsed)')
    p.add_argument('--allow-parse-errors', action='store_true', help=argparse.SUPPRESS)
    p.add_argument('paths', nargs='+', metavar='PATH')
    p.set_defaults(func=run)


class Source:
    """One file to convert: where it is read, and where its output goes."""

    def __init__(self, path, rel):
        self.path = path
        self.rel = rel            # relative to the PATH given (for --out)
        with open(path, 'rb') as f:
            self.data = f.read()
        if b'\0' in self.data:
            raise WqportError(f'{path}: not a C source file (binary)')
        # 2.4 sources are often Latin-1: read and write them byte for byte
        self.encoding = 'utf-8'
        try:
            self.text = self.data.decode('utf-8')
        except UnicodeDecodeError:
            self.encoding = 'latin-1'
            self.text = self.data.decode('latin-1')
        self.digest = hashlib.sha256(self.data).hexdigest()
        # every line ends in CR LF (a DOS editor's): the stages see LF only,
        # and the output gets its CR back (their text-mode rewrites of the
        # work copy would drop CRs on some lines and not others)
        self.crlf = b'\r\n' in self.data and \
            self.data.count(b'\n') == self.data.count(b'\r\n')
        self.output = None
        self.items = []           # reasons.Item: line in the original
        self.notes = []           # lines for stderr that need no human
        self.refused = None       # why spatch cannot be trusted with it
        self.failed = None        # why spatch failed on it (also refused: left as read)
        self.work = None          # its copy in the scratch directory
        self.includes = []        # (Source, name, line): run files it includes
        self.inc_dir = None       # scratch include directory for <...> headers
        self.env = {}             # what the stages' analyses must know
        self.kept = set()         # stage 1's tasks left on the 2.4 API
        self.findings = []        # ... and its plan's findings (wqport_tq.Finding)
        self.shown = set()        # ... less the pointers to them, for the report
        self.whole = False        # ... all of them
        self.facts = {}           # stage 2's: which items are delayed
        self.stage1 = None        # a header's stage-1 output, copied for the .c files
        self.back = lambda n: n   # line of the output -> line of the input
        self.back_in = None       # ... of stage 2's input (share_headers)
        self.changed = set()      # lines of the output that the stages wrote
        self.views = []           # --mode context/org: each stage's output
        self.attrs = []           # the attributes hidden from spatch (spatch_mask)
        self.tq_macro = None      # (file, line, what): tq_struct is a macro here
        self.inert = False        # nothing of deferred work here: read, never converted

    def release(self):
        """An inert file: its text is not kept (a tree's files are not all
        held at once); it is read again for the output."""
        self.inert = True
        self.data = self.text = None

    def text_now(self):
        """Its text, read again if released (not kept)."""
        if self.text is not None:
            return self.text
        data = self.read_again()
        try:
            return data.decode('utf-8')
        except UnicodeDecodeError:
            return data.decode('latin-1')

    def reload(self):
        """A released file taken into the run after all."""
        self.__init__(self.path, self.rel)

    def attr_names(self):
        """spatch_mask.attr_macros() of its text, worked out once."""
        if not hasattr(self, '_attr_names'):
            self._attr_names = spatch_mask.attr_macros(self.text)
        return self._attr_names

    def hidden(self, names):
        """spatch_mask.hide() of its text with NAMES, worked out once for
        each set of names (a header included by many files)."""
        key = frozenset(names)
        cache = self.__dict__.setdefault('_hidden', {})
        if key not in cache:
            cache[key] = spatch_mask.hide(self.text, names)[0]
        return cache[key]

    def read_again(self):
        """The bytes of a released file, as they were read."""
        with open(self.path, 'rb') as f:
            data = f.read()
        if hashlib.sha256(data).hexdigest() != self.digest:
            raise WqportError(f'{self.path}: changed while it was being converted')
        return data


def collect(args_paths):
    files = []
    for p in args_paths:
        if not os.path.exists(p):
            raise WqportError(f'{p}: no such file or directory')
        if os.path.isdir(p):
            found = []
            for root, dirs, names in os.walk(p):
                dirs[:] = sorted(d for d in dirs if not d.startswith('.'))
                for n in sorted(names):
                    if n.endswith(('.c', '.h')):
                        full = os.path.join(root, n)
                        found.append((full, os.path.relpath(full, p)))
            files.extend(found)
        elif p.endswith(('.c', '.h')):
            files.append((p, os.path.basename(p)))
        else:
            raise WqportError(f'{p}: not a C file (.c or .h)')
    seen, unique = set(), []
    for path, rel in files:
        key = os.path.realpath(path)
        if key not in seen:
            seen.add(key)
            unique.append(Source(path, rel))
    if not unique:
        raise WqportError('no .c or .h file in ' + ' '.join(args_paths))
    return unique


# What ties a file with no deferred-work word to one that has: a routine
# or handler it gives (convert_check.handler_names), a type it names for
# an item, a macro whose body holds deferred-work code.  (Not the items'
# names, `work` or `tq` in every other file: a file that reaches an item
# includes what declares it, or declares it itself.)
TYPEDEF = re.compile(r'\btypedef\s+struct\s+(?:tq_struct|work_struct|delayed_work)\s+(\w+)')
DEFINE = re.compile(r'^[ \t]*#[ \t]*define[ \t]+(\w+)((?:[^\n]*\\\n)*[^\n]*)', re.M)


# not a handler's name: what handler_names() reads where a routine is a
# constant, a macro of the subsystem's or a parameter
NOT_A_TIE = {'NULL', 'DRM', 'handler', 'func', 'fn', 'routine', 'data', 'cb', 'empty'}


def ties(text):
    """(functions, words) by which other files reach TEXT's deferred-work
    code: the handlers it registers (another file may define or declare
    them), the names of its types and macros of deferred work (another
    file may use them)."""
    funcs = {n for n in check.handler_names(text)
             if len(n) > 3 and not n[0].isdigit() and n not in NOT_A_TIE}
    words = set(TYPEDEF.findall(text))
    words |= {m.group(1) for m in DEFINE.finditer(text) if DEFERRED_WORK.search(m.group(2))}
    return funcs, words


def tie_pattern(funcs, words):
    """What finds a tie in another file: a function of FUNCS defined or
    declared (a type before its name, not a call), a word of WORDS."""
    alts = []
    if funcs:
        alts.append(r'\b(?!(?:return|else|do|case|goto|sizeof)\b)[A-Za-z_]\w*[\s*]+(?:%s)\s*\('
                    % '|'.join(sorted(map(re.escape, funcs))))
    if words:
        alts.append(r'\b(?:%s)\b' % '|'.join(sorted(map(re.escape, words))))
    return re.compile('|'.join(alts))


def direct_includes(src, by_path, include_dirs, text=None):
    """The sources of the run that SRC (or TEXT, its text) includes itself."""
    text = src.text if text is None else text
    out = []
    for rx, quoted in ((LOCAL_INCLUDE, True), (SYS_INCLUDE, False)):
        for m in rx.finditer(text):
            name = m.group(1)
            if not (name.startswith('/') or '..' in name.split('/')):
                other = _resolve(name, os.path.dirname(src.path), include_dirs, by_path, quoted)
                if other is not None:
                    out.append(other)
    return out


def sort_out(sources, by_path, include_dirs):
    """Which SOURCES the stages must see: those with a deferred-work word
    (DEFERRED_WORK) or a tie to one (ties(): a handler registered in one of
    them, a macro of deferred work...); the files that include one of
    those, and the run's headers any of them include (a header taken in
    only because a file of the run includes it brings no includers of its
    own: scsi.h is no part of every SCSI driver's deferred work).  The
    others are inert (Source.release()): read, a regular expression and
    their #include lines, read once more for the ties, then copied as they
    are; no spatch, no text held."""
    live, todo, own = set(), [], set()
    includers = {}                  # id(header) -> the inert files including it

    def wake(s):
        if id(s) not in live:
            live.add(id(s))
            todo.append(s)
            if s.text is None:
                s.reload()

    funcs, words = set(), set()
    for s in sources:
        if DEFERRED_WORK.search(s.text):
            own.add(id(s))
            f, w = ties(s.text)
            funcs |= f
            # (a .c's macros and typedefs are its own: a 2.2 compat
            # netif_wake_queue() that marks a bottom half ties no other)
            words |= w if s.path.endswith('.h') else set()
            continue
        for other in direct_includes(s, by_path, include_dirs):
            includers.setdefault(id(other), []).append(s)
        s.release()
    rx = tie_pattern(funcs, words) if funcs or words else None
    for s in sources:
        if id(s) in own or rx and rx.search(s.text_now()):
            own.add(id(s))
            wake(s)
    while todo:
        s = todo.pop()
        for other in includers.get(id(s), ()) if id(s) in own else ():
            own.add(id(other))
            wake(other)
        s.includes = run_includes(s, by_path, include_dirs)     # (prepare() keeps it)
        for other, _, _, _ in s.includes:
            wake(other)
    return [s for s in sources if id(s) in live]


def spatch():
    """The spatch to run: $SPATCH (as semantic-patches/apply-stage reads it)."""
    return os.environ.get('SPATCH', 'spatch')


def spatch_parses(path):
    """None, or 'LINE:COL' of the first place spatch cannot parse (COL 0:
    the error is in a macro's expansion, LINE the first line of its region)."""
    log = wqport_tq.parse_log(path)
    if not log:
        return None
    with open(path, encoding='latin-1') as f:
        nlines = f.read().count('\n') + 1
    errors = wqport_tq.parse_errors(path, log, nlines)
    return f'{errors[0][2]}:{errors[0][3]}' if errors else None


# What the stages touch: a region spatch gives up on must hold none of it.
DEFERRED_WORK = re.compile(
    wqport_tq.TQ_TOKENS + r'|\b(init_bh|remove_bh|'
    r'DECLARE_TASK_QUEUE|work_struct|delayed_work|INIT_WORK|PREPARE_WORK|DECLARE_WORK|'
    r'INIT_DELAYED_WORK|DECLARE_DELAYED_WORK|queue_work|queue_delayed_work\w*|'
    r'schedule_work|schedule_delayed_work\w*|cancel_\w*work\w*|flush_\w*work\w*|'
    r'create_\w*workqueue|alloc_\w*workqueue|destroy_workqueue|schedule_on_each_cpu|'
    r'execute_in_process_context|work_pending|delayed_work_pending)\b')


def unparsed_regions(path):
    """(first, last, error line) of each region spatch --parse-c gives up on,
    as stage 1's analysis finds them (semantic-patches/stage1/wqport_tq.py)."""
    with open(path, encoding='latin-1') as f:
        text = f.read()
    return wqport_tq.unparsed(path, text), text.split('\n')


_stages = {}


def _failure(stage, said):
    """What a W208 item says of spatch's failure on a file: SAID, the
    (message, spatch's stderr) pairs of Stage.run's Result.said."""
    patches = [m.group(1) for msg, _ in said
               for m in [re.search(r'spatch failed with (.*)$', msg)] if m]
    lines = [ln.strip() for _, err in said for ln in err.splitlines() if ln.strip()]
    if not lines and not patches:
        # (no spatch run said why: apply-stage's own message, such as
        # "cannot read")
        lines = [msg.split(': ', 1)[-1] for msg, _ in said]
    where = 'stage %s (%s)' % (stage[-1], patches[-1] if patches else 'its patches')
    if any('Common.Timeout' in ln or ln.startswith('timeout (we abort)') for ln in lines):
        return (f'spatch gave up on this file in {where}: it ran out of its time limit '
                '(--timeout 120, SPFLAGS can raise it)')
    return 'spatch failed on this file in %s: %s' % (where, lines[-1] if lines else 'no message')


def apply_stage(stage, mode, srcs, only=None, extra=None):
    """One stage (or its patch ONLY) on the work copies of SRCS in MODE
    (patch: each copy rewritten; report: Findings; context, org: spatch's
    output), each with its own run facts (src.env, and EXTRA(src)), the
    files in shared spatch runs (semantic-patches/wqport_fileenv.py).
    Returns (Result, {id(src): why} for each file spatch failed on: those
    copies are left as they were)."""
    if stage not in _stages:
        _stages[stage] = wqport_stage.Stage(os.path.join(paths.TOP, 'semantic-patches', stage))
    envs = {s.work: dict(s.env, **(extra(s) if extra else {})) for s in srcs}
    res = _stages[stage].run([s.work for s in srcs], mode, only, envs=envs)
    failed = {id(s): _failure(stage, res.said.get(s.work, [])) for s in srcs
              if s.work in res.failed}
    for s in srcs:
        if s.work in res.changed and id(s) not in failed:
            with open(s.work, 'wb') as f:
                f.write(res.changed[s.work])
    return res, failed


def refuse_failed(srcs, failed):
    """The sources of SRCS spatch failed on (FAILED, from apply_stage) are
    left as they were read (refused, with src.failed: an item, not an
    error), and the run goes on with the others, which are returned."""
    live = []
    for s in srcs:
        if id(s) in failed:
            s.failed = failed[id(s)]
            s.refused = (1, s.failed)
        else:
            live.append(s)
    return live


def _candidates(name, base_dir, include_dirs, quoted):
    """Where #include NAME may be: beside base_dir (quoted), then under
    each of include_dirs, in the compiler's order."""
    cands = [os.path.join(base_dir, name)] if quoted else []
    return cands + [os.path.join(d, name) for d in include_dirs]


_found = {}         # (name, base_dir, include dirs, quoted) -> the files it may be


def _existing(name, base_dir, include_dirs, quoted):
    """The real paths of the files #include NAME may be, in the compiler's
    order (looked up once a run)."""
    key = (name, base_dir, tuple(include_dirs), quoted)
    if key not in _found:
        _found[key] = [os.path.realpath(c) for c in
                       _candidates(name, base_dir, include_dirs, quoted) if os.path.isfile(c)]
    return _found[key]


def _resolve(name, base_dir, include_dirs, by_path, quoted):
    """The Source #include NAME names: beside base_dir (quoted), or under
    one of include_dirs; None when it is not in the run."""
    for c in _existing(name, base_dir, include_dirs, quoted):
        s = by_path.get(c)
        if s is not None:
            return s
    return None


def _on_disk(name, base_dir, include_dirs, quoted):
    """The path of the header outside the run that #include NAME names, or
    None."""
    found = _existing(name, base_dir, include_dirs, quoted)
    return found[0] if found else None


_disk_texts = {}


def _disk_text(path):
    """The directives of a header outside the run (its #include lines are
    all run_includes() reads), read once per convert; None if unreadable."""
    if path not in _disk_texts:
        try:
            with open(path, encoding='latin-1') as f:
                _disk_texts[path] = '\n'.join(
                    line for line in f.read().split('\n') if line.lstrip().startswith('#'))
        except OSError:
            _disk_texts[path] = None
    return _disk_texts[path]


def run_includes(src, by_path, include_dirs):
    """(Source, NAME, quoted, line) for each header of the run that SRC
    includes, and the headers of the run those include (a quoted NAME
    resolved beside the file that has it, <NAME> under include_dirs).  A
    header outside the run on the way is read, never converted, so that a
    header of the run it includes is found too (brcmnand_cet.c includes
    "brcmnand_priv.h", which includes <linux/mtd/brcmnand.h>)."""
    out, todo, seen, read = [], [(src, src.path, src.text)], {id(src)}, set()
    while todo:
        cur, path, text = todo.pop(0)
        for rx, quoted in ((LOCAL_INCLUDE, True), (SYS_INCLUDE, False)):
            for m in rx.finditer(text):
                name = m.group(1)
                if name.startswith('/') or '..' in name.split('/'):
                    continue              # as apply-stage: stay in the scratch dir
                base = os.path.dirname(path)
                other = _resolve(name, base, include_dirs, by_path, quoted)
                if other is None:
                    disk = _on_disk(name, base, include_dirs, quoted)
                    if disk is None or disk in read:
                        continue
                    read.add(disk)
                    directives = _disk_text(disk)
                    if directives is not None:
                        todo.append((None, disk, directives))
                    continue
                if id(other) in seen:
                    continue
                seen.add(id(other))
                line = src.text.count('\n', 0, m.start()) + 1 if cur is src else 0
                out.append((other, name, quoted, line))
                todo.append((other, other.path, other.text_now()))
    return out


def lf(data, src):
    """DATA, a text of SRC, as the stages get it: LF line ends if SRC's are
    CR LF (Source.crlf)."""
    return data.replace(b'\r\n', b'\n') if src.crlf else data


def prepare(src, scratch, by_path, include_dirs):
    """SRC's work copy, with the run's headers it includes beside it (as
    they were read) or in its scratch include directory."""
    top = os.path.join(scratch, hashlib.sha1(src.path.encode()).hexdigest()[:12])
    src.work = os.path.join(top, os.path.basename(src.path))
    os.makedirs(top)
    if not src.includes:        # (sort_out() found them: the same run, the same texts)
        src.includes = run_includes(src, by_path, include_dirs)
    # (what spatch cannot parse, hidden line for line; back in unmask())
    names = set()
    for other, _, _, _ in src.includes:
        names |= other.attr_names()
    masked, src.attrs = spatch_mask.hide(src.text, names)
    with open(src.work, 'wb') as f:
        f.write(lf(masked.encode(src.encoding) if src.attrs else src.data, src))
    for other, name, quoted, _ in src.includes:
        if quoted:
            dest = os.path.join(top, name)
        else:
            src.inc_dir = os.path.join(top, '.include')
            dest = os.path.join(src.inc_dir, name)
        if os.path.exists(dest):
            continue
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, 'wb') as f:
            f.write(lf(other.hidden(names).encode(other.encoding), other))
    if src.inc_dir:
        src.env['WQPORT_INCLUDE_DIR'] = src.inc_dir
    if include_dirs:
        src.env['WQPORT_SEARCH_DIRS'] = os.pathsep.join(os.path.abspath(d)
                                                        for d in include_dirs)
    # (an item names a header beside the file that the run does not hold)
    src.env['WQPORT_SOURCE_DIR'] = os.path.dirname(os.path.abspath(src.path))


def find_tq_macro(src):
    """Where SRC or a header of the run it includes makes tq_struct a macro
    (madwifi: #define tq_struct tasklet_struct), in code a 2.6 or later
    kernel compiles: then no struct tq_struct of SRC is a 2.4 task."""
    for f in [src] + [inc[0] for inc in src.includes]:
        text = check.live_text(f.text, ['stage1'])
        m = TQ_MACRO.search(text)
        if m:
            src.tq_macro = (os.path.basename(f.path), text.count('\n', 0, m.start()) + 1,
                            m.group(1))
            src.notes.append(f'{src.path}: note: tq_struct is a macro for {m.group(1)} here '
                             f'({src.tq_macro[0]}:{src.tq_macro[1]}): its uses are not 2.4 '
                             'task queues, and stage 1 leaves the file as it is')
            return


def macro_lines(text):
    """The numbers of the lines of text that are in a #define (its first
    line and continuations)."""
    out = set()
    for m in wqport_tq.DEFINE_LINES.finditer(text):
        first = text.count('\n', 0, m.start()) + 1
        out.update(range(first, first + m.group(0).count('\n') + 1))
    return out


def parse_check(src, strict):
    """Refuse SRC (src.refused) when spatch cannot parse its deferred-work
    code or a handler; note the other lines it gives up on.  --strict:
    any such line stops the run."""
    where = spatch_parses(src.work)
    if not where:
        return
    if strict:
        raise WqportError(f'{src.path}:{where}: spatch cannot parse the file here')
    regions, lines = unparsed_regions(src.work)
    handlers = check.handler_names(src.text)
    # branches no kernel from 2.6.0 up compiles (#if LINUX_VERSION_CODE <
    # 0x02032b: 2.2 compatibility; a branch for 2.4 beside one for 2.6),
    # which stage 1 hides from its patches
    dead = [(b['first'], b['last'])
            for b in wqport_versions.dead_branches(src.text, wqport_versions.FLOOR_STAGE1)
            if b['hideable'] and b['kind'] != 'if0']
    old = [r for r in regions if any(a <= r[0] and r[1] <= b for a, b in dead)]
    regions = [r for r in regions if r not in old]
    src.notes += [f'{src.path}:{line}: note: spatch cannot parse lines {first}-{last}, in code '
                  'for kernels before 2.6.0 that the conversion leaves as it is'
                  for first, last, line in old]
    in_macro = macro_lines('\n'.join(lines))
    macros = [r for r in regions
              if all(n in in_macro or not lines[n - 1].strip() for n in range(r[0], r[1] + 1))]
    regions = [r for r in regions if r not in macros]
    # spatch leaves a macro it cannot parse alone, as it leaves most macro
    # bodies: stage 1's analysis reads them as text, and the output check
    # reports any old call left in them
    src.notes += [f'{src.path}:{line}: note: spatch cannot parse the #define in lines '
                  f'{first}-{last}: the stages leave it as it is (an old call left in it is '
                  'an item below)' for first, last, line in macros]
    for first, last, line in regions:
        chunk = '\n'.join(lines[first - 1:last])
        if DEFERRED_WORK.search(chunk) or set(re.findall(r'\w+', chunk)) & handlers:
            src.refused = (line, f'spatch cannot parse the file here, in lines {first}-{last}, '
                           'which hold deferred-work code (a task, a work item or a '
                           'handler): the file is left as it is; fix or expand that code '
                           '(a macro spatch does not know?) and convert again')
            return
    src.notes += [f'{src.path}:{line}: note: spatch cannot parse lines {first}-{last} '
                  '(no deferred-work code there): the rest is converted'
                  for first, last, line in regions]


def components(sources):
    """Groups of sources that share headers: a file and the run headers it
    includes are one group."""
    up = {id(s): id(s) for s in sources}

    def root(x):
        while up[x] != x:
            up[x] = up[up[x]]
            x = up[x]
        return x
    for s in sources:
        for other, _, _, _ in s.includes:
            up[root(id(other))] = root(id(s))
    groups = {}
    for s in sources:
        groups.setdefault(root(id(s)), []).append(s)
    return list(groups.values())


def _with_env(env, fn, *args):
    """fn(*args) with env set in this process (stage 1's analysis reads the
    run's facts from it, as it does under a stage's run), one thread at a
    time."""
    with wqport_stage.with_env(env):
        return fn(*args)


WORK_DECL = re.compile(r'\bstruct\s+(?:work_struct|delayed_work)\s+[^;{}()]*;')


def declared(src, work=False, aliases=()):
    """The names SRC declares struct tq_struct, or through one of ALIASES
    (a driver's #define or typedef of that type: the aliases are names it
    declares too), fields and variables (work: work_struct or
    delayed_work, and DECLARE_*WORK, in its work copy as stage 1 left it)."""
    if work:
        with open(src.work, encoding='latin-1') as f:
            text = wqport_tq.blank_text(f.read())
    else:
        # (a task declared in a branch no 2.6 kernel compiles is none)
        text = wqport_versions.blank_dead(wqport_tq.blank_text(src.text),
                                          wqport_versions.FLOOR_STAGE1)
    if not work:
        return wqport_tq.task_names(text, aliases)
    out = set(re.findall(r'\b(?:DECLARE_WORK|DECLARE_DELAYED_WORK)\s*\(\s*(\w+)', text))
    for m in WORK_DECL.finditer(text):
        d = re.sub(r'=[^,;]*', '', m.group(0))
        out.update(re.findall(r'[,\s*]([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)?[,;]', d))
    return out


class Scope:
    """Which files of a group see one declaration: a name declared in a
    header of the run is shared by the files that include it and by the
    headers those files include with it (a macro of one header may use a
    field another declares); a name declared in a .c is that file's."""

    def __init__(self, group, work=False):
        inc = {id(s): {id(o) for o, _, _, _ in s.includes} for s in group}
        self.scope = {}
        for b in group:
            sc = {id(b)} | inc[id(b)]
            for c in group:
                if id(b) in inc[id(c)]:
                    sc |= {id(c)} | inc[id(c)]
            self.scope[id(b)] = sc
        # the aliases of struct tq_struct any file of the group defines
        self.aliases = set() if work else set().union(*(
            wqport_tq.tq_aliases(wqport_versions.blank_dead(wqport_tq.blank_text(s.text),
                                                            wqport_versions.FLOOR_STAGE1))
            for s in group))
        self.decls = {id(s): declared(s, work, self.aliases) for s in group}
        self.headers = {id(s) for s in group if s.path.endswith('.h')}

    def names(self, b):
        """The names declared in the headers B sees (and in B)."""
        out = set(self.decls[id(b)])
        for h in self.scope[id(b)] & self.headers:
            out |= self.decls[h]
        return out

    def shared(self, n, a, b):
        """Whether files a and b see the same declaration of n."""
        both = self.scope[id(a)] & self.scope[id(b)] & self.headers
        return any(n in self.decls[h] for h in both)


def plan_stage1(sources):
    """What each file keeps on the 2.4 API: a task one file keeps is kept in
    every file that sees the same declaration of it (its type stays struct
    tq_struct in the header they share), and a helper that takes a task in
    every file of the run that declares or defines it, with an item naming
    the file that keeps it; what the files of a group store as a task's
    data is shared the same way, and the locks they take with a _bh form
    (a routine that ran in a bottom half takes them with _bh as a work
    item).  Sets src.env (WQPORT_TASKS, WQPORT_DATA, WQPORT_KEEP,
    WQPORT_BH_LOCKS), src.kept."""
    groups = components(sources)
    scope = {}
    for group in groups:
        sc = Scope(group)
        # (read as the analyses below read the work copy: once, cached)
        locks = {id(s): wqport_tq.bh_locks(s.work) - {'*'} for s in group}
        # the data each task's stores give: a routine stored in one file
        # gets the data another stores
        facts = {}
        for s in group:
            scope[id(s)] = (sc, group)
            s.env['WQPORT_TASKS'] = ' '.join(sorted(sc.names(s)))
            s.env['WQPORT_ALIASES'] = ' '.join(sorted(sc.aliases))
            s.env['WQPORT_BH_LOCKS'] = ' '.join(sorted(set().union(
                *(locks[id(t)] for t in group if t is not s))))
            env = dict(s.env, WQPORT_APPLY_STAGE='1')
            facts[id(s)] = _with_env(env, wqport_tq.data_facts, s.work)
            wqport_tq.forget(s.work)
        for s in group:
            data = {}
            for t in group:
                for obj, (kinds, routine) in facts[id(t)].items():
                    if t is s or sc.shared(obj, s, t):
                        k, r = data.get(obj, (set(), False))
                        data[obj] = (k | kinds, r or routine)
            s.env['WQPORT_DATA'] = ' '.join(f'{n}={",".join(sorted(k))}:{int(r)}'
                                            for n, (k, r) in sorted(data.items()))
    # A task one file keeps is kept in the files of its group that see its
    # declaration; a helper that takes a task (fn:NAME, a function with a
    # struct tq_struct parameter) one file keeps is kept in every file of
    # the run that declares or defines it: one function, one prototype.
    forced = {id(s): {} for s in sources}
    helpers = {}
    dirty = list(sources)           # the files whose forced names changed
    while dirty:
        for s in dirty:
            s.env['WQPORT_KEEP'] = '\n'.join(f'{n}\t{who}' for n, who in
                                             sorted(forced[id(s)].items()))
            wqport_tq.forget(s.work)
            # as under apply-stage, which runs every patch of the stage
            env = dict(s.env, WQPORT_APPLY_STAGE='1')
            p = _with_env(env, wqport_tq.plan, s.work)
            s.findings = p['findings']
            nodes = set().union(*p['graph']['nodes']) if p['graph'] else set()
            # (and a macro: one #define in a header, the same for its users)
            helpers[id(s)] = ({n for n in nodes if re.match(r'^(fn|m):', n)},
                              {n for n in p['kept'] if re.match(r'^(fn|m):', n)})
            if s.refused:
                s.kept, s.whole = {n for n in p['kept'] | set(p['graph']['find'].up
                                                               if p['graph'] else ())
                                   if not re.match(r'^(fn|m|k):', n)}, True
                helpers[id(s)] = (helpers[id(s)][0], helpers[id(s)][0])
            else:
                s.kept, s.whole = _with_env(env, wqport_tq.kept_names, s.work), p['whole']
            s.shown = _with_env(env, wqport_tq.kept_names, s.work, False) & s.kept
        changed = set()
        for s in sources:
            sc, group = scope[id(s)]
            for n in s.kept:
                if n.startswith('q:'):
                    continue
                for t in group:
                    if t is not s and n not in forced[id(t)] and n not in t.kept \
                            and sc.shared(n, s, t):
                        forced[id(t)][n] = os.path.basename(s.path)
                        changed.add(id(t))
            for n in helpers[id(s)][1]:
                for t in (sources if n.startswith('fn:') else group):
                    if t is not s and n in helpers[id(t)][0] and \
                            n not in helpers[id(t)][1] and n not in forced[id(t)]:
                        forced[id(t)][n] = os.path.basename(s.path)
                        changed.add(id(t))
        dirty = [s for s in sources if id(s) in changed]


def stage_pass(srcs, stage, stages, mode='patch', only=None):
    """One stage (or ONLY, one of its .cocci) on the work copies of SRCS:
    their report (items, lines of the original), then their rewrite; with
    MODE context or org, first that mode's output too (src.views)."""
    srcs = [s for s in srcs if not s.refused]
    before = {}
    for s in srcs:
        with open(s.work, errors='replace') as f:
            before[id(s)] = f.read().splitlines()
    if mode != 'patch' and only is None:
        # (a pass of one .cocci again, on the stage's output: no view)
        failed = {}
        for s in srcs:
            res, bad = apply_stage(stage, mode, [s], only)
            s.views.append(res.output.replace(s.work, s.path))
            failed.update(bad)
        srcs = refuse_failed(srcs, failed)
    res, failed = apply_stage(stage, 'report', srcs, only)
    srcs = refuse_failed(srcs, failed)
    for s in srcs:
        for f in res.of.get(s.work, []):
            s.items.append(reasons.Item(s.back(f.line), stage, f.id, f.reason))
    srcs = refuse_failed(srcs, apply_stage(stage, 'patch', srcs, only)[1])
    for s in srcs:
        follow_lines(s, before[id(s)])


def follow_lines(src, before):
    """SRC's work copy rewritten from BEFORE (its lines then): src.back
    maps the new lines to the input's."""
    with open(src.work, errors='replace') as f:
        after = f.read().splitlines()
    to_before = line_map(after, before)
    src.back = (lambda p, t: lambda n: p(t(n)))(src.back, to_before)


def facts_pass(srcs):
    """Stage 2's facts on the stage-1 outputs of SRCS: which items their
    delayed calls use, which they hand on otherwise, their wrappers of
    delayed calls (01-delayed-work.cocci writes them to $WQPORT_FACTS in
    report mode)."""
    srcs = [s for s in srcs if not s.refused]
    out = {id(s): s.work + '.facts.json' for s in srcs}
    srcs = refuse_failed(srcs, apply_stage('stage2', 'report', srcs, '01-delayed-work.cocci',
                                           lambda s: {'WQPORT_FACTS': out[id(s)]})[1])
    for s in srcs:
        try:
            with open(out[id(s)]) as f:
                s.facts = json.load(f)
        except (OSError, ValueError):
            s.facts = {}


# A use of the system workqueue, in either old API (stage 1 makes the 2.4
# names the 2.6 ones); stage 2's rule 7 gives a file a private workqueue only
# when no other file of its module uses the system one.
SYSTEM_WQ_USE = re.compile(r'\b(?:schedule_(?:delayed_)?work(?:_on)?|flush_scheduled_work|'
                           r'schedule_task|flush_scheduled_tasks)\s*\(')


def share_schedulers(sources):
    """Tell each file (WQPORT_OTHER_SCHEDULERS) which other files beside it
    (the same directory: perhaps the same module) use the system workqueue,
    read from their stage-1 output (their source when refused)."""
    users = {}
    for s in sources:
        text = s.text
        if s.work and not s.refused:
            try:
                with open(s.work, encoding=s.encoding, errors='replace') as f:
                    text = f.read()
            except OSError:
                pass
        if SYSTEM_WQ_USE.search(text):
            users[s] = os.path.dirname(os.path.abspath(s.path))
    for s in sources:
        here = os.path.dirname(os.path.abspath(s.path))
        s.env['WQPORT_OTHER_SCHEDULERS'] = ' '.join(sorted(
            os.path.basename(t.path) for t, d in users.items() if t is not s and d == here))


def share_macros(sources):
    """{id of each group's first source: {macro: index}} of the driver's
    macros that hand an argument to a delayed call, in the stage-1 output
    of the group's files (their source when refused); each file of the
    group gets them as candidate wrappers (WQPORT_WRAPPER_CANDIDATES, their
    names in WQPORT_MACRO_WRAPPERS), and the parameters their bodies hand
    on (WQPORT_MACRO_PARAMS)."""
    out = {}
    for group in components(sources):
        found = {}
        for s in group:
            found.update(convert_macros.wrappers(
                s.text if s.refused or not s.work else read_work(s)))
        out[id(group[0])] = {fn: i for fn, (i, _) in found.items()}
        for s in group:
            if found and not s.refused:
                s.env['WQPORT_WRAPPER_CANDIDATES'] = ' '.join(
                    sorted(f'{fn}:{i}' for fn, (i, _) in found.items()))
                s.env['WQPORT_MACRO_PARAMS'] = ' '.join(
                    sorted(f'{fn}:{p}' for fn, (_, p) in found.items() if p))
                s.env['WQPORT_MACRO_WRAPPERS'] = ' '.join(sorted(found))
    return out


def share_facts(sources, macros=None):
    """Stage 2's facts, for each file from the files that see the same
    declarations: an item that is delayed in one file is delayed in all
    (WQPORT_DELAYED), one handed on as a plain work_struct in one is left in
    all (WQPORT_NOT_DELAYED), a wrapper of delayed calls whose every call in
    the group passes an item is one for all (WQPORT_WRAPPERS), and the items
    declared where the file can see them are known (WQPORT_DECLARED: a
    delayed item declared in none is reported)."""
    for group in components(sources):
        sc = Scope(group, work=True)
        wrappers, calls = {}, {}
        for s in group:
            wrappers.update(s.facts.get('wrappers', {}))
            for fn, ok in s.facts.get('wcalls', {}).items():
                calls.setdefault(fn, []).extend(ok)
        wrappers.update((macros or {}).get(id(group[0]), {}))
        ok = {fn for fn in wrappers if calls.get(fn) and all(calls[fn])}
        for s in group:
            delayed, bad, types, untyped = set(), set(), set(), set()
            for t in group:
                mine = set(t.facts.get('delayed', []))
                for fn, names in t.facts.get('wkeys', {}).items():
                    if fn in ok:          # what the wrappers are given is delayed
                        mine |= set(names)
                        untyped |= {n for n in names if t is s or sc.shared(n, s, t)}
                delayed |= {n for n in mine if t is s or sc.shared(n, s, t)}
                bad |= {n for n in t.facts.get('bad', []) if t is s or sc.shared(n, s, t)}
                # the structures of the delayed fields, where the uses tell
                types |= {f'{n}/{ty.replace(" ", "+")}'
                          for n, tys in t.facts.get('dtypes', {}).items() for ty in tys
                          if t is s or sc.shared(n, s, t)}
                untyped |= {n for n in t.facts.get('untyped', []) if t is s or sc.shared(n, s, t)}
            s.env['WQPORT_DELAYED'] = ' '.join(sorted(delayed))
            s.env['WQPORT_DELAYED_TYPES'] = ' '.join(sorted(types))
            s.env['WQPORT_UNTYPED'] = ' '.join(sorted(untyped))
            s.env['WQPORT_NOT_DELAYED'] = ' '.join(sorted(bad))
            s.env['WQPORT_WRAPPERS'] = ' '.join(sorted(f'{fn}:{wrappers[fn]}' for fn in ok))
            s.env['WQPORT_DECLARED'] = ' '.join(sorted(sc.names(s)))


def share_headers(live):
    """Tell each .c (WQPORT_RUN_HEADERS) which headers of the run it
    includes, as stage 1 left them (a copy: their own stage 2 pass runs
    beside), and where to write the back-pointer fields it needs in them
    (WQPORT_BACKPTR_OUT: stage 2's rule 4)."""
    for s in live:
        if s.path.endswith('.h'):
            continue
        copies = []
        for h, _, _, _ in s.includes:
            if h.refused or not h.path.endswith('.h'):
                continue
            if h.stage1 is None:
                h.stage1 = os.path.join(os.path.dirname(h.work), '.stage1',
                                        os.path.basename(h.path))
                os.makedirs(os.path.dirname(h.stage1), exist_ok=True)
                shutil.copyfile(h.work, h.stage1)
            copies.append(h.stage1)
        s.env['WQPORT_RUN_HEADERS'] = os.pathsep.join(copies)
        s.env['WQPORT_BACKPTR_OUT'] = s.work + '.backptr'
        s.back_in = s.back        # stage 2's input lines -> the original's


def backptr_requests(live):
    """The fields the .c files asked for (share_headers), handed to each
    header's pass as WQPORT_BACKPTR_ADD: [(src, line, header, field spec)]."""
    by_copy = {h.stage1: h for h in live if h.stage1}
    asked, add = [], {}
    for s in live:
        try:
            with open(s.work + '.backptr') as f:
                lines = set(f.read().splitlines())
        except OSError:
            continue
        for x in sorted(lines):
            spec, rest = x.split(' ', 1)        # spec has no blank; a path may
            copy, line = rest.rsplit(' ', 1)
            if copy == '-':               # the .c's own container
                asked.append((s, int(line), None, spec))
                continue
            h = by_copy.get(copy)
            if h is not None:
                asked.append((s, int(line), h, spec))
                add.setdefault(id(h), (h, set()))[1].add(spec)
    for h, specs in add.values():
        h.env['WQPORT_BACKPTR_ADD'] = ' '.join(sorted(specs))
    return asked


def backptr_check(asked):
    """An item on the .c for each field its header's pass, or its own
    (h None: a container spatch did not parse as one, `} packed;` with
    the driver's #define packed), did not add."""
    for s, line, h, spec in asked:
        tag, tname, fld, nf = spec.split(':')
        where = h or s
        with open(where.work, encoding=where.encoding, errors='replace') as f:
            code = wqport_tq.blank_text(f.read())       # (not a comment's)
        if re.search(r'\bvoid\s*\*\s*%s\s*;' % re.escape(nf), code):
            continue
        s.items.append(reasons.Item(
            s.back_in(line), 'stage2', 'W107',
            f'the handler now reads its data from {nf}, a field that stage 2 could not add '
            f'after {fld} in {"struct " + tag if tag else tname} of '
            f'{os.path.basename(where.path)}: add void *{nf}; there by hand'))


def read_work(src):
    """The stages' output for SRC, as text."""
    with open(src.work, 'rb') as f:
        return f.read().decode(src.encoding, 'replace')


def rewrite_work(src, fn):
    """SRC's work copy replaced by fn(its text), when that differs."""
    text = read_work(src)
    new = fn(text)
    if new != text:
        with open(src.work, 'wb') as f:
            f.write(new.encode(src.encoding, 'replace'))
        wqport_tq.forget(src.work)


def unmask(src):
    """The attributes hidden from spatch back in SRC's work copy (and its
    --mode context/org views); SRC refused when the stages lost one."""
    if not src.attrs:
        return
    src.views = [spatch_mask.show(v, src.attrs, strict=False) for v in src.views]
    if src.refused:
        return
    text = spatch_mask.show(read_work(src), src.attrs)
    if text is None:
        line = src.text.count('\n', 0, max(src.text.find(src.attrs[0]), 0)) + 1
        src.refused = (line, 'a semantic patch rewrote code around an attribute that spatch '
                       'cannot parse, which wqport hid from it: the file is left as it is; '
                       'convert it by hand')
        src.items = []            # the stages' items speak of an output not written
        return
    rewrite_work(src, lambda _: text)


TQUEUE_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*<linux/tqueue\.h>', re.M)
WORKQUEUE_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*<linux/workqueue\.h>[^\n]*\n', re.M)


def _sees_tqueue(src, attr, seen=None):
    """Whether SRC's text ATTR ('data': its input, 'output') includes
    <linux/tqueue.h>, itself or through a header of the run it includes."""
    seen = set() if seen is None else seen
    if id(src) in seen:
        return False
    seen.add(id(src))
    text = getattr(src, attr, None) or src.data
    return bool(TQUEUE_INCLUDE.search(text)) or \
        any(_sees_tqueue(o, attr, seen) for o, _, _, _ in src.includes)


INCLUDE_LINE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*[<"][^\n]*\n', re.M)


def keep_tqueue_header(src, stages):
    """What stays on the 2.4 API keeps what declares it: when SRC's output
    still names a task-queue call, type or queue where a compiler reads it
    (a call in a driver's macro the stages did not see, a task kept by an
    item) and no longer sees <linux/tqueue.h>, which its input did (itself,
    or through a header of the run whose conversion dropped it), the
    include goes back: after the <linux/workqueue.h> put in its place, or
    after the file's last #include.  Run after every file's finish_items(),
    so that the headers' outputs are known."""
    if _sees_tqueue(src, 'output') or not _sees_tqueue(src, 'data'):
        return
    if not check.names_24(check.live_text(src.output.decode(src.encoding, 'replace'), stages)):
        return
    m = WORKQUEUE_INCLUDE.search(src.output)
    if not m:
        for m in INCLUDE_LINE.finditer(src.output):
            pass
    if m:
        nl = b'\r\n' if src.crlf else b'\n'
        src.output = src.output[:m.end()] + b'#include <linux/tqueue.h>' + nl + \
            src.output[m.end():]
        # the output's lines after it move down one (items name the
        # input's lines, and are made before)
        at = src.output.count(b'\n', 0, m.end()) + 1
        src.changed = {n + (n >= at) for n in src.changed} | {at}


def finish_items(src, stages, arities):
    """SRC's output, and the items for what the stages left of the old APIs
    and for handlers still cast to another function type (arities:
    check.alias_arities() of its group of files); the 2.4 header, where
    the output still needs it, is keep_tqueue_header()'s."""
    with open(src.work, 'rb') as f:
        src.output = f.read()
    if src.crlf:
        src.output = src.output.replace(b'\r\n', b'\n').replace(b'\n', b'\r\n')
    if src.output != src.data:
        a = src.text.splitlines()
        b = src.output.decode(src.encoding, 'replace').splitlines()
        sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
        for tag, i1, i2, j1, j2 in sm.get_opcodes():
            if tag != 'equal':
                src.changed.update(range(j1 + 1, j2 + 1))
    if kept(src):
        return
    out = src.output.decode(src.encoding, 'replace')
    said = {it.line for it in src.items}
    # handlers an item of the stages already names: a registration of one
    # left with its data is that item's doing (W116: used otherwise)
    named = set(re.findall(r'(\w+)\(\)', ' '.join(it.reason for it in src.items
                                                    if it.stage == 'stage2')))
    out_lines = out.split('\n')
    for line, what in check.leftovers(out, stages, src.kept,
                                      src.env.get('WQPORT_TASKS', '').split(),
                                      tq_macro=bool(src.tq_macro), arities=arities):
        if what.endswith('with a data argument') and \
                check.handler_names(out_lines[line - 1]) & named:
            continue
        if src.back(line) not in said:
            said.add(src.back(line))
            src.items.append(reasons.Item(
                src.back(line), stages[-1], 'W201',
                f'{what} is left after {" and ".join(stages)}, which did not recognise it '
                '(a macro around it, a handler through a pointer?): convert it by hand'))
    for found, what in (
            (check.private_wq_unallocated,
             'is never allocated (its init function\'s start was not found): add {0} = '
             'alloc_workqueue("%s", 0, 0, KBUILD_MODNAME) at the start of the module\'s '
             'init function by hand'),
            (check.private_wq_undeclared,
             'is allocated and used but never declared (no function before its first use '
             'was found for the declaration): add static struct workqueue_struct *{0}; '
             'before the first function that uses it by hand')):
        for line, name in found(src.text, out):
            src.items.append(reasons.Item(
                src.back(line), stages[-1], 'W202',
                f'the private workqueue {name} that stage 2 gave the file in place of the '
                'system one ' + what.format(name)))
    if 'stage2' in stages:
        for line, h, q, path in check.self_flushes(out):
            how = ' (through ' + '() -> '.join(path[1:]) + '())' if len(path) > 1 else ''
            flush = 'flush_scheduled_work()' if q == check.SYSTEM_WQ else f'flush_workqueue({q})'
            src.items.append(reasons.Item(
                src.back(line), stages[-1], 'W207',
                f'{h}() runs on the workqueue {q} and calls {flush}{how}: 2.6 ran the queue '
                'by hand when a flush came from its own worker, a modern kernel waits for '
                f'every item of {q}, {h}() included, and never returns; flush from outside '
                'the handler, or cancel the other items there'))
    cast, other = set(), set(said)
    for line, name in check.handler_casts(out, stages):
        # one item per handler (two registrations can map to one line of
        # the input), none where another item says the line already
        if src.back(line) not in other and (src.back(line), name) not in cast:
            cast.add((src.back(line), name))
            src.items.append(reasons.Item(
                src.back(line), stages[-1], 'W203',
                f'{name}() is cast to another function type where it is registered: a '
                'call through that type traps under kCFI; make its prototype the one the '
                'call expects and drop the cast'))


def live_outputs(sources, to):
    """{id(source): its output as a kernel of TO compiles it} (check.live_text)."""
    return {id(s): check.live_text(s.output.decode(s.encoding, 'replace'), STAGES[to])
            for s in sources}


def verify_types(sources, to, live):
    """Items for a work field or task whose type, in the output of the run
    (LIVE: live_outputs()), disagrees with a use of it in any file of the
    group that declares it (or is declared nowhere in the run while the
    stages wrote that use)."""
    for group in components(sources):
        decls = {}                    # name -> {type: [(src, line)]}
        for s in group:
            text = live[id(s)]
            for name, types in check.declarations(text).items():
                for t in types:
                    decls.setdefault(name, {}).setdefault(t, []).append(s)
        for s in group:
            if s.refused or kept(s):
                continue
            text = live[id(s)]
            said = {it.line for it in s.items}
            readings = check.uses(text)
            for i, (line, name, need) in enumerate(readings):
                have = decls.get(name)
                if have and check.agree(need, set(have), to):
                    continue
                if name == 'work' and i and readings[i - 1][0] == line and \
                        readings[i - 1][2] == 'delayed_work':
                    continue          # the second reading of &x.f.work: the first decides
                alt = readings[i + 1] if i + 1 < len(readings) else None
                if (need == 'delayed_work' and alt and alt[0] == line and alt[1] == 'work'
                        and decls.get('work') and check.agree(alt[2], set(decls['work']), to)):
                    continue          # a plain field named work, declared so in the run
                if not have and (line not in s.changed or need != 'delayed_work' or
                                 any(re.search(r'\b%s\b' % re.escape(name), r)
                                     for r in (it.reason for it in s.items))):
                    continue              # not made delayed here, or said already
                orig = s.back(line)
                if orig in said:
                    continue
                said.add(orig)
                if have:
                    where = ', '.join(sorted({os.path.basename(x.path) for ts in have.values()
                                              for x in ts}))
                    s.items.append(reasons.Item(
                        orig, 'check', 'W204',
                        f'{name} is declared struct {" or struct ".join(sorted(have))} '
                        f'(in {where}) but used here as struct {need}: make the two agree '
                        'by hand'))
                else:
                    hdr = wqport_tq.declaring_header(s.path, name, s.env.get(
                        'WQPORT_SEARCH_DIRS', '').split(os.pathsep))
                    s.items.append(reasons.Item(
                        orig, 'check', 'W205',
                        f'{name} is used here as struct {need}, but it is declared outside '
                        f'this run{" (in " + hdr + ")" if hdr else " (in a header?)"}: '
                        'convert that header in the same run, or make its declaration '
                        'agree by hand'))


def verify_set_up(sources, live):
    """Items for an item or task the output (LIVE: live_outputs()) queues
    but no file of its group sets up (no INIT_WORK, DECLARE_WORK,
    initializer or handler store)."""
    for group in components(sources):
        used = [s for s in group if not s.refused]
        for i, line, name in check.never_set_up([live[id(s)] for s in used]):
            s = used[i]
            if kept(s) or s.output == s.data or s.back(line) in {it.line for it in s.items}:
                continue              # (a file the stages left: not theirs to say)
            s.items.append(reasons.Item(
                s.back(line), 'check', 'W206',
                f'{name} is queued here, but no file of this run sets it up (no INIT_WORK(), '
                'DECLARE_WORK() or initializer gives it a handler): a kernel since 2.6.20 '
                'calls a NULL function; set it up where its structure is, or give the file '
                'that does to the same run'))


def kept(src):
    """Whether stage 1 left every task of SRC as it was, or SRC was refused."""
    return bool(src.refused) or src.whole


def check_git_clean(sources):
    dirs = sorted({os.path.dirname(os.path.abspath(s.path)) for s in sources})
    for d in dirs:
        top = subprocess.run(['git', '-C', d, 'rev-parse', '--show-toplevel'],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             check=False)
        if top.returncode:
            continue
        dirty = subprocess.run(['git', '-C', d, 'status', '--porcelain', '--untracked-files=no',
                                '--', '.'], stdout=subprocess.PIPE, text=True, check=False)
        if dirty.stdout.strip():
            raise WqportError(f'{d}: the git tree has uncommitted changes '
                              '(commit or stash them, or use --force)')


def atomic_write(path, data, mode=None):
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix='.wqport-', dir=d)
    try:
        with os.fdopen(fd, 'wb') as f:
            f.write(data)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def unified_diff(src):
    """The diff of SRC's output against its input, as bytes in the file's own
    encoding (so that patch applies it to a Latin-1 file too); empty when
    nothing changed."""
    if src.output == src.data:
        return b''
    a = src.text.splitlines(keepends=True)
    b = src.output.decode(src.encoding, errors='replace').splitlines(keepends=True)
    name = os.path.normpath(src.path).lstrip('/')
    out = ''.join(difflib.unified_diff(a, b, 'a/' + name, 'b/' + name))
    if out and not out.endswith('\n'):
        out += '\n\\ No newline at end of file\n'
    return out.encode(src.encoding, errors='replace')


# Files one spatch process takes at most: its fixed cost (about 0.3 s,
# and the patches' Python) paid once for them, while a tree still gives
# every core its share and its progress.  WQPORT_CONVERT_BATCH=1: a process
# a file, as before (the outputs are the same: tests/convert/run).
BATCH = max(1, int(os.environ.get('WQPORT_CONVERT_BATCH') or 16))


def batches(items, jobs):
    """ITEMS (sources) in at least JOBS batches (as many as there are
    items) of at most BATCH, their sizes balanced (the largest file first
    into the lightest batch), each in the order of ITEMS."""
    if not items:
        return []
    n = min(len(items), max(jobs, -(-len(items) // BATCH)))
    load, bins = [0] * n, [[] for _ in range(n)]
    for k in sorted(range(len(items)), key=lambda k: -len(items[k].data)):
        b = min((b for b in range(n) if len(bins[b]) < BATCH), key=lambda b: load[b],
                default=load.index(min(load)))
        bins[b].append(k)
        load[b] += len(items[k].data)
    return [[items[k] for k in sorted(b)] for b in bins if b]


class Progress:
    """The run's progress on stderr.  On a terminal one line, rewritten:
    the pass running (parse, stage 1, stage 2's facts, stage 2), its files
    done of those it has, the items so far, time spent and, in the last
    pass, time left.  Else a line [N/M] FILE as each file's last pass is
    done."""

    def __init__(self, total, tty):
        self.total, self.tty, self.done, self.items = total, tty, 0, 0
        self.start = time.monotonic()
        self.name, self.of, self.count = '', 0, 0

    def phase(self, name, of):
        """A pass NAME begins on OF files ('' for the last: files done)."""
        self.name, self.of, self.count = name, of, 0

    def __call__(self, srcs):
        last = not self.name
        for s in srcs:
            self.count += 1
            if last:
                self.done += 1
                self.items += len(s.items)
                if not self.tty:
                    print(f'[{self.done}/{self.total}] {s.path}', file=sys.stderr)
        if self.tty and srcs:
            spent = time.monotonic() - self.start
            if last:
                left = spent / self.done * (self.total - self.done)
                line = '[%d/%d files] %d items, %s spent, about %s left' % (
                    self.done, self.total, self.items, _clock(spent), _clock(left))
            else:
                line = '%s: %d/%d files, %s spent' % (self.name, self.count, self.of,
                                                       _clock(spent))
            sys.stderr.write('\r\033[K' + line)
            sys.stderr.flush()

    def close(self):
        if self.tty:
            sys.stderr.write('\r\033[K')
            sys.stderr.flush()


def _clock(secs):
    secs = int(secs)
    return '%d:%02d:%02d' % (secs // 3600, secs // 60 % 60, secs % 60) if secs >= 3600 \
        else '%d:%02d' % (secs // 60, secs % 60)


def _parallel(jobs, fn, items):
    """fn(item) for each item, jobs at once; the first WqportError stops all."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for fut in concurrent.futures.as_completed([pool.submit(fn, x) for x in items]):
            fut.result()


def in_batches(jobs, fn, sources, progress=None, phase=''):
    """fn(batch) for the batches() of SOURCES, jobs at once; PROGRESS
    (a Progress) told of each batch done, in pass PHASE ('': the files'
    last)."""
    if progress:
        progress.phase(phase, len(sources))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(fn, b): b for b in batches(sources, jobs)}
        for fut in concurrent.futures.as_completed(futures):
            fut.result()
            if progress:
                progress(futures[fut])


def run(args):
    if not shutil.which(spatch()):
        raise WqportError(f'{spatch()} missing: run scripts/install-deps (coccinelle)')
    if args.jobs < 1:
        raise WqportError('--jobs takes a number from 1 up')
    for d in args.include_dir:
        if not os.path.isdir(d):
            raise WqportError(f'-I {d}: not a directory')
    silenced = set()
    for arg in args.ignore:
        for x in filter(None, arg.split(',')):
            wid = reasons.normalise(x)
            if not wid or wid not in reasons.titles():
                raise WqportError(f'--ignore {x}: no such ID (wqport explain lists them)')
            silenced.add(wid)
    if args.mode != 'patch' and (args.out or args.in_place):
        raise WqportError(f'--mode {args.mode} writes nothing: it takes no --out or --in-place')
    sources = collect(args.paths)
    if args.report == '-' and not (args.out or args.in_place):
        raise WqportError('--report -: the diff is on stdout; with --out DIR or --in-place '
                          'the report can be, or give --report FILE')
    if args.out:
        try:
            os.makedirs(args.out, exist_ok=True)
            probe = tempfile.NamedTemporaryFile(dir=args.out, prefix='.wqport-probe-')
            probe.close()
        except OSError as e:
            raise WqportError(f'--out {args.out}: cannot write there ({e.strerror})')
    args.headers, args.held_headers = [], {}
    if args.with_headers:
        sources = with_headers(args, sources)
    if args.in_place and not args.force:
        check_git_clean(sources)
    if args.no_cache:
        return convert(args, sources)
    key = convert_cache.key(args, sources, spatch())
    hit = convert_cache.load(key)
    if hit is not None:
        return replay(args, sources, hit)
    with convert_cache.Capture() as cap:
        rc = convert(args, sources)
    changed = {s.path: s.output for s in sources if not s.inert and s.output != s.data}
    report = None
    if args.report and args.report != '-':
        with open(args.report, 'rb') as f:
            report = f.read()
    convert_cache.store(key, rc, b''.join(cap.out), b''.join(cap.err), changed, report)
    return rc


def replay(args, sources, hit):
    """A run done before on the same inputs (convert_cache): what it wrote,
    written again; its exit status."""
    for s in sources:
        new = hit['changed'].get(s.path)
        if args.in_place:
            if new is not None:
                atomic_write(s.path, new, os.stat(s.path).st_mode & 0o7777)
        elif args.out and args.mode == 'patch':
            dest = os.path.join(args.out, s.rel)
            os.makedirs(os.path.dirname(dest) or '.', exist_ok=True)
            atomic_write(dest, s.data if new is None else new, os.stat(s.path).st_mode & 0o7777)
    if hit['report'] is not None:
        with open(args.report, 'wb') as f:
            f.write(hit['report'])
    sys.stdout.flush()
    sys.stdout.buffer.write(hit['stdout'])
    sys.stdout.flush()
    sys.stderr.flush()
    sys.stderr.buffer.write(hit['stderr'])
    sys.stderr.flush()
    return hit['rc']


def analyse_stage1(args, sources, scratch, by_path, progress=None):
    """The first steps of a run on SOURCES (sorted out): their work copies,
    spatch's parse (which refuses a file), stage 1's plan (src.env, kept,
    findings)."""
    for s in sources:
        prepare(s, scratch, by_path, args.include_dir)
        if args.held_headers:
            s.env['WQPORT_HELD_HEADERS'] = '\n'.join(
                f'{h}\t{who}' for h, who in sorted(args.held_headers.items()))
    # spatch's parse of every file, a batch a process (parse_check reads it)
    in_batches(args.jobs, lambda b: wqport_tq.preparse([s.work for s in b]), sources,
               progress, 'parse')
    _parallel(args.jobs, lambda s: parse_check(s, args.strict), sources)
    for s in sources:
        find_tq_macro(s)
    plan_stage1(sources)


def with_headers(args, sources):
    """--with-headers: SOURCES and the headers outside them that declare a
    task they use (stage 1's W020 and W021 name them), each when no file of
    its tree outside the run includes it (convert_headers); a header taken
    in may need another, so again until none is new.  Sets
    args.headers (convert_headers.Header, for the report) and
    args.held_headers ({header: its includers outside the run}, for the
    items)."""
    decided = {}
    for _ in range(8):
        fresh = [Source(s.path, s.rel) for s in sources]
        by_path = {os.path.realpath(s.path): s for s in fresh}
        with tempfile.TemporaryDirectory(prefix='wqport-headers-') as scratch:
            live = sort_out(fresh, by_path, args.include_dir)
            analyse_stage1(args, live, scratch, by_path)
        # (what was worked out for these copies, not kept for the run's own)
        wqport_tq.release(s.work for s in live)
        needed = {}
        for s in live:
            for f in s.findings:
                if f.header and os.path.realpath(f.header) not in by_path:
                    needed.setdefault(os.path.realpath(f.header), set()).add(s.path)
        new = {h: who for h, who in needed.items() if h not in decided}
        if not new:
            break
        run_paths = set(by_path) | set(new)
        taken = {s.rel for s in sources}
        skip = {os.path.realpath(args.out)} if args.out else set()
        pulled = False
        for h in convert_headers.decide(new, run_paths, args.paths, args.include_dir, skip):
            decided[h.path] = h
            if h.pulled:
                h.rel = convert_headers.out_name(h.path, args.include_dir, taken)
                taken.add(h.rel)
                shown = os.path.relpath(h.path)
                sources.append(Source(h.path if shown.startswith('..') else shown, h.rel))
                pulled = True
        if not pulled:
            break           # (the same run: the same findings again)
    args.headers = sorted(decided.values(), key=lambda h: h.path)
    args.held_headers = {h.path: outside_shown(h) for h in args.headers if h.outside}
    return sources


def outside_shown(h):
    """The files outside the run that include header H, as a note or an
    item names them: five, and how many more."""
    shown = ', '.join(os.path.relpath(f, h.tree) for f in h.outside[:5])
    return shown + (f' and {len(h.outside) - 5} more' if len(h.outside) > 5 else '')


def headers_note(h):
    """The line --with-headers says of header H."""
    who = ', '.join(os.path.basename(p) for p in sorted(h.needed_by))
    if h.pulled:
        return f'wqport convert: --with-headers: {h.path} converted with the run (its tasks are used by {who})'
    if h.tree is None:
        return (f'wqport convert: --with-headers: {h.path} left as it is: no directory but / '
                'holds it and the paths given, so its includers cannot be read')
    return (f'wqport convert: --with-headers: {h.path} left as it is: {outside_shown(h)}, '
            f'outside the run, include{"s" if len(h.outside) == 1 else ""} it too')


def convert(args, sources):
    """The run on SOURCES (read): its stages, what it writes, its exit
    status."""
    silenced = {reasons.normalise(x) for arg in args.ignore for x in filter(None, arg.split(','))}
    stages = STAGES[args.to]
    groups = []

    everything = sources
    with tempfile.TemporaryDirectory(prefix='wqport-convert-') as scratch:
        by_path = {os.path.realpath(s.path): s for s in sources}
        # (the others are copied as they are)
        sources = sort_out(sources, by_path, args.include_dir)
        progress = None
        if not args.quiet and (len(sources) > 3 or sys.stderr.isatty()):
            progress = Progress(len(sources), sys.stderr.isatty())
        analyse_stage1(args, sources, scratch, by_path, progress)
        live = [s for s in sources if not s.refused]
        # progress: one line per file, when its last stage is done
        in_batches(args.jobs, lambda b: stage_pass(b, 'stage1', stages, args.mode),
                   [s for s in live if not s.tq_macro], progress,
                   '' if stages == ['stage1'] else 'stage 1')
        if stages == ['stage1'] and args.mode == 'patch':
            # no handler left cast where it is registered (W203); not in a
            # file stage 1 left whole: the 2.4 API's, as it was, with its items
            for s in live:
                if not kept(s):
                    with open(s.work, errors='replace') as f:
                        before = f.read().splitlines()
                    # (a handler may be declared in a header of the run)
                    extra = '\n'.join(o.text_now() for o, _, _, _ in s.includes)
                    rewrite_work(s, lambda t, x=extra: convert_trampolines.add(
                        t, wqport_tq.blank_text, x))
                    follow_lines(s, before)
        forwards = []   # the groups with forwarding macros
        if 'stage2' in stages and args.mode == 'patch':
            # a driver's INIT_WORK_COMPAT(w, f, d): converted at its uses,
            # the macros of each group of files its own (two drivers of a
            # tree may each define one of the same name)
            for group in components(sources):
                group = [s for s in group if not s.refused]
                found = convert_forward.find([read_work(s) for s in group])
                if found:
                    forwards.append(group)
                    for s in group:
                        rewrite_work(s, lambda t, f=found: convert_forward.hide(t, f))
        if 'stage2' in stages:
            # a driver's macro that hands its argument to a delayed call is
            # a wrapper (convert_macros): its uses are counted from the start
            macros = share_macros(sources)
            in_batches(args.jobs, facts_pass, live, progress, "stage 2's facts")
            # a wrapper of delayed calls defined in one file: count its
            # calls in the others of its group (they only see a prototype)
            again = []
            for group in components(sources):
                cands = {f'{fn}:{i}' for s in group for fn, i in
                         s.facts.get('wrappers', {}).items()}
                cands |= {f'{fn}:{i}' for fn, i in macros.get(id(group[0]), {}).items()}
                if cands and len(group) > 1:
                    for s in group:
                        s.env['WQPORT_WRAPPER_CANDIDATES'] = ' '.join(sorted(cands))
                    again += [s for s in group if not s.refused]
            in_batches(args.jobs, facts_pass, again, progress, "stage 2's facts again")
            share_facts(sources, macros)
            share_schedulers(sources)
            # the .c files first: the fields their back-pointers need go into
            # the run's headers in the headers' own pass
            share_headers(live)
            convert_handlers.prepare(live)
            first = [s for s in live if not s.path.endswith('.h')]
            # (every source: a refused header still ties its files together)
            groups = components(sources)
            # a handler registered in one .c and defined in another is
            # decided where it is defined, after the files that register it
            for batch in convert_handlers.plan(groups):
                convert_handlers.give_uses(batch, groups)
                in_batches(args.jobs, lambda b: stage_pass(b, 'stage2', stages, args.mode),
                           batch, progress)
            in_batches(args.jobs, lambda b: stage_pass(b, 'stage2', stages, args.mode,
                                                       '02-work-handler.cocci'),
                       convert_handlers.decisions(groups), progress, 'stage 2, handlers')
            asked = backptr_requests(live)
            # prototypes of handlers converted in another .c: the headers'
            # pass changes theirs, a .c that declares one gets 08 alone
            again = convert_handlers.share(groups)
            in_batches(args.jobs, lambda b: stage_pass(b, 'stage2', stages, args.mode,
                                                       '08-handler-prototypes.cocci'),
                       again, progress, 'stage 2, prototypes')
            in_batches(args.jobs, lambda b: stage_pass(b, 'stage2', stages, args.mode),
                       [s for s in live if s not in first], progress)
            backptr_check(asked)
        if progress:
            progress.close()
        for group in forwards:
            done = convert_forward.converted([read_work(s) for s in group])
            for s in group:
                rewrite_work(s, lambda t, d=done: convert_forward.restore(t, d))
        # the arities of a macro's uses, in its group of files
        arities = {}
        for group in components(sources) if 'stage2' in stages else ():
            group = [s for s in group if not s.refused]
            found = check.alias_arities([read_work(s) for s in group], stages)
            arities.update((id(s), found) for s in group)
        for s in sources:
            unmask(s)
            if s.refused:
                s.output = s.data
            else:
                finish_items(s, stages, arities.get(id(s), {}))
            if s.failed:
                # the stages' items speak of an output not written
                s.items = [reasons.Item(1, 'check', 'W208', s.failed)]
            elif s.refused:
                s.items = [reasons.Item(s.refused[0], 'check', 'W209', s.refused[1])]
        for s in sources:
            if not s.refused:
                keep_tqueue_header(s, stages)
        outputs = live_outputs(sources, args.to)
        verify_types(sources, args.to, outputs)
        verify_set_up(sources, outputs)
        if groups:
            convert_handlers.check(groups, set(by_path))
            convert_handlers.name_wrapped(groups)
        for s in sources:
            s.items.sort()

    sources = everything
    for s in sources:
        with open(s.path, 'rb') as f:
            if hashlib.sha256(f.read()).hexdigest() != s.digest:
                raise WqportError(f'{s.path}: changed while it was being converted; '
                                  'nothing written')

    converted = [s for s in sources if not s.inert and s.output != s.data]
    for s in sources:
        if s.inert:
            # (no deferred-work code: as it was read)
            if args.out and args.mode == 'patch':
                dest = os.path.join(args.out, s.rel)
                os.makedirs(os.path.dirname(dest) or '.', exist_ok=True)
                atomic_write(dest, s.read_again(), os.stat(s.path).st_mode & 0o7777)
        elif args.mode != 'patch':
            sys.stdout.write(''.join(s.views))
        elif args.in_place:
            if s.output != s.data:
                atomic_write(s.path, s.output, os.stat(s.path).st_mode & 0o7777)
        elif args.out:
            dest = os.path.join(args.out, s.rel)
            os.makedirs(os.path.dirname(dest) or '.', exist_ok=True)
            atomic_write(dest, s.output, os.stat(s.path).st_mode & 0o7777)
        else:
            sys.stdout.flush()
            sys.stdout.buffer.write(unified_diff(s))

    # one note per line said (a region spatch gives up on in a macro used
    # several times is found once per use)
    for note in dict.fromkeys(n for s in sources for n in s.notes):
        print(note, file=sys.stderr)
    items, ignored = [], 0
    for s in sources:
        if s.inert:
            continue
        if (args.out or args.in_place) and args.mode == 'patch':
            to_out = line_map(s.text.splitlines(),
                              s.output.decode(s.encoding, 'replace').splitlines())
            where = os.path.join(args.out, s.rel) if args.out else s.path
        else:
            to_out, where = (lambda n: n), s.path
        for it, lines in reasons.group(s.items):
            if it.id in silenced:
                ignored += 1
                continue
            lines = [to_out(n) for n in lines]
            items.append({'id': it.id, 'file': where, 'line': lines[0], 'lines': lines,
                          'stage': it.stage, 'reason': it.reason})
            print(reasons.format_line(where, lines[0], lines, it.id, it.reason),
                  file=sys.stderr)
    for h in args.headers:
        print(headers_note(h), file=sys.stderr)
    refused = [s for s in sources if s.refused and not s.failed]
    partly = [s for s in converted if s.kept and not kept(s)]
    summary = {'files_read': len(sources), 'converted': len(converted),
               'partly_converted': len(partly),
               'unchanged': len(sources) - len(converted), 'refused': len(refused),
               'items': len(items), 'ignored': ignored}
    print('wqport convert: {files_read} files read, {converted} converted, {unchanged} '
          'unchanged, {items} items for a human ({partly_converted} partly converted, '
          '{refused} refused{more})'.format(
              **summary, more=f', {ignored} ignored' if ignored else ''), file=sys.stderr)
    if args.report:
        with (contextlib.nullcontext(sys.stdout) if args.report == '-'
              else open(args.report, 'w')) as f:
            json.dump({'to': args.to, 'summary': summary, 'items': items,
                       'files': [{'file': s.path, 'converted': s.output != s.data,
                                  'kept': sorted(s.shown) if s.output != s.data or kept(s)
                                  else [],
                                  'refused': s.refused[1] if s.refused and not s.failed
                                  else None,
                                  'failed': s.failed}
                                 for s in sources],
                       'headers': [{'header': h.path, 'converted': h.pulled,
                                    'needed_by': sorted(h.needed_by),
                                    'included_outside_the_run': h.outside,
                                    'written_as': h.rel}
                                   for h in args.headers]}, f, indent=2)
            f.write('\n')
    return 1 if items else 0
