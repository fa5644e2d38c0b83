# SPDX-License-Identifier: GPL-2.0
"""convert_headers: `wqport convert --with-headers`, the headers that come
with the driver.

A task whose struct tq_struct a header outside the run declares stays on
the 2.4 API (W020, W021: its type cannot change without the header).  With
--with-headers, such a header, found beside a file of the run or under -I,
is converted in the same run, unless a file of its tree that is not in the
run includes it, directly or through other headers: a header shared with
other drivers is never changed behind their back.  Its tree is the
directory that holds both it and the run's paths; the includers are read
from there, #include "NAME" beside the includer, <NAME> under -I.
"""

import os
import re

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*(?:"([^"]+)"|<([^>]+)>)', re.M)


class Header:
    """A header a run needs: who needs it, who else includes it."""

    def __init__(self, path):
        self.path = path            # its real path
        self.needed_by = set()      # the run's files with an item on it
        self.outside = []           # files of its tree, not in the run, that include it
        self.tree = None            # the directory read for includers
        self.rel = None             # where --out writes it

    @property
    def pulled(self):
        return self.tree is not None and not self.outside


def tree_of(header, paths):
    """The directory holding HEADER and every one of PATHS, or None when
    only the root does (then nothing is read)."""
    root = os.path.commonpath([os.path.dirname(header)] +
                              [os.path.realpath(p) for p in paths])
    return None if root == os.path.dirname(root) else root


def _files(tree, skip=()):
    """The .c and .h files under TREE, but in dot-directories and under
    SKIP (real paths: the run's --out)."""
    for root, dirs, names in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if not d.startswith('.') and
                         os.path.realpath(os.path.join(root, d)) not in skip)
        for n in sorted(names):
            if n.endswith(('.c', '.h')):
                yield os.path.join(root, n)


def includers(tree, include_dirs, targets, skip=()):
    """{target: the files under TREE (not under SKIP) that include it,
    directly or through other headers} for each real path of TARGETS.  Each
    file is read once, for its #include lines only."""
    dirs = [os.path.realpath(d) for d in include_dirs]
    incs = {}                               # file -> [(NAME, quoted)]
    for f in _files(tree, skip):
        try:
            with open(f, encoding='latin-1') as fh:
                text = fh.read()
        except OSError:
            continue
        incs[os.path.realpath(f)] = [(m.group(1) or m.group(2), bool(m.group(1)))
                                     for m in INCLUDE.finditer(text)]
    edges, scanned = {}, set()              # header -> the files including it

    def scan(base):
        """The edges to the headers named BASE."""
        scanned.add(base)
        for path, names in incs.items():
            for name, quoted in names:
                if os.path.basename(name) != base:
                    continue
                cands = ([os.path.join(os.path.dirname(path), name)] if quoted else []) + \
                    [os.path.join(d, name) for d in dirs]
                for c in cands:
                    if os.path.isfile(c):
                        edges.setdefault(os.path.realpath(c), set()).add(path)
                        break
    out = {}
    for t in targets:
        seen, todo = set(), [t]
        while todo:
            h = todo.pop()
            if os.path.basename(h) not in scanned:
                scan(os.path.basename(h))
            for f in sorted(edges.get(h, ())):
                if f not in seen:
                    seen.add(f)
                    if f.endswith('.h'):
                        todo.append(f)
        out[t] = sorted(seen - {t})
    return out


def out_name(header, include_dirs, taken):
    """Where --out writes HEADER (relative): under the name of the -I
    directory it was found in (include/linux/x.h), else its base name;
    headers/ ahead of it if a file of the run is written there already."""
    rel = os.path.basename(header)
    for d in include_dirs:
        real = os.path.realpath(d)
        if header.startswith(real + os.sep):
            rel = os.path.join(os.path.basename(real.rstrip(os.sep)) or 'include',
                               os.path.relpath(header, real))
            break
    return os.path.join('headers', rel) if rel in taken else rel


def decide(needed, run_paths, paths, include_dirs, skip=()):
    """NEEDED: {real path of a header: the run's files that need it}.
    Returns the Headers, each pulled in or held with its outside
    includers; RUN_PATHS: the real paths of the run's files; SKIP: the
    directories not to read (the run's --out)."""
    out = []
    by_tree = {}
    for path, who in sorted(needed.items()):
        h = Header(path)
        h.needed_by = set(who)
        h.tree = tree_of(path, paths)
        out.append(h)
        if h.tree:
            by_tree.setdefault(h.tree, []).append(h)
    for tree, hs in by_tree.items():
        found = includers(tree, include_dirs, [h.path for h in hs], skip)
        for h in hs:
            h.outside = [f for f in found[h.path] if f not in run_paths]
    return out
