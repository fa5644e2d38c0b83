# SPDX-License-Identifier: GPL-2.0
"""The run's KTAP: composed from the guest's lines, read by kunit.py's parser."""
import io
import re
import sys

from . import paths

TOP_RESULT = re.compile(r'^(not ok|ok) \d+(.*)$')


def compose(guest_lines, plan):
    """KTAP document for the run: header and plan, then the guest's KTAP with
    the top level numbered in order (each module's KUnit suites and the guest
    script number themselves from 1).  Kernel messages between the tests
    (not indented, not KTAP) are left out."""
    out = ['KTAP version 1', f'1..{plan}']
    n = 0
    for line in guest_lines:
        m = TOP_RESULT.match(line)
        if m:
            n += 1
            out.append(f'{m.group(1)} {n}{m.group(2)}')
        elif line.startswith(('    ', '\t')) or line.startswith('# '):
            out.append(line)
    return out


class Verdict:
    def __init__(self, ok, summary, failed):
        self.ok = ok
        self.summary = summary
        self.failed = failed


def _failed_names(test, prefix=''):
    names = []
    for sub in test.subtests:
        name = f'{prefix}{sub.name}'
        if not sub.ok_status():
            inner = _failed_names(sub, name + '.')
            names.extend(inner or [name])
    return names


def parse(lines):
    """Read the KTAP with linux-source's kunit_parser; its chatter goes to a
    buffer, the verdict is returned."""
    tool = paths.kunit_tool_dir()
    if tool not in sys.path:
        sys.path.insert(0, tool)
    import kunit_parser   # noqa: E402  (linux-source's own)
    import kunit_printer  # noqa: E402
    kunit_printer.stdout._output = io.StringIO()
    kunit_printer.stdout._use_color = False
    test = kunit_parser.parse_run_tests(lines)
    status = test.status
    ok = status in (kunit_parser.TestStatus.SUCCESS, kunit_parser.TestStatus.SKIPPED) \
        and test.counts.errors == 0
    failed = _failed_names(test)
    if test.counts.errors and not failed:
        failed = ['incomplete KTAP (fewer results than the plan, or unparsable)']
    return Verdict(ok, str(test.counts), failed)
