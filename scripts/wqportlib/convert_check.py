# SPDX-License-Identifier: GPL-2.0
"""What wqport convert checks in the stages' output: nothing of the old APIs
left without an item, no handler cast to another function type, and every
work field's type agreeing with its uses across the files of one run."""
import os
import re
import sys

from . import paths

sys.path.insert(0, os.path.join(paths.TOP, 'semantic-patches', 'stage1'))
import wqport_tq  # noqa: E402
import wqport_versions  # noqa: E402

# What must not be left in a file the stages converted: stage 1's input API
# (after stage 1), the 2.6.0-2.6.19 forms that 6.1 lacks (after stage 2).
CALLS_24 = ('queue_task', 'schedule_task', 'INIT_TQUEUE', 'PREPARE_TQUEUE', 'run_task_queue',
            'flush_scheduled_tasks', 'DECLARE_TASK_QUEUE')
CALLS_26 = ('INIT_WORK', 'DECLARE_WORK', 'PREPARE_WORK', 'INIT_DELAYED_WORK',
            'DECLARE_DELAYED_WORK', 'PREPARE_DELAYED_WORK', 'cancel_rearming_delayed_work',
            'cancel_rearming_delayed_workqueue')
LEFT_24 = re.compile(r'\b(%s)\s*\(|\bstruct\s+tq_struct\b' % '|'.join(CALLS_24))
LEFT_26 = re.compile(r'\b(%s)\s*\(' % '|'.join(CALLS_26))
QUEUES_24 = ('tq_timer', 'tq_immediate', 'tq_disk', 'tq_scheduler', 'TQ_ACTIVE')
NAMED_QUEUE_24 = re.compile(r'\b(%s)\b' % '|'.join(QUEUES_24))
# a driver's alias of an old call, "#define FLUSH_SCHEDULED_WORK
# flush_scheduled_work": the call is hidden from the patches at its uses
ALIAS_24 = wqport_tq.bare_alias(CALLS_24)
ALIAS_26 = wqport_tq.bare_alias(CALLS_26 + ('flush_scheduled_work',))
BRACE_WORK = re.compile(r'\bstruct\s+(?:work_struct|delayed_work)\s+\w+\s*(?:\[[^\]]*\]\s*)*'
                        r'=\s*\{')
# stage 2 replaces it (07) or reports it (W121): 6.12 warns at each use
FLUSH_SYSTEM = re.compile(r'\bflush_scheduled_work\s*\(')
ARITY_26 = {'INIT_WORK': 2, 'DECLARE_WORK': 2, 'INIT_DELAYED_WORK': 2,
            'DECLARE_DELAYED_WORK': 2}      # more arguments: the 2.6.0-2.6.19 form
REGISTER = re.compile(r'\b(?:INIT_TQUEUE|PREPARE_TQUEUE|INIT_WORK|PREPARE_WORK|DECLARE_WORK|'
                      r'INIT_DELAYED_WORK|PREPARE_DELAYED_WORK|DECLARE_DELAYED_WORK)\s*\(')
# a cast to a function type, or to void *, right before a name
CAST = re.compile(r'\(\s*[\w\s]*\(\s*\*\s*\)\s*\([^()]*\)\s*\)|\(\s*void\s*\*\s*\)')
FN_TYPEDEF = re.compile(r'\btypedef\s+[\w\s*]*\(\s*\*\s*(\w+)\s*\)\s*\(')


def arg_spans(text, open_paren):
    """(start, end) of each top-level argument of the call whose ( is at
    open_paren (to the end of TEXT when it is not closed)."""
    depth, start, out = 0, open_paren + 1, []
    for i in range(open_paren, len(text)):
        c = text[i]
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
            if depth == 0:
                out.append((start, i))
                return out
        elif c == ',' and depth == 1:
            out.append((start, i))
            start = i + 1
    return out + [(start, len(text))]


def args_of(text, open_paren):
    """The top-level arguments of the call whose ( is at open_paren."""
    out = [text[s:e].strip() for s, e in arg_spans(text, open_paren)]
    return out[:-1] if out and not out[-1] else out


