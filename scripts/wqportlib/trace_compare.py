# SPDX-License-Identifier: GPL-2.0
"""Are two or more variants of a driver equivalent by their traces?

The first variant is the reference (the legacy driver); each other is
compared with it handler by handler (trace_model.Model):
  - how many items a handler serves, and how often it ran: exactly where
    every queueing came from a task, else only whether it ran at all (a
    queueing from an interrupt that finds its item pending adds no run,
    and how many do depends on timing); never more often than queued;
    for an item that re-queues or re-arms itself (it runs as long as the
    driver is loaded), whether it still does, and its rate;
  - an item's runs never concurrent with each other;
  - the order the old API promised: the items of one 2.4 task queue, of
    one single-thread 2.6 queue, run one at a time in the order queued;
  - the contexts a handler runs in, and that queue it;
  - the delay between arming a delayed item and its run (median, within
    the factor, or within SLACK seconds);
  - nothing queued, armed or run after the unload; nothing armed or
    running at it;
  - a handler gone from a variant, unless it was a bottom half that only
    ran the driver's tasks (their conversion queues them directly): then
    a note.
Each difference is a sentence.
"""
from dataclasses import dataclass, field
import statistics

from . import trace_model

# Below this, delays are the scheduler's and TCG's, not the driver's.
SLACK = 0.05
# The one change stage 1 makes to what a task does (and 2.6's ports
# accepted): docs/semantic-patches-stage1.md, "What changes".
TASK_TO_WORK = ('a 2.4 task converted to a work item runs in process context, and two '
                'tasks of one queue may run at once (docs/semantic-patches-stage1.md)')


@dataclass
class Summary:
    """What a variant's trace says of one handler."""
    items: int = 0
    runs: int = 0
    periodic: bool = False
    rate: float = None          # runs a second, for a periodic item
    run_ctx: tuple = ()
    queue_ctx: tuple = ()
    self_concurrent: int = 0    # the most runs of one item at once
    delay: float = None         # median seconds from an arm to its run
    timeouts: tuple = ()        # the jiffies asked for
    after_unload: tuple = ()
    left: tuple = ()            # "armed", "running" at the unload
    never_ran: int = 0
    queueings: int = 0
    extra_runs: int = 0         # runs no queueing explains


@dataclass
class Difference:
    handler: str
    variant: str
    what: str
    text: str
    expected: str = ''          # where the conversion documents the change

    def json(self):
        return {'handler': self.handler, 'variant': self.variant,
                'what': self.what, 'text': self.text, 'expected': self.expected}


@dataclass
class Result:
    names: list
    handlers: list
    summaries: list             # per variant: {handler: Summary}
    differences: list = field(default_factory=list)
    notes: list = field(default_factory=list)    # per variant: [str]

    def equivalent(self):
        return not any(not d.expected for d in self.differences)


def overlaps(runs):
    """The most runs in progress at once among RUNS (those with an end)."""
    edges = []
    for r in runs:
        if r.end is not None:
            edges += [(r.start, 1), (r.end, -1)]
    most = now = 0
    for _, d in sorted(edges, key=lambda e: (e[0], e[1])):
        now += d
        most = max(most, now)
    return most


def inside_own_run(it, q):
    """Was queueing Q made by the item's own handler (same task, during a
    run)?"""
    return any(r.made(q.ts, q.ctx, q.cpu, q.pid) for r in it.runs)


def last_run_requeued(it):
    if not it.runs:
        return False
    last = max(it.runs, key=lambda r: r.start)
    return any(last.made(q.ts, q.ctx, q.cpu, q.pid) for q in it.queueings)


def delays(it):
    """Seconds from each arm to the run that followed it."""
    out = []
    for ts, _ in it.arms:
        after = [r.start for r in it.runs if r.start >= ts]
        if after:
            out.append(min(after) - ts)
    return out


