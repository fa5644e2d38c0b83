# SPDX-License-Identifier: GPL-2.0
"""Snapshots of a booted test kernel (docs/architecture.md, "Snapshots").

A kernel is booted once to the point where the guest /init waits for its
runs ("wqport: ready"), and QEMU saves the whole VM there, into the cache.
Each boot after that restores the saved VM instead (a fraction of a second
where a boot takes 3 s on a stock kernel, 7 s on the debug one) and gives
the guest its runs' files on a virtio disk: an archive the guest unpacks
(guest-init.sh), of the fixed size the saved guest knows.  The guest is the
one a fresh boot gives, so each run still gets a fresh kernel.

A snapshot is keyed by everything the saved VM depends on: the kernel
image, the base initramfs, the QEMU binary, the accelerator, memory, CPUs
and the kernel command line.  Whatever fails on the way (a kernel without
virtio-blk, a payload too big, a save or a restore QEMU refuses) falls
back to a plain boot with the runs in the initramfs, and says why."""
import fcntl
import glob
import hashlib
import json
import lzma
import os
import re
import shlex
import shutil
import sys
import tempfile
import time

from . import logscan, qemu
from .paths import InfraError
from .qmp import QMP

# The guest's disk: its size is read once, when the saved guest probed it.
CAPACITY = 256 << 20
# The snapshots kept: the newest used (each is 80 to 220 MB).
KEEP = 6
# How long a save may take (a debug kernel's: 2 s, 210 MB).
SAVE_TIMEOUT = 300
# Set to 0, boots are never restored from snapshots.
ENV = 'WQPORT_SNAPSHOTS'
# Where they are kept, when not in the cache's snapshots/ (the harness's
# self-test spoils one of its own there).
DIR_ENV = 'WQPORT_SNAPSHOT_DIR'
# Saves of one key that fail in a row before wqport stops trying.
SAVE_TRIES = 2
# How long a restored guest may take to get to its runs, and between
# them (a plain boot's allowance is the run's timeout).
RESTORE_TIMEOUT = 120
# How long the boot that saves one may take to get to its snapshot point:
# a debug kernel's, 50 s on a loaded 2-core host (after it, a plain boot).
SAVE_BOOT_TIMEOUT = 180
# What the guest needs to read its disk, modules in the order they load
# (the stock kernels build them as modules; the debug kernels in).
VIRTIO_MODULES = ('virtio_ring', 'virtio', 'virtio_pci_legacy_dev', 'virtio_pci_modern_dev',
                  'virtio_pci', 'virtio_blk')
VIRTIO_CONFIG = ('CONFIG_VIRTIO_PCI', 'CONFIG_VIRTIO_BLK')
# The guest /init's word for a saved guest that waits for its runs.
READY = 'wqport: ready'
DISK_ID = 'wqport-runs'
# A saved VM is never smaller (stock 6.1's: 80 MB); QEMU waits for ever
# on an empty migration stream.
MIN_SIZE = 1 << 20


def opt(path):
    """PATH as a value in a QEMU option list (a comma doubles)."""
    return path.replace(',', ',,')


def scratch(prefix):
    """A scratch directory, short enough for a unix socket's path."""
    tmp = tempfile.gettempdir()
    return tempfile.mkdtemp(prefix=prefix, dir=tmp if len(tmp) < 64 else '/tmp')


def enabled():
    return os.environ.get(ENV, '1') != '0'


def disk_args(path):
    """QEMU's arguments for the runs' disk, PATH."""
    return ['-drive', f'file={opt(path)},format=raw,if=none,id={DISK_ID},readonly=on',
            '-device', f'virtio-blk-pci,drive={DISK_ID}']


def qmp_args(path):
    return ['-qmp', f'unix:{opt(path)},server=on,wait=off']


