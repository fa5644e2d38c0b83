# SPDX-License-Identifier: GPL-2.0
"""wqport_prepare: which PREPARE_WORK() calls may become INIT_WORK(), for
04-prepare-work.cocci.

PREPARE_WORK() (gone since 3.15) changed an item's handler without
touching the rest of it; INIT_WORK() reinitialises the whole item, which is
only safe where the item cannot be queued.  A PREPARE is proven safe (its
position in SAFE) when:
  - an INIT of the item comes before it on every path in its function,
    with no queueing in between, and no path from the function's start
    reaches it without that INIT (after_init(), settle_after_init());
  - it is the item's initialisation: the item has no INIT nor DECLARE in
    the file, this is its only PREPARE, it is not in a work handler, and
    nothing else in its function queues the item (prepared_once());
  - the item is idle after a flush: every queueing of it in the file is
    queue_work(Q, item) with one Q, all in the PREPARE's function, which is
    no work handler, and on every path to it a flush comes after the last
    queueing (idle_candidate(), unflushed(), settle_idle()).
The paths are the .cocci's rules; this module keeps what they find.  A
PREPARE not proven safe is reported (W119, unsafe()).

Every table is keyed by file (HANDLERS: reset by new_file()): one spatch
process may see many files.  Needs no spatch: tests/decisions drives it.
"""

import wqport_ctext as CTEXT


INITS = {}         # file -> set of item keys initialised by INIT_/DECLARE_
SAFE = set()       # (file, line, col) of PREPAREs proven safe
HANDLERS = set()   # names used as work handlers in the current file
QUEUES = {}        # file -> {item key: [(line, col, function)]} every queueing
                   # or delayed use of an item
PLAIN = {}         # file -> {(line, col) of a queue_work: its queue}
AFTER_INIT = set()  # PREPAREs after an INIT with no queueing in between
NOINIT = set()     # ... that a path from the start of the function reaches
                   # without that INIT (INIT ... PREPARE only checks the paths
                   # from the INIT): not safe
IDLE_CAND = set()  # PREPAREs whose item is queued only here, on one queue
IDLE_BAD = set()   # ... that have a path to them without a flush
PREPS = {}         # file -> {item key: number of its PREPARE_*WORK}


_TABLES = (INITS, SAFE, HANDLERS, QUEUES, PLAIN, AFTER_INIT, NOINIT, IDLE_CAND, IDLE_BAD,
           PREPS)


def configure():
    """Forget everything."""
    for t in _TABLES:
        t.clear()


def new_file():
    """A new file: forget the handlers of the last one."""
    HANDLERS.clear()


norm = CTEXT.norm


def item_key(x):
    """wqport_ctext.item_key(), or ('expr', x) for any other expression."""
    return CTEXT.item_key(x) or ('expr', norm(x))


def _at(p):
    return (p.file, p.line, p.column)


def is_safe(p):
    """Whether the PREPARE at p is proven safe."""
    return _at(p) in SAFE


# ------------------------------------------------- what the rules record
# Positions are coccilib's (file, line, column, current_element).


def record_init(W, p):
    """INIT_WORK(W, ...) or INIT_DELAYED_WORK(W, ...) at p."""
    INITS.setdefault(p.file, set()).add(item_key(W))


def record_declare(n, p):
    """DECLARE_WORK(n, ...) or DECLARE_DELAYED_WORK(n, ...) at p."""
    INITS.setdefault(p.file, set()).add(('var', n))


def after_init(p):
    """The PREPARE at p comes after an INIT of its item, no queueing in
    between."""
    AFTER_INIT.add(_at(p))


def no_init_entry(p):
    """A path from its function's start reaches the PREPARE at p without
    passing an INIT."""
    NOINIT.add(_at(p))


def settle_after_init(p):
    """Once both rules above have run for the PREPARE at p."""
    if _at(p) in AFTER_INIT and _at(p) not in NOINIT:
        SAFE.add(_at(p))


def record_prepare(W, p):
    """PREPARE_WORK(W, ...) or PREPARE_DELAYED_WORK(W, ...) at p."""
    c = PREPS.setdefault(p.file, {})
    c[item_key(W)] = c.get(item_key(W), 0) + 1


def record_handler(f):
    """f is used as a work handler in the current file."""
    HANDLERS.add(f)


def record_queueing(X, p):
    """X queued, or used as delayed work, at p."""
    QUEUES.setdefault(p.file, {}).setdefault(item_key(X), []).append(
        (p.line, p.column, p.current_element))


def prepared_once(W, p):
    """The PREPARE of W at p is the item's initialisation: no INIT or
    DECLARE of it in the file, its only PREPARE, not in a work handler,
    and its function queues it nowhere else."""
    fl, k, fn = p.file, item_key(W), p.current_element
    if k not in INITS.get(fl, set()) and PREPS.get(fl, {}).get(k) == 1 and \
            fn not in HANDLERS and \
            not any(f == fn and (l, c) != (p.line, p.column)
                    for (l, c, f) in QUEUES.get(fl, {}).get(k, [])):
        SAFE.add(_at(p))


def record_plain_queue(Q, p):
    """queue_work(Q, ...) at p."""
    PLAIN.setdefault(p.file, {})[(p.line, p.column)] = norm(Q)


def idle_candidate(W, Q, p):
    """Whether the PREPARE_WORK(W, ...) at p, W queued on Q, may be idle
    after a flush of Q: every queueing of W in the file is queue_work(Q, W)
    in the PREPARE's function, which is not a work handler."""
    fl = p.file
    qs = QUEUES.get(fl, {}).get(item_key(W), [])
    plain = PLAIN.get(fl, {})
    ok = bool(qs) and p.current_element not in HANDLERS
    for (l, c, fn) in qs:
        if fn != p.current_element or plain.get((l, c)) != norm(Q):
            ok = False
    if ok:
        IDLE_CAND.add(_at(p))
    return ok


def unflushed(p):
    """A path reaches the PREPARE at p with no flush after the last
    queueing (or from its function's start)."""
    IDLE_BAD.add(_at(p))


def settle_idle(p):
    """Once the rules above have run for the PREPARE at p."""
    if _at(p) in IDLE_CAND and _at(p) not in IDLE_BAD:
        SAFE.add(_at(p))


def unsafe(i, W):
    """The report for a PREPARE not proven safe (W119)."""
    return ('wqport[W119]: %s(%s, ...) is gone since 3.15 and the item may be queued '
            'here: give each handler its own work item, or keep one handler that '
            'dispatches on a state field' % (i, norm(W)))