def summarise(model, items):
    s = Summary(items=len(items))
    s.runs = sum(len(it.runs) for it in items)
    s.run_ctx = tuple(sorted({r.ctx for it in items for r in it.runs}))
    # (its own handler's queueings are the re-queueing compared below)
    s.queue_ctx = tuple(sorted({q.ctx for it in items for q in it.queueings
                                if not inside_own_run(it, q)}))
    s.self_concurrent = max((overlaps(it.runs) for it in items), default=0)
    # re-queueing itself for as long as the driver is loaded: its last run
    # queued it again (an item that re-queues itself a set number of times
    # stops doing so), and more than once
    s.periodic = any(sum(inside_own_run(it, q) for q in it.queueings) >= 2 and
                     last_run_requeued(it) for it in items)
    if s.periodic:
        starts = sorted(r.start for it in items for r in it.runs)
        if len(starts) >= 3 and starts[-1] > starts[0]:
            s.rate = (len(starts) - 1) / (starts[-1] - starts[0])
    d = [x for it in items for x in delays(it)]
    if d:
        s.delay = statistics.median(d)
    s.timeouts = tuple(sorted({t for it in items for _, t in it.arms if t is not None}))
    s.after_unload = tuple(sorted({what for name, what in model.after_unload
                                   if name in {it.name for it in items}}))
    left = set()
    if model.unload is not None:
        for it in items:
            if it.armed:
                left.add('armed')
            if any(r.end is None and r.start < model.unload and it.kind in ('work', 'timer')
                   for r in it.runs):
                left.add('running')
    s.left = tuple(sorted(left))
    s.queueings = sum(len(it.queueings) for it in items)
    s.never_ran = max(0, s.queueings - s.runs)
    # a queueing runs its item once: a work item or task run more often
    # than it was queued ran twice for one queueing
    s.extra_runs = sum(max(0, len(it.runs) - len(it.queueings)) for it in items
                       if it.kind in ('work', 'task'))
    return s


def ordered_groups(model):
    """{queue: [item names]}: items the reference ran on a queue that ran
    one item at a time in order (a 2.4 task queue; a 2.6 single-thread
    queue, unbound: pool cpu -1), every enqueue of theirs on that queue."""
    groups = {}
    for it in model.items:
        queues = {(q, cpu) for _, q, cpu in it.enqueues}
        if len(queues) != 1:
            continue
        (q, cpu), = queues
        if (it.kind == 'task' and q in trace_model.ORDERED_TQ) or \
                (it.kind == 'work' and cpu == -1):
            groups.setdefault(q, []).append(it.name)
    return {q: names for q, names in groups.items() if len(names) > 1}


def order_faults(model, names):
    """Sentences: where the items NAMES ran beside each other, or out of
    the order they were queued in."""
    items = [it for it in model.items if it.name in set(names)]
    out = []
    runs = sorted(((r, it.name) for it in items for r in it.runs), key=lambda x: x[0].start)
    for (a, an), (b, bn) in zip(runs, runs[1:]):
        if an != bn and a.end is not None and b.start < a.end:
            out.append(f'{bn} began while {an} ran (their old queue ran one at a time)')
            break
    # FIFO: each run takes its item's oldest pending enqueue; an older
    # pending enqueue of another item means it was passed
    events = []
    for it in items:
        events += [(ts, 0, it.name) for ts, _, _ in it.enqueues]
        events += [(r.start, 1, it.name) for r in it.runs]
    pending = {n: [] for n in names}
    for ts, kind, name in sorted(events):
        if kind == 0:
            pending[name].append(ts)
            continue
        if not pending[name]:
            continue
        mine = pending[name].pop(0)
        older = [n for n, p in pending.items() if n != name and p and p[0] < mine]
        if older:
            out.append(f'{name} ran before {older[0]}, queued before it '
                       '(their old queue ran them in the order queued)')
            break
    return out


