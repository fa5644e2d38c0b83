# SPDX-License-Identifier: GPL-2.0
"""gcc on one C file with a kernel's own module flags, without Kbuild.

Used where converter output is compiled by the hundred (tests/cocci/compile,
tests/convert/survey): Kbuild's make costs more than the compile of a
fragment.  The flags are those Kbuild passes for a module of KDIR (taken
once from `make V=1` of a probe module); the shim's headers come first
when asked, as `wqport build` puts them (NOSTDINC_FLAGS).  A header the
fragment names and the kernel lacks (linux/config.h, a driver's own) is an
empty stub, so that the file's own lines are what is checked.
"""
import collections
import difflib
import os
import re
import shlex
import subprocess

from . import convert_check as check
from . import paths
from .paths import TOP

DIAG = re.compile(r'^(.*?):(\d+):\d+: (error|warning): (.*)$')
NOTE = re.compile(r'^(.*?):(\d+):\d+: note: in expansion of macro')
INCLUDED = re.compile(r'^(?:In file included from|\s+from) (.*?):(\d+)[:,]')


class Compiler:
    """gcc -fsyntax-only against KDIR's headers (compat/include first when
    shim); work: a private directory for the probe and the stubs."""

    def __init__(self, kdir, work, shim=True, warnings=False):
        work = os.path.abspath(work)      # make -C KDIR M=... wants it whole
        self.kdir, self.stubs = kdir, os.path.join(work, 'stubs')
        os.makedirs(self.stubs, exist_ok=True)
        mod = os.path.join(work, 'probe')
        os.makedirs(mod, exist_ok=True)
        with open(os.path.join(mod, 'probe.c'), 'w') as f:
            f.write('#include <linux/module.h>\nMODULE_LICENSE("GPL");\n')
        with open(os.path.join(mod, 'Makefile'), 'w') as f:
            f.write('obj-m := probe.o\n')
        res = subprocess.run(['make', '-C', kdir, f'M={mod}', 'V=1', 'modules'],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             check=False)
        # the compile of probe.c among the commands of its line (Kbuild
        # chains objtool and others with ';')
        cmd = next((part.strip() for line in res.stdout.splitlines()
                    for part in line.split(';')
                    if re.search(r'\bgcc\b.*\s-c\s.*probe\.c', part)), None)
        if cmd is None:
            raise RuntimeError('cannot get the compiler flags of ' + kdir)
        # a shell command: its quoting (-DKBUILD_MODNAME='"probe"') is shell's
        words = shlex.split(cmd)
        flags, skip = [], False
        for w in words[1:]:
            if skip:
                skip = False
                continue
            if w in ('-o', '-c'):
                skip = w == '-o'
                continue
            if w.endswith('probe.c') or w.startswith('-Wp,-MMD'):
                continue
            flags.append(w)
        self.cc = words[0]
        self.flags = (['-I' + os.path.join(TOP, 'compat', 'include')] if shim else []) + flags + \
            ['-idirafter', self.stubs, '-fsyntax-only', '-fmax-errors=0',
             '-Werror=incompatible-pointer-types', '-Werror=int-conversion'] + \
            ([] if warnings else ['-w'])
        self.cwd = kdir
        # a compiler that reports nothing would pass every check: prove it
        # sees an error and (when asked) a warning in a file of its own
        bad = os.path.join(work, 'probe', 'bad.c')
        with open(bad, 'w') as f:
            f.write('#include <linux/kernel.h>\n'
                    'static void f(void) { pr_info("%lu\\n", 1); }\n'
                    'int g(void) { f(); return undeclared_here; }\n')
        kinds = {kind for _, kind, _ in self.diagnostics(bad)}
        if 'error' not in kinds or (warnings and 'warning' not in kinds):
            raise RuntimeError('the compiler of %s reports no diagnostics on a bad file: %s'
                               % (kdir, ' '.join([self.cc] + self.flags)))

    def diagnostics(self, path, extra=()):
        """(line, kind, message) of gcc's errors (and warnings, when the
        compiler was made with warnings) on path's own lines, in order;
        missing headers are stubbed first.  extra: more flags (-D...)."""
        for _ in range(60):
            res = subprocess.run([self.cc] + self.flags + list(extra) + [path], cwd=self.cwd,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 errors='replace', check=False,
                                 env=dict(os.environ, LC_ALL='C'))
            m = re.search(r'fatal error: ([^:]+): No such file or directory', res.stdout)
            if not m:
                break
            stub = os.path.join(self.stubs, m.group(1))
            os.makedirs(os.path.dirname(stub), exist_ok=True)
            open(stub, 'a').close()
        return self._parse(res.stdout, os.path.basename(path))

    @staticmethod
    def _parse(text, base):
        """gcc's diagnostics as (line, kind, message) on the file base: one
        in a header counts at the line of base that expanded the macro it
        comes from, or else at the line that included the header."""
        out, cur, inc = [], None, None
        for line in text.splitlines():
            m = INCLUDED.match(line)
            if m:
                if os.path.basename(m.group(1)) == base:
                    inc = int(m.group(2))
                continue
            m = DIAG.match(line)
            if m:
                out.append(cur)
                ours = os.path.basename(m.group(1)) == base
                # [line, kind, message, still looking for base's line]
                cur = [int(m.group(2)) if ours else inc, m.group(3), m.group(4), not ours]
                continue
            m = NOTE.match(line)
            if m and cur and cur[3] and os.path.basename(m.group(1)) == base:
                cur[0], cur[3] = int(m.group(2)), False
        out.append(cur)
        return [tuple(d[:3]) for d in out if d and d[0] is not None]

    @classmethod
    def pairs(cls, kernels, work):
        """{kernel: (against the shim, without it)} for each of KERNELS,
        warnings on; None when a kernel has no build tree."""
        out = {}
        for k in kernels:
            kdir = paths.kernel_kdir(k)
            if not kdir:
                return None
            out[k] = (cls(kdir, os.path.join(work, 'cc', k, 'shim'), True, True),
                      cls(kdir, os.path.join(work, 'cc', k, 'none'), False, True))
        return out

    def errors(self, path):
        """(line, message) of gcc's errors on path, identifiers as 'X'."""
        return [(line, re.sub(r"'[^']*'", "'X'", msg))
                for line, kind, msg in self.diagnostics(path) if kind == 'error']