def virtio_modules(kdir, cache):
    """(modules, why): the module files the guest loads to read a virtio
    disk, for the kernel whose build tree (or headers) is KDIR: none where
    its config builds them in; the stock kernels' compressed ones
    uncompressed into CACHE.  MODULES is None (WHY says why) when the kernel
    has no virtio-blk."""
    try:
        with open(os.path.join(kdir, '.config')) as f:
            config = dict(re.findall(r'^(CONFIG_\w+)=(\S+)', f.read(), re.M))
    except OSError as e:
        return None, f'no kernel config: {e.strerror}'
    missing = [c for c in VIRTIO_CONFIG if config.get(c) not in ('y', 'm')]
    if missing:
        return None, f'the kernel has no {" or ".join(missing)}'
    if all(config[c] == 'y' for c in VIRTIO_CONFIG):
        return [], None
    # a packaged kernel's modules are beside its headers' build link
    tops = [os.path.join(os.path.dirname(os.path.normpath(kdir)), 'kernel'), kdir]
    found = {}
    for top in tops:
        for path in glob.glob(os.path.join(glob.escape(top), 'drivers', '**', 'virtio*.ko*'),
                              recursive=True):
            name = os.path.basename(path).split('.ko')[0]
            found.setdefault(name, path)
    mods = []
    for name in VIRTIO_MODULES:
        path = found.get(name)
        if not path:
            continue
        if path.endswith('.ko.xz'):
            dest = os.path.join(cache, 'virtio-modules',
                                hashlib.sha256(path.encode()).hexdigest()[:12], name + '.ko')
            if not os.path.exists(dest):
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                tmp = f'{dest}.{os.getpid()}.tmp'
                with lzma.open(path) as src, open(tmp, 'wb') as out:
                    shutil.copyfileobj(src, out)
                os.replace(tmp, dest)
            path = dest
        elif not path.endswith('.ko'):
            return None, f'{path}: a compression wqport does not read'
        mods.append(path)
    names = [os.path.basename(m)[:-3] for m in mods]
    for c, name in (('CONFIG_VIRTIO_PCI', 'virtio_pci'), ('CONFIG_VIRTIO_BLK', 'virtio_blk')):
        if config[c] == 'm' and name not in names:
            return None, f'{name}.ko not found beside the kernel'
    return mods, None


