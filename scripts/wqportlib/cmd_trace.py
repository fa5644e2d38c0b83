# SPDX-License-Identifier: GPL-2.0
"""wqport trace: record a module's deferred work on a real machine, and
compare the traces of two variants of a driver."""
import json
import os
import sys

from . import trace_compare, trace_model, trace_read
from .paths import WqportError

RECORDER = os.path.join(os.path.dirname(os.path.realpath(__file__)), 'trace-record.sh')


def add_parser(sub):
    p = sub.add_parser('trace', help="record a driver's deferred work, compare two recordings",
                       description="Record the deferred work of a kernel module (the "
                       "kernel's workqueue, timer and module events, and wqcompat.ko's own) "
                       "while a command runs, on any Linux 5.x/6.x machine, and compare the "
                       "traces of a legacy driver and its port.")
    tsub = p.add_subparsers(dest='trace_command', metavar='SUBCOMMAND')
    r = tsub.add_parser('record', help='record while COMMAND runs (root; a POSIX shell script)',
                        description='Run COMMAND with the events on and write the trace.  '
                        'The recorder is a shell script of its own (busybox is enough): on '
                        'a board without wqport, copy PREFIX/bin/wqport-trace (make install) '
                        'and run it with the same arguments.  Exit: COMMAND\'s status, or 2.')
    r.add_argument('-o', '--output', default='wqport.trace', metavar='FILE',
                   help='the trace file (default: wqport.trace)')
    r.add_argument('--module', action='append', default=[], metavar='NAME',
                   help="the driver's module (repeatable): its symbols are kept, and "
                   "--settle waits for its work")
    r.add_argument('--settle', type=int, metavar='SECONDS',
                   help='after COMMAND, wait until the module\'s handlers have not run '
                   'for SECONDS (at most --max-wait)')
    r.add_argument('--max-wait', type=int, default=30, metavar='SECONDS',
                   help='the longest --settle waits (default 30)')
    r.add_argument('--buffer-kb', type=int, default=8192, metavar='KB',
                   help="the trace buffer per CPU (default 8192)")
    r.add_argument('cmd', nargs='+', metavar='-- COMMAND',
                   help='what to run: load the module, use the device, unload it')
    r.set_defaults(func=record)
    c = tsub.add_parser('compare', help='compare the traces of variants of a driver',
                        description='Compare the deferred work of a driver in two or more '
                        'traces, the first the reference (the legacy driver), handler by '
                        'handler: runs, runs of one item never concurrent, the order the '
                        'old API promised, contexts, delays, nothing left or run after the '
                        'unload.  Prints a table and each difference.  Exit 0: equivalent; '
                        '1: differences; 2: error.')
    c.add_argument('traces', nargs='+', metavar='TRACE', help='wqport-trace files (2 or more)')
    c.add_argument('--module', metavar='NAME',
                   help="the driver's module (default: the one each trace loads)")
    c.add_argument('--delay-factor', type=float, default=2.0, metavar='F',
                   help='delays and rates may differ by this factor (default 2)')
    c.add_argument('--json', metavar='FILE', help="also write the comparison as JSON ('-': stdout)")
    c.set_defaults(func=compare)
    p.set_defaults(func=lambda args: (p.print_help(sys.stderr), 2)[1])


def record(args):
    cmd = list(args.cmd)
    if cmd and cmd[0] == '--':
        cmd = cmd[1:]
    argv = ['sh', RECORDER, 'record', '-o', args.output, '--buffer-kb', str(args.buffer_kb),
            '--max-wait', str(args.max_wait)]
    for m in args.module:
        argv += ['--module', m]
    if args.settle is not None:
        argv += ['--settle', str(args.settle)]
    os.execvp('sh', argv + ['--'] + cmd)


def module_of(trace, path, module, hint='give --module'):
    """MODULE, or the one driver module TRACE (read from PATH) loads;
    none or several: an error ending in HINT."""
    if module:
        return module
    loaded = trace_model.modules_loaded(trace)
    if len(loaded) != 1:
        raise WqportError(f'{path}: {"no module" if not loaded else "several modules"} '
                          f'loaded in the trace ({", ".join(loaded) or "none"}): {hint}')
    return loaded[0]


def models(paths, module):
    out = []
    for path in paths:
        try:
            tr = trace_read.read(path)
        except (OSError, trace_read.TraceError) as e:
            raise WqportError(f'{path}: {e}') from None
        out.append(trace_model.build(tr, module_of(tr, path, module)))
    return out


def compare(args):
    if len(args.traces) < 2:
        raise WqportError('give two traces or more: the reference first')
    res = trace_compare.compare(models(args.traces, args.module),
                                [os.path.basename(p) for p in args.traces],
                                factor=args.delay_factor)
    sys.stdout.write(trace_compare.table(res))
    if args.json:
        text = json.dumps(trace_compare.as_json(res), indent=1) + '\n'
        if args.json == '-':
            sys.stdout.write(text)
        else:
            with open(args.json, 'w', encoding='utf-8') as f:
                f.write(text)
    return 0 if res.equivalent() else 1
