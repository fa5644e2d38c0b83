# SPDX-License-Identifier: GPL-2.0
"""The test initramfs: busybox, the guest /init, and each run's modules and scenario."""
import os
import shlex
import shutil
import subprocess

from .paths import WqportError

BUSYBOX = '/bin/busybox'
GUEST_INIT = os.path.join(os.path.dirname(os.path.realpath(__file__)), 'guest-init.sh')
# Helpers for scenario scripts, at /lib/wqport.sh in the guest.
GUEST_LIB = os.path.join(os.path.dirname(os.path.realpath(__file__)), 'guest-lib.sh')


def build(rundir, runs):
    """Write RUNDIR/initramfs.cpio for RUNS, a list of (modules, scenario,
    extra): run N's MODULES (loaded in that order) and EXTRA files (not
    loaded) in /runs/N/modules, its SCENARIO script as /runs/N/scenario
    (guest-init.sh).  A file that several runs carry is stored once."""
    if not os.path.exists(BUSYBOX) or b'ELF' not in open(BUSYBOX, 'rb').read(4):
        raise WqportError(f'{BUSYBOX} missing: run scripts/install-deps (busybox-static)')
    root = os.path.join(rundir, 'root')
    shutil.rmtree(root, ignore_errors=True)
    for d in ('bin', 'dev', 'etc', 'lib', 'proc', 'runs', 'sys', 'tmp'):
        os.makedirs(os.path.join(root, d))
    shutil.copy2(BUSYBOX, os.path.join(root, 'bin', 'busybox'))
    os.symlink('busybox', os.path.join(root, 'bin', 'sh'))
    shutil.copy2(GUEST_INIT, os.path.join(root, 'init'))
    os.chmod(os.path.join(root, 'init'), 0o755)
    shutil.copy2(GUEST_LIB, os.path.join(root, 'lib', 'wqport.sh'))
    stored = {}     # source path -> its first copy in the tree

    def put(src, dst):
        key = os.path.realpath(src)
        if key in stored:
            os.link(stored[key], dst)
        else:
            shutil.copy2(src, dst)
            stored[key] = dst

    for n, (modules, scenario, extra) in enumerate(runs, 1):
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
    cpio = os.path.join(rundir, 'initramfs.cpio')
    files = subprocess.run(['find', '.', '-mindepth', '1'], cwd=root, check=True,
                           stdout=subprocess.PIPE).stdout
    with open(cpio, 'wb') as out:
        subprocess.run(['cpio', '--quiet', '-o', '-H', 'newc', '-R', '0:0'], cwd=root,
                       input=files, stdout=out, check=True)
    return cpio
