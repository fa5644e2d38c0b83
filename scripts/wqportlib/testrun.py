# SPDX-License-Identifier: GPL-2.0
"""Runs of modules in one kernel under QEMU: as many runs per boot as the
kernel stays fit for, each judged on its own part of the console log.

A boot does a group of runs in order.  The host boots a fresh kernel for
the rest after a run that crashed the kernel, timed out, left a module
loaded, or changed the kernel in a way a later run would inherit (any
kernel-log finding, expected or not, any new taint but O, E and N: lockdep
and KASAN report once, WARN_ONCE fires once).  So each run's verdict
is the one it would get alone in its own boot."""
import os
import re
import sys
import time

from . import elf, initramfs, ktap, logscan, qemu, snapshot
from .paths import InfraError

# Exit statuses, one per outcome (docs/architecture.md), gravest last.
PASS, TEST_FAILURE, USAGE, FINDINGS, CRASH, TIMEOUT, INFRA = 0, 1, 2, 3, 4, 5, 6
OUTCOME = {PASS: 'pass', TEST_FAILURE: 'test failure', FINDINGS: 'kernel-log findings',
           CRASH: 'kernel crash', TIMEOUT: 'timeout', INFRA: 'infrastructure failure'}
# A kernel that crashes while booting, before the first run begins, is
# booted again once (docs/testing.md).
BOOT_RETRIES = 1

BEGIN = re.compile(r'^wqport: begin (\d+)(?: pid (\d+))?$')
# A kmemleak report: the object, then the task that allocated it.
LEAK = re.compile(r'^unreferenced object .*\n\s*comm "([^"]*)", pid (\d+)', re.M)
# Kernel threads that outlive a run (a workqueue pool's workers, ...): an
# object they allocated may be any run's.
SHARED_THREAD = re.compile(r'^(kworker/|ksoftirqd/|swapper|rcu|kthreadd|migration/|cpuhp/|'
                           r'irq/|kcompactd|kswapd|khungtaskd|oom_reaper|watchdog)')
END = re.compile(r'^wqport: end (\d+)$')
TAINTED = re.compile(r'^wqport: tainted (\d+)$')
# What the host types on the console after each run: begin the next run,
# or end the boot (after the kmemleak check, on the debug kernel).
GO, STOP = 'wqport-go', 'wqport-stop'


class Run:
    """One run: MODULES loaded in order (the shim first unless none), the
    guest SCRIPT, FILES beside the modules, the findings it EXPECTs, and the
    seconds it may take from its start in the guest."""

    def __init__(self, name, modules, script=None, files=(), expect=(), timeout=180,
                 trace=None):
        self.name = name
        self.trace = trace      # None, or seconds to settle: record a trace
        self.modules = list(modules)
        self.script = script
        self.files = list(files)
        self.expect = list(expect)
        self.timeout = timeout
        self.plan = 2 * len(self.modules) + (1 if script else 0) + \
            sum(elf.kunit_suite_count(m) for m in self.modules)


class Outcome:
    """A run's verdict: STATUS, REASON, its KTAP document, the console log,
    and its TRACE (text; None when it recorded none, or it was damaged)."""

    def __init__(self, status, reason, doc, log, trace=None):
        self.status = status
        self.reason = reason
        self.doc = doc
        self.log = log
        self.trace = trace


TRACE_LINE = 'wqport-trace: '
TRACE_END = re.compile(r'^wqport: trace end (\d+) (\d+)$')


def take_trace(part):
    """(PART without its trace, the trace's text or None): the lines the
    guest's trace() printed, whole only if as many as it counted."""
    keep, lines, count = [], [], None
    for line in part.split('\n'):
        if line.startswith(TRACE_LINE):
            lines.append(line[len(TRACE_LINE):])
            continue
        m = TRACE_END.match(line)
        if m:
            count = int(m.group(2))
        keep.append(line)
    text = '\n'.join(keep)
    if count is None or count != len(lines):
        return text, None
    return text, '\n'.join(lines) + '\n'


