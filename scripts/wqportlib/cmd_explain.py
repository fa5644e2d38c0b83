# SPDX-License-Identifier: GPL-2.0
"""wqport explain: the page of a report item's ID."""
import sys

from . import reasons
from .paths import WqportError


def add_parser(sub):
    p = sub.add_parser('explain', help="say what a report item's ID means and what to do",
                       description='Print the page of each ID that wqport convert gives '
                       'its items (FILE:LINE: wqport[W008]: ...): what it means, why the '
                       'converter left it, what to do, and a before/after.  Without an '
                       'ID, list every ID with its title.  Exit 0, or 2 for an unknown ID.')
    p.add_argument('ids', nargs='*', metavar='ID', help='W008, w8 or 8')
    p.set_defaults(func=run)


def run(args):
    titles = reasons.titles()
    if not titles:
        raise WqportError(f'no pages in {reasons.PAGES}: is wqport installed whole?')
    if not args.ids:
        for wid, title in titles.items():
            print(f'{wid}  {title}')
        return 0
    pages = []
    for x in args.ids:
        wid = reasons.normalise(x)
        if wid not in titles:
            raise WqportError(f'{x}: no such ID (wqport explain lists them)')
        pages.append(reasons.page(wid))
    sys.stdout.write('\n'.join(pages))
    return 0
