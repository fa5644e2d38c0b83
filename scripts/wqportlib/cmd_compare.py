# SPDX-License-Identifier: GPL-2.0
"""wqport compare: build a legacy driver and its ports, run each in QEMU
under the same load with a trace, and compare the traces."""
import argparse
import contextlib
import io
import json
import os
import sys
import tempfile

from . import cmd_build, cmd_test, cmd_trace, trace_compare, trace_model, trace_read
from .paths import WqportError

SETTLE_MAX = 30


def add_parser(sub):
    p = sub.add_parser('compare', help='are a legacy driver and its ports equivalent? (QEMU, traces)',
                       description='Build LEGACY_DIR and each PORTED_DIR (without the shim where '
                       'it builds without it, else against it), run each in QEMU under the '
                       'same load with its deferred work traced (wqport trace), and compare '
                       'the traces handler by handler.  The load: load the modules, run '
                       '--script if given, wait until the driver\'s handlers have not run for '
                       '--settle seconds (30 s at most), unload.  Prints a table, a row per '
                       'handler, a column per variant, then each difference.  Exit 0: '
                       'equivalent; 1: differences (or a run failed); 2: error.')
    p.add_argument('--kernel', default='stock',
                   help='stock (the default: 6.1), 6.1, 6.12, debug, debug-kcsan or a KDIR')
    p.add_argument('--script', help='guest shell script run between load and unload')
    p.add_argument('--settle', type=int, default=2, metavar='SECONDS',
                   help='quiet time that ends the wait after the script (default 2)')
    p.add_argument('--delay-factor', type=float, default=2.0, metavar='F',
                   help='delays and rates may differ by this factor (default 2)')
    p.add_argument('--json', metavar='FILE', help='also write the comparison as JSON')
    p.add_argument('dirs', nargs='+', metavar='DIR', help='LEGACY_DIR PORTED_DIR...')
    p.set_defaults(func=run)


def build(directory, kernel):
    """(modules, shim): DIRECTORY built without the shim if it builds so,
    else against it."""
    try:
        return cmd_build.build(directory, kernel, shim=False, quiet=True), False
    except WqportError:
        pass
    return cmd_build.build(directory, kernel, shim=True), True


def run(args):
    if len(args.dirs) < 2:
        raise WqportError('give the legacy driver\'s directory and at least one port\'s')
    if args.settle < 0 or args.settle > SETTLE_MAX:
        raise WqportError(f'--settle {args.settle}: 0 to {SETTLE_MAX} seconds')
    if args.script and not os.path.isfile(args.script):
        raise WqportError(f'{args.script}: no such script')
    names, lines = [], []
    for i, d in enumerate(args.dirs):
        mods, shim = build(d, args.kernel)
        if not mods:
            raise WqportError(f'{d}: the build made no module')
        name = f'{i}-{os.path.basename(os.path.abspath(d))}'
        names.append(name)
        print(f'wqport compare: {d}: {", ".join(os.path.basename(m) for m in mods)}, '
              f'{"with" if shim else "without"} the shim', file=sys.stderr)
        lines.append(' '.join([name, '--trace', str(args.settle)] +
                              (['--script', os.path.abspath(args.script)] if args.script else []) +
                              ([] if shim else ['--no-shim']) + [os.path.abspath(m) for m in mods]))
    with tempfile.TemporaryDirectory() as tmp:
        runs = os.path.join(tmp, 'runs')
        with open(runs, 'w') as f:
            f.write('\n'.join(lines) + '\n')
        out = os.path.join(tmp, 'runs.json')
        targs = argparse.Namespace(kernel=args.kernel, runs=runs, accel='auto', log=None,
                                   append='', json=out, modules=[], script=None, file=[],
                                   expect_finding=[], no_shim=False, timeout=None, trace=None)
        with contextlib.redirect_stdout(io.StringIO()):
            status = cmd_test.run(targs)
        with open(out) as f:
            verdicts = json.load(f)
    if verdicts.get('error'):
        raise WqportError(f'the runs could not be made: {verdicts["error"]}')
    models, failed = [], []
    for name, r in zip(names, verdicts['runs']):
        if r['status'] != 0:
            failed.append(f'{name}: {r["outcome"]}: {r["reason"]} (console log: {r["log"]})')
        if not r.get('trace'):
            raise WqportError(f'{name}: no trace ({r["outcome"]}; console log: {r["log"]})')
        tr = trace_read.read(r['trace'])
        module = cmd_trace.module_of(tr, name, None,
                                     'wqport compare builds one module a directory')
        models.append(trace_model.build(tr, module))
    res = trace_compare.compare(models, names, factor=args.delay_factor)
    sys.stdout.write(trace_compare.table(res))
    for f in failed:
        print(f'run failed: {f}')
    if args.json:
        doc = trace_compare.as_json(res)
        doc['runs'] = verdicts['runs']
        with open(args.json, 'w', encoding='utf-8') as f:
            json.dump(doc, f, indent=1)
            f.write('\n')
    return 0 if res.equivalent() and not failed and status == 0 else 1
