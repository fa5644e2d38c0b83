# SPDX-License-Identifier: GPL-2.0
"""How wqport starts spatch: the options every one of its spatch runs
shares, whether a stage's run (wqport_stage) or a parse check
(stage1/wqport_tq.parse_log).  One place, so that a file parses the same
way in every run."""

import hashlib
import os
import shutil
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MACROS = os.path.join(HERE, 'wqport_macros.h')

_args = {}


def bytecode_cache():
    """Where compiled Python of wqport goes: $PYTHONPYCACHEPREFIX if set,
    else pycache in wqport's cache ($WQPORT_CACHE, or wqport under
    $XDG_CACHE_HOME or ~/.cache)."""
    return os.environ.get('PYTHONPYCACHEPREFIX') or os.path.join(
        os.environ.get('WQPORT_CACHE') or os.path.join(
            os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'), 'wqport'),
        'pycache')


def bytecode_env(env):
    """ENV (a dict, changed) for a spatch whose embedded Python imports
    wqport's modules (wqport_tq.py alone is 3,000 lines): their compiled
    form kept in bytecode_cache(), even where PYTHONDONTWRITEBYTECODE is
    set, since compiling them again costs each spatch process about a
    tenth of its time; nothing is written beside the sources."""
    env.pop('PYTHONDONTWRITEBYTECODE', None)
    env['PYTHONPYCACHEPREFIX'] = bytecode_cache()
    return env


def standard_h(spatch='spatch'):
    """spatch's own standard.h (its default --macro-file-builtins), or None:
    $COCCINELLE_HOME's, else the one installed beside SPATCH's lib dir."""
    cands = []
    if os.environ.get('COCCINELLE_HOME'):
        cands.append(os.path.join(os.environ['COCCINELLE_HOME'], 'standard.h'))
    exe = shutil.which(spatch)
    if exe:
        prefix = os.path.dirname(os.path.dirname(os.path.realpath(exe)))
        cands += [os.path.join(prefix, 'lib', 'coccinelle', 'standard.h'),
                  os.path.join(prefix, 'share', 'coccinelle', 'standard.h')]
    cands.append('/usr/lib/coccinelle/standard.h')
    return next((c for c in cands if os.path.isfile(c)), None)


def _holds(path, text):
    try:
        with open(path, 'rb') as f:
            return f.read() == text
    except OSError:
        return False


def macro_args(spatch='spatch'):
    """['--macro-file-builtins', F], F being spatch's standard.h followed by
    wqport_macros.h (written once per content, in the temporary directory);
    [] if spatch's standard.h is not found (spatch then uses its own)."""
    if spatch in _args:
        return list(_args[spatch])
    std = standard_h(spatch)
    args = []
    if std:
        with open(std, 'rb') as f:
            text = f.read()
        with open(MACROS, 'rb') as f:
            text += b'\n' + f.read()
        name = 'wqport-macros-%d-%s.h' % (os.getuid(), hashlib.sha1(text).hexdigest()[:16])
        path = os.path.join(tempfile.gettempdir(), name)
        if not _holds(path, text):
            fd, part = tempfile.mkstemp(prefix=name, dir=tempfile.gettempdir())
            with os.fdopen(fd, 'wb') as f:
                f.write(text)
            os.replace(part, path)
        args = ['--macro-file-builtins', path]
    _args[spatch] = args
    return list(args)
