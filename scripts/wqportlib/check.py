# SPDX-License-Identifier: GPL-2.0
"""make check: run every suite of tests/suites, count with kunit.py's parser.

usage: scripts/check [--suites FILE] [--lanes N] [SUITE...]   (FILE:
tests/suites by default; make check-kcsan uses tests/suites-kcsan)

Each line of FILE names a suite, its lane and its command.  A lane's suites
run one after another, in the file's order; the lanes run side by side, at
most N at once (--lanes, or WQPORT_CHECK_LANES; default: every lane, up to
one more than the machine's cores; 1 runs the whole file in order, one suite
at a time).  The lanes are what a suite
occupies: `host` (spatch, compilers, scripts), `stock` (QEMU guests of the
stock kernels, about half a core each under TCG), `debug` (the debug kernel's
guests).  No two guest suites of one lane share the machine, so a guest is
never starved by another of its kind; a lane done with its own suites takes
the next host suite not started (they need no guest), so the lanes end
together.  Suites that write one build directory lock it (scripts/kbuild,
make port's conversion).

Each suite prints one KTAP document, kept in build/check/NAME.ktap; its
standard error is kept in build/check/NAME.log and printed in one block when
the suite ends.  The counts are kunit_parser's: test cases (leaves) passed,
failed (crashed and failed), skipped; a suite whose command fails without a
failed case counts one failure more.  Ends with one line per suite, in the
file's order, and the total line CI reads: `N passed, N failed, N skipped`,
after the path of every failed case (CI keeps only the end of the output; the
full documents stay in build/check).  A whole `make check` also writes each
suite's wall time and the whole run's to build/check/times (scripts/bench
prints the whole run's beside its target).
"""
import collections
import concurrent.futures
import fnmatch
import os
import re
import shlex
import subprocess
import sys
import threading
import time

from . import ktap, paths

LANES = ('host', 'stock', 'debug')
_out = threading.Lock()


def parse(text):
    return ktap.read(text.splitlines())


NOT_OK_SKIP = re.compile(r'^\s*not ok \d+\s+(.*?)\s*#\s*SKIP\b')
TOP_RESULT = re.compile(r'^(ok|not ok) \d+')
TOP_PLAN = re.compile(r'^1\.\.(\d+)\s*$')


def plumbing_failures(text):
    """What kunit_parser lets pass that is a failure here: a `not ok ...
    # SKIP` line (it counts a skip), and a top-level plan that is not the
    number of top-level results (it drops results past the plan)."""
    lines = text.splitlines()
    bad = [f'{m.group(1)}: not ok, marked SKIP' for m in map(NOT_OK_SKIP.match, lines) if m]
    plans = [int(m.group(1)) for m in map(TOP_PLAN.match, lines) if m]
    results = sum(1 for line in lines if TOP_RESULT.match(line))
    if plans and plans[0] != results:
        bad.append(f'plan of {plans[0]} tests, {results} results')
    return bad


def skipped_names(test, prefix='', sep=' > '):
    """Names of the skipped leaves under @test."""
    names = []
    for sub in test.subtests:
        name = prefix + (sub.name or '(unnamed)')
        if sub.subtests:
            names += skipped_names(sub, name + sep, sep)
        elif sub.status.name == 'SKIPPED':
            names.append(name)
    return names


def read_expected_skips(path):
    """tests/expected-skips: a pattern (fnmatch) of a skipped test's full
    name, a tab, and why the skip is right.  Comment lines start with #."""
    patterns = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith('#'):
                continue
            pattern, _, why = line.rstrip('\n').partition('\t')
            if not why.strip():
                raise SystemExit(f'check: {path}:{n}: a skip needs its reason after a tab')
            patterns.append(pattern)
    return patterns


def verdict_failures(test):
    """Tests under TEST that failed though every one of their subtests
    passed: the harness's verdict, which no leaf counts."""
    n = 0
    for sub in test.subtests:
        if sub.subtests and not sub.ok_status() and all(t.ok_status() for t in sub.subtests):
            n += 1
        n += verdict_failures(sub)
    return n


def say(*lines):
    with _out:
        for line in lines:
            print(line, file=sys.stderr, flush=True)


def run_suite(name, cmd, outdir, niced=False):
    """Run one suite (NICED: at nice 10, a host suite beside the guests);
    returns passed, failed, skipped, seconds, failed names, skipped names."""
    start = time.time()
    say(f'check: {name}: {" ".join(cmd)}')
    log = os.path.join(outdir, name + '.log')
    try:
        with open(log, 'w') as err:
            proc = subprocess.run(cmd, cwd=paths.TOP, stdout=subprocess.PIPE, stderr=err,
                                  stdin=subprocess.DEVNULL, text=True, check=False,
                                  preexec_fn=(lambda: os.nice(10)) if niced else None)
    except OSError as e:    # a command that is not there: this suite fails
        bad = [f'{name}: cannot run {cmd[0]}: {e.strerror}']
        say(f'check: failed: {bad[0]}')
        return 0, 1, 0, time.time() - start, bad, []
    with open(log, errors='replace') as f:
        said = f.read().splitlines()
    path = os.path.join(outdir, name + '.ktap')
    with open(path, 'w') as f:
        f.write(proc.stdout)
    try:
        test = parse(proc.stdout)
    except Exception as e:  # noqa: BLE001  kunit_parser gives up on bad KTAP
        bad = [f'{name}: its KTAP cannot be read ({e}; {path})']
        say(*said, f'check: failed: {bad[0]}')
        return 0, 1, 0, time.time() - start, bad, []
    c = test.counts
    # kunit_parser counts leaves; a run the harness failed whose cases all
    # passed (a kernel-log finding) counts as one failure more
    passed, skipped = c.passed, c.skipped
    failed = c.failed + c.crashed + verdict_failures(test)
    if (proc.returncode or c.errors) and not failed:
        failed = 1
    bad = ktap.failed_names(test, prefix=f'{name}: ', sep=' > ', why=True)
    plumbing = [f'{name}: {b}' for b in plumbing_failures(proc.stdout)]
    failed += len(plumbing)
    bad += plumbing
    if (proc.returncode or c.errors) and not bad:
        bad.append(f'{name}: exit status {proc.returncode}, '
                   f'{c.errors} KTAP parse error(s)')
    secs = time.time() - start
    say(*said, *(f'check: failed: {line}' for line in bad),
        f'check: {name}: {passed} passed, {failed} failed, {skipped} skipped ({secs:.0f} s)')
    return passed, failed, skipped, secs, bad, skipped_names(test, prefix=f'{name}: ')


