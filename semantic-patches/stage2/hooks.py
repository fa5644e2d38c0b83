# SPDX-License-Identifier: GPL-2.0
"""Stage 2's hooks for wqport_stage (semantic-patches/wqport_stage.py): an
out-of-tree driver's #if branches for kernels before 2.6.20, which no kernel
stage 2 targets compiles, are hidden from the patches (and from the report)
and left as they are (wqport_versions.hide_dead/show_dead, beside stage
1's patches)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'stage1'))
import wqport_versions  # noqa: E402
from wqport_stage import Plan  # noqa: E402


def _old_branches(path):
    with open(path, encoding='latin-1') as f:
        text = f.read()
    return any(b['hideable'] and b['kind'] != 'if0'
               for b in wqport_versions.dead_branches(text, wqport_versions.FLOOR_STAGE2))


def plan(path):
    """A mask when PATH has branches for kernels before 2.6.20."""
    return Plan(mask=_old_branches(path))


def mask(path):
    wqport_versions.hide_dead(path, wqport_versions.FLOOR_STAGE2)


unmask = wqport_versions.show_dead
report_view = _old_branches
view = mask