def names_24(live):
    """The 2.4 task-queue calls, type, aliases and queues that live (a
    live_text()) still names, sorted: what needs <linux/tqueue.h>."""
    found = {m.group(0).split('(')[0].strip() for rx in (LEFT_24, ALIAS_24, NAMED_QUEUE_24)
             for m in rx.finditer(live)}
    return sorted(found)


def live_text(text, stages):
    """text as the compiler of a target kernel reads it: comments and
    literals blanked (a message that names schedule_task() is no call), and
    #if 0 or branches of older kernels than the stages' output blanked
    (stage 1: before 2.6.0; stage 2: before 2.6.20)."""
    floor = wqport_versions.FLOOR_STAGE2 if 'stage2' in stages else wqport_versions.FLOOR_STAGE1
    return wqport_versions.blank_dead(wqport_tq.blank_text(text), floor)


def _statement(text, off):
    """The statement around offset off (between ; { } or a whole line)."""
    a = max(text.rfind(c, 0, off) for c in ';{}\n#') + 1
    ends = [i for i in (text.find(c, off) for c in ';{}') if i >= 0]
    return text[a:min(ends) + 1 if ends else len(text)]


def alias_arities(texts, stages):
    """{macro: the most arguments a use gives it} for each bare alias of
    INIT_WORK, DECLARE_WORK, INIT_DELAYED_WORK or DECLARE_DELAYED_WORK in
    texts (the outputs of one run): an alias whose every use has the modern
    arity hides nothing old."""
    lives = [live_text(t, stages) for t in texts]
    names = {m.group(1) for t in lives for m in ALIAS_26.finditer(t) if m.group(2) in ARITY_26}
    out = {}
    if not names:
        return out
    use = re.compile(r'\b(%s)\s*\(' % '|'.join(sorted(names)))
    for t in lives:
        for m in use.finditer(t):
            out[m.group(1)] = max(out.get(m.group(1), 0), len(args_of(t, m.end() - 1)))
    return out


def leftovers(text, stages, kept=(), tasks=(), tq_macro=False, arities=None):
    """(line, what) for each construct the stages should have converted that
    is still in text (their output), outside comments, strings, #defines'
    names and dead branches: the 2.4 calls and type, a field of a task
    (tasks: the names declared struct tq_struct in the input), and after
    stage 2 the 3-argument macros and an alias of an old call (but not of a
    macro every use of which, arities: alias_arities() of the run, has the
    modern arity); a statement that names a task stage 1 kept on the 2.4 API
    (kept) has its item already.  tq_macro: tq_struct is the driver's macro
    for another type (no task, no 2.4 call)."""
    text = live_text(text, stages)
    out = []
    arities = arities or {}
    for rx in (ALIAS_24, ALIAS_26) if 'stage2' in stages else (ALIAS_24,):
        for m in rx.finditer(text):
            if rx is ALIAS_26 and m.group(2) in ARITY_26 and \
                    arities.get(m.group(1), 99) <= ARITY_26[m.group(2)]:
                continue
            out.append((text.count('\n', 0, m.start()) + 1,
                        f'{m.group(2)}, behind the macro {m.group(1)},'))
    # a #define of the old name itself (a driver's own compat macro) is no
    # use, nor what its body uses when the name is one of the APIs' own
    # (wqport_tq.OWN_API: a fallback for kernels without it)
    for a, b in wqport_tq.own_api_defines(text):
        text = text[:a] + re.sub(r'[^\n]', ' ', text[a:b]) + text[b:]
    text = re.sub(r'^([ \t]*#[ \t]*define[ \t]+)(\w+)',
                  lambda m: m.group(1) + ' ' * len(m.group(2)), text, flags=re.M)
    keep = {n.split(':')[-1] for n in kept}
    for m in LEFT_24.finditer(text) if not tq_macro else ():
        if keep and set(re.findall(r'[A-Za-z_]\w*', _statement(text, m.start()))) & keep:
            continue
        out.append((text.count('\n', 0, m.start()) + 1, (m.group(1) + '()') if m.group(1)
                    else 'struct tq_struct'))
    names = set(tasks) - keep if not tq_macro else set()
    if names:
        rx = r'\b(%s)\s*(?:\[[^\]]*\]\s*)?(?:\.|->)\s*(routine|sync|list)\b' % \
            '|'.join(sorted(re.escape(n) for n in names))
        for m in re.finditer(rx, text):
            out.append((text.count('\n', 0, m.start()) + 1, f'{m.group(1)}.{m.group(2)} of '
                        'a task'))
        # (declared through the driver's own name for the type, which
        # stage 1 retypes: hostap's HOSTAP_QUEUE)
        rx = r'\b(%s)\s*(?:\[[^\]]*\]\s*)*=\s*\{' % \
            '|'.join(sorted(re.escape(n) for n in names))
        for m in re.finditer(rx, text):
            # (a task's layout: its routine named, or the list head first;
            # another file's variable of that name is no task)
            body = text[m.end() - 1:m.end() + 400]
            if re.match(r'\{\s*\{', body) or re.search(r'\broutine\b', body.split(';')[0]):
                out.append((text.count('\n', 0, m.start()) + 1,
                            f'a brace initializer of the task {m.group(1)}'))
    # a brace initializer of a work item: no kernel since 2.6.0 lays one out
    # as a task's positional or named fields (DECLARE_WORK() initialises it)
    for m in BRACE_WORK.finditer(text):
        out.append((text.count('\n', 0, m.start()) + 1,
                    'a brace initializer of a struct work_struct'))
    if 'stage2' in stages:
        for m in FLUSH_SYSTEM.finditer(text):
            out.append((text.count('\n', 0, m.start()) + 1, 'flush_scheduled_work()'))
        for m in LEFT_26.finditer(text):
            name = m.group(1)
            if name in ARITY_26 and len(args_of(text, m.end() - 1)) <= ARITY_26[name]:
                continue
            out.append((text.count('\n', 0, m.start()) + 1,
                        f'{name}() with a data argument' if name in ARITY_26 else f'{name}()'))
    return sorted(set(out))


