# SPDX-License-Identifier: GPL-2.0
"""The fuzzer's mutation operators: ways real legacy drivers vary, applied
to a driver: its files, {name: text} (a .c, or several with the header
they share).  apply(files, name, rng) applies operator NAME: the new
files, or None when the driver has no place for it.  A local operator
takes (text, rng) and changes one file that has a place for it; a
driver-wide one (an item renamed, its type behind a typedef or a
#define, a call behind a macro) takes (files, rng) and changes every
file alike, its definitions going to the header each changed file
includes, or else into that file.  Every operator keeps the C valid
for the kernel it was valid for; the fuzzer drops a mutant whose legacy
form does not build against the shim.

The variations are those of drivers of the 2.4 and 2.6.0-2.6.19 trees:
items renamed, the item type behind a typedef or a #define (hostap's
HOSTAP_QUEUE), calls through a driver's own macro (PRISM2_SCHEDULE_TASK),
calls in do { } while (0), GNU and C99 initializers, handlers cast where
registered, return values tested, calls under LINUX_VERSION_CODE, items
queued through a pointer variable, tasks initialised field by field.
"""
import re

ITEM_DECL = re.compile(r'\bstruct\s+(tq_struct|work_struct)\s+(\*?\s*)([A-Za-z_]\w*)\s*[;=\[,]')
CALLS = ('schedule_task', 'queue_task', 'schedule_work', 'queue_work',
         'schedule_delayed_work', 'queue_delayed_work', 'run_task_queue',
         'flush_scheduled_tasks', 'flush_scheduled_work', 'cancel_delayed_work')
CALL_STMT = re.compile(r'^(?P<indent>[ \t]+)(?P<call>(?:%s)\([^;\n]*\));[ \t]*$' % '|'.join(CALLS), re.M)
REGISTRATION = re.compile(r'\b(INIT_TQUEUE|INIT_WORK|PREPARE_WORK)\(([^,()]+(?:\([^()]*\))?[^,()]*),\s*([A-Za-z_]\w*)\s*,')
INCLUDE = re.compile(r'^#include\s*[<"][^>"]+[>"][^\n]*\n', re.M)
# a designator inside an initializer's braces, never a store (x.data = d)
GNU_INIT = re.compile(r'([{,]\s*)(routine|data):\s*')
C99_INIT = re.compile(r'([{,]\s*)\.(routine|data)\s*=\s*')
RESULT_CALL = re.compile(r'^(?P<indent>[ \t]+)(?P<call>(?:schedule_work|schedule_task|queue_task)\([^;\n]*\));[ \t]*$', re.M)


def _after_includes(text, lines):
    """text with lines put after its last #include (at the top if none),
    and after the driver's own #define of a name they use (madwifi's
    `#define tq_struct tasklet_struct`: a typedef of struct tq_struct above
    it would name another type)."""
    at = 0
    for m in INCLUDE.finditer(text):
        at = m.end()
    for w in set(re.findall(r'\b[A-Za-z_]\w*\b', lines)):
        for m in re.finditer(r'^[ \t]*#[ \t]*define[ \t]+%s\b.*\n?' % re.escape(w), text, re.M):
            at = max(at, m.end())
    return text[:at] + lines + text[at:]


def _pick(rng, seq):
    seq = list(seq)
    return rng.choice(seq) if seq else None


def _define(files, out, line):
    """Put the definition LINE where each file OUT changed from FILES sees
    it: in the header of the driver that file includes (#include "H"),
    else in the file itself."""
    headers = sorted(n for n in files if n.endswith('.h'))
    for n in sorted(out):
        if out[n] == files[n]:
            continue
        home = next((h for h in headers if h == n or '"%s"' % h in files[n]), n)
        if line not in out[home]:
            out[home] = _after_includes(out[home], line)
    return out


def _each(files, fn):
    return {n: fn(t) for n, t in files.items()}


def rename_item(files, rng):
    """An item (a task, a work item) under another name, in every file."""
    m = _pick(rng, [m for n in sorted(files) for m in ITEM_DECL.finditer(files[n])])
    if not m:
        return None
    old = m.group(3)
    new = '%s_fz%d' % (old, rng.randrange(100))
    # not in a header's name (a field called tqueue, <linux/tqueue.h>)
    return _each(files, lambda text: ''.join(
        line if line.lstrip().startswith('#include') else
        re.sub(r'\b%s\b' % re.escape(old), new, line) for line in text.splitlines(True)))


def _alias(files, rng, name_of, line_of):
    kind = _pick(rng, sorted({m.group(1) for t in files.values()
                              for m in ITEM_DECL.finditer(t)}))
    if not kind:
        return None
    name = name_of(kind)
    out = _each(files, lambda t: re.sub(r'\bstruct\s+%s\b(?!\s*\{)' % kind, name, t))
    return _define(files, out, line_of(kind, name))


def typedef_type(files, rng):
    """The item type behind a driver's typedef."""
    return _alias(files, rng, lambda k: 'fz_%s_t' % k,
                  lambda k, n: 'typedef struct %s %s;\n' % (k, n))


def define_type(files, rng):
    """The item type behind a #define (hostap's HOSTAP_QUEUE)."""
    return _alias(files, rng, lambda k: 'FZ_%s' % k.upper(),
                  lambda k, n: '#define %s struct %s\n' % (n, k))


