# SPDX-License-Identifier: GPL-2.0
"""make port: convert, build and run legacy drivers three ways.

Variants, all produced from the one legacy source at build time:
  A  the legacy source, built against the shim
  B  stage 1 output (2.6 workqueue API), built against the shim
  C  stage 2 output (modern API), built with no shim, run with no shim loaded
A sample whose source stage 1 leaves unchanged starts at B (no A).

For the bundled samples (drivers-sample/NN-name/) each variant runs the
sample's scenario.sh in QEMU; its `log: ` lines must equal expected.log and
be the same for every variant.  For a user's driver (--driver DIR) each variant
gets a load/unload smoke test with a clean kernel log, or runs --script FILE
(make port DRIVER=dir SCRIPT=file); its warnings are shown, not fatal (--lint),
and a variant that does not build while the conversion left items for a human
is "needs human".

Every variant's run is traced (wqport trace, docs/tracing.md), and the
traces column says whether the variants' deferred work is the same, handler
by handler: runs, re-queueing, order, contexts, delays, nothing left at
unload.  For a user's driver without --script, that is the proof that the
port behaves like the original.
"""
import argparse
import difflib
import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

from . import paths, reasons, testrun, trace_compare, trace_model, trace_read

VARIANTS = ('A', 'B', 'C')
COLUMNS = VARIANTS + ('T',)     # T: the traces compared
# Every variant's run is traced; the traces column compares them
# (docs/tracing.md).  The seconds a run waits, after its scenario, for the
# drivers' handlers to be quiet before the unload.
TRACE_SETTLE = 1
# verdicts that are no failure: no variant A for 2.6-API code; a variant
# that needs the human work its sample's expected.report lists
SKIPPED = ('-', 'needs human')
WQPORT = os.path.join(paths.SCRIPTS, 'wqport')


def sh(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          errors='replace', check=False, **kw)


def copy_tree(src, dest):
    """Copy a driver tree, leaving out build outputs and the in-tree-only
    NOSTDINC_FLAGS lines (wqport build adds the shim's include path itself)."""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns(
        '*.o', '*.ko', '*.cmd', '*.mod', '*.mod.c', '*.symvers', '*.order', '.*'))
    for root, _, files in os.walk(dest):
        for f in files:
            if f in ('Kbuild', 'Makefile'):
                p = os.path.join(root, f)
                with open(p) as fh:
                    lines = [ln for ln in fh if 'NOSTDINC_FLAGS' not in ln]
                with open(p, 'w') as fh:
                    fh.writelines(lines)


class Cell:
    def __init__(self, verdict, detail=''):
        self.verdict = verdict
        self.detail = detail


