# SPDX-License-Identifier: GPL-2.0
"""Command line of scripts/wqport."""
import argparse
import sys

from . import cmd_build, cmd_compare, cmd_convert, cmd_explain, cmd_test, cmd_trace, paths
from .paths import WqportError


class Version(argparse.Action):
    """--version, read only when asked for."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f'wqport {paths.version()}')
        parser.exit()


def parser():
    """wqport's argument parser, with its subcommands."""
    parser = argparse.ArgumentParser(prog='wqport', description=(
        'Carry legacy deferred-work drivers (2.4 task queues, the 2.6.0-2.6.19 '
        'workqueue API) onto modern kernels.'))
    parser.add_argument('--version', action=Version, nargs=0,
                        help="print wqport's version and exit")
    sub = parser.add_subparsers(dest='command', metavar='COMMAND')
    for mod in (cmd_convert, cmd_build, cmd_test, cmd_compare, cmd_trace, cmd_explain):
        mod.add_parser(sub)
    return parser


def main(argv):
    parser_ = parser()
    args = parser_.parse_args(argv)
    if not getattr(args, 'func', None):
        parser_.print_help(sys.stderr)
        return 2
    try:
        return args.func(args)
    except WqportError as e:
        print(f'wqport {args.command}: error: {e}', file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