def judge(scan, timed_out, run):
    """(status, reason) for a run whose part of the log SCAN read, the
    gravest outcome first.  TIMED_OUT: the host stopped the guest during it."""
    if scan.crash:
        return CRASH, scan.crash
    if timed_out:
        # what the kernel said about it, e.g. the hung task and its stack
        first = f'; first finding: {scan.findings[0][1]}' if scan.findings else ''
        return TIMEOUT, 'the guest did not finish in time' + (
            '' if scan.begun else ' (it never reached init)') + first
    if not scan.begun:
        return INFRA, 'the kernel did not boot to the test init'
    if not scan.ended:
        return CRASH, 'the guest stopped before the end of the run'
    unseen = scan.expect(run.expect)
    if scan.findings:
        kinds = sorted({k for k, _, _ in scan.findings})
        return FINDINGS, '%s: %s' % (', '.join(kinds), scan.findings[0][1])
    bad = scan.bad_taint()
    if bad:
        return FINDINGS, f'kernel tainted {bad} (only O, E and N are expected)'
    verdict = ktap.parse(ktap.compose(scan.ktap_lines(), run.plan))
    if not verdict.ok:
        return TEST_FAILURE, 'not ok: ' + ', '.join(verdict.failed[:5])
    if unseen:
        return TEST_FAILURE, 'expected finding not seen: ' + ', '.join(unseen)
    return PASS, verdict.summary


def document(scan, run, status, reason):
    """The run's KTAP document.  A run cut short (crash, timeout) still gives
    as many results as its plan: a parser reading it nested in another one
    counts by plans, and would take the next results of the outer one for
    these.  The first missing one says why ('#' would start a directive)."""
    doc = ktap.compose(scan.ktap_lines(), run.plan)
    done = sum(1 for line in doc if ktap.TOP_RESULT.match(line))
    why = f'{OUTCOME[status]}: {reason}'.replace('#', '')
    return doc + [f'not ok {n} no result' + (f' ({why})' if n == done + 1 else '')
                  for n in range(done + 1, run.plan + 1)]


def split(text):
    """The console log of one boot cut at its markers: (the boot before the
    first run, {run number: its part}, the kmemleak check after the runs,
    or None when the boot did not get to its end)."""
    boot, parts, cur, leaks = [], {}, None, None
    for line in text.splitlines():
        line = line.rstrip('\r')
        m = BEGIN.match(line)
        if m:
            cur = int(m.group(1))
            parts[cur] = []
        elif line == 'wqport: kmemleak':
            leaks = []
            cur = None
        if leaks is not None:
            leaks.append(line)
        else:
            (parts[cur] if cur is not None else boot).append(line)
    done = leaks is not None and 'wqport: kmemleak done' in leaks
    return ('\n'.join(boot), {n: '\n'.join(lines) for n, lines in parts.items()},
            '\n'.join(leaks) if done else None)


def changed(scan):
    """Whether a finished run (not judged yet: every finding still in
    scan.findings) left the kernel changed for the next one."""
    taint = (scan.taint or 0) & ~logscan.TAINT_EXPECTED
    return bool(scan.findings or scan.crash or taint)


