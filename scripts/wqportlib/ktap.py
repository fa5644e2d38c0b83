# SPDX-License-Identifier: GPL-2.0
"""The run's KTAP: composed from the guest's lines, read by kunit.py's parser."""
import importlib
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


def failed_names(test, prefix='', sep='.', why=False):
    """Names of the failed tests under @test, innermost first: a failed test
    whose subtests all passed is named itself (a harness verdict such as a
    timeout is then the reason, added in parentheses when @why)."""
    names = []
    for sub in test.subtests:
        name = prefix + (sub.name or '(unnamed)')
        if not sub.ok_status():
            inner = failed_names(sub, name + sep, sep, why)
            if not inner and why:
                diag = [x.strip(' #') for x in sub.log if x.strip().startswith('#')]
                name += f': {sub.status.name.lower()}' + (f' ({diag[-1]})' if diag else '')
            names.extend(inner or [name])
    return names


def ensure_parser():
    """Make kunit.py's parser importable, before a run needs it; raises
    InfraError (an infrastructure failure, exit 6) when it cannot be had."""
    try:
        tool = paths.kunit_tool_dir()
        if tool not in sys.path:
            sys.path.insert(0, tool)
        for name in ('kunit_parser', 'kunit_printer'):
            importlib.import_module(name)
    except (ImportError, OSError, paths.WqportError) as e:
        raise paths.InfraError(f"kunit.py's KTAP parser (linux-source's "
                               f"tools/testing/kunit) is not available: {e}")


def read(lines):
    """The test tree of a KTAP document, by linux-source's kunit_parser (its
    chatter goes to a buffer)."""
    tool = paths.kunit_tool_dir()
    if tool not in sys.path:
        sys.path.insert(0, tool)
    import kunit_parser   # noqa: E402  (linux-source's own)
    import kunit_printer  # noqa: E402
    kunit_printer.stdout._output = io.StringIO()
    kunit_printer.stdout._use_color = False
    return kunit_parser.parse_run_tests(lines)


def parse(lines):
    """The verdict on a KTAP document."""
    test = read(lines)
    ok = test.status.name in ('SUCCESS', 'SKIPPED') and test.counts.errors == 0
    failed = failed_names(test)
    if test.counts.errors and not failed:
        failed = ['incomplete KTAP (fewer results than the plan, or unparsable)']
    return Verdict(ok, str(test.counts), failed)