# ---- what a conversion's output adds to its input's diagnostics -------
#
# Converter output is judged against its input, compiled the same way: a
# fragment's own errors (a made-up helper, a 2.4 header) are not the
# conversion's.  A diagnostic the output adds is, unless a report item
# explains it (explained(), cascade()).

QUOTED = re.compile(r"['\"]([A-Za-z_][A-Za-z0-9_]*)['\"]")
# gcc's guesses depend on what else is declared: not part of the message
GUESS = re.compile(r"; (did you mean '[^']*'\?|have '[^']*')")
LITERAL = re.compile(r'"(?:[^"\\]|\\.)*"' "|'(?:[^'\\\\]|\\\\.)*'")


def back_map(out_lines, in_lines):
    """For each line of the output (1-based), the input lines it comes
    from: the same line where unchanged, the replaced block where changed,
    the lines around an insertion."""
    sm = difflib.SequenceMatcher(None, out_lines, in_lines, autojunk=False)
    back = {}
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        for i in range(i1, i2):
            if tag == 'equal':
                back[i + 1] = {j1 + (i - i1) + 1}
            else:
                back[i + 1] = set(range(max(j1, 1), j2 + 2))
    return back


def new_diagnostics(before, after, in_text, out_text):
    """The diagnostics of after (the output's) that before (the input's)
    does not have: at the same line, or anywhere when the line changed."""
    back = back_map(out_text.split('\n'), in_text.split('\n'))
    had = collections.Counter(before)
    had_msgs = collections.Counter((k, m) for _, k, m in before)
    out = []
    for line, kind, msg in after:
        src = back.get(line, set())
        same = [j for j in src if had[(j, kind, msg)]]
        if len(src) == 1 and same:
            had[(same[0], kind, msg)] -= 1
            had_msgs[(kind, msg)] -= 1
            continue
        if len(src) != 1 and had_msgs[(kind, msg)] > 0:
            had_msgs[(kind, msg)] -= 1
            continue
        out.append((line, kind, msg, src))
    return out


