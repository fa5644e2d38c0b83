# SPDX-License-Identifier: GPL-2.0
"""wqport test: run modules in a real kernel under QEMU and judge the run
(or each run of a run list: testrun.py boots as few kernels as their
verdicts allow)."""
import argparse
import json
import os
import re
import shlex
import sys
import time

from . import initramfs, ktap, paths, qemu, snapshot, testrun
from .paths import InfraError, WqportError
from .testrun import OUTCOME, INFRA, PASS

# Default --timeout: a stock kernel boots in seconds under TCG, a debug kernel
# in about a minute and runs everything several times slower.  The boot has
# the same allowance to reach the first run.
DEFAULT_TIMEOUT = {'stock': 180, 'debug': 600}
# A task blocked this long is reported with its stack (a finding): well
# before the timeout, so that a hang leaves evidence, and long enough that
# a KUnit case, which blocks insmod while it runs, is not reported on a
# guest that a loaded host slows down several times (the longest, on the
# debug kernel: 11 s on an idle 2-core host, past 30 s three times slower).
# The kernels' own: 120 s stock, 30 s debug (its config).
HUNG_TASK_SECS = {'stock': 60, 'debug': 120}


def add_run_arguments(p):
    """The options of one run, on the command line and in a --runs list."""
    p.add_argument('--script', help='guest shell script run after the modules load')
    p.add_argument('--timeout', type=float,
                   help='seconds a run may take from its start in the guest (default '
                   '180 on a stock kernel, 600 on a debug one; the boot has as long '
                   'again to reach the first run)')
    p.add_argument('--no-shim', action='store_true', help='do not load wqcompat.ko')
    p.add_argument('--file', action='append', default=[], metavar='FILE',
                   help='also copy FILE into the guest\'s /modules, without loading it '
                   '(for the script); repeatable')
    p.add_argument('--expect-finding', action='append', default=[], metavar='REGEX',
                   help='a kernel-log finding the run must produce (a WARN a test '
                   'provokes on purpose): findings it matches (in the finding\'s line '
                   'or the 3 lines around) are accepted, and a REGEX that matches '
                   'none is a test failure; repeatable')
    p.add_argument('--trace', type=int, metavar='SECONDS',
                   help="record the run's deferred work (wqport trace): from before the "
                   "loads to after the unloads, waiting after the script until the "
                   "modules' handlers have not run for SECONDS (30 s at most); the "
                   "trace is kept in the run's directory (RUN.trace) and --json names it")
    p.add_argument('modules', nargs='*', metavar='MODULE.ko')


def add_parser(sub):
    p = sub.add_parser('test', help='run modules in a kernel under QEMU',
                       description='Boot KERNEL under QEMU with a busybox initramfs, load '
                       'wqcompat.ko and MODULE.ko..., run the guest script, unload, and '
                       'print the run as KTAP.  Exit 0 only when every test is ok and the '
                       'kernel log is clean; otherwise 1 test failure, 3 kernel-log '
                       'findings, 4 kernel crash, 5 timeout, 6 infrastructure failure '
                       '(with --runs, the gravest of the runs\').')
    p.add_argument('--kernel', default='stock',
                   help='stock (the default: 6.1), 6.1, 6.12, debug (6.12 with '
                   'lockdep, KASAN, kmemleak, ...), debug-kcsan, or a kernel build tree')
    p.add_argument('--runs', metavar='LIST',
                   help='a file of runs, one a line: NAME then this command\'s run '
                   'options and modules (--script, --file, --expect-finding, --no-shim, '
                   '--timeout, MODULE.ko...; # starts a comment).  They share boots: a '
                   'fresh kernel after a run that crashed it, timed out, left a module '
                   'loaded or a finding in the log.  Prints one KTAP result per run, '
                   'its document nested')
    p.add_argument('--accel', choices=('auto', 'tcg', 'tcg-single', 'kvm'), default='auto',
                   help='QEMU accelerator: auto (the default) uses KVM where a probe '
                   'boot shows it works (kept in the cache), else tcg, one host thread '
                   'per vCPU; tcg-single: one thread for all, for scenarios that patch '
                   'live kernel text.  The one used is printed.')
    p.add_argument('--log', help='where to keep the console log (a later boot\'s: '
                   'LOG.2, ...)')
    p.add_argument('--append', default='', help='extra kernel command line')
    p.add_argument('--json', metavar='FILE',
                   help='also write the verdicts to FILE: {"runs": [{"name", "status" '
                   '(the exit status of that run alone), "outcome", "reason", "log", '
                   '"ktap" (its own KTAP document)}], "error": why no run took place '
                   'or null}')
    add_run_arguments(p)
    p.set_defaults(func=run)