class Port:
    def __init__(self, out, kernel, lint=True):
        self.out = out
        self.kernel = kernel
        # lint (W=1, sparse, warnings fatal) is for this project's samples;
        # a user's legacy driver has warnings of its own (no __user, ...)
        self.lint = lint
        # where this kernel's objects go: build/port/obj/NAME/VARIANT
        self.obj = os.path.join(out, 'obj', paths.kernel_build_name(kernel))
        self.src = {v: os.path.join(out, 'src', v) for v in VARIANTS}

    def convert(self, legacy, with_headers=False):
        """Make the three source trees from LEGACY (WITH_HEADERS: convert's
        --with-headers, for a user's driver); returns the reports."""
        os.makedirs(self.out, exist_ok=True)
        reports = {}
        for v, to in (('A', None), ('B', '2.6'), ('C', 'modern')):
            copy_tree(legacy, self.src[v])
            if to:
                rep = os.path.join(self.out, f'report-{v}.json')
                res = sh([WQPORT, 'convert', '--to', to, '--in-place', '--force', '--jobs', '2',
                          '--report', rep] + (['--with-headers'] if with_headers else []) +
                         [self.src[v]])
                if res.returncode not in (0, 1):
                    raise SystemExit(f'port: converting {legacy} failed:\n{res.stderr}')
                reports[v] = [ln for ln in res.stderr.splitlines()
                              if reasons.REPORT_LINE.match(ln)]
        for a, b, name in (('A', 'B', 'stage1.diff'), ('B', 'C', 'stage2.diff')):
            res = sh(['diff', '-ruN', 'src/' + a, 'src/' + b], cwd=self.out)
            with open(os.path.join(self.out, name), 'w') as f:
                f.write(res.stdout)
        return reports

    def build(self, variant, rel, shim=None, env=None):
        """Build REL of VARIANT's tree (against the shim but for C, or as
        SHIM says; ENV: make's environment): (its modules, []) or (None,
        the build's last lines)."""
        shim = variant != 'C' if shim is None else shim
        d = os.path.join(self.src[variant], rel)
        cmd = [WQPORT, 'build', '--kernel', self.kernel,
               '--root', self.src[variant],
               '--out', os.path.join(self.obj, variant + ('-shim' if shim and variant == 'C' else ''))]
        if self.lint:
            cmd.append('--lint')
        if not shim:
            cmd.append('--no-shim')
        res = sh(cmd + [d], env=env)
        if res.returncode:
            return None, res.stderr.strip().splitlines()
        return [ln for ln in res.stdout.splitlines() if ln.endswith('.ko')], []

    def build_together(self, variant, names):
        """Build the samples NAMES of VARIANT's tree in one make (Kbuild's
        cost is mostly per make): {name: its modules}, or {} when that
        build fails (each is then built alone, for its own verdict)."""
        if len(names) < 2:
            return {}
        built, _ = self.build(variant, '.', env=dict(os.environ,
                                                      WQPORT_SAMPLES=' '.join(names)))
        if built is None:
            return {}
        return {n: [k for k in built if f'/{n}/' in k] for n in names}

    def run_variants(self, todo):
        """Run each variant of TODO ({variant: (modules, script)}) in one
        `wqport test --runs`, each traced (docs/tracing.md): {variant:
        (status, its KTAP, its verdict, its trace file or None)}."""
        if not todo:
            return {}
        os.makedirs(self.obj, exist_ok=True)
        listing = os.path.join(self.obj, 'runs')
        with open(listing, 'w') as f:
            for v, (modules, script) in todo.items():
                words = [v, '--trace', str(TRACE_SETTLE)] + (['--no-shim'] if v == 'C' else []) + \
                    (['--script', script] if script else []) + modules
                f.write(' '.join(shlex.quote(w) for w in words) + '\n')
        verdicts = os.path.join(self.obj, 'runs.json')
        if os.path.exists(verdicts):
            os.unlink(verdicts)
        res = sh([WQPORT, 'test', '--kernel', self.kernel, '--runs', listing,
                  '--json', verdicts])
        try:
            with open(verdicts) as f:
                got = json.load(f)
        except (OSError, ValueError):
            got = {'runs': [], 'error': (res.stderr.strip().splitlines() or
                                         ['wqport test wrote no verdicts'])[-1]}
        runs = {r['name']: r for r in got['runs']}
        done = {}
        for v in todo:
            r = runs.get(v)
            if r is None:
                done[v] = (testrun.INFRA, '', got['error'] or f'no verdict for run {v}', None)
            else:
                done[v] = (r['status'], r['ktap'], f'{r["outcome"]}: {r["reason"]}' +
                           (f' (console log: {r["log"]})' if r['status'] else ''),
                           r.get('trace'))
        return done


def module_of(ko):
    """The module name of a .ko file (as the kernel names it)."""
    return os.path.basename(ko)[:-len('.ko')].replace('-', '_')


