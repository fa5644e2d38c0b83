# SPDX-License-Identifier: GPL-2.0
"""A wqport-trace file (trace-record.sh) read into events.

The file is tracefs text (the `trace` file, irq-info on) under a head of
"# " lines and the symbols of the modules the recorder saw: the kernel
names a module's function only while the module is loaded, so an event
read after the unload gives an address, which the symbols name again.
Only the events the recorder enables are read; other lines are skipped.
"""
import re
from dataclasses import dataclass, field

# "  comm-pid  [cpu] flags  ts: event: body", a TGID column optional
LINE = re.compile(r'^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+(?:\(\s*[-\d]+\)\s+)?'
                  r'\[(?P<cpu>\d+)\]\s+(?P<flags>\S{4,6})\s+'
                  r'(?P<ts>\d+\.\d+):\s+(?P<event>\w+):\s?(?P<body>.*)$')

# What each event's text gives: the kernel's TP_printk formats of 5.x-6.x
# and wqcompat.ko's (compat/tq_trace.h, compat/work26_trace.h).
BODY = {
    'workqueue_queue_work': r'work struct=(?P<work>\S+) function=(?P<fn>.+?) '
                            r'workqueue=(?P<wq>\S+) req_cpu=\d+ cpu=(?P<pcpu>-?\d+)',
    'workqueue_execute_start': r'work struct (?P<work>\S+): function (?P<fn>.+)$',
    'workqueue_execute_end': r'work struct (?P<work>\S+)(?:: function (?P<fn>.+))?$',
    'timer_start': r'timer=(?P<timer>\S+) function=(?P<fn>.+?) expires=\d+'
                   r'(?: \[timeout=(?P<timeout>-?\d+)\])?',
    'timer_cancel': r'timer=(?P<timer>\S+)',
    'timer_expire_entry': r'timer=(?P<timer>\S+) function=(?P<fn>.+?) now=\d+',
    'timer_expire_exit': r'timer=(?P<timer>\S+)',
    'module_load': r'(?P<module>\S+)',
    'module_free': r'(?P<module>\S+)',
    'wqcompat_tq_queue': r'task=(?P<task>\S+) queue=(?P<queue>\w+)\(\S+\) '
                         r'routine=(?P<fn>.+) (?P<how>queued|already-queued)$',
    'wqcompat_tq_run': r'task=(?P<task>\S+) queue=(?P<queue>\w+) '
                       r'routine=(?P<fn>.+) data=\S+$',
    'wqcompat_tq_done': r'task=(?P<task>\S+) routine=(?P<fn>.+)$',
    'wqcompat_bh_run': r'bh=(?P<nr>\d+) routine=(?P<fn>.+)$',
    'wqcompat_bh_done': r'bh=(?P<nr>\d+) routine=(?P<fn>.+)$',
    'wqcompat_work26_bind': r'item=(?P<item>\S+) shadow=(?P<shadow>\S+) '
                            r'timer=(?P<timer>\S+) handler=(?P<fn>.+)$',
    'wqcompat_work26_run': r'item=(?P<item>\S+) handler=(?P<fn>.+) '
                           r'by=(?P<by>\w+) (?P<phase>start|end)$',
}
BODY = {k: re.compile(v) for k, v in BODY.items()}

HIDDEN = '(____ptrval____)'


class TraceError(Exception):
    """A file that is not a trace wqport can read."""


@dataclass
class Event:
    """One event: when, where, in what context, and its fields (fn as
    (name, module), module '' for the kernel's own)."""
    ts: float
    cpu: int
    pid: int
    comm: str
    ctx: str        # 'hardirq', 'softirq' or 'task'
    name: str
    f: dict


@dataclass
class Trace:
    kernel: str = ''
    command: str = ''
    symbols: dict = field(default_factory=dict)     # address -> (name, module)
    events: list = field(default_factory=list)
    hidden: int = 0         # events whose pointers the kernel hid
    lost: bool = False      # the buffer overran


def context(flags):
    """The context an event was recorded in, from the irq-info column
    ("d.s2." or "d.s2": hardirq/softirq is its third character)."""
    c = flags[2] if len(flags) > 2 else '.'
    if c in 'hH':
        return 'hardirq'
    if c in 'sb':
        return 'softirq'
    return 'task'


def symbol(text, symbols):
    """("name", "module") of %ps text: "name [module]", "name", or an
    address that SYMBOLS names."""
    text = text.strip()
    m = re.match(r'^(\S+) \[(\S+)\]$', text)
    if m:
        return m.group(1), m.group(2)
    if re.match(r'^0x[0-9a-f]+$', text):
        return symbols.get(int(text, 16), (text, ''))
    return text, ''


def read_symbols(lines):
    """/proc/kallsyms lines of modules: {address: (name, module)}."""
    out = {}
    for line in lines:
        m = re.match(r'^([0-9a-f]+) \w (\S+)\s+\[(\S+)\]', line)
        if m and int(m.group(1), 16):
            out[int(m.group(1), 16)] = (m.group(2), m.group(3))
    return out


def parse(text):
    """A Trace of a wqport-trace file's TEXT."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith('# wqport-trace '):
        raise TraceError('not a wqport trace (its first line is not "# wqport-trace 1")')
    tr = Trace()
    part = 'head'
    syms = []
    for line in lines[1:]:
        if part != 'trace' and line.startswith('# '):
            word, _, rest = line[2:].partition(' ')
            if word in ('symbols', 'trace'):
                part = word
            elif word == 'kernel':
                tr.kernel = rest
            elif word == 'command':
                tr.command = rest
            continue
        if part == 'symbols':
            syms.append(line)
            continue
        if part != 'trace':
            continue
        if 'LOST' in line and 'EVENTS' in line:
            tr.lost = True
            continue
        m = LINE.match(line)
        if not m:
            continue
        body = BODY.get(m.group('event'))
        if body is None:
            continue
        b = body.match(m.group('body'))
        if not b:
            continue
        tr.events.append(Event(float(m.group('ts')), int(m.group('cpu')),
                               int(m.group('pid')), m.group('comm').strip(),
                               context(m.group('flags')), m.group('event'),
                               {k: v for k, v in b.groupdict().items() if v is not None}))
        if HIDDEN in m.group('body'):
            tr.hidden += 1
    if part != 'trace':
        raise TraceError('no "# trace" section: the recording did not finish')
    tr.symbols = read_symbols(syms)
    for ev in tr.events:
        if 'fn' in ev.f:
            ev.f['fn'] = symbol(ev.f['fn'], tr.symbols)
    tr.events.sort(key=lambda e: e.ts)
    return tr


def read(path):
    """The Trace in the file PATH."""
    with open(path, encoding='utf-8', errors='replace') as f:
        return parse(f.read())
