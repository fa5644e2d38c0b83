#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""wqport_stage: apply one stage of wqport's semantic patches to C files.

Used in-process by `wqport convert` (Stage.run) and, through the thin
wrapper semantic-patches/apply-stage, from the command line:

  apply-stage STAGE_DIR [--mode patch|report|context|org]
              [--only NN-name.cocci] [--in-place] [--] FILE.c...

STAGE_DIR holds the stage's semantic patches, named NN-concern.cocci; they
are applied in the order of their names, each to the output of the ones
before it.  Any other file there is ignored, and so is a .cocci in a mode it
does not declare (`virtual MODE`), as `make coccicheck` does.  --only runs
one of them alone (stage 2's facts pass needs only 01-delayed-work.cocci's
report).

Modes (the names of the kernel's `make coccicheck MODE=...`):
  patch    (default) apply the patches.  CLI: one unified diff per changed
           file on stdout, labelled a/FILE and b/FILE, nothing for an
           unchanged one; --in-place rewrites the files instead.
  report   run the patches with -D report on the file as given (line
           numbers are the input's).  A patch reports by calling
           coccilib.report.print_report(p, MSG), MSG starting
           "wqport[ID]: " (docs/reasons/ID.md); spatch's other output is
           dropped.  Result: Findings, sorted by file and line, without
           duplicates; CLI: one line each, FILE:LINE: wqport[ID]: REASON.
  context, org: each patch's -D MODE output, concatenated.

A stage may have a hooks.py beside its patches (loaded by Stage, never by
spatch) with any of these functions, each taking the path of the copy the
stage works on:
  plan(path)        -> Plan: in patch mode, before the patches: -D flags and
                    spatch arguments for every run on the file, the .cocci
                    with nothing to do there, whether to mask;
  mask(path), unmask(path): hide from the patches, in the copy, what the
                    stage leaves alone (stage 1: the tasks kept on the 2.4
                    API; stage 2: branches for kernels before 2.6.20), and
                    bring it back after them, line for line;
  report_view(path) -> bool, view(path): in report mode, whether the report
                    is taken on a copy that view() rewrote, line for line;
  forget(path):     the stage is done with the copy.
The hooks read the run's facts (WQPORT_TASKS, ...) from os.environ: Stage
sets the run's environment for them under a lock (with_env()).

Each file is worked on in a copy, the files it includes as #include "NAME"
(beside it, no ..) copied beside the copy: a driver's own header is read for
types but never written.  A file that is not valid UTF-8 (2.4 drivers are
often Latin-1; spatch's Python fails on anything but UTF-8) is given to
spatch transcoded from Latin-1, which maps every byte to one character, and
transcoded back: byte for byte the same outside the changes.

A .cocci whose head has a line `// Requires: WORD...` runs on a file only
when one of the WORDs is in it as a whole word (no patch writes such a word);
$VAR stands for the words of that environment variable (unset or empty: the
.cocci does not run).  The .cocci a file needs run in one spatch process,
their text combined by wqport_combine; in patch mode a .cocci whose head says
`// Combine: no` starts a new process, since it must see what the ones
before it wrote as C parsed anew: in one run a later rule sees no type for a
declaration an earlier rule rewrote, a temporary file in p[0].file, and the
file on disk still the run's input.  WQPORT_COMBINE=0 runs each .cocci in a
process of its own, for debugging one; its output can differ (stage 1: the
.sync of a task with an initializer is left, test initializer_sync_store).
In report mode a combined run that fails is run again one patch at a time,
so a failing patch hides nothing the others report.

Environment: SPATCH (default spatch), SPFLAGS (extra spatch options),
WQPORT_COMBINE (above), WQPORT_SPATCH_VERBOSE=1 (spatch's diagnostics even
when it succeeds).  spatch runs with WQPORT_APPLY_STAGE=1 and
WQPORT_COCCI_DIR (STAGE_DIR, where the patches' Python modules are).
CLI exit status: 0 done (whether or not anything changed or was reported),
1 spatch failed on some file (that file is left as it was), 2 usage error.
"""

import argparse
import contextlib
import glob
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from typing import NamedTuple

HERE = os.path.dirname(os.path.abspath(__file__))
PROG = 'apply-stage'
MODES = ('patch', 'report', 'context', 'org')
# print_report's line: FILE:LINE:COLUMNS: MSG
REPORT = re.compile(r'^(.*):(\d+):[0-9-]*: wqport\[(W\d*)\]: (.*)$')
LOCAL_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]*)"', re.M)
# Debian's own python3 for spatch's embedded Python: a python3 earlier on
# PATH (a pyenv shim, say) costs seconds per patch to start, or may not match.
PYTHON = '/usr/bin/python3'

_env_lock = threading.RLock()
_combined = {}
_combined_lock = threading.Lock()


class StageError(Exception):
    """A stage that cannot run at all (no such directory, no patches)."""


class Finding(NamedTuple):
    """One item a stage's report gives a human: docs/reasons/ID.md."""
    file: str
    line: int
    id: str
    reason: str

    def __str__(self):
        return f'{self.file}:{self.line}: wqport[{self.id}]: {self.reason}'


@dataclass
class Plan:
    """What a stage's hooks.plan() asks of every spatch run on one file."""
    defines: list = field(default_factory=list)   # spatch -D NAME
    args: list = field(default_factory=list)      # other spatch arguments
    skip: set = field(default_factory=set)        # .cocci names with nothing to do
    mask: bool = False                            # hooks.mask/unmask around the patches


@dataclass
class Result:
    """What Stage.run() did."""
    findings: list = field(default_factory=list)  # report mode: Finding, sorted
    changed: dict = field(default_factory=dict)   # patch mode: FILE -> new bytes
    output: str = ''                              # context/org mode: spatch's output
    errors: list = field(default_factory=list)    # one message per failure
    failed: list = field(default_factory=list)    # the files spatch failed on


@contextlib.contextmanager
def with_env(env):
    """os.environ with ENV added, for the hooks' and stage 1's analysis,
    which read a run's facts from it; one thread at a time."""
    with _env_lock:
        saved = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            yield
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


def is_utf8(data):
    try:
        data.decode('utf-8')
    except UnicodeDecodeError:
        return False
    return True


def as_utf8(data):
    """DATA (bytes) as spatch may read it: itself, or transcoded from Latin-1."""
    return data if is_utf8(data) else data.decode('latin-1').encode('utf-8')


def quoted_includes(path):
    """(NAME, source path) of each file PATH includes as #include "NAME" that
    exists beside it, and those such files include, beside themselves; NAME
    is relative to PATH's directory.  An absolute NAME or one with a ..
    component is left out: the copies stay under the copy's directory."""
    out, todo, seen = [], [(path, '')], set()
    while todo:
        cur, prefix = todo.pop(0)
        try:
            with open(cur, encoding='latin-1') as f:
                text = f.read()
        except OSError:
            continue
        for m in LOCAL_INCLUDE.finditer(text):
            inc = m.group(1)
            if inc.startswith('/') or '..' in inc.split('/'):
                continue
            src = os.path.join(os.path.dirname(cur), inc)
            rel = os.path.normpath(os.path.join(prefix, inc))
            if rel in seen or not os.path.isfile(src):
                continue
            seen.add(rel)
            out.append((rel, src))
            todo.append((src, os.path.dirname(rel)))
    return out


def copy_with_includes(path, dest_dir):
    """A copy of PATH (as UTF-8) in DEST_DIR, with its quoted includes
    beside it; returns (copy, whether PATH was transcoded from Latin-1)."""
    os.makedirs(dest_dir, exist_ok=True)
    with open(path, 'rb') as f:
        data = f.read()
    copy = os.path.join(dest_dir, os.path.basename(path))
    with open(copy, 'wb') as f:
        f.write(as_utf8(data))
    for rel, src in quoted_includes(path):
        dest = os.path.join(dest_dir, rel)
        if os.path.exists(dest):
            continue
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(src, 'rb') as f:
            inc = f.read()
        with open(dest, 'wb') as f:
            f.write(as_utf8(inc))
    return copy, not is_utf8(data)


class Patch:
    """One NN-concern.cocci of a stage, and what its text says of it."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        self.modes = set(re.findall(r'^virtual (\w+)$', text, re.M))
        head = text.split('\n')[:60]
        req = [ln[len('// Requires:'):] for ln in head if ln.startswith('// Requires:')]
        self.requires = req[0].split() if req else None
        # must see what the patches before it wrote, as C parsed anew
        self.starts_run = bool(re.search(r'^// Combine: no', text, re.M))

    def needed(self, text, env):
        """Whether TEXT holds one of the words of the patch's `// Requires:`
        line (or it has none); $VAR: the words of ENV's VAR."""
        if self.requires is None:
            return True
        words = []
        for w in self.requires:
            words += env.get(w[1:], '').split() if w.startswith('$') else [w]
        if not words:
            return False
        rx = r'(?<![A-Za-z0-9_])(?:%s)(?![A-Za-z0-9_])' % '|'.join(map(re.escape, words))
        return re.search(rx, text) is not None


class Stage:
    """The semantic patches of one stage directory, and its hooks."""

    def __init__(self, directory):
        if not os.path.isdir(directory):
            raise StageError(f'{directory}: not a directory')
        self.dir = os.path.abspath(directory)
        self.patches = [Patch(p) for p in sorted(glob.glob(os.path.join(self.dir,
                                                                       '[0-9][0-9]-*.cocci')))]
        if not self.patches:
            raise StageError(f'no NN-*.cocci in {directory}')
        self.hooks = None
        hooks = os.path.join(self.dir, 'hooks.py')
        if os.path.isfile(hooks):
            name = 'wqport_hooks_' + re.sub(r'\W', '_', os.path.basename(self.dir))
            spec = importlib.util.spec_from_file_location(name, hooks)
            self.hooks = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(self.hooks)

    def patch(self, name):
        for p in self.patches:
            if p.name == name:
                return p
        raise StageError(f'--only: no {name} in {self.dir}')

    def _hook(self, name, env, *args, default=None):
        fn = getattr(self.hooks, name, None)
        if fn is None:
            return default
        with with_env(env):
            return fn(*args)

    def run(self, files, mode='patch', only=None, env=None):
        """Apply the stage (or its patch ONLY) to FILES in MODE, with ENV
        added to the environment of the hooks and of spatch.  FILES are
        never written: in patch mode Result.changed holds the new text of
        each file that changed."""
        if mode not in MODES:
            raise StageError(f'bad mode {mode}')
        patches = [self.patch(only)] if only else self.patches
        env = dict(env or {})
        run = _Run(self, mode, patches, env)
        with tempfile.TemporaryDirectory(prefix='wqport-stage.') as tmp:
            run.tmp = tmp
            for n, path in enumerate(files, 1):
                try:
                    with open(path, 'rb') as f:
                        f.read(0)
                except OSError:
                    run.fail(path, f'{path}: cannot read')
                    continue
                getattr(run, mode if mode in ('patch', 'report') else 'view')(
                    path, os.path.join(tmp, str(n)))
        res = run.result
        res.findings = sorted(set(res.findings),
                              key=lambda f: (f.file, f.line, f'wqport[{f.id}]: {f.reason}'))
        return res


class _Run:
    """One Stage.run(): its spatch runs, file by file."""

    def __init__(self, stage, mode, patches, env):
        self.stage, self.mode, self.patches = stage, mode, patches
        # the hooks' and spatch's: every patch of the stage runs on each file,
        # in order, after the hooks' analysis (stage 1's 06 relies on it)
        self.env = dict(env, WQPORT_APPLY_STAGE='1', WQPORT_COCCI_DIR=stage.dir)
        self.result = Result()
        self.tmp = None
        self.spenv = dict(os.environ, **self.env)
        self.spatch = self.spenv.get('SPATCH', 'spatch')
        self.flags = ['--very-quiet', '--no-includes', '--timeout', '120']
        if os.access(PYTHON, os.X_OK):
            self.flags += ['--python', PYTHON]
        self.flags += self.spenv.get('SPFLAGS', '').split()
        self.combine = self.spenv.get('WQPORT_COMBINE', '1') != '0'
        self.verbose = self.spenv.get('WQPORT_SPATCH_VERBOSE') == '1'

    def fail(self, path, msg):
        self.result.errors.append(f'{PROG}: {msg}')
        if path not in self.result.failed:
            self.result.failed.append(path)

    def selected(self, mode, path, skip=()):
        with open(path, encoding='latin-1') as f:
            text = f.read()
        env = dict(os.environ, **self.env)
        return [p for p in self.patches if mode in p.modes and p.name not in skip
                and p.needed(text, env)]

    def patch(self, path, tmp):
        stage = self.stage
        work, latin = copy_with_includes(path, tmp)
        try:
            plan = stage._hook('plan', self.env, work, default=Plan())
            if plan.mask:
                stage._hook('mask', self.env, work)
            sel = self.selected('patch', work, plan.skip)
            args = [a for d in plan.defines for a in ('-D', d)] + plan.args
            if sel and not self.run_set(path, work, sel, args):
                return
            if plan.mask:
                stage._hook('unmask', self.env, work)
        finally:
            stage._hook('forget', self.env, work)
        with open(work, 'rb') as f:
            out = f.read()
        if latin:
            try:
                out = out.decode('utf-8').encode('latin-1')
            except (UnicodeDecodeError, UnicodeEncodeError):
                self.fail(path, f"{path}: a semantic patch wrote a character the file's "
                          '8-bit encoding lacks')
                return
        with open(path, 'rb') as f:
            if f.read() != out:
                self.result.changed[path] = out

    def _view(self, path, tmp):
        """The path spatch should read for PATH: itself if it is UTF-8 and
        the stage hides nothing from its report, else a copy."""
        with open(path, 'rb') as f:
            utf8 = is_utf8(f.read())
        hide = self.mode == 'report' and self.stage._hook('report_view', self.env, path,
                                                          default=False)
        if utf8 and not hide:
            return path
        view, _ = copy_with_includes(path, tmp)
        if hide:
            self.stage._hook('view', self.env, view)
        return view

    def report(self, path, tmp):
        view = self._view(path, tmp)
        sel = self.selected('report', view)
        out = []
        if sel:
            self.run_set(path, view, sel, [], out)
        for line in ''.join(out).splitlines():
            m = REPORT.match(line)
            if m:
                file = path if m.group(1) == view else m.group(1)
                self.result.findings.append(Finding(file, int(m.group(2)), m.group(3),
                                                    m.group(4)))

    def view(self, path, tmp):
        """context or org mode: each patch's output, as spatch writes it."""
        view = self._view(path, tmp)
        for p in self.selected(self.mode, view):
            out = []
            if not self.spatch_run(['-D', self.mode, '--sp-file', p.path, view], out):
                self.fail(path, f'{path}: spatch failed with {p.name}')
            self.result.output += ''.join(out).replace(view, path)

    def run_set(self, path, file, patches, args, out=None):
        """Apply PATCHES to FILE (patch mode: FILE rewritten; report: the
        output appended to OUT) in as few spatch runs as they allow: in
        report mode one, since no rule rewrites anything; in patch mode one
        per group, a group ending before a patch that starts a run.  A
        report run that fails is run again one patch at a time.  Returns
        whether every run succeeded."""
        mode = 'patch' if out is None else 'report'
        groups = []
        for p in patches:
            if groups and self.combine and (mode == 'report' or not p.starts_run):
                groups[-1].append(p)
            else:
                groups.append([p])
        ok = True
        for grp in groups:
            if self.run_group(path, file, grp, args, out):
                continue
            if mode == 'patch':
                return False
            ok = False
            if len(grp) > 1:
                for p in grp:
                    self.run_group(path, file, [p], args, out)
        return ok

    def run_group(self, path, file, grp, args, out):
        sp = self.combined(grp)
        if sp is None:                  # their Python clashes: one at a time
            for p in grp:
                if not self.run_group(path, file, [p], args, out):
                    return False
            return True
        if out is None:
            cmd = ['-D', 'patch'] + args + ['--sp-file', sp, '--in-place', file]
        else:
            cmd = ['-D', 'report'] + args + ['--sp-file', sp, file]
        if self.spatch_run(cmd, out):
            return True
        self.fail(path, f'{path}: spatch failed with ' + ' '.join(p.name for p in grp))
        return False

    def combined(self, grp):
        """The path of one semantic patch made of GRP (itself for one), or
        None when their Python would clash."""
        if len(grp) == 1:
            return grp[0].path
        import wqport_combine
        key = tuple(p.path for p in grp)
        with _combined_lock:
            if key not in _combined:
                try:
                    _combined[key] = wqport_combine.combine(list(key))
                except ValueError:
                    _combined[key] = None
            text = _combined[key]
        if text is None:
            return None
        sp = os.path.join(self.tmp, 'combined-%d.cocci' % (abs(hash(key)) % 10**12))
        if not os.path.exists(sp):
            with open(sp, 'w', encoding='utf-8') as f:
                f.write(text)
        return sp

    def spatch_run(self, args, out=None):
        """spatch with ARGS; its stdout appended to OUT (a list) or dropped.
        Returns whether it succeeded; a run where no rule applies (every
        rule's dependencies false for the file) is not a failure."""
        try:
            res = subprocess.run([self.spatch] + self.flags + args, env=self.spenv,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, errors='replace', check=False)
        except OSError as e:
            self.result.errors.append(f'{PROG}: {self.spatch}: {e.strerror}')
            return False
        if res.returncode == 0:
            if self.verbose and res.stderr:
                sys.stderr.write(res.stderr)
            if out is not None:
                out.append(res.stdout)
            return True
        if re.search(r'^No rules apply', res.stderr, re.M):
            return True
        self.result.errors.append(res.stderr.rstrip('\n'))
        return False


def main(argv=None):
    ap = argparse.ArgumentParser(prog=PROG, usage='%(prog)s STAGE_DIR [--mode '
                                 'patch|report|context|org] [--only NN-name.cocci] '
                                 '[--in-place] [--] FILE.c...')
    ap.add_argument('stage')
    ap.add_argument('--mode', default='patch', choices=MODES)
    ap.add_argument('--only')
    ap.add_argument('--in-place', action='store_true')
    ap.add_argument('files', nargs='+')
    args = ap.parse_args(argv)
    sys.path.insert(0, HERE)
    try:
        stage = Stage(args.stage)
        res = stage.run(args.files, args.mode, args.only)
    except StageError as e:
        print(f'{PROG}: {e}', file=sys.stderr)
        return 2
    for e in res.errors:
        print(e, file=sys.stderr)
    sys.stdout.flush()
    if args.mode == 'report':
        for f in res.findings:
            print(f)
    elif args.mode != 'patch':
        sys.stdout.write(res.output)
    for path in args.files:
        if path not in res.changed:
            continue
        if args.in_place:
            with open(path, 'wb') as f:
                f.write(res.changed[path])
            continue
        with tempfile.NamedTemporaryFile(prefix='wqport-stage.') as new:
            new.write(res.changed[path])
            new.flush()
            subprocess.run(['diff', '-u', '--label', 'a/' + path, '--label', 'b/' + path,
                            path, new.name], check=False)
    return 1 if res.failed else 0


if __name__ == '__main__':
    sys.modules.setdefault('wqport_stage', sys.modules[__name__])
    sys.exit(main())