def handler_names(text):
    """Names the file gives as task routines or work handlers."""
    names = set(re.findall(r'(?:\.|->|\b)routine\s*(?::|=(?!=))\s*(?:\([^)]*\)\s*)*(\w+)', text))
    for m in REGISTER.finditer(text):
        a = args_of(text, m.end() - 1)
        if len(a) >= 2:
            f = re.sub(r'^(?:\([^()]*(?:\([^()]*\)[^()]*)*\)\s*)*&?\s*', '', a[1])
            if re.match(r'^\w+$', f):
                names.add(f)
    return names


def handler_casts(text, stages):
    """(line, handler) for each cast of a handler to a function type (or to
    void *) that the output still holds: kCFI checks the type of every
    indirect call, and the shim or the kernel calls the handler through
    its own type."""
    live = live_text(text, stages)
    handlers = handler_names(live)
    # the parameter the call through the handler's pointer passes
    want = r'struct\s+work_struct\s*\*\s*\w*' if 'stage2' in stages else r'void\s*\*\s*\w*'
    # a cast to a typedef of a function pointer type: the kernel's
    # work_func_t, or the driver's own
    names = {'work_func_t'} | set(FN_TYPEDEF.findall(live))
    cast = re.compile(CAST.pattern + r'|\(\s*(?:%s)\s*\)' % '|'.join(sorted(names)))
    out = []
    for m in cast.finditer(live):
        rest = live[m.end():]
        n = re.match(r'\s*(?:' + cast.pattern + r'\s*)*\(?\s*&?\s*(\w+)', rest)
        if not n or n.group(1) not in handlers:
            continue
        d = re.search(r'\bvoid\s+%s\s*\(([^()]*)\)\s*[{;]' % re.escape(n.group(1)), live)
        if d and re.match(r'^\s*%s\s*$' % want, d.group(1)):
            continue                    # the cast changes nothing
        out.append((live.count('\n', 0, m.start()) + 1, n.group(1)))
    return sorted(set(out))


# ---- types across the files of a run ---------------------------------------

DECL = re.compile(r'\bstruct\s+(tq_struct|work_struct|delayed_work)\s+(?:\*\s*)?(\w+)\s*(\[[^\]]*\])?'
                  r'\s*[;,=)]')
