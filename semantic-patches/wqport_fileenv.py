# SPDX-License-Identifier: GPL-2.0
"""wqport_fileenv: one spatch process for many files, each with its own facts.

spatch's fixed cost (OCaml start, SmPL parse, the embedded Python and the
patches' modules) is paid once per process, so wqport_stage gives the
files of a batch to one process (--file-groups, one file a group).  But
`wqport convert` hands each file facts of its own (the run's other files:
WQPORT_TASKS, WQPORT_DELAYED, WQPORT_FACTS, ...), which the patches' Python
reads from os.environ.  When the files of a process have different ones,
wqport_stage writes a JSON file mapping each file, as spatch is given it,
to its own variables, names it in $WQPORT_FILE_ENV, and puts PROLOGUE at
the head of the semantic patch: a rule without metavariables, which spatch
runs once per file before any other rule of that file, and which calls
enter(cocci.files()).  From there on os.environ is the process's own
environment plus that file's variables, and $WQPORT_FILE names the file.

A module of the patches that takes facts once (configure(os.environ) at
initialize) takes them again where it sees $WQPORT_FILE change, in its
per-file rule (new_file(os.environ)), after finishing the last file as
its finalize would have: each file is converted as if alone.  Without
$WQPORT_FILE_ENV (make coccicheck, apply-stage by hand, one file a
process) enter() does nothing and nothing changes.
"""

import json
import os

PROLOGUE = '''// wqport_fileenv: this file's own facts, before any other rule runs on it
@script:python wqport_enter_file@
@@
import sys as wqport_sys
if %(here)r not in wqport_sys.path:
    wqport_sys.path.insert(0, %(here)r)
import wqport_fileenv
wqport_fileenv.enter(cocci.files())

'''

_table = {}          # file -> its variables, from $WQPORT_FILE_ENV
_base = {}           # what those variables were in the process's environment
_loaded = [None]     # the $WQPORT_FILE_ENV _table was read from


def prologue():
    """The rule that heads a semantic patch run on many files."""
    return PROLOGUE % {'here': os.path.dirname(os.path.abspath(__file__))}


def _load(path):
    if _loaded[0] == path:
        return
    with open(path, encoding='utf-8') as fh:
        _table.clear()
        _table.update(json.load(fh))
    _loaded[0] = path
    for env in _table.values():
        for k in env:
            _base.setdefault(k, os.environ.get(k))
    _base.setdefault('WQPORT_FILE', os.environ.get('WQPORT_FILE'))


def enter(files):
    """spatch starts on FILES (cocci.files(): one group of
    --file-groups): os.environ becomes the process's environment plus the
    first file's variables in $WQPORT_FILE_ENV, and $WQPORT_FILE names it.
    A file the table lacks gets the process's environment alone."""
    where = os.environ.get('WQPORT_FILE_ENV')
    if not where or not files:
        return
    _load(where)
    name = files[0]
    if os.environ.get('WQPORT_FILE') == name:
        return
    for k, v in _base.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    os.environ.update(_table.get(name, {}))
    os.environ['WQPORT_FILE'] = name

