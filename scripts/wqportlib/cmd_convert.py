# SPDX-License-Identifier: GPL-2.0
"""wqport convert: rewrite driver sources with the semantic patches.

The pipeline for one file: spatch must parse it; the stage-1 report is taken
on the original, stage 1 rewrites it, the stage-2 report is taken on that,
stage 2 rewrites it.  Every file is converted in a scratch directory first;
nothing is written until every file converted and none changed meanwhile.
Writes are atomic (temporary file, rename) and keep the mode bits.
"""
import concurrent.futures
import difflib
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import paths
from .linemap import line_map
from .paths import WqportError

# Stage 1's whole-file analysis, beside the semantic patches it serves: its
# reason tail, its task-queue tokens and its reading of spatch --parse-c.
sys.path.insert(0, os.path.join(paths.TOP, 'semantic-patches', 'stage1'))
import wqport_tq  # noqa: E402

STAGES = {'2.6': ['stage1'], 'modern': ['stage1', 'stage2']}
REPORT_LINE = re.compile(r'^(.*):(\d+): wqport: (.*)$')
# stage 1's reasons that keep a whole file's task queues as they are
BLOCKS = wqport_tq.REASON_TAIL.strip()
LOCAL_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
PARSE_ERROR = re.compile(r'^ = File "(.*)", line (\d+), column (\d+)')


def add_parser(sub):
    p = sub.add_parser('convert', help='rewrite driver sources with the semantic patches',
                       description='Convert the C files (.c and .h, directories '
                       'recursively) of PATH...: stage 1 (task queues -> 2.6 workqueue '
                       'API), then stage 2 (-> modern API) unless --to 2.6.  By default '
                       'print a unified diff and write nothing.  Items that need a '
                       'human go to stderr as FILE:LINE: wqport: REASON.  Exit 0: '
                       'nothing left for a human; 1: items reported; 2: error '
                       '(nothing written).')
    p.add_argument('--to', choices=('2.6', 'modern'), default='modern')
    out = p.add_mutually_exclusive_group()
    out.add_argument('--diff', action='store_true', help='print a unified diff (default)')
    out.add_argument('--out', metavar='DIR',
                     help='write every file read under DIR, paths relative to the PATH given')
    out.add_argument('--in-place', action='store_true', help='rewrite the files')
    p.add_argument('--report', metavar='FILE', help='also write the report as JSON')
    p.add_argument('--jobs', type=int, default=1, metavar='N', help='convert N files at once')
    p.add_argument('--force', action='store_true',
                   help='--in-place even in a git tree with uncommitted changes')
    p.add_argument('--allow-parse-errors', action='store_true',
                   help='convert a file in which spatch cannot parse some lines, when '
                   'none of them holds task-queue or workqueue code (a note on stderr '
                   'names them); by default any parse error stops the run')
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
        self.output = None
        self.items = []           # (line in original, stage, reason)
        self.notes = []           # lines for stderr that need no human


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


def spatch():
    """The spatch to run: $SPATCH (as semantic-patches/apply-stage reads it)."""
    return os.environ.get('SPATCH', 'spatch')


def spatch_parses(path):
    """None, or 'LINE:COL' of the first place spatch cannot parse."""
    res = subprocess.run([spatch(), '--parse-c', '--no-includes', path],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         errors='replace', check=False)
    for line in res.stdout.splitlines():
        m = PARSE_ERROR.match(line)
        if m:
            return f'{m.group(2)}:{m.group(3)}'
    return None


# What the stages touch: a region spatch gives up on must hold none of it.
DEFERRED_WORK = re.compile(
    wqport_tq.TQ_TOKENS + r'|\b(init_bh|remove_bh|'
    r'DECLARE_TASK_QUEUE|work_struct|delayed_work|INIT_WORK|PREPARE_WORK|DECLARE_WORK|'
    r'INIT_DELAYED_WORK|DECLARE_DELAYED_WORK|queue_work|queue_delayed_work\w*|'
    r'schedule_work|schedule_delayed_work\w*|cancel_\w*work\w*|flush_\w*work\w*|'
    r'create_\w*workqueue|alloc_\w*workqueue|destroy_workqueue|schedule_on_each_cpu|'
    r'execute_in_process_context|work_pending|delayed_work_pending)\b')


