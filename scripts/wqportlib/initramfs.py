# SPDX-License-Identifier: GPL-2.0
"""The test initramfs: busybox and the guest /init (the base), and the
runs' modules and scenarios (the payload)."""
import hashlib
import os
import shlex
import shutil
import subprocess
import tempfile

from .paths import WqportError

BUSYBOX = '/bin/busybox'
GUEST_INIT = os.path.join(os.path.dirname(os.path.realpath(__file__)), 'guest-init.sh')
# Helpers for scenario scripts, at /lib/wqport.sh in the guest.
GUEST_LIB = os.path.join(os.path.dirname(os.path.realpath(__file__)), 'guest-lib.sh')
# The trace recorder (wqport trace record), at /bin/wqport-trace.
TRACE_RECORDER = os.path.join(os.path.dirname(os.path.realpath(__file__)), 'trace-record.sh')


def cpio(root, dest):
    """Write the newc archive of the tree ROOT to DEST, owned by root."""
    files = subprocess.run(['find', '.', '-mindepth', '1'], cwd=root, check=True,
                           stdout=subprocess.PIPE).stdout
    tmp = f'{dest}.{os.getpid()}.tmp'     # two processes may build one base
    with open(tmp, 'wb') as out:
        subprocess.run(['cpio', '--quiet', '-o', '-H', 'newc', '-R', '0:0'], cwd=root,
                       input=files, stdout=out, check=True)
    os.replace(tmp, dest)


def base(cache, modules=()):
    """The initramfs every boot starts from, kept in CACHE by its contents:
    busybox, the guest /init and its library, the trace recorder
    (/bin/wqport-trace), and MODULES (the kernel's
    virtio modules, loaded in that order when the runs' files come on a
    disk: snapshot.py).  Its path."""
    if not os.path.exists(BUSYBOX) or b'ELF' not in open(BUSYBOX, 'rb').read(4):
        raise WqportError(f'{BUSYBOX} missing: run scripts/install-deps (busybox-static)')
    h = hashlib.sha256()
    for src in [BUSYBOX, GUEST_INIT, GUEST_LIB, TRACE_RECORDER] + list(modules):
        h.update(os.path.basename(src).encode() + b'\0')
        with open(src, 'rb') as f:
            h.update(f.read())
    dest = os.path.join(cache, 'initramfs', f'base-{h.hexdigest()[:16]}.cpio')
    if os.path.exists(dest):
        return dest
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with tempfile.TemporaryDirectory(dir=os.path.dirname(dest)) as root:
        for d in ('bin', 'dev', 'etc', 'lib/wqport-virtio', 'proc', 'runs', 'sys', 'tmp'):
            os.makedirs(os.path.join(root, d))
        shutil.copy2(BUSYBOX, os.path.join(root, 'bin', 'busybox'))
        os.symlink('busybox', os.path.join(root, 'bin', 'sh'))
        shutil.copy2(GUEST_INIT, os.path.join(root, 'init'))
        os.chmod(os.path.join(root, 'init'), 0o755)
        shutil.copy2(GUEST_LIB, os.path.join(root, 'lib', 'wqport.sh'))
        shutil.copy2(TRACE_RECORDER, os.path.join(root, 'bin', 'wqport-trace'))
        os.chmod(os.path.join(root, 'bin', 'wqport-trace'), 0o755)
        for n, m in enumerate(modules, 1):
            name = f'{n}-{os.path.basename(m)}'
            shutil.copy2(m, os.path.join(root, 'lib', 'wqport-virtio', name))
        cpio(root, dest)
    return dest


def payload(rundir, runs):
    """Write RUNDIR/payload.cpio for RUNS, a list of (modules, scenario,
    extra, trace): run N's MODULES (loaded in that order) and EXTRA files
    (not loaded) in /runs/N/modules, its SCENARIO script as
    /runs/N/scenario (guest-init.sh), TRACE (None, or the seconds it
    settles for) in its run.conf.  A file that several runs carry is stored once.  Its
    path: the guest gets it after base() in its initramfs, or on a disk."""
    root = os.path.join(rundir, 'root')
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, 'runs'))
    stored = {}     # source path -> its first copy in the tree

    def put(src, dst):
        key = os.path.realpath(src)
        if key in stored:
            os.link(stored[key], dst)
        else:
            shutil.copy2(src, dst)
            stored[key] = dst

    for n, (modules, scenario, extra, trace) in enumerate(runs, 1):
        d = os.path.join(root, 'runs', str(n))
        os.makedirs(os.path.join(d, 'modules'))
        names = []
        for m in list(modules) + list(extra):
            name = os.path.basename(m)
            if name in names:
                raise WqportError(f'two files named {name}')
            names.append(name)
            put(m, os.path.join(d, 'modules', name))
        if scenario:
            put(scenario, os.path.join(d, 'scenario'))
            os.chmod(os.path.join(d, 'scenario'), 0o755)
        with open(os.path.join(d, 'run.conf'), 'w') as f:
            f.write(f'MODULES={shlex.quote(" ".join(names[:len(modules)]))}\n')
            if trace is not None:
                f.write(f'TRACE={int(trace)}\n')
    dest = os.path.join(rundir, 'payload.cpio')
    cpio(root, dest)
    return dest


def whole(rundir, base_cpio, payload_cpio):
    """RUNDIR/initramfs.cpio: BASE_CPIO then PAYLOAD_CPIO, for a boot that
    carries the runs in its initramfs (the kernel unpacks concatenated
    archives one after the other)."""
    dest = os.path.join(rundir, 'initramfs.cpio')
    with open(dest, 'wb') as out:
        for src in (base_cpio, payload_cpio):
            with open(src, 'rb') as f:
                shutil.copyfileobj(f, out)
    return dest