class Snapshots:
    """The snapshots of one kernel IMAGE booted with the initramfs BASE,
    ACCEL and the command line APPEND (the harness's part aside)."""

    def __init__(self, cache, image, base, accel, append):
        self.dir = os.environ.get(DIR_ENV) or os.path.join(cache, 'snapshots')
        self.image, self.base, self.accel = image, base, accel
        # the guest /init's cue: the runs' files come on the disk
        self.append = f'{append} wqport.payload=disk'.strip()
        # The whole QEMU command line (binary, image, memory, CPUs, accel,
        # kernel command line; the base's name is its contents' hash,
        # initramfs.base()), what the image and the binary are, the disk.
        cmd = qemu.command(image, base, accel, append=self.append)
        key = [cmd, CAPACITY] + [(os.path.getsize(f), os.stat(f).st_mtime_ns)
                                 for f in (image, cmd[0])]
        self.key = hashlib.sha256(json.dumps(key).encode()).hexdigest()[:16]
        self.file = os.path.join(self.dir, f'{self.key}.vm')
        self.log = os.path.join(self.dir, f'{self.key}.log')
        self.why = None

    def ready(self, boot_timeout):
        """Whether a snapshot is there, saving one first (a boot) when it is
        not; when it is not, self.why says why."""
        try:
            os.utime(self.file)     # the newest used: prune() keeps it
            return True
        except OSError:
            pass
        os.makedirs(self.dir, exist_ok=True)
        with open(os.path.join(self.dir, f'{self.key}.lock'), 'w') as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)   # another wqport test may be saving it
            if os.path.exists(self.file):
                return True
            # a save that failed SAVE_TRIES times in a row is not tried
            # again (each try is a boot more for every test)
            failed = os.path.join(self.dir, f'{self.key}.failed')
            try:
                with open(failed) as f:
                    tries, why = f.read().rstrip('\n').split('\t', 1)
                tries = int(tries)
            except (OSError, ValueError):
                tries, why = 0, ''
            if tries >= SAVE_TRIES:
                self.why = (f'saving one failed {tries} times ({why}; console log: '
                            f'{self.log}); remove {failed} to try again')
                return False
            print(f'wqport test: booting the kernel once to save a snapshot of it '
                  f'({self.file}; console log: {self.log})', file=sys.stderr, flush=True)
            try:
                self.save(boot_timeout)
            except (InfraError, OSError) as e:
                self.why = str(e)
                with open(failed, 'w') as f:
                    f.write(f'{tries + 1}\t{self.why}\n')
                return False
            if tries:
                os.unlink(failed)
        self.prune()
        return True

    def save(self, boot_timeout):
        tmp = scratch('wqport-snap-')
        try:
            blank = os.path.join(tmp, 'blank.img')
            with open(blank, 'wb') as f:
                f.truncate(CAPACITY)
            sock = os.path.join(tmp, 'qmp')
            part = self.file + '.part'
            state = {'saved': False, 'error': None}

            def on_line(line):
                # a kernel message may share the line
                if READY not in line or state['saved'] or state['error']:
                    return None
                try:
                    q = QMP(sock)
                    q.cmd('stop')
                    q.cmd('migrate-set-parameters', {'max-bandwidth': 1 << 40})
                    q.cmd('migrate', {'uri': 'exec:cat > ' + shlex.quote(part)})
                    ret = q.wait('migrate', lambda r: r.get('status') in
                                 ('completed', 'failed', 'cancelled'), SAVE_TIMEOUT)
                    if ret['status'] != 'completed':
                        why = ret.get('error-desc') or ret['status']
                        raise InfraError(f'qemu: saving the VM: {why}')
                    state['saved'] = True
                    q.cmd('quit')
                except (InfraError, OSError) as e:
                    state['error'] = str(e)
                return None

            res = qemu.run(self.image, self.base, self.log, min(boot_timeout, SAVE_BOOT_TIMEOUT),
                           accel=self.accel,
                           append=self.append, progress=on_line,
                           watchdog=lambda: state['error'] is not None,
                           extra=disk_args(blank) + qmp_args(sock))
            if state['error']:
                raise InfraError(state['error'])
            with open(self.log, errors='replace') as f:
                text = f.read()
            if not state['saved']:
                crash = logscan.Scan(text).crash
                last = (text.strip().splitlines() or ['nothing'])[-1][:160]
                raise InfraError('the guest did not get to its snapshot point' +
                                 (' in time' if res.timed_out else '') +
                                 (f': {crash}' if crash else f' (last line: {last})'))
            # A boot that reported something (a lockdep splat turns lockdep
            # off, a WARN_ONCE is spent) is no state to give every run.
            found = logscan.boot_findings(text)
            if found:
                raise InfraError(f'the boot reported {found}: not saved')
            os.replace(part, self.file)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
            if os.path.exists(self.file + '.part'):
                os.unlink(self.file + '.part')

    def prune(self):
        """Keep the KEEP snapshots used last (a restore under way has its
        file open: unaffected).  Lock files stay: a process may wait on one."""
        files = []
        for path in glob.glob(os.path.join(self.dir, '*.vm')):
            try:
                files.append((os.path.getmtime(path), path))
            except OSError:
                pass
        for path in glob.glob(os.path.join(self.dir, '*.failed')):
            try:
                if os.path.getmtime(path) < time.time() - 7 * 86400:
                    os.unlink(path)
            except OSError:
                pass
        for _, old in sorted(files)[:-KEEP]:
            for path in (old, old[:-3] + '.log', old[:-3] + '.failed'):
                try:
                    os.unlink(path)
                except OSError:
                    pass

    def discard(self, why):
        """Drop a snapshot QEMU could not restore."""
        self.why = why
        try:
            os.unlink(self.file)
        except OSError:
            pass

    def restore(self, payload, runs, log, progress, watchdog):
        """Restore the saved guest with PAYLOAD (the runs' archive) on its
        disk (at most CAPACITY bytes) and have it do RUNS (run numbers), as
        qemu.run() does a boot.  Raises InfraError when QEMU cannot restore
        it."""
        tmp = scratch('wqport-restore-')
        vm = None
        try:
            # open before QEMU starts: a prune() meanwhile cannot take it away
            try:
                vm = os.open(self.file, os.O_RDONLY)
                if os.fstat(vm).st_size < MIN_SIZE:
                    raise InfraError(f'{self.file}: {os.fstat(vm).st_size} bytes: cut short')
                disk = os.path.join(tmp, 'runs.img')
                shutil.copyfile(payload, disk)
                with open(disk, 'r+b') as f:
                    f.truncate(CAPACITY)
            except OSError as e:
                raise InfraError(str(e))
            sock = os.path.join(tmp, 'qmp')

            def started(proc):
                q = QMP(sock, timeout=60, proc=proc)
                try:
                    ret = q.wait('status', lambda r: r['status'] != 'inmigrate', 120)
                    if ret['status'] != 'running':
                        q.cmd('cont')
                finally:
                    q.close()
                return f'wqport-load {",".join(map(str, runs))}\n'

            return qemu.run(self.image, self.base, log, None, accel=self.accel,
                            append=self.append, progress=progress, watchdog=watchdog,
                            extra=disk_args(disk) + qmp_args(sock) + ['-incoming', f'fd:{vm}'],
                            pass_fds=(vm,), started=started,
                            header=f'wqport test: restored from the snapshot {self.file} '
                                   f'(its boot\'s console log: {self.log})')
        finally:
            if vm is not None:
                os.close(vm)
            shutil.rmtree(tmp, ignore_errors=True)