def dispatchers(model):
    """Handlers of MODEL's bottom halves that ran the driver's private task
    queue (2.4's "run_task_queue(&my_queue)" bottom half, which a
    conversion replaces by queueing the tasks themselves): some of its
    runs ran the driver's tasks, and those tasks ran nowhere else."""
    def inside(x, runs):
        return any(r.cpu == x.cpu and r.start <= x.start <= r.end for r in runs)
    out = set()
    tasks = [x for it in model.items if it.kind == 'task' for x in it.runs]
    for it in model.items:
        if it.kind != 'bh' or not it.runs or any(r.end is None for r in it.runs):
            continue
        ran = [x for x in tasks if inside(x, it.runs)]
        private = [x for t in model.items if t.kind == 'task' and
                   {q for _, q, _ in t.enqueues} == {'private'} for x in t.runs]
        if ran and private and all(inside(x, it.runs) for x in private):
            out.add(it.handler)
    return out


def ctx_words(ctxs):
    return ', '.join(ctxs) or 'none'


def compare(models, names, factor=2.0):
    """A Result of MODELS (trace_model.Model, the reference first), named
    NAMES."""
    handlers = []
    for m in models:
        for it in m.items:
            if it.handler not in handlers:
                handlers.append(it.handler)
    sums = [{h: summarise(m, items) for h, items in m.by_handler().items()} for m in models]
    res = Result(names, handlers, sums, notes=[m.notes for m in models])
    ref = sums[0]
    groups = ordered_groups(models[0])
    bh_tasks = {it.handler for it in models[0].items if it.kind == 'task'}
    for vi, (m, vs) in enumerate(zip(models, sums)):
        vname = names[vi]
        for h in handlers:
            s = vs.get(h)
            r = ref.get(h)

            def diff(what, text, h=h, vname=vname):
                res.differences.append(Difference(h, vname, what, text))

            def late(asked, what, text, h=h, vi=vi):
                if asked:
                    res.notes[vi].append(f'{h}: {text}{asked}: the scheduler\'s lateness, '
                                         'not a difference')
                else:
                    diff(what, text)
            if s is not None:
                if s.extra_runs:
                    diff('extra-runs', f'ran {s.runs} times for {s.queueings} queueings '
                         '(a queueing runs its item once)')
                if s.after_unload:
                    diff('after-unload', f'{" and ".join(s.after_unload)} after the module was unloaded')
                if s.left and (r is None or vi == 0 or set(s.left) - set(r.left)):
                    diff('left', f'{" and ".join(s.left)} when the module was unloaded')
            if vi == 0:
                continue
            if r is None:
                # (a handler of a third variant only is that variant's)
                if s is not None:
                    diff('new', f'runs here ({s.runs} runs) and not in {names[0]}')
                continue
            if s is None:
                if r.runs and h in dispatchers(models[0]):
                    res.notes[vi].append(f'{h}: the bottom half that ran the driver\'s private '
                                         f'task queue in {names[0]}, gone here; '
                                         'its tasks are compared on their own')
                elif r.runs:
                    diff('missing', f'never appears here; ran {r.runs} times in {names[0]}')
                continue
            if s.items != r.items:
                diff('items', f'serves {s.items} items, {r.items} in {names[0]}')
            # the same delays asked on the same kernel (its HZ): a timing
            # that differs is the scheduler's lateness (a loaded emulator
            # doubles it), not the driver's
            asked = (f' for the same delay asked ({", ".join(map(str, s.timeouts))} jiffies)'
                     if m.kernel and m.kernel == models[0].kernel and s.timeouts and
                     s.timeouts == r.timeouts else '')
            if r.periodic and s.periodic:
                if r.rate and s.rate and not (1 / factor <= s.rate / r.rate <= factor):
                    late(asked, 'rate', f're-arms itself at {s.rate:.1f} runs/s, '
                         f'{r.rate:.1f} in {names[0]}')
            elif r.periodic != s.periodic:
                diff('rearm', ('re-queues itself here, not in ' if s.periodic else
                               'no longer re-queues itself; it did in ') + names[0])
            elif s.runs != r.runs and not s.extra_runs and (min(s.runs, r.runs) == 0 or
                                       (r.queue_ctx == s.queue_ctx == ('task',))):
                # queueings from interrupts that find the item pending add
                # no run, and how many do depends on timing: their counts
                # are compared only for runs or none
                diff('runs', f'ran {s.runs} times, {r.runs} in {names[0]}')
            if s.self_concurrent > 1 and r.self_concurrent <= 1:
                diff('self-concurrent', f'{s.self_concurrent} runs of one item at once '
                     f'(never in {names[0]})')
            if r.run_ctx and s.run_ctx and s.run_ctx != r.run_ctx:
                res.differences.append(Difference(
                    h, vname, 'run-context', f'runs in {ctx_words(s.run_ctx)} context, '
                    f'{ctx_words(r.run_ctx)} in {names[0]}',
                    TASK_TO_WORK if h in bh_tasks and s.run_ctx == ('task',) else ''))
            if r.queue_ctx and s.queue_ctx and s.queue_ctx != r.queue_ctx:
                diff('queue-context', f'queued from {ctx_words(s.queue_ctx)}, '
                     f'{ctx_words(r.queue_ctx)} in {names[0]}')
            if r.delay is not None and s.delay is not None and \
                    abs(s.delay - r.delay) > SLACK and \
                    not (1 / factor <= (s.delay + 1e-9) / (r.delay + 1e-9) <= factor):
                late(asked, 'delay', f'runs {s.delay * 1000:.0f} ms after it is armed, '
                     f'{r.delay * 1000:.0f} ms in {names[0]}')
        if vi == 0:
            continue
        for q, group in groups.items():
            for text in order_faults(m, group):
                res.differences.append(Difference(', '.join(sorted(set(
                    handler_of(models[0], n) for n in group))), vname, 'order',
                    f'{text}; on {q} in {names[0]}',
                    TASK_TO_WORK if q in trace_model.ORDERED_TQ else ''))
    return res