# Names too common to tie a diagnostic to an item: C's words, the
# workqueue API's, and the usual names of items and their data.
COMMON = set("""auto break case char const continue default do double else enum
extern float for goto if inline int long register return short signed sizeof
static struct switch typedef union unsigned void volatile while NULL
INIT_WORK PREPARE_WORK DECLARE_WORK INIT_DELAYED_WORK DECLARE_DELAYED_WORK
work_struct delayed_work workqueue_struct tq_struct queue_work schedule_work
queue_delayed_work schedule_delayed_work cancel_delayed_work flush_workqueue
flush_scheduled_work cancel_work_sync cancel_delayed_work_sync flush_work
container_of work data dev delay queue item handler wq task""".split())
# The 2.4 task-queue API, all of which an item that leaves a file's task
# queues as they are explains (its header is gone without the shim).
API_24 = set(check.CALLS_24) | set(check.QUEUES_24) | {
    'tq_struct', 'task_queue', 'mark_bh', 'init_bh', 'remove_bh'}
LEFT_24 = re.compile(r'task queues in this file left as they are|left on the 2\.4')
WORD = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')


def explained(diag, its, in_lines, out_lines):
    """Whether a report item explains a diagnostic the output added: an
    item on an input line the diagnostic's line comes from, or an item
    that names an identifier of the diagnostic (gcc's) or of its line."""
    line, _, msg, src = diag
    if any(i in src for i, _ in its):
        return True
    named = set(QUOTED.findall(msg))
    on_line = set(WORD.findall(code(out_lines, line)))
    if any(LEFT_24.search(text) for _, text in its) and (named | on_line) & API_24:
        return True
    named, on_line = named - COMMON, on_line - COMMON
    for i, text in its:
        where = set(WORD.findall(in_lines[i - 1] if 0 < i <= len(in_lines) else ''))
        said = set(WORD.findall(text))
        if named & (where | said) or on_line & said:
            return True
    return False


def cascade(msg, known, out_lines):
    """Whether a diagnostic follows from an explained one: it names an
    identifier that an explained diagnostic's line declares (an item left
    undeclared by a 3-argument DECLARE_WORK).  A line that only uses the
    name explains nothing of it: a variable declared too late is used on
    many lines, explained or not."""
    names = set(QUOTED.findall(msg)) - COMMON
    return any(declares(code(out_lines, line), n) for line, _, _, _ in known for n in names)


NOT_A_TYPE = {'return', 'case', 'goto', 'sizeof', 'else', 'do'}


def declares(line, name):
    """Whether LINE (code) declares NAME: a DECLARE_*() of it, or NAME after
    a type (a word or a *) and before = ; , [ or )."""
    n = re.escape(name)
    if re.search(r'\b\w*DECLARE_\w*\s*\(\s*%s\b' % n, line):
        return True
    for m in re.finditer(r'(\w+)[\s*]+%s\s*[=;,\[)]' % n, line):
        if m.group(1) not in NOT_A_TYPE:
            return True
    return False


def code(lines, n):
    """Line n (1-based) of lines without its string literals."""
    return LITERAL.sub('""', lines[n - 1]) if 0 < n <= len(lines) else ''


def unexplained(before, after, in_text, out_text, items, strict=False):
    """The diagnostics (line, kind, message) of after (the output's) that
    before (the input's) lacks and that no report item explains; every
    added one when strict (stage 1's output against the shim).  items:
    (input line, text) of the report."""
    before = [(n, k, GUESS.sub('', m)) for n, k, m in before]
    after = [(n, k, GUESS.sub('', m)) for n, k, m in after]
    in_lines, out_lines = in_text.split('\n'), out_text.split('\n')
    new = new_diagnostics(before, after, in_text, out_text)
    known = [] if strict else [d for d in new if explained(d, items, in_lines, out_lines)]
    return [d[:3] for d in new if d not in known and not cascade(d[2], known, out_lines)]
