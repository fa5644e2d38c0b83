# SPDX-License-Identifier: GPL-2.0
"""Carry a line number from one version of a file to another."""
import difflib


def line_map(old_lines, new_lines):
    """A function mapping a 1-based line of OLD to the line of NEW that holds
    the same text, or, inside a changed region, where that region starts."""
    sm = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    opcodes = sm.get_opcodes()

    def mapping(line):
        i = line - 1
        for tag, i1, i2, j1, j2 in opcodes:
            if i1 <= i < i2 or (i1 == i2 == i):
                if tag == 'equal':
                    return j1 + (i - i1) + 1
                return j1 + 1
        return len(new_lines) or 1
    return mapping
