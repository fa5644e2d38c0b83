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
gets a load/unload smoke test with a clean kernel log.
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys

from . import paths

VARIANTS = ('A', 'B', 'C')
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
    def __init__(self, out, kernel):
        self.out = out
        self.kernel = kernel
        self.src = {v: os.path.join(out, 'src', v) for v in VARIANTS}

    def convert(self, legacy):
        """Make the three source trees from LEGACY; returns the reports."""
        os.makedirs(self.out, exist_ok=True)
        reports = {}
        for v, to in (('A', None), ('B', '2.6'), ('C', 'modern')):
            copy_tree(legacy, self.src[v])
            if to:
                rep = os.path.join(self.out, f'report-{v}.json')
                res = sh([WQPORT, 'convert', '--to', to, '--in-place', '--force', '--jobs', '2',
                          '--report', rep, self.src[v]])
                if res.returncode not in (0, 1):
                    raise SystemExit(f'port: converting {legacy} failed:\n{res.stderr}')
                reports[v] = [ln for ln in res.stderr.splitlines() if ': wqport: ' in ln]
        for a, b, name in (('A', 'B', 'stage1.diff'), ('B', 'C', 'stage2.diff')):
            res = sh(['diff', '-ruN', 'src/' + a, 'src/' + b], cwd=self.out)
            with open(os.path.join(self.out, name), 'w') as f:
                f.write(res.stdout)
        return reports

    def build(self, variant, rel):
        d = os.path.join(self.src[variant], rel)
        cmd = [WQPORT, 'build', '--kernel', self.kernel, '--lint',
               '--root', self.src[variant],
               '--out', os.path.join(self.out, 'obj', self.kernel, variant)]
        if variant == 'C':
            cmd.append('--no-shim')
        res = sh(cmd + [d])
        if res.returncode:
            return None, res.stderr.strip().splitlines()
        return [ln for ln in res.stdout.splitlines() if ln.endswith('.ko')], []

    def run(self, variant, modules, script=None):
        cmd = [WQPORT, 'test', '--kernel', self.kernel]
        if variant == 'C':
            cmd.append('--no-shim')
        if script:
            cmd += ['--script', script]
        res = sh(cmd + modules)
        return res.returncode, res.stdout, res.stderr.strip()


def event_log(ktap):
    """The `log: ` lines a scenario printed (nested in the run's KTAP)."""
    return [m.group(1) for m in re.finditer(r'^\s*(?:# )?log: (.*)$', ktap, re.M)]


def samples(only):
    root = os.path.join(paths.TOP, 'drivers-sample')
    found = sorted(d for d in os.listdir(root)
                   if os.path.exists(os.path.join(root, d, 'scenario.sh')))
    return [d for d in found if not only or d in only or d.split('-', 1)[0] in only]


def port_samples(kernel, only, ktap):
    out = os.path.join(paths.BUILD, 'port', kernel)
    port = Port(out, kernel)
    note = (lambda *a: print(*a, file=sys.stderr)) if ktap else print
    note(f'port: converting drivers-sample/ (stage 1, stage 2) into {out}/src')
    reports = port.convert(os.path.join(paths.TOP, 'drivers-sample'))
    names = samples(only)
    table, failures, logs = [], [], {}
    for name in names:
        row = {}
        first_log = None
        unchanged = not any(name + '/' in ln for ln in open(
            os.path.join(out, 'stage1.diff')).read().splitlines() if ln.startswith('+++'))
        for v in VARIANTS:
            if v == 'A' and unchanged:
                row[v] = Cell('-', 'starts at B: stage 1 changes nothing')
                continue
            note(f'port: {name}: variant {v}: build and run on the {kernel} kernel')
            mods, err = port.build(v, name)
            if mods is None:
                row[v] = Cell('build failed', '\n'.join(err[-15:]))
                continue
            script = os.path.join(port.src[v], name, 'scenario.sh')
            rc, stdout, reason = port.run(v, mods, script)
            log = event_log(stdout)
            logs[(name, v)] = log
            with open(os.path.join(paths.TOP, 'drivers-sample', name, 'expected.log')) as f:
                expected = f.read().splitlines()
            if rc:
                row[v] = Cell('run failed', reason + '\n' + stdout[-3000:])
            elif log != expected:
                diff = '\n'.join(difflib.unified_diff(expected, log, 'expected.log',
                                                      f'variant {v}', lineterm=''))
                row[v] = Cell('log differs', diff)
            elif first_log is not None and log != first_log:
                row[v] = Cell('log differs', 'differs from the first variant')
            else:
                row[v] = Cell('pass')
            if first_log is None and log:
                first_log = log
        table.append((name, row))
    return out, reports, table


