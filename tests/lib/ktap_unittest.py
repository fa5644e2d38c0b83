# SPDX-License-Identifier: GPL-2.0
"""The unittest cases of a test script, run one by one and printed as one
KTAP document: `ok N Class: name in words`, a failure's traceback as
comment lines.  Used by tests/unit and tests/decisions."""
import sys
import unittest


def main(module_name='__main__'):
    """Run MODULE_NAME's test cases; the exit status is 0 (KTAP says)."""
    module = sys.modules[module_name]
    tests = list(unittest.defaultTestLoader.loadTestsFromModule(module))
    cases = [t for suite in tests for t in suite]
    print('KTAP version 1')
    print('1..%d' % len(cases))
    for n, case in enumerate(cases, 1):
        result = unittest.TestResult()
        case.run(result)
        name = '%s: %s' % (type(case).__name__, case._testMethodName[len('test_'):]
                           .replace('_', ' '))
        bad = result.failures + result.errors
        print('%s %d %s' % ('not ok' if bad else 'ok', n, name))
        for _, trace in bad:
            for line in trace.rstrip().splitlines():
                print('# ' + line)
    return 0
