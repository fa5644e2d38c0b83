# SPDX-License-Identifier: GPL-2.0
"""Read a guest console log: crashes, findings, taint, the guest's markers."""
import re

# A crash ends the kernel (oops=panic, panic=-1 make QEMU leave at once).
CRASH = re.compile(r'Kernel panic - not syncing|^Oops:|\bOops: |kernel BUG at |'
                   r'general protection fault|BUG: unable to handle|'
                   r'stack-protector: Kernel stack is corrupted')

# Findings: the kernel survived but reported a problem.
FINDINGS = [
    ('warning', re.compile(r'^WARNING: ')),
    ('bug', re.compile(r'BUG: ')),                     # KASAN, sleeping in atomic, workqueue lockup, soft lockup
    ('lockdep', re.compile(r'possible (recursive|circular) locking|inconsistent lock state|'
                           r'lock held when returning|suspicious RCU usage|'
                           r'INFO: trying to register non-static key')),
    ('odebug', re.compile(r'ODEBUG: ')),
    ('ubsan', re.compile(r'UBSAN: ')),
    ('kmemleak', re.compile(r'unreferenced object 0x')),
    ('hung task', re.compile(r'INFO: task .* blocked for more than')),
    ('rcu stall', re.compile(r'rcu: INFO: .*detected stalls')),
]

# Taint bits that an out-of-tree, unsigned test module sets by design.
TAINT_OOT = 1 << 12        # O
TAINT_UNSIGNED = 1 << 13   # E
TAINT_LETTERS = 'PFSRMBUDAWCIOELKXT'


def taint_letters(mask):
    return ''.join(c for i, c in enumerate(TAINT_LETTERS) if mask & (1 << i))


class Scan:
    """What the console log says.  Lines before the guest's begin marker
    (the kernel's own boot) are scanned for crashes only."""

    def __init__(self, text):
        self.lines = text.splitlines()
        self.begun = False
        self.ended = False
        self.taint = None
        self.crash = None
        self.findings = []
        for line in self.lines:
            if line.startswith('wqport: begin'):
                self.begun = True
            elif line.startswith('wqport: end'):
                self.ended = True
            elif line.startswith('wqport: tainted '):
                self.taint = int(line.split()[2])
            if self.crash is None and CRASH.search(line):
                self.crash = line.strip()
            if not self.begun:
                continue
            for kind, pattern in FINDINGS:
                if pattern.search(line):
                    self.findings.append((kind, line.strip()))
                    break

    def bad_taint(self):
        """Taint other than O and E, as letters, or '' when clean."""
        if self.taint is None:
            return ''
        return taint_letters(self.taint & ~(TAINT_OOT | TAINT_UNSIGNED))

    def ktap_lines(self):
        """The guest's KTAP: lines between the markers, markers removed."""
        out, inside = [], False
        for line in self.lines:
            if line.startswith('wqport: begin'):
                inside = True
            elif line.startswith('wqport: end'):
                break
            elif inside and not line.startswith('wqport: '):
                out.append(line.rstrip('\r'))
        return out