class Watch:
    """A boot's console as it comes: milestones on stderr; what to tell the
    guest after each run (go on, or stop after a run that changed the
    kernel: the rest go to a new boot); when it has had its time (a run
    over its timeout, a boot that never reaches the first run): QEMU then
    kills it, the only reason it does."""

    def __init__(self, runs, boot_timeout, named):
        self.runs = runs
        self.boot_timeout = boot_timeout
        self.named = named
        self.start = self.since = time.monotonic()
        self.current = None
        self.dirty = False

    def note(self, what):
        prefix = f'run {self.runs[self.current - 1].name}: ' if self.named and self.current else ''
        print(f'wqport test: [{time.monotonic() - self.start:.0f} s] {prefix}{what}',
              file=sys.stderr, flush=True)

    def __call__(self, line):
        if line.startswith('wqport: boot'):
            self.note('the kernel is up, the test init runs')
        elif m := BEGIN.match(line):
            self.current = int(m.group(1))
            self.since = time.monotonic()
            self.dirty = False
        elif END.match(line):
            self.current = None
            self.since = time.monotonic()
            # the guest waits for the word to go on, or to stop
            return (STOP if self.dirty else GO) + '\n'
        elif m := TAINTED.match(line):
            if int(m.group(1)) & ~logscan.TAINT_EXPECTED:
                self.dirty = True
        elif re.match(r'^(not )?ok 0 ', line):
            self.note(line.replace(' 0 ', ' ', 1))
        elif 'Kernel panic' in line:
            self.note(line.strip())
        elif self.current and any(p.search(line) for _, p in logscan.FINDINGS):
            self.dirty = True

    def expired(self):
        limit = self.runs[self.current - 1].timeout if self.current else self.boot_timeout
        return time.monotonic() - self.since > limit


def leak_owners(leaks, parts):
    """{run number: its kmemleak reports} for the reports of LEAKS (the
    check after the runs of PARTS, {run number: its part of the log}), or
    None when one cannot be told: the task that allocated the object came
    before the runs or outlives them (a workqueue's worker).  A run's tasks
    are the pids from its begin marker's to the next run's."""
    starts = sorted((int(BEGIN.match(p.split('\n', 1)[0]).group(2) or 0), n)
                    for n, p in parts.items())
    blocks = re.split(r'(?m)^(?=unreferenced object )', leaks)
    owners = {}
    for block in blocks[1:]:
        m = LEAK.match(block)
        if len(parts) == 1:
            n = starts[0][1]
        elif not m or SHARED_THREAD.match(m.group(1)) or int(m.group(2)) < starts[0][0] \
                or not starts[0][0]:
            return None
        else:
            n = [n for pid, n in starts if pid <= int(m.group(2))][-1]
        owners[n] = owners.get(n, 'wqport: kmemleak') + '\n' + block.rstrip('\n')
    return owners