def read_suites(listing):
    """(name, lane, command) of each line of LISTING, in order (the
    command's words as sh would split them)."""
    suites = []
    with open(listing) as f:
        for n, line in enumerate(f, 1):
            if line.lstrip().startswith('#'):
                continue
            words = shlex.split(line)
            if not words:
                continue
            if len(words) < 3 or words[1] not in LANES:
                raise SystemExit(f'check: {listing}:{n}: want NAME LANE COMMAND..., '
                                 f'LANE one of {", ".join(LANES)}')
            suites.append((words[0], words[1], words[2:]))
    return suites


def main(argv):
    listing = os.path.join(paths.TOP, 'tests', 'suites')
    lanes = os.environ.get('WQPORT_CHECK_LANES', '')
    while argv[:1] in (['--suites'], ['--lanes']):
        if len(argv) < 2:
            print(f'check: {argv[0]} needs a value', file=sys.stderr)
            return 2
        if argv[0] == '--suites':
            listing = os.path.join(paths.TOP, argv[1])
        else:
            lanes = argv[1]
        argv = argv[2:]
    if lanes and not (lanes.isdigit() and int(lanes) > 0):
        print(f'check: --lanes wants a number of lanes, not {lanes!r}', file=sys.stderr)
        return 2
    only = set(argv)
    suites = [s for s in read_suites(listing) if not only or s[0] in only]
    outdir = os.path.join(paths.BUILD, 'check')
    os.makedirs(outdir, exist_ok=True)
    # by default every lane at once, but no more lanes than cores + 1 (a
    # guest keeps half a core to most of one busy under TCG)
    width = int(lanes) if lanes else \
        max(1, min(len({s[1] for s in suites}), (os.cpu_count() or 1) + 1))
    by_lane = {}
    for s in suites:
        by_lane.setdefault(s[1] if width > 1 else 'all', []).append(s)
    # the host lane's suites need no guest: a lane done with its own takes
    # the next of them that has not started
    shared = collections.deque(by_lane.pop('host', []))
    if shared:
        by_lane['host'] = []
    results = {}

    def run_lane(members):
        members = collections.deque(members)
        while True:
            with _out:
                queue = members or shared
                if not queue:
                    return
                name, lane, cmd = queue.popleft()
            # the guests of the other lanes are the long pole: a host
            # suite (compilers, spatch) yields the CPU to them
            results[name] = run_suite(name, cmd, outdir, niced=lane == 'host' and width > 1)

    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=width) as pool:
        for f in [pool.submit(run_lane, m) for m in by_lane.values()]:
            f.result()
    wall = time.time() - start
    rows, bad, total, times = [], [], [0, 0, 0], []
    expected = os.path.join(paths.TOP, 'tests', 'expected-skips')
    allowed = read_expected_skips(expected) if os.path.exists(expected) else None
    for name, lane, _ in suites:
        p, f, s, secs, b, skips = results[name]
        times.append(f'{name} {lane} {secs:.1f}\n')
        if allowed is not None:
            # a skip nobody listed is a test that stopped testing
            new = [k for k in skips if not any(fnmatch.fnmatchcase(k, a) for a in allowed)]
            b = b + [f'{k}: skipped, and not in tests/expected-skips' for k in new]
            f, s = f + len(new), s - len(new)
        bad += b
        rows.append(f'{name}: {p} passed, {f} failed, {s} skipped ({secs:.0f} s)')
        total = [total[0] + p, total[1] + f, total[2] + s]
    if allowed is not None:
        # a listed skip that no longer happens: the list must follow the
        # tests (a skip that comes back later is then seen as new)
        ran = {name for name, _, _ in suites}
        every = [k for name, _, _ in suites for k in results[name][5]]
        for a in allowed:
            if a.split(': ')[0] in ran and not any(fnmatch.fnmatchcase(k, a) for k in every):
                bad.append(f'tests/expected-skips lists "{a}", which no longer skips: '
                           'drop the line')
                total[1] += 1
    print()
    for row in rows:
        print(row)
    print(f'wall time {wall / 60:.1f} min, {width} lane(s) at once')
    # the failures last but one, where a log's tail still shows them
    for line in bad:
        print('failed: ' + line)
    print(f'{total[0]} passed, {total[1]} failed, {total[2]} skipped')
    if not only and listing.endswith(os.path.join('tests', 'suites')):
        # a whole make check: its suites' wall times, for scripts/bench
        with open(os.path.join(outdir, 'times'), 'w') as f:
            f.write(f'wall - {wall:.1f}\n')
            f.writelines(times)
    return 1 if total[1] else 0
