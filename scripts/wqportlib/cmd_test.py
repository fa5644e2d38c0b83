# SPDX-License-Identifier: GPL-2.0
"""wqport test: run modules in a real kernel under QEMU and judge the run."""
import os
import re
import sys
import time

from . import elf, initramfs, ktap, logscan, paths, qemu
from .paths import InfraError, WqportError

# Exit statuses, one per outcome (docs/architecture.md).
PASS, TEST_FAILURE, USAGE, FINDINGS, CRASH, TIMEOUT, INFRA = 0, 1, 2, 3, 4, 5, 6
OUTCOME = {PASS: 'pass', TEST_FAILURE: 'test failure', FINDINGS: 'kernel-log findings',
           CRASH: 'kernel crash', TIMEOUT: 'timeout', INFRA: 'infrastructure failure'}
# Default --timeout: a stock kernel boots in seconds under TCG, a debug kernel
# in about a minute and runs everything several times slower.
DEFAULT_TIMEOUT = {'stock': 180, 'debug': 600}
# A kernel that crashes while booting, before the test init, is booted again
# once (docs/testing.md): up to this many boots per run.
BOOTS = 2


def add_parser(sub):
    p = sub.add_parser('test', help='run modules in a kernel under QEMU',
                       description='Boot KERNEL under QEMU with a busybox initramfs, load '
                       'wqcompat.ko and MODULE.ko..., run the guest script, unload, and '
                       'print the run as KTAP.  Exit 0 only when every test is ok and the '
                       'kernel log is clean; otherwise 1 test failure, 3 kernel-log '
                       'findings, 4 kernel crash, 5 timeout, 6 infrastructure failure.')
    p.add_argument('--kernel', default='stock',
                   help='stock (the default: 6.1), 6.1, 6.12, debug (6.12 with '
                   'lockdep, KASAN, kmemleak, ...), debug-kcsan, or a kernel build tree')
    p.add_argument('--script', help='guest shell script run after the modules load')
    p.add_argument('--timeout', type=float,
                   help='seconds (default 180 on a stock kernel, 600 on a debug one)')
    p.add_argument('--accel', choices=('auto', 'tcg', 'tcg-single', 'kvm'), default='auto',
                   help='QEMU accelerator: auto (the default) uses KVM where a probe '
                   'boot shows it works (kept in the cache), else tcg, one host thread '
                   'per vCPU; tcg-single: one thread for all, for scenarios that patch '
                   'live kernel text.  The one used is printed.')
    p.add_argument('--no-shim', action='store_true', help='do not load wqcompat.ko')
    p.add_argument('--file', action='append', default=[], metavar='FILE',
                   help='also copy FILE into the guest\'s /modules, without loading it '
                   '(for the script); repeatable')
    p.add_argument('--expect-finding', action='append', default=[], metavar='REGEX',
                   help='a kernel-log finding the run must produce (a WARN a test '
                   'provokes on purpose): findings it matches (in the finding\'s line '
                   'or the 3 lines around) are accepted, and a REGEX that matches '
                   'none is a test failure; repeatable')
    p.add_argument('--log', help='where to keep the console log')
    p.add_argument('--append', default='', help='extra kernel command line')
    p.add_argument('modules', nargs='*', metavar='MODULE.ko')
    p.set_defaults(func=run)


def shim_module(kernel):
    """wqcompat.ko built for KERNEL: the build `wqport build` links against
    (paths.shim_build), rebuilt when compat/ changed."""
    try:
        return os.path.join(paths.shim_build(kernel), 'compat', 'wqcompat.ko')
    except WqportError as e:
        raise InfraError(str(e))


def judge(scan, result, plan, expected=()):
    """(status, reason) for the run, the gravest outcome first."""
    if scan.crash:
        return CRASH, scan.crash
    if result.timed_out:
        # what the kernel said about it, e.g. the hung task and its stack
        first = f'; first finding: {scan.findings[0][1]}' if scan.findings else ''
        return TIMEOUT, 'the guest did not finish in time' + (
            '' if scan.begun else ' (it never reached init)') + first
    if not scan.begun:
        return INFRA, 'the kernel did not boot to the test init'
    if not scan.ended or result.status != qemu.GUEST_DONE:
        return CRASH, 'the guest stopped before its end (QEMU status %s)' % result.status
    unseen = scan.expect(expected)
    if scan.findings:
        kinds = sorted({k for k, _, _ in scan.findings})
        return FINDINGS, '%s: %s' % (', '.join(kinds), scan.findings[0][1])
    bad = scan.bad_taint()
    if bad:
        return FINDINGS, f'kernel tainted {bad} (only O and E are expected)'
    verdict = ktap.parse(ktap.compose(scan.ktap_lines(), plan))
    if not verdict.ok:
        return TEST_FAILURE, 'not ok: ' + ', '.join(verdict.failed[:5])
    if unseen:
        return TEST_FAILURE, 'expected finding not seen: ' + ', '.join(unseen)
    return PASS, verdict.summary