MORE_NAMES = re.compile(r'\s*(?:\*\s*)?(\w+)\s*(?:\[[^\]]*\]\s*)?[;,=]')
DECLARER = re.compile(r'\b(DECLARE_WORK|DECLARE_DELAYED_WORK)\s*\(\s*(\w+)')
# call -> (index of its item argument, the type the item must have)
ITEM_CALLS = {
    'INIT_DELAYED_WORK': (0, 'delayed_work'), 'PREPARE_DELAYED_WORK': (0, 'delayed_work'),
    'schedule_delayed_work': (0, 'delayed_work'), 'schedule_delayed_work_on': (1, 'delayed_work'),
    'queue_delayed_work': (1, 'delayed_work'), 'queue_delayed_work_on': (2, 'delayed_work'),
    'cancel_delayed_work': (0, 'delayed_work'), 'cancel_delayed_work_sync': (0, 'delayed_work'),
    'flush_delayed_work': (0, 'delayed_work'), 'delayed_work_pending': (0, 'delayed_work'),
    'mod_delayed_work': (1, 'delayed_work'), 'to_delayed_work': (0, 'work_struct'),
    'INIT_WORK': (0, 'work_struct'), 'PREPARE_WORK': (0, 'work_struct'),
    'queue_work': (1, 'work_struct'), 'queue_work_on': (2, 'work_struct'),
    'schedule_work': (0, 'work_struct'), 'schedule_work_on': (1, 'work_struct'),
    'cancel_work_sync': (0, 'work_struct'), 'flush_work': (0, 'work_struct'),
    'work_pending': (0, 'work_struct'),
    'queue_task': (0, 'tq_struct'), 'schedule_task': (0, 'tq_struct'),
    'INIT_TQUEUE': (0, 'tq_struct'), 'PREPARE_TQUEUE': (0, 'tq_struct'),
}
CALL = re.compile(r'\b(%s)\s*\(' % '|'.join(sorted(ITEM_CALLS, key=len, reverse=True)))
# in the 2.6.0-2.6.19 API (stage 1's output, on the shim) delayed work is a
# plain work_struct; the shim also takes the modern struct delayed_work
ACCEPT_26 = {'delayed_work': {'work_struct', 'delayed_work'},
             'work_struct': {'work_struct', 'delayed_work'}}


def declarations(text):
    """name -> set of types (tq_struct, work_struct, delayed_work) that text
    declares it with (fields, variables, pointers, DECLARE_*WORK)."""
    out = {}
    for m in DECL.finditer(text):
        out.setdefault(m.group(2), set()).add(m.group(1))
        # struct work_struct poll, *reset, ring[4];: the names after the first
        e = m.end() - 1
        while text[e] == ',':
            n = MORE_NAMES.match(text, e + 1)
            if not n:
                break
            out.setdefault(n.group(1), set()).add(m.group(1))
            e = n.end() - 1
    for m in DECLARER.finditer(text):
        out.setdefault(m.group(2), set()).add('delayed_work' if 'DELAYED' in m.group(1)
                                              else 'work_struct')
    return out


def _item_name(arg, need):
    """(name, type needed) of an item argument: &p->f, &s.f[i], p, &d->f.work
    (the work_struct inside delayed work f: f needs delayed_work)."""
    a = re.sub(r'\[[^\]]*\]', '', arg)
    a = re.sub(r'^[&(\s]+|[)\s]+$', '', a)
    parts = [x for x in re.split(r'\s*(?:->|\.)\s*', a) if x]
    if not parts or not all(re.match(r'^\w+$', x) for x in parts):
        return None
    if len(parts) > 1 and parts[-1] == 'work' and need == 'work_struct':
        return parts[-2], 'delayed_work'
    return parts[-1], need


def uses(text):
    """(line, name, type the use needs) for each use of a work item or task
    in text whose type the call tells; a use &x.f.work gives two readings,
    (f, delayed_work) and (work, work_struct), one after the other."""
    out = []
    for m in CALL.finditer(text):
        idx, need = ITEM_CALLS[m.group(1)]
        args = args_of(text, m.end() - 1)
        if len(args) <= idx:
            continue
        if m.group(1) == 'to_delayed_work':
            continue                    # its container_of() below says which field
        r = _item_name(args[idx], need)
        if r:
            out.append((text.count('\n', 0, m.start()) + 1, r[0], r[1]))
            if r[1] != need:
                # &p->f.work: the work_struct inside delayed work f, or a
                # plain field named work of f's structure (struct art_step
                # { struct work_struct work; } steps[N]): the second as well
                out.append((text.count('\n', 0, m.start()) + 1, 'work', need))
    for m in re.finditer(r'container_of\s*\(\s*to_delayed_work\s*\([^()]*\)\s*,[^,]*,\s*'
                         r'([\w.]+)\s*\)', text):
        out.append((text.count('\n', 0, m.start()) + 1, m.group(1).split('.')[0],
                    'delayed_work'))
    return out


