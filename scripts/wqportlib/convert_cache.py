# SPDX-License-Identifier: GPL-2.0
"""A wqport convert run repeated on the same inputs: its result again, with
no spatch.

The key is everything a run's result can depend on: wqport's own code (the
semantic patches and this package, by content), spatch (its path, size and
time), the options and the variables wqport or spatch read (SPATCH,
SPFLAGS, WQPORT_*), each file read (path, path under --out, content), and
the headers under each -I directory (path, size, time).  The value is
what the run wrote: each file it changed, its stdout and stderr (progress
lines too), its --report, its exit status.  A run that stops on an error
(exit 2 before any output) stores nothing.

Where: $WQPORT_CACHE_DIR, else $XDG_CACHE_HOME/wqport/convert, else
~/.cache/wqport/convert.  --no-cache: neither read nor written.
"""

import hashlib
import json
import os
import shutil
import sys
import tempfile

from . import paths

_code = []


def cache_dir():
    d = os.environ.get('WQPORT_CACHE_DIR')
    if d:
        return d
    base = os.environ.get('XDG_CACHE_HOME') or os.path.join(os.path.expanduser('~'), '.cache')
    return os.path.join(base, 'wqport', 'convert')


def _code_digest():
    """sha256 of wqport's conversion code: the semantic patches and the
    wqportlib package, file by file (once a process)."""
    if not _code:
        h = hashlib.sha256()
        for top in (os.path.join(paths.TOP, 'semantic-patches'),
                    os.path.dirname(os.path.abspath(__file__))):
            for root, dirs, names in os.walk(top):
                dirs[:] = sorted(d for d in dirs if d != '__pycache__')
                for n in sorted(names):
                    if n.endswith(('.py', '.cocci', '.h', '.sh')) or n == 'apply-stage':
                        p = os.path.join(root, n)
                        with open(p, 'rb') as f:
                            h.update(p.encode() + b'\0' + hashlib.sha256(f.read()).digest())
        _code.append(h.hexdigest())
    return _code[0]


def _stat(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


def key(args, sources, spatch):
    """The key of a run with ARGS on SOURCES (read, with their digests)."""
    env = {k: v for k, v in os.environ.items()
           if k.startswith('WQPORT_') and k != 'WQPORT_CACHE_DIR' or k in ('SPATCH', 'SPFLAGS')}
    opts = {k: getattr(args, k, None) for k in ('to', 'mode', 'strict', 'allow_parse_errors',
                                                'in_place', 'force', 'diff')}
    opts['ignore'] = sorted(args.ignore)
    # (--with-headers: the headers taken in are sources; those left out
    # are named in the items with the files that include them)
    opts['held'] = sorted(getattr(args, 'held_headers', {}).items())
    opts['out'] = os.path.abspath(args.out) if args.out else None
    opts['report'] = args.report if args.report in (None, '-') else os.path.abspath(args.report)
    opts['paths'] = list(args.paths)
    opts['include'] = [os.path.abspath(d) for d in args.include_dir]
    spatch_path = shutil.which(spatch) or spatch
    h = hashlib.sha256(json.dumps({'code': _code_digest(), 'env': env, 'opts': opts,
                                   'cwd': os.getcwd(),
                                   'spatch': [spatch_path, _stat(spatch_path)]},
                                  sort_keys=True).encode())
    for s in sources:
        h.update(f'{s.path}\0{s.rel}\0{s.digest}\n'.encode())
    # the headers beside each file, which an item may name (the run may
    # hold only the .c)
    for d in sorted({os.path.dirname(os.path.abspath(s.path)) for s in sources}):
        try:
            names = sorted(n for n in os.listdir(d) if n.endswith('.h'))
        except OSError:
            names = []
        for n in names:
            h.update(f'{os.path.join(d, n)}\0{_stat(os.path.join(d, n))}\n'.encode())
    for d in args.include_dir:
        for root, dirs, names in os.walk(d):
            dirs.sort()
            for n in sorted(names):
                p = os.path.join(root, n)
                h.update(f'{p}\0{_stat(p)}\n'.encode())
    return h.hexdigest()


class Capture:
    """sys.stdout and sys.stderr, told to the terminal and kept, in order
    (stdout as bytes: text and diffs mix there)."""

    class _Stream:
        def __init__(self, real, chunks):
            self.real, self.chunks = real, chunks
            self.buffer = self._Bytes(real, chunks)

        class _Bytes:
            def __init__(self, real, chunks):
                self.real, self.chunks = real, chunks

            def write(self, b):
                self.chunks.append(bytes(b))
                return self.real.buffer.write(b)

            def flush(self):
                self.real.buffer.flush()

        def write(self, s):
            self.chunks.append(s.encode(self.real.encoding or 'utf-8', 'surrogateescape'))
            return self.real.write(s)

        def flush(self):
            self.real.flush()

        def isatty(self):
            return self.real.isatty()

        def __getattr__(self, name):
            return getattr(self.real, name)

    def __enter__(self):
        self.out, self.err = [], []
        self.saved = sys.stdout, sys.stderr
        sys.stdout = self._Stream(sys.stdout, self.out)
        sys.stderr = self._Stream(sys.stderr, self.err)
        return self

    def __exit__(self, *exc):
        sys.stdout, sys.stderr = self.saved
        return False


def load(k):
    """The stored result of key K, or None."""
    d = os.path.join(cache_dir(), k[:2], k)
    try:
        with open(os.path.join(d, 'result.json'), encoding='utf-8') as f:
            res = json.load(f)
        for name in ('stdout', 'stderr'):
            with open(os.path.join(d, name), 'rb') as f:
                res[name] = f.read()
        changed = {}
        for path, n in res['changed'].items():
            with open(os.path.join(d, 'files', n), 'rb') as f:
                changed[path] = f.read()
        res['changed'] = changed
        report = res.get('report')
        if report is not None:
            with open(os.path.join(d, 'report.json'), 'rb') as f:
                res['report'] = f.read()
    except (OSError, ValueError, KeyError):
        return None
    return res


def store(k, rc, out, err, changed, report):
    """Keep the result of key K: exit status RC, stdout and stderr bytes,
    CHANGED (path as given -> new bytes), the --report text or None.  A
    failure to store is no failure of the run."""
    top = os.path.join(cache_dir(), k[:2])
    try:
        os.makedirs(top, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix='.part-', dir=top)
        os.makedirs(os.path.join(tmp, 'files'))
        names = {path: str(n) for n, path in enumerate(sorted(changed))}
        files = {os.path.join('files', names[p]): data for p, data in changed.items()}
        files.update({'stdout': out, 'stderr': err, 'report.json': report})
        for name, data in files.items():
            if data is not None:
                with open(os.path.join(tmp, name), 'wb') as f:
                    f.write(data)
        with open(os.path.join(tmp, 'result.json'), 'w', encoding='utf-8') as f:
            json.dump({'rc': rc, 'changed': names,
                       'report': None if report is None else 'report.json'}, f)
        dest = os.path.join(top, k)
        if os.path.isdir(dest):
            shutil.rmtree(tmp)
        else:
            os.rename(tmp, dest)
    except OSError:
        pass
