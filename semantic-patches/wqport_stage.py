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
  prepare(paths):   what spatch reads of each file of a run, before plan()
                    or a patch reads any (stage 1: their parse, in one
                    spatch process, left in $WQPORT_PARSE_LOGS for the
                    patches' Python);
  forget(path):     the stage is done with the copy;
  report(path, names) -> [(line, reason)]: in report mode (the whole stage),
                    the items the patches NAMES (those that run on the
                    file) would report, without a spatch run: a stage whose
                    report is its hooks' analysis (stage 1: 00-needs-human
                    prints wqport_tq's) saves the process.
The hooks read the run's facts (WQPORT_TASKS, ...) from os.environ: Stage
sets the run's environment for them under a lock (with_env()).

Each file is worked on in a copy, the files it includes as #include "NAME"
(beside it, no ..) copied beside the copy: a driver's own header is read for
types but never written.  A file that is not valid UTF-8 (2.4 drivers are
often Latin-1; spatch's Python fails on anything but UTF-8) is given to
spatch transcoded from Latin-1, which maps every byte to one character, and
transcoded back: byte for byte the same outside the changes.

A .cocci whose head has a line `// Requires: WORD...` runs on a file only
when one of the WORDs is in its code (comments and literals aside) as a
whole word (no patch writes such a word);
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

Files with the same spatch arguments share a process whatever their own
variables (Stage.run's ENVS, wqport convert's facts of each file): spatch
gets them as --file-groups, one file a group, and wqport_fileenv gives each
its own environment in the process (its prologue heads the patch).  A
batch's run that fails, or reports on a file that is none of its own, is
run again a file at a time.

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
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from typing import NamedTuple

import wqport_fileenv
import wqport_spatch

HERE = os.path.dirname(os.path.abspath(__file__))
PROG = 'apply-stage'
MODES = ('patch', 'report', 'context', 'org')
# print_report's line: FILE:LINE:COLUMNS: MSG
REPORT = re.compile(r'^(.*):(\d+):[0-9-]*: wqport\[(W\d*)\]: (.*)$')
# what spatch never matches: comments, string and character literals
NOT_CODE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
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
    said: dict = field(default_factory=dict)      # FILE -> [(message, spatch's)] of its failures
    of: dict = field(default_factory=dict)        # report mode: FILE -> its Findings


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

    def run(self, files, mode='patch', only=None, env=None, envs=None):
        """Apply the stage (or its patch ONLY) to FILES in MODE, with ENV
        added to the environment of the hooks and of spatch, and ENVS[FILE]
        (a mapping FILE -> variables) to FILE's own.  FILES are never
        written: in patch mode Result.changed holds the new text of each
        file that changed.  Files whose patches take the same arguments
        share spatch runs (spatch --file-groups: each file matched on its
        own, with its own variables: wqport_fileenv)."""
        if mode not in MODES:
            raise StageError(f'bad mode {mode}')
        patches = [self.patch(only)] if only else self.patches
        run = _Run(self, mode, patches, dict(env or {}), envs or {})
        with tempfile.TemporaryDirectory(prefix='wqport-stage.') as tmp:
            run.tmp = tmp
            # spatch's include path when none is given is ./include: run
            # from a kernel tree's top with --recursive-includes and
            # --in-place, it rewrote the tree's own include/linux headers.
            # An empty directory instead (a hook's -I comes after it).
            os.mkdir(os.path.join(tmp, 'no-includes'))
            readable = []
            for path in files:
                if os.access(path, os.R_OK):
                    readable.append(path)
                else:
                    run.fail(path, f'{path}: cannot read')
            copies = [run.copy(path, os.path.join(tmp, str(n)))
                      for n, path in enumerate(readable, 1)]
            # (the spatch runs' Python finds what prepare() left here)
            run.env['WQPORT_PARSE_LOGS'] = run.spenv['WQPORT_PARSE_LOGS'] = \
                os.path.join(tmp, 'parse-logs')
            self._hook('prepare', run.env, [c[0] for c in copies])
            jobs = [run.start(path, *copy) for path, copy in zip(readable, copies)]
            if mode == 'report' and not only and getattr(self.hooks, 'report', None):
                for job in jobs:
                    run.report(job)
                jobs_run = []
            else:
                jobs_run = jobs
            # The files that need patches with the same arguments share
            # runs: each gets the patches any of them needs (a patch a
            # file does not need has nothing to do there).
            batches = {}
            for job in jobs_run:
                if job.patches:
                    key = id(job) if mode in ('context', 'org') else tuple(job.args)
                    batches.setdefault(key, []).append(job)
            for batch in batches.values():
                names = {p.name for job in batch for p in job.patches}
                for job in batch:
                    job.patches = [p for p in patches if p.name in names]
                run.apply(batch)
            for job in jobs:
                run.finish(job)
        res = run.result
        res.findings = sorted(set(res.findings),
                              key=lambda f: (f.file, f.line, f'wqport[{f.id}]: {f.reason}'))
        return res


@dataclass
class _Job:
    """One file of a run: the copy spatch reads, what it gets."""
    path: str                   # the file as given
    file: str                   # what spatch reads (a copy, or path itself)
    latin: bool = False         # the copy is transcoded from Latin-1
    plan: Plan = None
    extra: dict = field(default_factory=dict)   # its own variables (Stage.run's ENVS)
    patches: list = field(default_factory=list)
    args: list = field(default_factory=list)
    ok: bool = True
    out: list = field(default_factory=list)     # spatch's stdout
    before: bytes = b''                         # the copy before a batch's run


class _Run:
    """One Stage.run(): its spatch runs."""

    def __init__(self, stage, mode, patches, env, envs=None):
        self.stage, self.mode, self.patches = stage, mode, patches
        self.envs = envs or {}
        # the hooks' and spatch's: every patch of the stage runs on each file,
        # in order, after the hooks' analysis (stage 1's 06 relies on it)
        self.env = dict(env, WQPORT_APPLY_STAGE='1', WQPORT_COCCI_DIR=stage.dir)
        self.result = Result()
        self.tmp = None
        self.lists = 0                  # --file-groups lists written
        self.spenv = wqport_spatch.bytecode_env(dict(os.environ, **self.env))
        self.spatch = self.spenv.get('SPATCH', 'spatch')
        self.flags = ['--very-quiet', '--no-includes', '--timeout', '120']
        self.flags += wqport_spatch.macro_args(self.spatch)
        if os.access(PYTHON, os.X_OK):
            self.flags += ['--python', PYTHON]
        self.flags += self.spenv.get('SPFLAGS', '').split()
        self.combine = self.spenv.get('WQPORT_COMBINE', '1') != '0'
        self.verbose = self.spenv.get('WQPORT_SPATCH_VERBOSE') == '1'

    def fail(self, path, msg, said=None):
        """PATH failed: MSG, and SAID (spatch's message), for Result."""
        self.result.errors.append(f'{PROG}: {msg}')
        if path not in self.result.failed:
            self.result.failed.append(path)
        self.result.said.setdefault(path, []).append((msg, said or ''))

    def env_of(self, path):
        """The hooks' environment for PATH: the run's and its own."""
        return dict(self.env, **self.envs.get(path, {}))

    def selected(self, mode, path, skip=(), extra=None):
        with open(path, encoding='latin-1') as f:
            text = NOT_CODE.sub(' ', f.read())
        env = dict(self.spenv, **(extra or {}))
        return [p for p in self.patches if mode in p.modes and p.name not in skip
                and p.needed(text, env)]

    def report(self, job):
        """The stage's report on JOB's file from its hooks' report(), in
        this process: the lines a spatch run of the patches would print."""
        if job.patches:
            lines = self.stage._hook('report', self.env_of(job.path), job.file,
                                     [p.name for p in job.patches], default=[])
            job.out = [f'{job.file}:{n}:0-0: {reason}\n' for n, reason in lines]

    def copy(self, path, tmp):
        """(what spatch reads for PATH, whether it is transcoded): in patch
        mode a work copy in TMP; else PATH itself, or a copy in TMP if it is
        not UTF-8 or the stage's hooks hide some of it from the report."""
        if self.mode == 'patch':
            return copy_with_includes(path, tmp)
        with open(path, 'rb') as f:
            utf8 = is_utf8(f.read())
        # (stage 2: the branches of older kernels hidden, line for line)
        hide = self.mode == 'report' and self.stage._hook('report_view', self.env_of(path),
                                                          path, default=False)
        if utf8 and not hide:
            return path, False
        view, latin = copy_with_includes(path, tmp)
        if hide:
            self.stage._hook('view', self.env_of(path), view)
        return view, latin

    def start(self, path, file, latin):
        """PATH's job on FILE, its copy: in patch mode masked as the stage's
        plan says; the patches it needs and their arguments."""
        stage, extra, env = self.stage, self.envs.get(path, {}), self.env_of(path)
        if self.mode != 'patch':
            return _Job(path, file, extra=extra,
                        patches=self.selected(self.mode, file, extra=extra))
        plan = stage._hook('plan', env, file, default=Plan())
        if plan.mask:
            stage._hook('mask', env, file)
        return _Job(path, file, latin, plan, extra, self.selected('patch', file, plan.skip, extra),
                    [a for d in plan.defines for a in ('-D', d)] + plan.args)

    def apply(self, batch):
        """The patches the jobs of BATCH share, on all of them in the same
        spatch runs; a file a run failed on is run again on its own, from
        where it started, so that the failure is its alone and said."""
        if len(batch) == 1:
            self.run_set(batch)
            return
        if self.mode == 'patch':
            for job in batch:
                with open(job.file, 'rb') as f:
                    job.before = f.read()
        self.run_set(batch, quiet=True)
        for job in batch:
            if job.ok:
                continue
            job.ok, job.out = True, []
            if self.mode == 'patch':
                with open(job.file, 'wb') as f:
                    f.write(job.before)
            self.run_set([job])

    def finish(self, job):
        """patch mode: the new text; report: the findings; context, org:
        the output, with the copy's name put back as the file's."""
        path = job.path
        if self.mode != 'patch':
            out = ''.join(job.out)
            if self.mode != 'report':
                self.result.output += out.replace(job.file, path)
                return
            mine = self.result.of.setdefault(path, [])
            for line in out.splitlines():
                m = REPORT.match(line)
                if m:
                    file = path if m.group(1) == job.file else m.group(1)
                    mine.append(Finding(file, int(m.group(2)), m.group(3), m.group(4)))
            self.result.findings += mine
            return
        stage = self.stage
        try:
            if not job.ok:
                return
            if job.plan.mask:
                stage._hook('unmask', self.env_of(path), job.file)
            with open(job.file, 'rb') as f:
                out = f.read()
        finally:
            stage._hook('forget', self.env_of(path), job.file)
        if job.latin:
            try:
                out = out.decode('utf-8').encode('latin-1')
            except (UnicodeDecodeError, UnicodeEncodeError):
                self.fail(path, f"{path}: a semantic patch wrote a character the file's "
                          '8-bit encoding lacks')
                return
        with open(path, 'rb') as f:
            if f.read() != out:
                self.result.changed[path] = out

    def run_set(self, batch, quiet=False):
        """The patches of BATCH (jobs that share them and their arguments)
        on its files, in as few spatch runs as they allow: in report mode
        one, since no rule rewrites anything; in patch mode one per group,
        a group ending before a patch that starts a run; context and org,
        one per patch.  A report run that fails is run again one patch at a
        time.  QUIET: stop at the first failure and say nothing (apply()
        runs the files again one at a time).  Returns whether every run
        succeeded."""
        groups = []
        for p in batch[0].patches:
            if groups and self.combine and (self.mode == 'report' or self.mode == 'patch'
                                            and not p.starts_run):
                groups[-1].append(p)
            else:
                groups.append([p])
        ok = True
        for grp in groups:
            live = [job for job in batch if job.ok]
            if not live:
                break
            if self.run_group(live, grp, quiet):
                continue
            ok = False
            if quiet or self.mode == 'patch':
                break
            if len(grp) > 1:
                for p in grp:
                    self.run_group(live, [p], quiet)
        for job in batch if not ok else ():
            job.ok = False
        return ok and all(job.ok for job in batch)

    def run_group(self, batch, grp, quiet):
        """One spatch run of the patches GRP (combined) on BATCH's files;
        their Python clashing, one run per patch.  Files with variables of
        their own that differ: wqport_fileenv's table and prologue."""
        sp = self.combined(grp)
        if sp is None:
            return all(self.run_group(batch, [p], quiet) for p in grp)
        files = [job.file for job in batch]
        env = dict(self.spenv, **batch[0].extra)
        if any(job.extra != batch[0].extra for job in batch):
            self.lists += 1
            table = os.path.join(self.tmp, 'file-env-%d.json' % self.lists)
            with open(table, 'w', encoding='utf-8') as f:
                json.dump({job.file: job.extra for job in batch}, f)
            env = dict(self.spenv, WQPORT_FILE_ENV=table)
            sp = self.with_prologue(sp)
        if len(files) > 1:
            self.lists += 1
            lst = os.path.join(self.tmp, 'groups-%d' % self.lists)
            with open(lst, 'w') as f:
                f.write('\n\n'.join(files) + '\n')
            files = ['--file-groups', lst]
        cmd = ['-D', self.mode] + batch[0].args + ['--sp-file', sp]
        cmd += ['--in-place'] + files if self.mode == 'patch' else files
        ok, out, err = self.spatch_run(cmd, env)
        if not ok:
            if not quiet:
                self.result.errors.append(err)
                self.fail(batch[0].path, f'{batch[0].path}: spatch failed with ' +
                          ' '.join(p.name for p in grp), err)
            return False
        if len(batch) == 1:
            batch[0].out.append(out)
            return True
        by_file = {job.file: job for job in batch}
        lines = out.splitlines(keepends=True)
        if any(m and m.group(1) not in by_file for m in map(REPORT.match, lines)):
            # a line of no file of the batch (a header's): which file's
            # run said it, only a run of each file alone tells
            for job in batch:
                job.ok = False
            return False
        # spatch given many files goes on past one it fails on, and says so
        # on stderr: that file's changes are not written, its report is cut
        for m in re.finditer(r'^EXN: .* in (.+)$', err, re.M):
            if m.group(1) in by_file:
                by_file[m.group(1)].ok = False
        for line in lines:
            m = REPORT.match(line)
            (by_file[m.group(1)] if m else batch[0]).out.append(line)
        return True

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

    def with_prologue(self, sp):
        """A copy of the semantic patch SP headed by wqport_fileenv's
        prologue."""
        out = os.path.join(self.tmp, 'fileenv-' + os.path.basename(sp))
        if not os.path.exists(out):
            with open(sp, encoding='utf-8') as f:
                text = f.read()
            # (after the virtual declarations, which come before any rule)
            at = re.search(r'^@', text, re.M)
            at = at.start() if at else len(text)
            with open(out, 'w', encoding='utf-8') as f:
                f.write(text[:at] + wqport_fileenv.prologue() + text[at:])
        return out

    def spatch_run(self, args, env=None):
        """spatch with ARGS, in ENV (default: the run's): (whether it
        succeeded, stdout, stderr).  A run where no rule applies (every
        rule's dependencies false for the file) is not a failure."""
        try:
            res = subprocess.run([self.spatch] + self.flags +
                                 ['-I', os.path.join(self.tmp, 'no-includes')] + args,
                                 env=env or self.spenv,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, errors='replace', check=False)
        except OSError as e:
            return False, '', f'{PROG}: {self.spatch}: {e.strerror}'
        if res.returncode == 0:
            if self.verbose and res.stderr:
                sys.stderr.write(res.stderr)
            return True, res.stdout, res.stderr
        if re.search(r'^No rules apply', res.stderr, re.M):
            return True, '', ''
        return False, '', res.stderr.rstrip('\n')


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