QUEUEING = re.compile(r'\b(queue_work(?:_on)?|schedule_work(?:_on)?|queue_delayed_work(?:_on)?|'
                      r'schedule_delayed_work(?:_on)?|queue_task|schedule_task)\s*\(')
# a call that sets an item up: INIT_WORK, INIT_TQUEUE, PREPARE_WORK, and
# a driver's own wrapper (HOSTAP_QUEUE_INIT, my_setup_work)
SETUP_CALL = re.compile(r'\b(\w*(?:INIT|[Ii]nit|PREPARE|[Pp]repare|SETUP|[Ss]etup)\w*)\s*\(')


def _set_up(texts):
    """The names of the items or tasks some text of texts sets up: by a
    setup call (any argument), DECLARE_*WORK, an initializer (its own, a
    designator of an enclosing one, __WORK_INITIALIZER), a store of its
    handler."""
    names = set()
    for text in texts:
        for m in SETUP_CALL.finditer(text):
            for arg in args_of(text, m.end() - 1):
                r = _item_name(arg, 'work_struct')
                if r:
                    names.update({r[0], re.split(r'\W+', re.sub(r'[&(\s]', '', arg))[-1]})
        names.update(m.group(2) for m in DECLARER.finditer(text))
        names.update(re.findall(r'\b(\w+)\s*(?:\[[^\]]*\]\s*)*[:=]\s*(?:\{|__(?:DELAYED_)?WORK_INITIALIZER)',
                                text))
        names.update(re.findall(r'\b(\w+)\s*(?:\[[^\]]*\]\s*)*(?:\.|->)\s*(?:routine|func)\s*=(?!=)',
                                text))
        # its address kept in a pointer (work = &bcm->periodic_work), which
        # may set it up: not followed
        names.update(re.findall(r'(?<![=!<>])=\s*&\s*\(?[\w.>\[\]-]*?(\w+)\s*\)?\s*[;,)]', text))
    return names


def never_set_up(texts):
    """(index in texts, line, name) of the first queueing of each item or
    task that texts (the outputs of one group) declare but none sets up:
    its handler is never set, and a kernel since 2.6.20 calls NULL."""
    known = _set_up(texts)
    declared = set()
    for text in texts:
        declared.update(declarations(text))
    out, seen = [], set()
    for i, text in enumerate(texts):
        for m in QUEUEING.finditer(text):
            args = args_of(text, m.end() - 1)
            k = ITEM_CALLS[m.group(1)][0]
            if len(args) <= k:
                continue
            r = _item_name(args[k], 'work_struct')
            if not r or r[0] in known or r[0] in seen or r[0] not in declared or \
                    not args[k].lstrip().startswith('&'):
                continue                # (declared outside the run: not known here)
            seen.add(r[0])
            out.append((i, text.count('\n', 0, m.start()) + 1, r[0]))
    return out


def agree(need, declared, to):
    """Whether an item declared with types declared can serve a use that
    needs need, in the output API to ('2.6' or 'modern')."""
    ok = ACCEPT_26.get(need, {need}) if to == '2.6' else {need}
    return bool(ok & declared)


# The private workqueue stage 2's rule 7 gives a file: declared, allocated,
# destroyed (semantic-patches/stage2/07-flush-scheduled-work.cocci).
PRIVATE_DECL = re.compile(r'^static struct workqueue_struct \*(\w+_wq\d*);$', re.M)


def private_wq_unallocated(before, after):
    """(line, name) of a private workqueue stage 2 declared (in AFTER, not
    in BEFORE) that the output uses but never allocates: destroying or
    queueing on a NULL workqueue would crash, so the file must not be taken
    as converted."""
    out = []
    for m in PRIVATE_DECL.finditer(after):
        name = m.group(1)
        if re.search(r'\b%s\b' % re.escape(name), before):
            continue
        if not re.search(r'\b%s\s*=\s*alloc_workqueue\s*\(' % re.escape(name), after):
            out.append((after.count('\n', 0, m.start()) + 1, name))
    return out