def print_table(out, reports, table, kernel):
    width = max([len(n) for n, _ in table] + [6])
    print(f'\n{"sample":<{width}}  A (legacy+shim)  B (stage1+shim)  C (stage2, no shim)')
    for name, row in table:
        cells = [row[v].verdict for v in VARIANTS]
        print(f'{name:<{width}}  {cells[0]:<15}  {cells[1]:<15}  {cells[2]}')
    print(f'\nkernel: {kernel}')
    print(f'converted sources: {out}/src/{{A,B,C}}/NAME')
    print(f'diffs: {out}/stage1.diff, {out}/stage2.diff')
    for v, lines in reports.items():
        if lines:
            print(f'items for a human ({"stage 1" if v == "B" else "stages 1+2"}):')
            for ln in lines:
                print('  ' + ln)
    for name, row in table:
        for v in VARIANTS:
            c = row[v]
            if c.verdict not in ('pass', '-') and c.detail:
                print(f'\n--- {name} variant {v}: {c.verdict}')
                print(c.detail)


def print_ktap(table, kernel):
    cells = [(name, v, row[v]) for name, row in table for v in VARIANTS]
    print('KTAP version 1')
    print(f'1..{len(cells)}')
    for i, (name, v, c) in enumerate(cells, 1):
        what = f'{kernel}: {name} variant {v}'
        if c.verdict == '-':
            print(f'ok {i} {what} # SKIP {c.detail}')
        elif c.verdict == 'pass':
            print(f'ok {i} {what}')
        else:
            print(f'not ok {i} {what} # {c.verdict}')
            for ln in c.detail.splitlines()[-40:]:
                print('# ' + ln)


def port_driver(directory, kernel):
    name = os.path.basename(os.path.abspath(directory))
    out = os.path.join(paths.BUILD, 'port', 'driver-' + name, kernel)
    port = Port(out, kernel)
    print(f'port: converting {directory} into {out}/src')
    reports = port.convert(directory)
    row = {}
    for v in VARIANTS:
        print(f'port: {name}: variant {v}: build and load/unload on the {kernel} kernel')
        mods, err = port.build(v, '.')
        if mods is None:
            row[v] = Cell('build failed', '\n'.join(err[-15:]))
            continue
        rc, stdout, reason = port.run(v, mods)
        row[v] = Cell('pass' if rc == 0 else 'run failed',
                      '' if rc == 0 else reason + '\n' + stdout[-2000:])
    table = [(name, row)]
    print_table(out, reports, table, kernel)
    return table


def main(argv):
    ap = argparse.ArgumentParser(prog='port', description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--kernel', default='stock', choices=('stock', 'debug'))
    ap.add_argument('--driver', metavar='DIR', help='port this driver instead of the samples')
    ap.add_argument('--ktap', action='store_true', help='print KTAP (for make check)')
    ap.add_argument('samples', nargs='*', metavar='SAMPLE')
    args = ap.parse_args(argv)
    if args.driver:
        if not os.path.isdir(args.driver):
            print(f'port: {args.driver}: no such directory', file=sys.stderr)
            return 2
        table = port_driver(args.driver, args.kernel)
    else:
        out, reports, table = port_samples(args.kernel, args.samples, args.ktap)
        if args.ktap:
            print_ktap(table, args.kernel)
        else:
            print_table(out, reports, table, args.kernel)
    bad = [1 for _, row in table for c in row.values() if c.verdict not in ('pass', '-')]
    return 1 if bad else 0