def trace_cell(traces, modules):
    """The traces column: are the variants of TRACES ({variant: trace file
    or None}) equivalent, module by module (MODULES: {variant: [names]},
    the first variant's order)?  'pass', 'trace differs' with the
    comparison, or '-' when fewer than two variants have a trace."""
    vs = [v for v in VARIANTS if traces.get(v)]
    if len(vs) < 2:
        return Cell('-', 'fewer than two variants ran to a trace')
    try:
        read = {v: trace_read.read(traces[v]) for v in vs}
    except (OSError, trace_read.TraceError) as e:
        return Cell('trace failed', str(e))
    out, same = [], True
    for i, mod in enumerate(modules.get(vs[0], [])):
        names = [modules[v][i] if i < len(modules.get(v, [])) else mod for v in vs]
        res = trace_compare.compare([trace_model.build(read[v], n) for v, n in zip(vs, names)],
                                    list(vs))
        same = same and res.equivalent()
        out.append(f'module {mod}:\n' + trace_compare.table(res))
    return Cell('pass' if same else 'trace differs', '\n'.join(out))


LEGACY_24 = re.compile(r'\b(tq_struct|queue_task|schedule_task|run_task_queue|mark_bh|init_bh)\b')


def legacy_24(name):
    """Whether a sample is 2.4 code (variant A); one written against the 2.6
    API (the seed article's) starts at B."""
    d = os.path.join(paths.TOP, 'drivers-sample', name)
    for f in os.listdir(d):
        if f.endswith('.c'):
            with open(os.path.join(d, f), errors='replace') as fh:
                if LEGACY_24.search(fh.read()):
                    return True
    return False


def sample_items(lines, name):
    """A sample's report items, as FILE:LINE: wqport[ID]: REASON relative to it."""
    out = set()
    for ln in lines:
        m = re.search(r'/' + re.escape(name) + r'/(.*)$', ln)
        if m:
            out.add(m.group(1))
    return sorted(out, key=lambda x: (x.split(':')[0], int(x.split(':')[1])))


def expected_report(name):
    """The items a sample declares a human must handle (expected.report), or
    None: a converted variant that needs the shim is then a pass only with
    exactly these items reported."""
    p = os.path.join(paths.TOP, 'drivers-sample', name, 'expected.report')
    if not os.path.exists(p):
        return None
    with open(p) as f:
        return sorted((ln.rstrip('\n') for ln in f if ln.strip()),
                      key=lambda x: (x.split(':')[0], int(x.split(':')[1])))


def samples(only):
    root = os.path.join(paths.TOP, 'drivers-sample')
    found = sorted(d for d in os.listdir(root)
                   if os.path.exists(os.path.join(root, d, 'scenario.sh')))
    return [d for d in found if not only or d in only or d.split('-', 1)[0] in only]


def sources_digest(*trees):
    """A digest of every file under TREES: the conversion is redone only when
    the samples, the semantic patches or the converter changed."""
    h = hashlib.sha256()
    for tree in trees:
        for root, dirs, files in sorted(os.walk(tree)):
            dirs[:] = sorted(d for d in dirs if d != '__pycache__')
            for f in sorted(files):
                p = os.path.join(root, f)
                h.update(p.encode() + b'\0')
                with open(p, 'rb') as fh:
                    h.update(fh.read())
    return h.hexdigest()


def batch_script(names, src_root, path):
    """One guest script that runs each sample's scenario in turn and prints
    one KTAP result per sample, its output as `# NAME| ...` lines."""
    lines = ['#!/bin/sh', '# generated by scripts/port: every sample scenario, in turn',
             f'echo "1..{len(names)}"', 'n=0 failed=0']
    for name in names:
        with open(os.path.join(src_root, name, 'scenario.sh')) as f:
            body = f.read()
        tag = 'WQPORT_SCENARIO_END'
        assert tag not in body
        lines += [f"cat > /tmp/scenario-{name}.sh <<'{tag}'", body.rstrip('\n'), tag,
                  f'sh /tmp/scenario-{name}.sh > /tmp/out-{name} 2>&1',
                  'rc=$?', 'n=$((n + 1))',
                  f"sed 's/^/# {name}| /' /tmp/out-{name}",
                  f'if [ $rc -eq 0 ]; then echo "ok $n {name}"; '
                  f'else echo "not ok $n {name}"; failed=1; fi']
    lines.append('exit $failed')
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    os.chmod(path, 0o755)