def macro_call(files, rng):
    """A deferred-work call through the driver's own macro."""
    fn = _pick(rng, sorted({m.group('call').split('(')[0] for t in files.values()
                            for m in CALL_STMT.finditer(t)}))
    if not fn:
        return None
    macro = 'DRV_%s' % fn.upper()
    out = _each(files, lambda t: re.sub(r'\b%s\(' % fn, macro + '(', t))
    return _define(files, out, '#define %s(...) %s(__VA_ARGS__)\n' % (macro, fn))


def do_while(text, rng):
    """A call statement inside do { } while (0)."""
    m = _pick(rng, CALL_STMT.finditer(text))
    if not m:
        return None
    return text[:m.start()] + '%sdo { %s; } while (0);' % (m.group('indent'), m.group('call')) + \
        text[m.end():]


def initializer_style(text, rng):
    """GNU old-style initializers become C99 ones, or the other way."""
    if GNU_INIT.search(text) and not C99_INIT.search(text):
        return GNU_INIT.sub(lambda m: '%s.%s = ' % (m.group(1), m.group(2)), text)
    if C99_INIT.search(text):
        return C99_INIT.sub(lambda m: '%s%s: ' % (m.group(1), m.group(2)), text)
    return None


def handler_cast(text, rng):
    """A handler cast to the type it is registered as."""
    m = _pick(rng, REGISTRATION.finditer(text))
    if not m:
        return None
    return text[:m.start(3)] + '(void (*)(void *))' + m.group(3) + text[m.end(3):]


def test_result(text, rng):
    """A queueing whose return value the driver tests."""
    m = _pick(rng, RESULT_CALL.finditer(text))
    if not m:
        return None
    i = m.group('indent')
    return text[:m.start()] + '%sif (!%s)\n%s\tprintk(KERN_DEBUG "fz: already queued\\n");' % (
        i, m.group('call'), i) + text[m.end():]


def version_guard(text, rng):
    """A call under a LINUX_VERSION_CODE test, true on every target kernel."""
    m = _pick(rng, CALL_STMT.finditer(text))
    if not m:
        return None
    body = text[:m.start()] + '#if LINUX_VERSION_CODE >= KERNEL_VERSION(2, 4, 0)\n' + \
        m.group(0) + '\n#endif' + text[m.end():]
    if '<linux/version.h>' in body:
        return body
    return _after_includes(body, '#include <linux/version.h>\n')


# a call whose item is its first argument, or its second (after a queue)
POINTER_CALL = re.compile(
    r'^(?P<indent>[ \t]+)(?P<fn>schedule_task|queue_task|schedule_work|schedule_delayed_work|'
    r'cancel_delayed_work|queue_work|queue_delayed_work)\((?P<queue>[^,;()\n&]+,\s*)?'
    r'&(?P<item>[A-Za-z_][\w.>-]*)(?P<rest>[,)][^;\n]*);[ \t]*$', re.M)
POINTER_TYPE = {'schedule_task': 'struct tq_struct', 'queue_task': 'struct tq_struct'}


def pointer_queue(text, rng):
    """An item queued through a pointer variable, not by its address."""
    m = _pick(rng, [m for m in POINTER_CALL.finditer(text)
                    if bool(m.group('queue')) == (m.group('fn') in ('queue_work',
                                                                   'queue_delayed_work'))])
    if not m:
        return None
    i, fn = m.group('indent'), m.group('fn')
    typ = POINTER_TYPE.get(fn, 'struct work_struct')
    return text[:m.start()] + '%s{\n%s\t%s *fz_item = &%s;\n\n%s\t%s(%sfz_item%s;\n%s}' % (
        i, i, typ, m.group('item'), i, fn, m.group('queue') or '', m.group('rest'), i) + \
        text[m.end():]


INIT_TQUEUE_STMT = re.compile(r'^(?P<indent>[ \t]+)INIT_TQUEUE\(\s*(?P<task>[^,;()]+(?:\([^()]*\))?)'
                              r'\s*,\s*(?P<fn>[^,;]+?)\s*,\s*(?P<data>[^;]+?)\s*\);[ \t]*$', re.M)


def open_coded_init(text, rng):
    """A task initialised field by field, as 2.4 drivers did before
    INIT_TQUEUE (2.4.0's serial.c): its list, sync, routine and data."""
    m = _pick(rng, INIT_TQUEUE_STMT.finditer(text))
    if not m:
        return None
    t = m.group('task').strip()
    base = t[1:].strip() + '.' if t.startswith('&') else '(%s)->' % t
    i = m.group('indent')
    lines = ['INIT_LIST_HEAD(&%slist);' % base, '%ssync = 0;' % base,
             '%sroutine = %s;' % (base, m.group('fn')), '%sdata = %s;' % (base, m.group('data'))]
    return text[:m.start()] + '\n'.join(i + ln for ln in lines) + text[m.end():]


LOCAL = (do_while, initializer_style, handler_cast, test_result, version_guard, pointer_queue,
         open_coded_init)
DRIVER_WIDE = (rename_item, typedef_type, define_type, macro_call)
OPERATORS = {f.__name__: f for f in DRIVER_WIDE + LOCAL}


def apply(files, name, rng):
    """Operator NAME on the driver FILES ({name: text}): the new files, or
    None.  A local one changes one file, picked among those it applies to."""
    op = OPERATORS[name]
    if op in DRIVER_WIDE:
        return op(files, rng)
    for n in rng.sample(sorted(files), len(files)):
        new = op(files[n], rng)
        if new is not None and new != files[n]:
            return dict(files, **{n: new})
    return None
