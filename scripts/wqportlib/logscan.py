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
    # a printk from inside a trace event (qemu.cmdline(): trace_clock)
    ('trace clock', re.compile(r'Ring buffer clock went backwards')),
    # The shim accepted work it then could not run, or refused work that the
    # old API would have run: lost work, whatever the caller was told.
    ('lost work', re.compile(r'wqcompat: .*: (not queued|(handler unknown, )?not run)$')),
]



def boot_findings(text):
    """The first crash or finding of a whole log (a boot's), as 'KIND: LINE',
    or None."""
    for line in text.splitlines():
        if CRASH.search(line):
            return f'a crash: {line.strip()}'
        for kind, pattern in FINDINGS:
            if pattern.search(line):
                return f'{kind}: {line.strip()}'
    return None


# Taint bits that an out-of-tree, unsigned test module sets by design.
TAINT_OOT = 1 << 12        # O
TAINT_UNSIGNED = 1 << 13   # E
TAINT_TEST = 1 << 18       # N: KUnit ran (the debug kernel's real KUnit)
TAINT_EXPECTED = TAINT_OOT | TAINT_UNSIGNED | TAINT_TEST
TAINT_WARN = 1 << 9        # W: only when a WARN was expected
TAINT_LETTERS = 'PFSRMBUDAWCIOELKXTN'


def taint_letters(mask):
    return ''.join(c for i, c in enumerate(TAINT_LETTERS) if mask & (1 << i))


class Scan:
    """What a console log says (a whole boot's, or a run's part of it).
    Lines before a run's begin marker (the kernel's own boot) are scanned
    for crashes only.  The taint is what the run added (guest-init.sh)."""

    def __init__(self, text):
        self.lines = text.splitlines()
        self.begun = False
        self.ended = False
        self.taint = None
        self.crash = None
        self.findings = []        # (kind, line, context)
        self.expected = []        # findings --expect-finding accepted
        for i, line in enumerate(self.lines):
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
                    self.findings.append((kind, line.strip(), self.own_lines(i)))
                    break

    def own_lines(self, i):
        """The lines of the finding at line I: a WARN's from its "cut here"
        line (its message comes between) to its WARNING: line, whose
        [module] names where it fired; any other's, its line.  Never the
        lines after it: "Modules linked in:" names every module loaded,
        whatever fired."""
        if self.lines[i].startswith('WARNING: '):
            for j in range(i - 1, max(-1, i - 12), -1):
                if 'cut here' in self.lines[j]:
                    return '\n'.join(self.lines[j:i + 1])
        return self.lines[i]

    def expect(self, regexes):
        """Accept the findings that one of REGEXES matches (in the
        finding's own lines: own_lines()).  Returns the regexes that
        matched none."""
        unseen = []
        for rx in regexes:
            pattern = re.compile(rx)
            hits = [f for f in self.findings if pattern.search(f[2])]
            if not hits:
                unseen.append(rx)
            self.findings = [f for f in self.findings if f not in hits]
            self.expected.extend(hits)
        return unseen

    def bad_taint(self):
        """Taint other than O and E, as letters, or '' when clean.  An
        expected WARN's W taint is expected too."""
        if self.taint is None:
            return ''
        allowed = TAINT_EXPECTED
        if any(kind == 'warning' for kind, _, _ in self.expected):
            allowed |= TAINT_WARN
        return taint_letters(self.taint & ~allowed)

    def ktap_lines(self):
        """The guest's KTAP: lines between the markers, markers removed."""
        out, inside = [], False
        for i, line in enumerate(self.lines):
            if line.startswith('wqport: begin'):
                inside = True
            elif line.startswith('wqport: end'):
                break
            elif inside and not line.startswith('wqport: '):
                out.append(line.rstrip('\r'))
        return out
