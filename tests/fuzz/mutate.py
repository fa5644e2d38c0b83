# SPDX-License-Identifier: GPL-2.0
"""The fuzzer's mutation operators: ways real legacy drivers vary, applied
to a driver's text.  Each takes (text, rng) and returns the new text, or
None when the text has no place for it.  Every operator keeps the C valid
for the kernel it was valid for; the fuzzer drops a mutant whose legacy
form does not build against the shim.

The variations are those of drivers of the 2.4 and 2.6.0-2.6.19 trees:
items renamed, the item type behind a typedef or a #define (hostap's
HOSTAP_QUEUE), calls through a driver's own macro (PRISM2_SCHEDULE_TASK),
calls in do { } while (0), GNU and C99 initializers, handlers cast where
registered, return values tested, calls under LINUX_VERSION_CODE.
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
    """text with lines put after its last #include (at the top if none)."""
    last = None
    for last in INCLUDE.finditer(text):
        pass
    at = last.end() if last else 0
    return text[:at] + lines + text[at:]


def _pick(rng, seq):
    seq = list(seq)
    return rng.choice(seq) if seq else None


def rename_item(text, rng):
    """An item (a task, a work item) under another name."""
    m = _pick(rng, ITEM_DECL.finditer(text))
    if not m:
        return None
    old = m.group(3)
    new = '%s_fz%d' % (old, rng.randrange(100))
    # not in a header's name (a field called tqueue, <linux/tqueue.h>)
    return ''.join(line if line.lstrip().startswith('#include') else
                   re.sub(r'\b%s\b' % re.escape(old), new, line)
                   for line in text.splitlines(True))


def typedef_type(text, rng):
    """The item type behind a driver's typedef."""
    kind = _pick(rng, sorted({m.group(1) for m in ITEM_DECL.finditer(text)}))
    if not kind:
        return None
    name = 'fz_%s_t' % kind
    body = re.sub(r'\bstruct\s+%s\b(?!\s*\{)' % kind, name, text)
    return _after_includes(body, 'typedef struct %s %s;\n' % (kind, name))


def define_type(text, rng):
    """The item type behind a #define (hostap's HOSTAP_QUEUE)."""
    kind = _pick(rng, sorted({m.group(1) for m in ITEM_DECL.finditer(text)}))
    if not kind:
        return None
    name = 'FZ_%s' % kind.upper()
    body = re.sub(r'\bstruct\s+%s\b(?!\s*\{)' % kind, name, text)
    return _after_includes(body, '#define %s struct %s\n' % (name, kind))


def macro_call(text, rng):
    """A deferred-work call through the driver's own macro."""
    fn = _pick(rng, sorted({m.group('call').split('(')[0] for m in CALL_STMT.finditer(text)}))
    if not fn:
        return None
    macro = 'DRV_%s' % fn.upper()
    body = re.sub(r'\b%s\(' % fn, macro + '(', text)
    return _after_includes(body, '#define %s(...) %s(__VA_ARGS__)\n' % (macro, fn))


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


OPERATORS = {f.__name__: f for f in (rename_item, typedef_type, define_type, macro_call,
                                     do_while, initializer_style, handler_cast, test_result,
                                     version_guard)}