class Progress:
    """The milestones of a run, on stderr as the console shows them: the
    test init starting, each module's load and unload, the script's
    verdict, a panic."""

    def __init__(self):
        self.start = time.monotonic()

    def __call__(self, line):
        if line.startswith('wqport: begin'):
            what = 'the kernel is up, the test init runs'
        elif re.match(r'^(not )?ok 0 ', line):
            what = line.replace(' 0 ', ' ', 1)
        elif 'Kernel panic' in line:
            what = line.strip()
        else:
            return
        print(f'wqport test: [{time.monotonic() - self.start:.0f} s] {what}',
              file=sys.stderr, flush=True)


def run(args):
    kernel = args.kernel
    if not paths.kernel_name(kernel):
        raise WqportError(f'--kernel {kernel}: not {paths.KERNELS}')
    for m in args.modules:
        if not m.endswith('.ko') or not os.path.isfile(m):
            raise WqportError(f'{m}: no such module file')
    for f in args.file:
        if not os.path.isfile(f):
            raise WqportError(f'{f}: no such file')
    for rx in args.expect_finding:
        try:
            re.compile(rx)
        except re.error as e:
            raise WqportError(f'--expect-finding {rx!r}: {e}')
    if args.script and not os.path.isfile(args.script):
        raise WqportError(f'{args.script}: no such script')
    timeout = args.timeout or DEFAULT_TIMEOUT[
        'debug' if paths.is_debug(kernel) or os.path.isdir(kernel) else 'stock']

    try:
        ktap.ensure_parser()
        image = paths.kernel_image(kernel)
        if not image or not os.path.exists(image):
            raise InfraError(f'no bootable image for the {kernel} kernel')
        modules = [] if args.no_shim else [shim_module(kernel)]
        modules += [m for m in args.modules
                    if args.no_shim or os.path.basename(m) != 'wqcompat.ko']
        stamp = time.strftime('%Y%m%d-%H%M%S')
        rundir = os.path.join(paths.BUILD, 'test-runs', f'{stamp}-{os.getpid()}')
        os.makedirs(rundir, exist_ok=True)
        log = os.path.abspath(args.log or os.path.join(rundir, 'console.log'))
        plan = 2 * len(modules) + (1 if args.script else 0) + \
            sum(elf.kunit_suite_count(m) for m in modules)
        cpio = initramfs.build(rundir, modules, args.script, args.file)
        accel, how = args.accel, args.accel.upper()
        if accel == 'auto':
            kvm, why = qemu.kvm_usable(image, paths.CACHE)
            accel, how = ('kvm', 'KVM') if kvm else ('tcg', f'TCG ({why})')
        print(f'wqport test: booting the {kernel} kernel under QEMU, {how}, '
              f'timeout {timeout:g} s; console log: {log}', file=sys.stderr, flush=True)
        for boot in range(1, BOOTS + 1):
            result = qemu.run(image, cpio, log, timeout, accel=accel,
                              append=args.append, progress=Progress())
            with open(log, errors='replace') as f:
                scan = logscan.Scan(f.read())
            if not (scan.crash and not scan.begun) or boot == BOOTS:
                break
            # Nothing of the test has run: QEMU's multi-threaded TCG can
            # crash a kernel that patches its own text while booting.
            kept = f'{log}.boot{boot}'
            os.replace(log, kept)
            print(f'wqport test: the kernel crashed while booting, before the test '
                  f'init ({scan.crash}; console log: {kept}); booting again',
                  file=sys.stderr)
    except InfraError as e:
        print(f'wqport test: {OUTCOME[INFRA]}: {e}', file=sys.stderr)
        return INFRA

    doc = ktap.compose(scan.ktap_lines(), plan)
    status, reason = judge(scan, result, plan, args.expect_finding)
    # A run cut short (crash, timeout) still gives as many results as its
    # plan: a parser reading this document nested in another one counts by
    # plans, and would take the next results of the outer one for these.
    # The first missing one says why ('#' would start a KTAP directive).
    done = sum(1 for line in doc if ktap.TOP_RESULT.match(line))
    why = f'{OUTCOME[status]}: {reason}'.replace('#', '')
    doc += [f'not ok {n} no result' + (f' ({why})' if n == done + 1 else '')
            for n in range(done + 1, plan + 1)]
    sys.stdout.write('\n'.join(doc) + '\n')
    with open(os.path.join(rundir, 'results.ktap'), 'w') as f:
        f.write('\n'.join(doc) + '\n')
    where = f' (console log: {log})' if status != PASS else ''
    print(f'wqport test: {OUTCOME[status]}: {reason}{where}', file=sys.stderr)
    return status
