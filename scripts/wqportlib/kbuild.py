# SPDX-License-Identifier: GPL-2.0
"""kbuild: the one way wqport builds kernel modules out of tree.

Used by scripts/kbuild (wqport's own modules: wqcompat.ko, the test
modules, the samples; for make, the tests and the benchmarks) and by
`wqport build` (a user's driver).  The sources are mirrored as symbolic
links into a build directory, so that objects for different kernels (and
different flags) never mix and the source tree gets none; then Kbuild's
`make -C KDIR M=OUT modules`, its output kept in a log beside the objects.
Linted builds add W=1 and sparse, and any finding fails them: `wqport build
--lint` runs sparse on every file (C=2); scripts/kbuild lints every build
of wqport's own modules as it compiles (C=1, see make()).
"""

import os
import re
import subprocess
from typing import NamedTuple

# what Kbuild prints for a compiler's, sparse's or modpost's finding
FINDING = re.compile(r': (?:warning|error):|^WARNING:', re.M)
LINT_FLAGS = {'all': ['W=1', 'C=2'], 'compiled': ['W=1', 'C=1']}
# left in a build directory while a 'compiled' lint's make runs
BUILDING = '.wqport-building'
# build products a mirror must not link back into the source tree
PRODUCTS = ('.o', '.ko', '.cmd', '.mod', '.mod.c', '.symvers', '.order')


class Build(NamedTuple):
    """What one make run gave."""
    status: int         # make's exit status
    ok: bool            # make succeeded (and, with lint, found nothing)
    log: str            # the log file
    output: str         # make's output (stdout and stderr), as logged
    findings: list      # its warning and error lines
    modules: list       # the .ko files under the build directory


def link(src_root, relpaths, out):
    """Mirror RELPATHS (relative to SRC_ROOT) into OUT as symbolic links."""
    for rel in relpaths:
        src = os.path.join(src_root, rel)
        if not os.path.exists(src):
            continue
        dest = os.path.join(out, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        if os.path.lexists(dest):
            if os.path.islink(dest) and os.readlink(dest) == src:
                continue
            os.unlink(dest)
        os.symlink(src, dest)


def sources(src):
    """The files under directory SRC to mirror, relative to it: all but
    build products and what hides in dot-directories."""
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if not d.startswith('.')]
        rel = os.path.relpath(root, src)
        for f in files:
            if not f.endswith(PRODUCTS):
                yield os.path.normpath(os.path.join(rel, f))


def modules(out):
    """The .ko files under OUT."""
    found = []
    for root, _, files in os.walk(out):
        found += [os.path.join(root, f) for f in files if f.endswith('.ko')]
    return sorted(found)


def drop_objects(out):
    """Remove the objects and modules built under OUT (the sources there
    are symbolic links: they stay), so that the next make compiles all."""
    for root, _, files in os.walk(out):
        for f in files:
            path = os.path.join(root, f)
            if f.endswith(('.o', '.ko')) and not os.path.islink(path):
                os.unlink(path)


def make(kdir, out, args=(), lint=False, log_name='kbuild.log'):
    """Kbuild's modules target for the sources mirrored in OUT, against the
    kernel build tree KDIR, one job per CPU; ARGS: more make arguments (a
    variable, KBUILD_EXTRA_SYMBOLS).  The output goes to OUT/LOG_NAME.
    Modules of an earlier run are removed first, so that a failed build
    leaves none.

    LINT: False; 'all' (or True): W=1 and sparse on every file, any finding
    fails the build; 'compiled': W=1 and sparse on what this make compiles
    only, so that a build directory up to date costs no check, and a make
    with any finding removes every object, so that the next compiles (and
    checks) everything again: an up-to-date directory is one whose every
    object was compiled without a finding.  A make stopped before its
    findings were read leaves BUILDING behind; the next starts over."""
    lint = 'all' if lint is True else lint
    mark = os.path.join(out, BUILDING)
    if lint == 'compiled':
        if os.path.exists(mark):
            drop_objects(out)
        with open(mark, 'w', encoding='utf-8'):
            pass
    for ko in modules(out):
        os.unlink(ko)
    cmd = ['make', '-C', kdir, f'M={out}', f'-j{os.cpu_count() or 1}']
    cmd += list(args) + LINT_FLAGS.get(lint, []) + ['modules']
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         errors='replace', check=False)
    log = os.path.join(out, log_name)
    with open(log, 'w', encoding='utf-8') as f:
        f.write(res.stdout)
    findings = [line for line in res.stdout.splitlines() if FINDING.search(line)]
    if lint == 'compiled':
        if findings:
            drop_objects(out)
        os.unlink(mark)
    ok = res.returncode == 0 and not (lint and findings)
    return Build(res.returncode, ok, log, res.stdout, findings, modules(out))