def needs_human(port, rel, items, err):
    """The verdict on a variant C that does not build without the shim
    while its conversion left items for a human: 'needs human' when what
    fails is only what the items leave on the old APIs (it builds against
    the shim), else 'build failed'."""
    built, err_shim = port.build('C', rel, shim=True)
    if built is None:
        return Cell('build failed', 'without the shim:\n' + '\n'.join(err[-8:]) +
                    '\nand with it, so not for what the report leaves:\n' +
                    '\n'.join(err_shim[-8:]))
    return Cell('needs human', 'builds only with the shim; report: ' + items[0])


def module_failures(ktap, modules, name):
    """The load and unload results of a sample's modules that failed in a
    run's KTAP (a run with failures exits 1, which is also a scenario's
    not ok: each sample is judged on its own lines)."""
    mine = [os.path.basename(m) for m in modules
            if os.sep + name + os.sep in m or os.path.basename(os.path.dirname(m)) == name]
    return [ln.strip() for ln in ktap.splitlines()
            if re.match(r'^\s*not ok \d+ (load|unload) (%s)\b' %
                        '|'.join(re.escape(b) for b in mine), ln)] if mine else []


def converted_samples(kernel, note=print):
    """The samples converted (build/port/src, redone only when a sample,
    the semantic patches or the converter changed): (a Port of them for
    KERNEL, the reports)."""
    root = os.path.join(paths.BUILD, 'port')
    port = Port(root, kernel)
    digest = sources_digest(os.path.join(paths.TOP, 'drivers-sample'),
                            os.path.join(paths.TOP, 'semantic-patches'),
                            os.path.join(paths.SCRIPTS, 'wqportlib'))
    stamp = os.path.join(root, 'src', '.converted')
    os.makedirs(root, exist_ok=True)
    # make check runs each kernel's samples in its own lane: one converts,
    # the others wait for it and read its sources
    with open(os.path.join(root, '.lock'), 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(stamp) and open(stamp).read() == digest:
            note(f'port: converted sources in {root}/src are up to date')
            with open(os.path.join(root, 'reports.json')) as f:
                reports = json.load(f)
        else:
            note(f'port: converting drivers-sample/ (stage 1, stage 2) into {root}/src')
            reports = port.convert(os.path.join(paths.TOP, 'drivers-sample'))
            with open(os.path.join(root, 'reports.json'), 'w') as f:
                json.dump(reports, f)
            with open(stamp, 'w') as f:
                f.write(digest)
    return port, reports


def judge(name, rc, stdout, reason, modules):
    """A sample's verdict from its variant's run (exit status, KTAP,
    verdict line; modules: every module of the run)."""
    log = [m.group(1) for m in re.finditer(
        r'^\s*# ' + re.escape(name) + r'\| log: (.*)$', stdout, re.M)]
    ok = re.search(r'^\s*ok \d+ ' + re.escape(name) + r'$', stdout, re.M)
    with open(os.path.join(paths.TOP, 'drivers-sample', name, 'expected.log')) as f:
        expected = f.read().splitlines()
    lost = module_failures(stdout, modules, name)
    if rc not in (0, 1):
        return Cell('run failed', reason)
    if lost:
        return Cell('unload failed' if 'unload' in lost[0] else 'load failed',
                    '\n'.join(lost) + '\n' + reason)
    if not ok:
        out = [m.group(1) for m in re.finditer(
            r'^\s*# ' + re.escape(name) + r'\| (.*)$', stdout, re.M)]
        return Cell('scenario failed', '\n'.join(out[-30:]) + '\n' + reason)
    if log != expected:
        return Cell('log differs', '\n'.join(difflib.unified_diff(
            expected, log, 'expected.log', 'this run', lineterm='')))
    return Cell('pass')


def run_sample(port, v, name, first=None):
    """Build and run one sample's variant V of PORT's trees in a boot of
    its own, after FIRST's run there when given ((a Port, its variant): as
    make port runs an earlier variant in the same boot): V's verdict."""
    built, err = port.build(v, name)
    if built is None:
        return Cell('build failed', '\n'.join(err[-15:]))
    runs = []
    if first:
        fport, fv = first
        mods, _ = fport.build(fv, name)
        if mods:
            runs.append((fport, fv, mods))
    runs.append((port, v, built))
    os.makedirs(port.obj, exist_ok=True)
    todo = {}
    for p, pv, mods in runs:
        script = os.path.join(port.obj, f'scenarios-{pv}-{name}.sh')
        batch_script([name], p.src[pv], script)
        todo[pv] = (mods, script)
    rc, stdout, reason, _ = port.run_variants(todo)[v]
    return judge(name, rc, stdout, reason, built)


def port_samples(kernel, only, ktap):
    note = (lambda *a: print(*a, file=sys.stderr)) if ktap else print
    port, reports = converted_samples(kernel, note)
    root = port.out
    names = samples(only)
    rows = {name: {} for name in names}
    pending = {}    # variant: (samples, modules, script) to run
    for v in VARIANTS:
        mods = {}
        # one make for the samples expected to build (in C, those with no
        # item for a human); any other, or all when that make fails, alone
        together = port.build_together(v, [
            n for n in names if (v != 'A' or legacy_24(n)) and
            (v != 'C' or not expected_report(n))])
        for name in names:
            if v == 'A' and not legacy_24(name):
                rows[name][v] = Cell('-', '2.6-API source: starts at B')
                continue
            note(f'port: {name}: variant {v}: build against the {kernel} kernel')
            built, err = (together[name], []) if name in together else port.build(v, name)
            items = sample_items(reports.get(v, []), name)
            expected_items = expected_report(name)
            if v != 'A' and expected_items is not None and items != expected_items:
                rows[name][v] = Cell('report differs', '\n'.join(difflib.unified_diff(
                    expected_items, items, 'expected.report', f'variant {v}', lineterm='')))
            elif built is None and v == 'C' and items and items == expected_items:
                rows[name][v] = needs_human(port, name, items, err)
            elif built is None:
                rows[name][v] = Cell('build failed', '\n'.join(err[-15:]))
            else:
                mods[name] = built
        if not mods:
            continue
        run_names = [n for n in names if n in mods]
        script = os.path.join(port.obj, f'scenarios-{v}.sh')
        batch_script(run_names, port.src[v], script)
        pending[v] = (run_names, [m for n in run_names for m in mods[n]], script)
    # every variant's samples in one kernel, a run per variant
    note(f'port: variants {", ".join(pending)} in the {kernel} kernel, a run each')
    traces = {}
    for v, (rc, stdout, reason, trace) in port.run_variants(
            {v: (m, script) for v, (_, m, script) in pending.items()}).items():
        traces[v] = trace
        for name in pending[v][0]:
            rows[name][v] = judge(name, rc, stdout, reason, pending[v][1])
    for name in names:
        rows[name]['T'] = trace_cell({v: traces.get(v) for v in VARIANTS if v in pending and
                                      name in pending[v][0]},
                                     {v: sample_modules(v, name, pending) for v in pending})
    return root, reports, [(name, rows[name]) for name in names]


def sample_modules(v, name, pending):
    """The module names of sample NAME's build in variant V's run."""
    return [module_of(k) for k in pending[v][1]
            if os.path.basename(os.path.dirname(k)) == name]


def print_table(out, reports, table, kernel):
    width = max([len(n) for n, _ in table] + [6])
    print(f'\n== kernel {kernel}')
    print(f'{"sample":<{width}}  A (legacy+shim)  B (stage1+shim)  C (stage2, no shim)  traces')
    for name, row in table:
        cells = [row[v].verdict for v in VARIANTS]
        trace = row['T'].verdict if 'T' in row else '-'
        print(f'{name:<{width}}  {cells[0]:<15}  {cells[1]:<15}  {cells[2]:<19}  {trace}')
    print()
    print(f'converted sources: {out}/src/{{A,B,C}}/NAME')
    print(f'diffs: {out}/stage1.diff, {out}/stage2.diff')
    for v, lines in reports.items():
        if lines:
            print(f'items for a human ({"stage 1" if v == "B" else "stages 1+2"}):')
            for ln in lines:
                print('  ' + ln)
    for name, row in table:
        for v in COLUMNS:
            c = row.get(v)
            if c and c.verdict != 'pass' and c.verdict not in SKIPPED and c.detail:
                print(f'\n--- {name} {"traces" if v == "T" else "variant " + v}: {c.verdict}')
                print(c.detail)


def checkpatch_diffs(out):
    """checkpatch.pl (linux-source's) on the lines each stage added to the
    samples (OUT/stage1.diff, OUT/stage2.diff): [Cell per stage], 'pass'
    or 'checkpatch' with its findings; skipped without linux-source."""
    try:
        for f in ('spelling.txt', 'const_structs.checkpatch'):
            paths.linux_source('scripts/' + f)
        checkpatch = paths.linux_source('scripts/checkpatch.pl')
    except (paths.InfraError, OSError, subprocess.CalledProcessError) as e:
        return [Cell('-', f"linux-source's checkpatch.pl not found: {e}")] * 2
    cells = []
    for name in ('stage1.diff', 'stage2.diff'):
        # a diff of files, not a commit: its message and sign-off aside
        res = sh(['perl', checkpatch, '--no-tree', '--terse', '--show-types', '-q',
                  '--no-signoff', '--ignore',
                  'COMMIT_LOG_LONG_LINE,COMMIT_MESSAGE,FILE_PATH_CHANGES',
                  os.path.join(out, name)])
        found = [ln for ln in (res.stdout + res.stderr).splitlines()
                 if ln.strip() and not ln.startswith('total: 0 errors, 0 warnings')]
        cells.append(Cell('checkpatch' if found else 'pass', '\n'.join(found)))
    return cells


def print_ktap(tables):
    """One KTAP document for every (kernel, table) of TABLES, then
    checkpatch.pl on what each stage changed in the samples."""
    cells = [(kernel, name, v, row[v]) for kernel, table in tables
             for name, row in table for v in COLUMNS if v in row]
    style = checkpatch_diffs(os.path.join(paths.BUILD, 'port'))
    cells += [('all', f'checkpatch.pl on the lines stage {n} added', '', c)
              for n, c in enumerate(style, 1)]
    print('KTAP version 1')
    print(f'1..{len(cells)}')
    for i, (kernel, name, v, c) in enumerate(cells, 1):
        what = f'{kernel}: {name} traces' if v == 'T' else \
            f'{kernel}: {name} variant {v}' if v else f'{kernel}: {name}'
        if c.verdict in SKIPPED:
            print(f'ok {i} {what} # SKIP {c.detail}')
        elif c.verdict == 'pass':
            print(f'ok {i} {what}')
        else:
            print(f'not ok {i} {what} # {c.verdict}')
            for ln in c.detail.splitlines()[-40:]:
                print('# ' + ln)
    return any(c.verdict not in SKIPPED + ('pass',) for c in style)


def port_driver(directory, kernel, script=None, lint=False):
    """Convert, build and run DIRECTORY three ways on KERNEL.  A variant
    whose build fails while its conversion left items for a human is
    'needs human' (the items say what), not a failure of the tools."""
    name = os.path.basename(os.path.abspath(directory))
    out = os.path.join(paths.BUILD, 'port', 'driver-' + name, paths.kernel_build_name(kernel))
    port = Port(out, kernel, lint)
    print(f'port: converting {directory} into {out}/src')
    reports = port.convert(directory, with_headers=True)
    row = {}
    what = 'the scenario ' + script if script else 'load/unload'
    todo = {}
    for v in VARIANTS:
        print(f'port: {name}: variant {v}: build against the {kernel} kernel')
        mods, err = port.build(v, '.')
        if mods is None and v == 'C' and reports.get(v):
            row[v] = needs_human(port, '.', reports[v], err)
            if row[v].verdict == 'needs human':
                row[v].detail = '\n'.join(reports[v][:10])
        elif mods is None and reports.get(v):
            row[v] = Cell('needs human', '\n'.join(reports[v][:10] + err[-10:]))
        elif mods is None:
            row[v] = Cell('build failed', '\n'.join(err[-15:]))
        else:
            todo[v] = (mods, script)
    print(f'port: {name}: variants {", ".join(todo) or "none"}: {what} on the {kernel} '
          'kernel, a run each')
    traces = {}
    for v, (rc, stdout, reason, trace) in port.run_variants(todo).items():
        traces[v] = trace
        row[v] = Cell('pass' if rc == 0 else 'run failed',
                      '' if rc == 0 else reason + '\n' + stdout[-2000:])
    row = {v: row[v] for v in VARIANTS if v in row}
    row['T'] = trace_cell(traces, {v: [module_of(k) for k in todo[v][0]] for v in todo})
    table = [(name, row)]
    print_table(out, reports, table, kernel)
    return table


def main(argv):
    ap = argparse.ArgumentParser(prog='port', description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--kernel', action='append', metavar='KERNEL',
                    help=f'{paths.KERNELS}; repeatable: one table per kernel '
                    '(with --ktap, one document for all)')
    ap.add_argument('--driver', metavar='DIR', help='port this driver instead of the samples')
    ap.add_argument('--script', metavar='FILE',
                    help='with --driver: the scenario each variant runs in the guest '
                    '(as wqport test --script), instead of a load/unload smoke test')
    ap.add_argument('--lint', action='store_true',
                    help='with --driver: W=1 and sparse, warnings fatal (always for the samples)')
    ap.add_argument('--ktap', action='store_true', help='print KTAP (for make check)')
    ap.add_argument('samples', nargs='*', metavar='SAMPLE')
    args = ap.parse_args(argv)
    kernels = []
    for k in args.kernel or ['stock']:
        name = paths.kernel_name(k)
        if not name:
            print(f'port: --kernel {k}: not {paths.KERNELS}', file=sys.stderr)
            return 2
        if name not in kernels:
            kernels.append(name)
    if args.driver and not os.path.isdir(args.driver):
        print(f'port: {args.driver}: no such directory', file=sys.stderr)
        return 2
    if (args.script or args.lint) and not args.driver:
        print('port: --script and --lint go with --driver', file=sys.stderr)
        return 2
    if args.script and not os.path.isfile(args.script):
        print(f'port: {args.script}: no such file', file=sys.stderr)
        return 2
    if args.script:
        args.script = os.path.abspath(args.script)
    tables = []
    for kernel in kernels:
        if args.driver:
            tables.append((kernel, port_driver(args.driver, kernel, args.script, args.lint)))
            continue
        out, reports, table = port_samples(kernel, args.samples, args.ktap)
        tables.append((kernel, table))
        if not args.ktap:
            print_table(out, reports, table, kernel)
    style_bad = args.ktap and not args.driver and print_ktap(tables)
    bad = [1 for _, table in tables for _, row in table for c in row.values()
           if c.verdict != 'pass' and c.verdict not in SKIPPED]
    return 1 if bad or style_bad else 0
