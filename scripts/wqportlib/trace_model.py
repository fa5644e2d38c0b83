# SPDX-License-Identifier: GPL-2.0
"""A module's deferred work in a trace (trace_read.Trace): its items, each
queued, armed, run, cancelled, whatever API it is on.

An item is what the driver queues: a native work item (its work_struct),
the driver's own timer, a legacy 2.6 item (wqcompat.ko runs it through a
shadow whose work and timer the kernel's events name: the shim's
wqcompat_work26_bind event gives them back), a 2.4 task or bottom half.
Items are named by handler, and where one handler serves several items,
by the order in which they first appear: "handler", "handler#2".

A delayed work item's timer is tied to its work by the kernel's events
themselves: the timer that expires (timer_expire_entry) and the work that
its function queues on that CPU before timer_expire_exit.
"""
from dataclasses import dataclass, field

# Kernel functions that stand between an item and its handler.
DWORK_TIMER = 'delayed_work_timer_fn'
SHIM = 'wqcompat'
ORDERED_TQ = ('tq_timer', 'tq_immediate', 'tq_disk', 'keventd', 'private')


@dataclass
class Queueing:
    """A call that made an item pending: queue_work (delay None), an arm
    (delay in jiffies), queue_task."""
    ts: float
    ctx: str
    queue: str = ''
    delay: int = None
    cpu: int = -1
    pid: int = -1


@dataclass
class Run:
    start: float
    ctx: str
    cpu: int
    end: float = None
    by: str = 'worker'
    pid: int = -1

    def same_task(self, ctx, cpu, pid):
        """Is an event in CTX on CPU by PID this run's own task?  A task may
        have moved to another CPU since the run began (a worker of an
        unbound pool, one that slept); an interrupt (a timer's expiry)
        stays on its CPU, and its pid is only the task it interrupted (the
        idle tasks of all CPUs share pid 0)."""
        return self.pid == pid and self.ctx == ctx and (ctx == 'task' or self.cpu == cpu)

    def made(self, ts, ctx, cpu, pid):
        """Was an event at TS in CTX on CPU by PID made by this run: during
        it, by its own task (same_task)?"""
        return self.start <= ts and (self.end is None or ts <= self.end) and \
            self.same_task(ctx, cpu, pid)


@dataclass
class Item:
    key: tuple
    kind: str                   # work, timer, task, bh
    handler: str
    name: str = ''
    queueings: list = field(default_factory=list)
    enqueues: list = field(default_factory=list)    # (ts, queue, pool cpu)
    runs: list = field(default_factory=list)
    arms: list = field(default_factory=list)        # (ts, timeout)
    armed: bool = False         # its timer is pending


@dataclass
class Model:
    module: str
    kernel: str = ''            # the trace's kernel release (its jiffies' HZ)
    items: list = field(default_factory=list)
    load: float = None
    unload: float = None
    after_unload: list = field(default_factory=list)   # (item name, what)
    notes: list = field(default_factory=list)

    def by_handler(self):
        out = {}
        for it in self.items:
            out.setdefault(it.handler, []).append(it)
        return out


def modules_loaded(trace):
    """The modules the trace saw loaded, wqcompat.ko aside, in order."""
    out = []
    for ev in trace.events:
        m = ev.f.get('module')
        if ev.name == 'module_load' and m != SHIM and m not in out:
            out.append(m)
    return out