def shim_module(kernel):
    """wqcompat.ko built for KERNEL: the build `wqport build` links against
    (paths.shim_build), rebuilt when compat/ changed."""
    try:
        return os.path.join(paths.shim_build(kernel), 'compat', 'wqcompat.ko')
    except WqportError as e:
        raise InfraError(str(e))


def check_run(name, a):
    """Refuse a run whose files are not there, with its name."""
    where = f'run {name}: ' if name else ''
    for m in a.modules:
        if not m.endswith('.ko') or not os.path.isfile(m):
            raise WqportError(f'{where}{m}: no such module file')
    for f in a.file:
        if not os.path.isfile(f):
            raise WqportError(f'{where}{f}: no such file')
    for rx in a.expect_finding:
        try:
            re.compile(rx)
        except re.error as e:
            raise WqportError(f'{where}--expect-finding {rx!r}: {e}')
    if a.script and not os.path.isfile(a.script):
        raise WqportError(f'{where}{a.script}: no such script')


def read_runs(path):
    """[(name, options)] of a run list."""
    p = argparse.ArgumentParser(prog=f'wqport test --runs {path}', add_help=False)
    add_run_arguments(p)
    runs = []
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise WqportError(f'--runs {path}: {e.strerror}')
    for i, line in enumerate(lines, 1):
        words = shlex.split(line, comments=True)
        if not words:
            continue
        name = words[0]
        if name.startswith('-') or any(r[0] == name for r in runs):
            raise WqportError(f'{path}:{i}: {name}: a run\'s name first, once per list')
        try:
            a, rest = p.parse_known_args(words[1:])
        except SystemExit:
            raise WqportError(f'{path}:{i}: bad options for run {name}')
        if rest:
            raise WqportError(f'{path}:{i}: run {name}: unknown {rest[0]}')
        runs.append((name, a))
    if not runs:
        raise WqportError(f'--runs {path}: no run')
    return runs


def kmemleak_age_ms(kdir):
    """The age below which the kmemleak of the kernel built in KDIR reports
    no object (MSECS_MIN_AGE in its mm/kmemleak.c: 1000 in the debug
    kernels, scripts/debug-kernel.patch), or None where the tree has no
    source (the stock kernels' headers: no kmemleak)."""
    try:
        with open(os.path.join(kdir, 'mm', 'kmemleak.c')) as f:
            m = re.search(r'^#define\s+MSECS_MIN_AGE\s+(\d+)\b', f.read(), re.M)
    except OSError:
        return None
    return int(m.group(1)) if m else None


def make_run(kernel, name, a, timeout):
    modules = [] if a.no_shim else [shim_module(kernel)]
    modules += [m for m in a.modules if a.no_shim or os.path.basename(m) != 'wqcompat.ko']
    return testrun.Run(name, modules, a.script, a.file, a.expect_finding, a.timeout or timeout,
                       a.trace)


