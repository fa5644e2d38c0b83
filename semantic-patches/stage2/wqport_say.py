# SPDX-License-Identifier: GPL-2.0
"""wqport_say: the report items of a stage-2 module, each said once.

An item is `wqport[ID]: REASON` at a position (docs/reasons/ID.md); in
spatch's report and org modes it is printed through coccilib, in patch mode
only kept (a patch run says nothing).  Every item said stays in `said`, in
order, for tests/decisions.
"""


class Reporter:
    """say() for one module's rules."""

    def __init__(self):
        self.seen = set()       # (file, line, column, message)
        self.said = []          # (position, message), in order
        self.output = None      # fn(position, message), or None

    def reset(self, output=None):
        """Forget what was said; OUTPUT prints from now on."""
        self.seen.clear()
        del self.said[:]
        self.output = output

    def set_mode(self, mode):
        """spatch's mode: report and org print through coccilib."""
        if mode == 'report':
            import coccilib.report
            self.output = coccilib.report.print_report
        elif mode == 'org':
            import coccilib.org
            self.output = coccilib.org.print_todo

    def say(self, p, wid, msg):
        """Report MSG at P once, under its stable ID WID."""
        msg = 'wqport[%s]: %s' % (wid, msg)
        k = (p.file, p.line, p.column, msg)
        if k in self.seen:
            return
        self.seen.add(k)
        self.said.append((p, msg))
        if self.output:
            self.output(p, msg)
