# SPDX-License-Identifier: GPL-2.0
"""wqport_cancel: when cancel_delayed_work() + flush_workqueue() may become
cancel_delayed_work_sync() alone, for 06-cancel-sync.cocci.

The pair waits for the item and for everything else on the queue;
cancel_delayed_work_sync() waits for the item only.  So the flush goes
only where the item is the only one ever queued on that queue in the
file, and the queue is a static variable of the file: no other file can
queue on it (a queue in a structure, or a global, may carry items of the
module's other files: 2005 bcm43xx).  Needs no spatch: tests/decisions
drives it.
"""

import re

import wqport_ctext as CTEXT


ITEMS = {}     # (file, queue) -> set of items queued on it
ALONE = set()  # (file, line, col) of the flushes that go


def configure():
    """Forget everything."""
    ITEMS.clear()
    ALONE.clear()


norm = CTEXT.norm


def record_queueing(WQ, W, p):
    """queue_work(WQ, W) or queue_delayed_work(WQ, W, ...) at p."""
    ITEMS.setdefault((p.file, norm(WQ)), set()).add(norm(W))


def file_static(wq, file):
    """Whether queue wq is a static variable of FILE."""
    if not re.match(r'^\w+$', norm(wq)):
        return False
    try:
        with open(file, encoding='latin-1') as fh:
            text = fh.read()
    except (IOError, OSError):
        return False
    return re.search(r'\bstatic\s+struct\s+workqueue_struct\s*\*\s*%s\s*[;=]'
                     % re.escape(norm(wq)), text) is not None


def record_pair(WQ, W, p):
    """cancel_delayed_work(W) then flush_workqueue(WQ) at p: the flush
    goes when W is the only item on the file's static WQ."""
    if ITEMS.get((p.file, norm(WQ)), set()) <= {norm(W)} and file_static(WQ, p.file):
        ALONE.add((p.file, p.line, p.column))


def alone(p):
    """Whether the flush at p goes."""
    return (p.file, p.line, p.column) in ALONE
