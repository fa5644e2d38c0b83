# SPDX-License-Identifier: GPL-2.0
"""The unittest cases of a test script, run one by one and printed as one
KTAP document: `ok N Class: name in words` (`# SKIP reason` for a skipped
case), a failure's traceback as comment lines.  Used by tests/unit and
tests/decisions."""
import sys
import unittest


def main(module_name='__main__'):
    """Run MODULE_NAME's test cases.  A skipped case prints `ok N name #
    SKIP reason`, an expected failure that passed `not ok`.  The exit
    status is 1 if any case failed, else 0."""
    module = sys.modules[module_name]
    tests = list(unittest.defaultTestLoader.loadTestsFromModule(module))
    cases = [t for suite in tests for t in suite]
    print('KTAP version 1')
    print('1..%d' % len(cases))
    failed = 0
    for n, case in enumerate(cases, 1):
        result = unittest.TestResult()
        case.run(result)
        name = '%s: %s' % (type(case).__name__, case._testMethodName[len('test_'):]
                           .replace('_', ' '))
        bad = result.failures + result.errors
        if result.unexpectedSuccesses:
            bad = bad + [(case, 'an expected failure passed: the defect it marks is fixed')]
        if bad:
            failed += 1
            print('not ok %d %s' % (n, name))
        elif result.skipped:
            print('ok %d %s # SKIP %s' % (n, name, result.skipped[0][1].replace('#', '')))
        else:
            print('ok %d %s' % (n, name))
        for _, trace in bad:
            for line in trace.rstrip().splitlines():
                print('# ' + line)
    return 1 if failed else 0
