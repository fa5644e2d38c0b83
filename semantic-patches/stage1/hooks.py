# SPDX-License-Identifier: GPL-2.0
"""Stage 1's hooks for wqport_stage (semantic-patches/wqport_stage.py): one
whole-file analysis (wqport_tq) shared by every patch of the stage, in the
process that runs the stage rather than in each spatch."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wqport_tq  # noqa: E402
from wqport_stage import Plan  # noqa: E402


def plan(path):
    """-D wqport_blocked when every task of PATH stays on the 2.4 API
    (00-needs-human reports why), else -D wqport_checked; a mask when some
    tasks stay and others convert; the patches with nothing to do; the
    includes spatch must read when the driver's own header declares its
    tasks (the typed rules need that header's types, and spatch's token
    prefilter would skip a file that never spells tq_struct itself)."""
    blocked = wqport_tq.blocked(path)
    p = Plan(defines=['wqport_blocked' if blocked else 'wqport_checked'],
             mask=wqport_tq.needs_mask(path))
    # 06 and 01 use Python: skip their start-up when the file has nothing
    # for them (blocked: no patch changes anything)
    if blocked or not wqport_tq.bh_queue(path):
        p.skip.add('06-private-bh-queue.cocci')
    if blocked or not wqport_tq.has_initializer(path):
        p.skip.add('01-initializers.cocci')
    if wqport_tq.header_tasks(path):
        p.args.append('--disable-worth-trying-opt')
        if os.environ.get('WQPORT_INCLUDE_DIR'):
            # the headers of the run that the file includes as <...>, and theirs
            p.args += ['--recursive-includes', '-I', os.environ['WQPORT_INCLUDE_DIR']]
        elif len(wqport_tq.local_headers(path)) > 1:
            p.args.append('--recursive-includes')   # a header that includes another
        else:
            p.args.append('--local-includes')
    return p


# the copies of a run, before plan() reads any: their parse in one spatch
prepare = wqport_tq.preparse
mask = wqport_tq.mask
unmask = wqport_tq.unmask
forget = wqport_tq.forget


def report(path, names):
    """Stage 1's report: what 00-needs-human prints when it runs on PATH
    (wqport_tq's findings; the other patches report no items), read here
    rather than in a spatch process of its own."""
    if '00-needs-human.cocci' not in names:
        return []
    wqport_tq.forget(path)      # (analysed afresh, as in a spatch process)
    return wqport_tq.report_lines(path)