def private_wq_undeclared(before, after):
    """(line, name) of a private workqueue stage 2 allocated (in AFTER, not
    in BEFORE: `NAME = alloc_workqueue("%s", 0, 0, KBUILD_MODNAME)`) that
    the output never declares: the file would not build."""
    out = []
    for m in re.finditer(r'^\s*(\w+_wq\d*) = alloc_workqueue\("%s", 0, 0, KBUILD_MODNAME\);$',
                         after, re.M):
        name = m.group(1)
        if re.search(r'\b%s\b' % re.escape(name), before) or \
                re.search(r'\bstruct\s+workqueue_struct\s*\*\s*%s\s*;' % re.escape(name), after):
            continue
        out.append((after.count('\n', 0, m.start()) + 1, name))
    return out


# the calls of ITEM_CALLS that queue a work item (its queue is the argument
# before the item; schedule_*: the system queue)
QUEUES_ITEM = ('queue_work', 'queue_delayed_work', 'schedule_work', 'schedule_delayed_work',
               'mod_delayed_work')
FLUSH_CALL = re.compile(r'\b(flush_workqueue|flush_scheduled_work)\s*\(')
SYSTEM_WQ = 'system_wq'


def _key(expr):
    """The last name of an item or queue expression (&bcm->periodic_work:
    periodic_work): what a registration, a queueing and a flush share."""
    names = re.findall(r'[A-Za-z_]\w*', expr)
    return names[-1] if names else None


def self_flushes(text):
    """(line, handler, queue, path) for each handler the (stage 2) output
    TEXT registers for an item it queues on a workqueue that the handler
    flushes, itself or through functions of TEXT it calls (path: the
    names from the handler to the flush): since 2.6.36 the flush waits
    for the handler's own run.  line: the flush's."""
    text = live_text(text, ('stage2',))
    bodies = wqport_tq.function_bodies(text)
    handlers = {}                       # item key -> handlers
    for m in REGISTER.finditer(text):
        a = args_of(text, m.end() - 1)
        if len(a) >= 2 and re.match(r'^\s*&?\s*\w+\s*$', a[1].replace('&', '')):
            handlers.setdefault(_key(a[0]), set()).add(a[1].strip().lstrip('&').strip())
    queues = {}                         # item key -> queue keys
    for m in CALL.finditer(text):
        name = m.group(1)
        if not name.startswith(QUEUES_ITEM):
            continue
        i = ITEM_CALLS[name][0]
        a = args_of(text, m.end() - 1)
        if len(a) > i:
            q = SYSTEM_WQ if name.startswith('schedule_') else _key(a[i - 1])
            queues.setdefault(_key(a[i]), set()).add(q)
    flushes, calls = {}, {}             # function -> {queue: line}, callees
    for fn, (a, b) in bodies.items():
        body = text[a:b]
        for m in FLUSH_CALL.finditer(body):
            q = SYSTEM_WQ if m.group(1) == 'flush_scheduled_work' else \
                _key(' '.join(args_of(body, m.end() - 1)[:1]))
            flushes.setdefault(fn, {}).setdefault(q, text.count('\n', 0, a + m.start()) + 1)
        calls[fn] = {c for c in re.findall(r'\b([A-Za-z_]\w*)\s*\(', body)
                     if c in bodies and c != fn}
    out = []
    for item, hs in sorted(handlers.items()):
        for h in sorted(hs):
            for q in sorted(queues.get(item, ())):
                # breadth first: the shortest path from h to a flush of q
                seen, todo = {h: [h]}, [h]
                while todo:
                    fn = todo.pop(0)
                    if q in flushes.get(fn, {}):
                        out.append((flushes[fn][q], h, q, seen[fn]))
                        break
                    for c in sorted(calls.get(fn, ())):
                        if c not in seen:
                            seen[c] = seen[fn] + [c]
                            todo.append(c)
    return sorted(set((ln, h, q, tuple(p)) for ln, h, q, p in out))