def run(args):
    kernel = args.kernel
    if not paths.kernel_name(kernel):
        raise WqportError(f'--kernel {kernel}: not {paths.KERNELS}')
    if args.runs:
        if args.modules or args.script or args.file or args.expect_finding or args.no_shim:
            raise WqportError('--runs takes the modules and run options from its list')
        listed = read_runs(args.runs)
    else:
        listed = [('', args)]
    for name, a in listed:
        check_run(name, a)
    kind = 'debug' if paths.is_debug(kernel) or os.path.isdir(kernel) else 'stock'
    timeout = args.timeout or DEFAULT_TIMEOUT[kind]

    try:
        ktap.ensure_parser()
        image = paths.kernel_image(kernel)
        if not image or not os.path.exists(image):
            raise InfraError(f'no bootable image for the {kernel} kernel')
        runs = [make_run(kernel, name, a, timeout) for name, a in listed]
        stamp = time.strftime('%Y%m%d-%H%M%S')
        rundir = os.path.join(paths.BUILD, 'test-runs', f'{stamp}-{os.getpid()}')
        os.makedirs(rundir, exist_ok=True)
        log = os.path.abspath(args.log) if args.log else None
        accel, how = args.accel, args.accel.upper()
        if accel == 'auto':
            kvm, why = qemu.kvm_usable(image, paths.CACHE)
            accel, how = ('kvm', 'KVM') if kvm else ('tcg', f'TCG ({why})')
        what = f'{len(runs)} runs' if args.runs else 'the run'
        # the kernel's ELF by its PVH entry, or the bzImage (scripts/lib.sh)
        entry = 'vmlinux, PVH entry' if os.path.basename(image).startswith('vmlinux-') or \
            os.path.basename(image) == 'vmlinux' else 'bzImage'
        # the guest's kmemleak check waits out the kernel's own age (guest-init.sh)
        kdir = paths.kernel_kdir(kernel)
        age = kmemleak_age_ms(kdir) if kdir else None
        append = (f'sysctl.kernel.hung_task_timeout_secs={HUNG_TASK_SECS[kind]} ' +
                  (f'wqport.leak_age_ms={age} ' if age is not None else '') + args.append)
        snaps, why = None, f'{snapshot.ENV}=0'
        mods = None
        if snapshot.enabled():
            mods, why = snapshot.virtio_modules(kdir, paths.CACHE) if kdir else \
                (None, 'no kernel tree')
        base = initramfs.base(paths.CACHE, mods or ())
        if mods is not None:
            snaps = snapshot.Snapshots(paths.CACHE, image, base, accel, append)
        how += ', restored from a snapshot' if snaps else f', booted (no snapshot: {why})'
        print(f'wqport test: booting the {kernel} kernel ({entry}) under QEMU, {how}, '
              f'{what} in {rundir}, timeout {timeout:g} s', file=sys.stderr, flush=True)
        outcomes = testrun.run_all(image, base, runs, rundir, accel, append, timeout, log,
                                   snaps)
    except InfraError as e:
        print(f'wqport test: {OUTCOME[INFRA]}: {e}', file=sys.stderr)
        write_json(args.json, [], [], str(e))
        return INFRA

    traces = keep_traces(rundir, runs, outcomes)
    if not args.runs:
        o = outcomes[0]
        doc = o.doc
        verdicts = [f'{OUTCOME[o.status]}: {o.reason}' +
                    (f' (console log: {o.log})' if o.status != PASS else '')]
    else:
        doc = ['KTAP version 1', f'1..{len(runs)}']
        verdicts = []
        for n, (r, o) in enumerate(zip(runs, outcomes), 1):
            doc += ['    ' + o.doc[0], f'    # Subtest: {r.name}']
            doc += ['    ' + line for line in o.doc[1:]]
            if o.status != PASS:
                doc.append(f'# {r.name}: {OUTCOME[o.status]}: {o.reason} '
                           f'(console log: {o.log})'.replace(' #', ' '))
            doc.append(f'{"ok" if o.status == PASS else "not ok"} {n} {r.name}')
            verdicts.append(f'run {r.name}: {OUTCOME[o.status]}: {o.reason}' +
                            (f' (console log: {o.log})' if o.status != PASS else ''))
        bad = sum(1 for o in outcomes if o.status != PASS)
        verdicts.append(f'{len(runs) - bad} of {len(runs)} runs passed')
    sys.stdout.write('\n'.join(doc) + '\n')
    with open(os.path.join(rundir, 'results.ktap'), 'w') as f:
        f.write('\n'.join(doc) + '\n')
    for v in verdicts:
        print(f'wqport test: {v}', file=sys.stderr)
    write_json(args.json, runs, outcomes, None, traces)
    return max(o.status for o in outcomes)


def keep_traces(rundir, runs, outcomes):
    """{run number: its trace file in RUNDIR (NAME.trace)} of the runs that
    asked for one and got it whole; a run that got none is told."""
    out = {}
    for n, (r, o) in enumerate(zip(runs, outcomes), 1):
        if r.trace is None:
            continue
        if o.trace is None:
            print(f'wqport test: run {r.name or n}: no trace (the recorder failed, or its '
                  f'lines did not all reach the console: {o.log})', file=sys.stderr)
            continue
        out[n] = os.path.join(rundir, f'{r.name or "run"}.trace')
        with open(out[n], 'w') as f:
            f.write(o.trace)
    return out


def write_json(path, runs, outcomes, error, traces=None):
    """--json: each run's verdict, typed, for the programs that run this
    command (make port), and its trace file (--trace; null without)."""
    if not path:
        return
    traces = traces or {}
    with open(path, 'w') as f:
        json.dump({'runs': [{'name': r.name, 'status': o.status, 'outcome': OUTCOME[o.status],
                             'reason': o.reason, 'log': o.log, 'ktap': '\n'.join(o.doc),
                             'trace': traces.get(n)}
                            for n, (r, o) in enumerate(zip(runs, outcomes), 1)],
                   'error': error}, f, indent=1)
        f.write('\n')