def run_all(image, base, runs, rundir, accel, append, boot_timeout, log=None, snaps=None):
    """Do RUNS (a list of Run) in as few boots of IMAGE as their verdicts
    allow; return one Outcome per run.  Raises InfraError when QEMU or the
    initramfs cannot be had.  BASE: the initramfs the runs' files are
    added to (initramfs.base()); SNAPS: the kernel's Snapshots, restored
    instead of booting it (None: a boot each time).

    Each boot does a group of runs, in order, and ends when the group is
    done or a run changed the kernel (the rest go to the next boot), with
    one kmemleak check (the debug kernel) for the runs it finished: a leak
    it finds belongs to the run whose tasks allocated it (leak_owners()),
    and when that cannot be told, each of them runs again alone.  The runs
    of a boot cut short (a crash, a timeout) got no check: they run again,
    after the rest."""
    payload = initramfs.payload(rundir, [(r.modules, r.script, r.files, r.trace)
                                         for r in runs])
    whole = None    # the plain boots' initramfs, made for the first

    def plain(why):
        """Boot each time from now on, for WHY."""
        nonlocal snaps
        if snaps:
            print(f'wqport test: booting without a snapshot: {why}', file=sys.stderr)
        snaps = None

    if snaps and not snaps.ready(boot_timeout):
        plain(snaps.why)
    if snaps and os.path.getsize(payload) > snapshot.CAPACITY:
        plain(f'the runs\' files ({os.path.getsize(payload) >> 20} MB) do not fit the '
              f'snapshot\'s disk ({snapshot.CAPACITY >> 20} MB)')
    outcomes = {}
    groups = [list(range(1, len(runs) + 1))]
    boot, retries = 0, 0
    while groups:
        group = groups.pop(0)
        boot += 1
        if log:
            path = log if boot == 1 else f'{log}.{boot}'
        else:
            path = os.path.join(rundir, 'console.log' if boot == 1 else f'console-{boot}.log')
        if snaps:
            # a restored guest is up in a second: the boot's allowance is
            # for booting
            watch = Watch(runs, min(boot_timeout, snapshot.RESTORE_TIMEOUT), len(runs) > 1)
            why = None
            try:
                result = snaps.restore(payload, group, path, watch, watch.expired)
            except InfraError as e:
                result, why = None, str(e)
        else:
            watch = Watch(runs, boot_timeout, len(runs) > 1)
            if whole is None:
                whole = initramfs.whole(rundir, base, payload)
            result = qemu.run(image, whole, path, None, accel=accel,
                              append=f'{append} wqport.runs={",".join(map(str, group))}'.strip(),
                              progress=watch, watchdog=watch.expired)
        with open(path, 'a+', errors='replace') as f:   # a restore may fail before QEMU
            f.seek(0)
            text = f.read()
        if snaps and 'wqport: boot' not in text:
            # Whatever stopped it (QEMU refused the snapshot, the guest found
            # no disk, crashed or hung before its runs), the snapshot is to
            # blame: dropped, and the group booted.
            m = re.search(r'wqport: no disk.*', text)
            why = why or (m.group(0) if m else logscan.Scan(text).crash) or \
                ('the restored guest did not get to its runs' +
                 (' in time' if result and result.timed_out else ''))
            snaps.discard(why)
            failed = f'{path}.restore-failed'
            os.replace(path, failed)
            plain(f'the snapshot did not restore (dropped): {why} (console log: {failed})')
            groups.insert(0, group)
            boot -= 1
            continue
        _, parts, leaks = split(text)
        parts = {n: p for n, p in parts.items() if n in group}
        traces = {}
        for n in parts:
            parts[n], traces[n] = take_trace(parts[n])
        if not parts:
            scan = logscan.Scan(text)
            if scan.crash and retries < BOOT_RETRIES:
                # Nothing of the test has run: QEMU's multi-threaded TCG can
                # crash a kernel that patches its own text while booting.
                retries += 1
                groups.insert(0, group)
                print(f'wqport test: the kernel crashed while booting, before the first '
                      f'run ({scan.crash}; console log: {path}); booting again',
                      file=sys.stderr)
                continue
            status, reason = judge(scan, result.timed_out, runs[group[0] - 1])
            for n in [n for g in [group] + groups for n in g]:
                outcomes[n] = Outcome(status, reason, document(scan, runs[n - 1], status, reason),
                                      path)
            break
        retries = 0
        done, cut, rest = [], None, []
        for i, n in enumerate(group):
            if n not in parts:
                rest = group[i:]
                break
            scan = logscan.Scan(parts[n])
            if not scan.ended:
                cut, rest = n, group[i + 1:]
                break
            done.append(n)
            if changed(scan):
                rest = group[i + 1:]
                break
        kmemleak = 'wqport: boot kmemleak' in text
        recheck = []
        if kmemleak and leaks is None and done and cut:
            recheck, done = done, []    # the crash took their check: again
        elif kmemleak and leaks and done:
            owners = leak_owners(leaks, {n: parts[n] for n in done})
            if owners is None:
                groups[:0] = [[n] for n in done]   # whose leak? each alone
                done = []
            else:
                for n, found in owners.items():
                    parts[n] += '\n' + found
        for n in done + ([cut] if cut else []):
            scan = logscan.Scan(parts[n])
            status, reason = judge(scan, n == cut and result.timed_out, runs[n - 1])
            outcomes[n] = Outcome(status, reason, document(scan, runs[n - 1], status, reason),
                                  path, traces.get(n))
        if rest or recheck:
            groups.insert(0, rest + recheck)
    return [outcomes[n] for n in range(1, len(runs) + 1)]
