# SPDX-License-Identifier: GPL-2.0
"""make check: run every suite of tests/suites, count with kunit.py's parser.

usage: scripts/check [--suites FILE] [SUITE...]   (FILE: tests/suites by
default; make check-kcsan uses tests/suites-kcsan)

Each suite prints one KTAP document, kept in build/check/NAME.ktap.  The
counts are kunit_parser's: test cases (leaves) passed, failed (crashed and
failed), skipped; a suite whose command fails without a failed case counts one
failure more.  Ends with one line per suite and the total line CI reads:
`N passed, N failed, N skipped`, after the path of every failed case (CI
keeps only the end of the output; the full documents stay in build/check).
A whole `make check` also writes each suite's wall time to
build/check/times (scripts/bench prints their sum beside its target).
"""
import os
import subprocess
import sys
import time

from . import ktap, paths


def parse(text):
    return ktap.read(text.splitlines())


def verdict_failures(test):
    """Tests under TEST that failed though every one of their subtests
    passed: the harness's verdict, which no leaf counts."""
    n = 0
    for sub in test.subtests:
        if sub.subtests and not sub.ok_status() and all(t.ok_status() for t in sub.subtests):
            n += 1
        n += verdict_failures(sub)
    return n


def run_suite(name, cmd, outdir):
    start = time.time()
    print(f'check: {name}: {" ".join(cmd)}', file=sys.stderr, flush=True)
    proc = subprocess.run(cmd, cwd=paths.TOP, stdout=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, text=True, check=False)
    path = os.path.join(outdir, name + '.ktap')
    with open(path, 'w') as f:
        f.write(proc.stdout)
    try:
        test = parse(proc.stdout)
    except Exception as e:  # noqa: BLE001  kunit_parser gives up on bad KTAP
        bad = [f'{name}: its KTAP cannot be read ({e}; {path})']
        print(f'check: failed: {bad[0]}', file=sys.stderr)
        return 0, 1, 0, time.time() - start, bad
    c = test.counts
    # kunit_parser counts leaves; a run the harness failed whose cases all
    # passed (a kernel-log finding) counts as one failure more
    passed, skipped = c.passed, c.skipped
    failed = c.failed + c.crashed + verdict_failures(test)
    if (proc.returncode or c.errors) and not failed:
        failed = 1
    bad = ktap.failed_names(test, prefix=f'{name}: ', sep=' > ', why=True)
    if (proc.returncode or c.errors) and not bad:
        bad.append(f'{name}: exit status {proc.returncode}, '
                   f'{c.errors} KTAP parse error(s)')
    for line in bad:
        print(f'check: failed: {line}', file=sys.stderr)
    return passed, failed, skipped, time.time() - start, bad


def main(argv):
    listing = os.path.join(paths.TOP, 'tests', 'suites')
    if argv[:1] == ['--suites']:
        if len(argv) < 2:
            print('check: --suites needs a file', file=sys.stderr)
            return 2
        listing, argv = os.path.join(paths.TOP, argv[1]), argv[2:]
    only = set(argv)
    suites = []
    with open(listing) as f:
        for line in f:
            words = line.split()
            if words and not words[0].startswith('#'):
                suites.append((words[0], words[1:]))
    outdir = os.path.join(paths.BUILD, 'check')
    os.makedirs(outdir, exist_ok=True)
    rows, bad, total, times = [], [], [0, 0, 0], []
    for name, cmd in suites:
        if only and name not in only:
            continue
        p, f, s, secs, b = run_suite(name, cmd, outdir)
        times.append(f'{name} {secs:.1f}\n')
        bad += b
        rows.append(f'{name}: {p} passed, {f} failed, {s} skipped ({secs:.0f} s)')
        print('check: ' + rows[-1], file=sys.stderr, flush=True)
        total = [total[0] + p, total[1] + f, total[2] + s]
    print()
    for line in bad:
        print('failed: ' + line)
    for row in rows:
        print(row)
    print(f'{total[0]} passed, {total[1]} failed, {total[2]} skipped')
    if not only and listing.endswith(os.path.join('tests', 'suites')):
        # a whole make check: its suites' wall times, for scripts/bench
        with open(os.path.join(outdir, 'times'), 'w') as f:
            f.writelines(times)
    return 1 if total[1] else 0