class Builder:
    def __init__(self, trace, module):
        self.trace = trace
        self.m = Model(module, kernel=trace.kernel)
        self.items = {}
        self.shadow = {}        # shadow work address -> legacy item address
        self.timer_item = {}    # timer address -> item key
        self.expiring = {}      # cpu -> timer address (in its expiry)
        self.unkeyed_arms = {}  # timer address -> [(ts, timeout, ctx, cpu, pid)]
        self.per_handler = {}

    def item(self, key, kind, handler):
        it = self.items.get(key)
        if it is None:
            n = self.per_handler.get(handler, 0) + 1
            self.per_handler[handler] = n
            it = Item(key, kind, handler, handler if n == 1 else f'{handler}#{n}')
            self.items[key] = it
            self.m.items.append(it)
        return it

    def mine(self, fn):
        return fn and fn[1] == self.m.module

    def late(self, ev, it, what):
        if self.m.unload is not None and ev.ts >= self.m.unload:
            self.m.after_unload.append((it.name, what))

    def build(self):
        for ev in self.trace.events:
            getattr(self, 'on_' + ev.name, lambda ev: None)(ev)
        # a delayed item armed and never fired is tied to no item; it is
        # the module's when one of its handlers armed it
        ours = sum(1 for arms in self.unkeyed_arms.values() for a in arms
                   if self.in_a_run(a[0], a[2], a[3], a[4]))
        if ours:
            self.m.notes.append(f'{ours} delayed-work timer arm(s) by its handlers tied to no '
                                'item: the timer never fired, so no event says whose it was')
        if self.trace.hidden:
            self.m.notes.append(f'the kernel hid the pointers of {self.trace.hidden} events '
                                '(no nohash-ptr option): items that share a handler may merge')
        if self.trace.lost:
            self.m.notes.append('the trace buffer overran: events were lost '
                                '(wqport-trace --buffer-kb)')
        return self.m

    # module
    def on_module_load(self, ev):
        if ev.f['module'] == self.m.module and self.m.load is None:
            self.m.load = ev.ts

    def on_module_free(self, ev):
        if ev.f['module'] == self.m.module:
            self.m.unload = ev.ts

    # the shim's names for its shadows
    def on_wqcompat_work26_bind(self, ev):
        if not self.mine(ev.f['fn']):
            # a record another module's item took over: its shadow and
            # timer are no longer this module's
            if self.shadow.pop(ev.f['shadow'], None) is not None:
                self.timer_item.pop(ev.f['timer'], None)
            return
        self.shadow[ev.f['shadow']] = ev.f['item']
        key = ('work', ev.f['item'])
        self.item(key, 'work', ev.f['fn'][0])
        self.timer_item[ev.f['timer']] = key

    def on_wqcompat_work26_run(self, ev):
        if not self.mine(ev.f['fn']):
            return
        it = self.item(('work', ev.f['item']), 'work', ev.f['fn'][0])
        self.run_edge(ev, it, ev.f['phase'] == 'start', ev.f['by'])

    def in_a_run(self, ts, ctx, cpu, pid):
        """Was an event at TS in CTX on CPU by PID made by a run of the
        module's handlers (Run.made)?"""
        return any(r.made(ts, ctx, cpu, pid) for it in self.m.items for r in it.runs)

    def run_edge(self, ev, it, start, by='worker'):
        if start:
            it.runs.append(Run(ev.ts, ev.ctx, ev.cpu, by=by, pid=ev.pid))
            self.late(ev, it, 'ran')
            return
        # the run the same task began
        for r in reversed(it.runs):
            if r.end is None and r.same_task(ev.ctx, ev.cpu, ev.pid):
                r.end = ev.ts
                return

    def work_key(self, ev):
        """The item of a workqueue event, or None when not the module's."""
        w = ev.f['work']
        if w in self.shadow:
            return ('work', self.shadow[w])
        if self.mine(ev.f.get('fn')):
            return ('work', w)
        if ('work', w) in self.items and ev.f['fn'][1] == SHIM:
            return ('work', w)  # a bound legacy item the kernel queued itself
        return None

    # the kernel's workqueue events
    def on_workqueue_queue_work(self, ev):
        key = self.work_key(ev)
        t = self.expiring.get(ev.cpu)
        if t is not None and key is not None:
            self.timer_item[t] = key
            for ts, timeout, ctx, cpu, pid in self.unkeyed_arms.pop(t, []):
                self.arm(self.items.get(key) or self.new_work(ev, key), ts, timeout, ctx,
                         cpu, pid, fired=True)
        if key is None:
            return
        it = self.items.get(key) or self.new_work(ev, key)
        it.enqueues.append((ev.ts, ev.f['wq'], int(ev.f['pcpu'])))
        if t is None:       # not by a timer: a queue_work() call
            it.queueings.append(Queueing(ev.ts, ev.ctx, ev.f['wq'], cpu=ev.cpu, pid=ev.pid))
        self.late(ev, it, 'queued')

    def new_work(self, ev, key):
        return self.item(key, 'work', ev.f['fn'][0])

    def on_workqueue_execute_start(self, ev):
        if ev.f['work'] in self.shadow or ev.f['fn'][1] == SHIM:
            return      # the shim's wqcompat_work26_run names the handler
        if self.mine(ev.f['fn']):
            self.run_edge(ev, self.new_work(ev, ('work', ev.f['work'])), True)

    def on_workqueue_execute_end(self, ev):
        it = self.items.get(('work', ev.f['work']))
        if it and ev.f['work'] not in self.shadow:
            self.run_edge(ev, it, False)

    # timers: the driver's own, and delayed work's
    def arm(self, it, ts, timeout, ctx, cpu, pid, fired=False):
        """An arm of IT's timer; FIRED: known only now that it expired."""
        it.arms.append((ts, timeout))
        it.queueings.append(Queueing(ts, ctx, delay=timeout, cpu=cpu, pid=pid))
        it.armed = it.armed or not fired

    def on_timer_start(self, ev):
        t, fn = ev.f['timer'], ev.f['fn']
        timeout = int(ev.f['timeout']) if 'timeout' in ev.f else None
        if self.mine(fn):
            it = self.item(('timer', t), 'timer', fn[0])
            self.arm(it, ev.ts, timeout, ev.ctx, ev.cpu, ev.pid)
            self.late(ev, it, 'armed')
        elif fn[0] == DWORK_TIMER:
            key = self.timer_item.get(t)
            if key in self.items:
                self.arm(self.items[key], ev.ts, timeout, ev.ctx, ev.cpu, ev.pid)
                self.late(ev, self.items[key], 'armed')
            else:
                self.unkeyed_arms.setdefault(t, []).append((ev.ts, timeout, ev.ctx, ev.cpu,
                                                            ev.pid))

    def timer_owner(self, t):
        it = self.items.get(('timer', t))
        if it is None:
            it = self.items.get(self.timer_item.get(t))
        return it

    def on_timer_cancel(self, ev):
        # logged too when a timer is taken off to expire, just before
        # timer_expire_entry, and when mod_timer() moves it: an item is
        # simply no longer armed (an arm never fired stays in unkeyed_arms)
        it = self.timer_owner(ev.f['timer'])
        if it is not None:
            it.armed = False

    def on_timer_expire_entry(self, ev):
        t = ev.f['timer']
        it = self.timer_owner(t)
        if it is not None:
            it.armed = False
        if self.mine(ev.f['fn']):
            self.run_edge(ev, self.item(('timer', t), 'timer', ev.f['fn'][0]), True)
        elif ev.f['fn'][0] == DWORK_TIMER:
            self.expiring[ev.cpu] = t

    def on_timer_expire_exit(self, ev):
        t = ev.f['timer']
        self.expiring.pop(ev.cpu, None)
        it = self.items.get(('timer', t))
        if it is not None:
            self.run_edge(ev, it, False)

    # 2.4: tasks and bottom halves, the shim's events only
    def on_wqcompat_tq_queue(self, ev):
        if ev.f['how'] != 'queued' or not self.mine(ev.f['fn']):
            return
        it = self.item(('task', ev.f['task']), 'task', ev.f['fn'][0])
        it.queueings.append(Queueing(ev.ts, ev.ctx, ev.f['queue'], cpu=ev.cpu, pid=ev.pid))
        it.enqueues.append((ev.ts, ev.f['queue'], -1))
        self.late(ev, it, 'queued')

    def on_wqcompat_tq_run(self, ev):
        if self.mine(ev.f['fn']):
            self.run_edge(ev, self.item(('task', ev.f['task']), 'task', ev.f['fn'][0]), True)

    def on_wqcompat_tq_done(self, ev):
        it = self.items.get(('task', ev.f['task']))
        if it is not None:
            self.run_edge(ev, it, False)

    def on_wqcompat_bh_run(self, ev):
        if self.mine(ev.f['fn']):
            self.run_edge(ev, self.item(('bh', ev.f['nr']), 'bh', ev.f['fn'][0]), True)

    def on_wqcompat_bh_done(self, ev):
        it = self.items.get(('bh', ev.f['nr']))
        if it is not None:
            self.run_edge(ev, it, False)


def build(trace, module):
    """The Model of MODULE's deferred work in TRACE."""
    return Builder(trace, module).build()