def handler_names(text):
    """Names the file gives as task routines or work handlers."""
    names = set(re.findall(r'(?:\.|->|\b)routine\s*(?::|=(?!=))\s*(?:\([^)]*\)\s*)*(\w+)', text))
    for m in re.finditer(r'\b(?:INIT_TQUEUE|PREPARE_TQUEUE|INIT_WORK|PREPARE_WORK|DECLARE_WORK|'
                         r'INIT_DELAYED_WORK|DECLARE_DELAYED_WORK)\s*\([^,;]*,\s*'
                         r'(?:\([^)]*\)\s*)*(\w+)', text):
        names.add(m.group(1))
    return names


def unparsed_regions(path):
    """(first, last, error line) of each region spatch --parse-c gives up on,
    as stage 1's analysis finds them (semantic-patches/stage1/wqport_tq.py)."""
    with open(path, encoding='latin-1') as f:
        text = f.read()
    return wqport_tq._unparsed(path, text), text.split('\n')


def apply_stage(stage, mode, path):
    cmd = [os.path.join(paths.TOP, 'semantic-patches', 'apply-stage'),
           os.path.join(paths.TOP, 'semantic-patches', stage), '--mode', mode]
    if mode == 'patch':
        cmd.append('--in-place')
    res = subprocess.run(cmd + ['--', path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, errors='replace', check=False)
    if res.returncode:
        last = (res.stderr.strip().splitlines() or ['spatch failed'])[-1]
        raise WqportError(f'{path}: {stage} failed: {last}')
    return res.stdout


def local_includes(src, by_path):
    """(NAME, Source, line) for each #include "NAME" of SRC, resolved beside
    SRC, that is also converted in this run (BY_PATH: realpath -> Source)."""
    out = []
    for m in LOCAL_INCLUDE.finditer(src.text):
        name = m.group(1)
        other = by_path.get(os.path.realpath(os.path.join(os.path.dirname(src.path), name)))
        if other is not None and other is not src:
            out.append((name, other, src.text.count('\n', 0, m.start()) + 1))
    return out


def convert_one(src, stages, scratch, by_path, allow_parse_errors=False):
    """Convert SRC in SCRATCH; fills src.output and src.items.  The driver's
    own headers that are converted in the same run are put beside it as they
    were read, so that stage 1 sees the tasks they declare (and converts the
    file with them: keep_includes_consistent() undoes one without the other)."""
    work = os.path.join(scratch, hashlib.sha1(src.path.encode()).hexdigest()[:12],
                        os.path.basename(src.path))
    os.makedirs(os.path.dirname(work))
    with open(work, 'wb') as f:
        f.write(src.data)
    for name, other, _ in local_includes(src, by_path):
        if name.startswith('/') or '..' in name.split('/'):
            continue                      # as apply-stage: stay in the scratch dir
        dest = os.path.join(os.path.dirname(work), name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, 'wb') as f:
            f.write(other.data)
    where = spatch_parses(work)
    if where and allow_parse_errors:
        regions, lines = unparsed_regions(work)
        handlers = handler_names(src.text)
        for first, last, line in regions:
            chunk = '\n'.join(lines[first - 1:last])
            if DEFERRED_WORK.search(chunk) or set(re.findall(r'\w+', chunk)) & handlers:
                raise WqportError(f'{src.path}:{line}: spatch cannot parse the file here, '
                                  f'in lines {first}-{last}, which hold deferred-work code '
                                  '(a task, a work item or a handler)')
        src.notes = [f'{src.path}:{line}: note: spatch cannot parse lines {first}-{last} '
                     '(no deferred-work code there): the rest is converted'
                     for first, last, line in regions]
    elif where:
        raise WqportError(f'{src.path}:{where}: spatch cannot parse the file here')
    # back: maps a line of the current version to the original's
    back = lambda n: n  # noqa: E731
    for stage in stages:
        with open(work, errors='replace') as f:
            before = f.read().splitlines()
        for line in apply_stage(stage, 'report', work).splitlines():
            m = REPORT_LINE.match(line)
            if m:
                src.items.append((back(int(m.group(2))), stage, m.group(3)))
        apply_stage(stage, 'patch', work)
        with open(work, errors='replace') as f:
            after = f.read().splitlines()
        to_before = line_map(after, before)
        prev = back
        back = (lambda p, t: lambda n: p(t(n)))(prev, to_before)
    with open(work, 'rb') as f:
        src.output = f.read()
    if not kept(src):
        said = {line for line, _, _ in src.items}
        for line, what in leftovers(src.output.decode(src.encoding, 'replace'), stages):
            if back(line) not in said:
                said.add(back(line))
                src.items.append((back(line), stages[-1], f'{what} is left after '
                                  f'{" and ".join(stages)}, which did not recognise it '
                                  '(a macro around it, a handler through a pointer?): '
                                  'convert it by hand'))
    src.items.sort()


# What must not be left in a file the stages converted: stage 1's input API
# (after stage 1), the 2.6.0-2.6.19 forms that 6.1 lacks (after stage 2).
LEFT_24 = re.compile(r'\b(queue_task|schedule_task|INIT_TQUEUE|PREPARE_TQUEUE|run_task_queue|'
                     r'flush_scheduled_tasks|DECLARE_TASK_QUEUE)\s*\(|\bstruct\s+tq_struct\b')
LEFT_26 = re.compile(r'\b(INIT_WORK|DECLARE_WORK|PREPARE_WORK|INIT_DELAYED_WORK|'
                     r'DECLARE_DELAYED_WORK|PREPARE_DELAYED_WORK|cancel_rearming_delayed_work|'
                     r'cancel_rearming_delayed_workqueue)\s*\(')
ARITY_26 = {'INIT_WORK': 2, 'DECLARE_WORK': 2, 'INIT_DELAYED_WORK': 2,
            'DECLARE_DELAYED_WORK': 2}      # more arguments: the 2.6.0-2.6.19 form


def _args(text, open_paren):
    """Number of top-level arguments of the call whose ( is at open_paren."""
    depth, n, seen = 0, 1, False
    for c in text[open_paren:]:
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
            if depth == 0:
                break
        elif c == ',' and depth == 1:
            n += 1
        elif not c.isspace():
            seen = True
    return n if seen else 0


def _blank_if0(text):
    """text with the lines of each #if 0 branch blanked (up to its #else,
    #elif or #endif): code spatch skips, as the compiler does."""
    lines = text.split('\n')
    depth, dead = 0, None       # dead: the depth of the #if 0 being skipped
    for i, line in enumerate(lines):
        d = re.match(r'\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)', line)
        if d and d.group(1) in ('if', 'ifdef', 'ifndef'):
            depth += 1
            if dead is None and d.group(1) == 'if' and re.match(r'\s*0\s*(/[*/].*)?$',
                                                                 d.group(2)):
                dead = depth
                continue
        elif d and d.group(1) == 'endif':
            if dead == depth:
                dead = None
            depth -= 1
        elif d and dead == depth:
            dead = None             # #else/#elif of the #if 0: live again
        if dead is not None:
            lines[i] = ''
    return '\n'.join(lines)


def leftovers(text, stages):
    """(line, what) for each construct the stages should have converted that
    is still in text (their output), outside comments, strings, #defines and
    #if 0."""
    # comments and literals as stage 1 blanks them (a message that names
    # schedule_task() is no call of it)
    text = _blank_if0(wqport_tq._blank(text))
    text = re.sub(r'^[ \t]*#[ \t]*define\b(?:[^\n]*\\\n)*[^\n]*',
                  lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.M)
    out = []
    for m in LEFT_24.finditer(text):
        out.append((text.count('\n', 0, m.start()) + 1, (m.group(1) + '()') if m.group(1)
                    else 'struct tq_struct'))
    if 'stage2' in stages:
        for m in LEFT_26.finditer(text):
            name = m.group(1)
            if name in ARITY_26 and _args(text, m.end() - 1) <= ARITY_26[name]:
                continue
            out.append((text.count('\n', 0, m.start()) + 1,
                        f'{name}() with a data argument' if name in ARITY_26 else f'{name}()'))
    return sorted(set(out))


def kept(src):
    """Whether stage 1 left SRC's task queues as they are (a blocking item)."""
    return any(stage == 'stage1' and reason.endswith(BLOCKS)
               for _, stage, reason in src.items)


def keep_includes_consistent(sources):
    """A header and a file that includes it convert together or not at all.

    Each file is converted on its own, so a header's struct tq_struct fields
    could become struct work_struct while a file that includes it keeps its
    task queues (stage 1 blocked it), or the other way round: neither would
    build.  Both are kept as they were, with an item naming the other, until
    nothing changes.  Includes are the quoted ones, resolved beside the file
    that has them."""
    by_path = {os.path.realpath(s.path): s for s in sources}
    pairs = [(s, other, line)            # (includer, included, line of the #include)
             for s in sources for _, other, line in local_includes(s, by_path)]

    def keep(src, line, reason):
        src.output = src.data
        src.items = [i for i in src.items if i[1] == 'stage1' and i[2].endswith(BLOCKS)]
        src.items.append((line, 'stage1', reason + ' ' + BLOCKS))
        src.items.sort()

    again = True
    while again:
        again = False
        for inc, hdr, line in pairs:
            if kept(inc) and not kept(hdr) and hdr.output != hdr.data:
                keep(hdr, 1, f'{os.path.basename(inc.path)} includes this file and keeps its '
                     'task queues (see its items): this one is left as it is with it')
                again = True
            elif kept(hdr) and not kept(inc) and inc.output != inc.data:
                keep(inc, line, f'{os.path.basename(hdr.path)} keeps its task queues (see its '
                     'items): a file that includes it is left as it is with it')
                again = True


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


def run(args):
    if not shutil.which(spatch()):
        raise WqportError(f'{spatch()} missing: run scripts/install-deps (coccinelle)')
    if args.jobs < 1:
        raise WqportError('--jobs takes a number from 1 up')
    sources = collect(args.paths)
    if args.out:
        try:
            os.makedirs(args.out, exist_ok=True)
            probe = tempfile.NamedTemporaryFile(dir=args.out, prefix='.wqport-probe-')
            probe.close()
        except OSError as e:
            raise WqportError(f'--out {args.out}: cannot write there ({e.strerror})')
    if args.in_place and not args.force:
        check_git_clean(sources)
    stages = STAGES[args.to]

    progress = len(sources) > 3
    with tempfile.TemporaryDirectory(prefix='wqport-convert-') as scratch:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            by_path = {os.path.realpath(s.path): s for s in sources}
            futures = {pool.submit(convert_one, s, stages, scratch, by_path,
                                   args.allow_parse_errors): s
                       for s in sources}
            done = 0
            for fut in concurrent.futures.as_completed(futures):
                done += 1
                fut.result()      # raises WqportError: nothing is written
                if progress:
                    print(f'[{done}/{len(sources)}] {futures[fut].path}', file=sys.stderr)

    keep_includes_consistent(sources)
    for s in sources:
        with open(s.path, 'rb') as f:
            if hashlib.sha256(f.read()).hexdigest() != s.digest:
                raise WqportError(f'{s.path}: changed while it was being converted; '
                                  'nothing written')

    converted = [s for s in sources if s.output != s.data]
    for s in sources:
        if args.in_place:
            if s.output != s.data:
                atomic_write(s.path, s.output, os.stat(s.path).st_mode & 0o7777)
        elif args.out:
            dest = os.path.join(args.out, s.rel)
            os.makedirs(os.path.dirname(dest) or '.', exist_ok=True)
            atomic_write(dest, s.output, os.stat(s.path).st_mode & 0o7777)
        else:
            sys.stdout.flush()
            sys.stdout.buffer.write(unified_diff(s))

    for s in sources:
        for note in s.notes:
            print(note, file=sys.stderr)
    items = []
    for s in sources:
        if args.out or args.in_place:
            to_out = line_map(s.text.splitlines(),
                              s.output.decode(s.encoding, 'replace').splitlines())
            where = os.path.join(args.out, s.rel) if args.out else s.path
        else:
            to_out, where = (lambda n: n), s.path
        for line, stage, reason in s.items:
            items.append({'file': where, 'line': to_out(line), 'stage': stage,
                          'reason': reason})
            print(f'{where}:{to_out(line)}: wqport: {reason}', file=sys.stderr)
    summary = {'files_read': len(sources), 'converted': len(converted),
               'unchanged': len(sources) - len(converted), 'items': len(items)}
    print('wqport convert: {files_read} files read, {converted} converted, '
          '{unchanged} unchanged, {items} items for a human'.format(**summary),
          file=sys.stderr)
    if args.report:
        with open(args.report, 'w') as f:
            json.dump({'to': args.to, 'summary': summary, 'items': items,
                       'files': [{'file': s.path, 'converted': s.output != s.data}
                                 for s in sources]}, f, indent=2)
            f.write('\n')
    return 1 if items else 0