def handler_of(model, name):
    for it in model.items:
        if it.name == name:
            return it.handler
    return name


def cell(s):
    """A table cell: what one variant did with one handler."""
    if s is None:
        return '-'
    parts = [f'{s.runs} runs' if not s.periodic or s.rate is None else
             f'{s.runs} runs, {s.rate:.1f}/s']
    if s.items > 1:
        parts.append(f'{s.items} items')
    if s.run_ctx and s.run_ctx != ('task',):
        parts.append(ctx_words(s.run_ctx))
    if s.delay is not None:
        parts.append(f'{s.delay * 1000:.0f} ms')
    return ', '.join(parts)


def table(res):
    """The comparison as text: a row per handler, a column per variant,
    then each difference."""
    rows = [['handler'] + res.names]
    for h in res.handlers:
        rows.append([h] + [cell(s.get(h)) for s in res.summaries])
    width = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = ['  '.join(c.ljust(w) for c, w in zip(r, width)).rstrip() for r in rows]
    out.append('')
    for d in res.differences:
        if not d.expected:
            out.append(f'{d.variant}: {d.handler}: {d.text}')
    for d in res.differences:
        if d.expected:
            out.append(f'{d.variant}: {d.handler}: {d.text} (expected: {d.expected})')
    if res.equivalent():
        out.append('equivalent' + ('' if not res.differences else
                                   ': the differences above are the conversion\'s own'))
    for name, notes in zip(res.names, res.notes):
        for n in notes:
            out.append(f'note: {name}: {n}')
    return '\n'.join(out) + '\n'


def as_json(res):
    return {
        'variants': res.names,
        'equivalent': res.equivalent(),
        'handlers': {h: {n: (vars(s[h]) if h in s else None)
                         for n, s in zip(res.names, res.summaries)}
                     for h in res.handlers},
        'differences': [d.json() for d in res.differences],
        'notes': dict(zip(res.names, res.notes)),
    }
