# SPDX-License-Identifier: GPL-2.0
"""Boot a kernel and an initramfs under QEMU with a hard time limit."""
import os
import shutil
import subprocess
import threading
import time

from .paths import InfraError

# isa-debug-exit turns the guest's byte V into the exit status (V << 1) | 1;
# guest-init.sh writes 0x10 when it reached its end.
GUEST_DONE = (0x10 << 1) | 1


class Result:
    def __init__(self, status, timed_out):
        self.status = status
        self.timed_out = timed_out


def binary():
    qemu = shutil.which(os.environ.get('WQPORT_QEMU', 'qemu-system-x86_64'))
    if not qemu:
        raise InfraError('qemu-system-x86_64 missing: run scripts/install-deps')
    return qemu


# How long a probe of KVM may take: a kernel that boots under KVM reaches
# its panic (no init) in a few seconds; one that hangs is given up on.
KVM_PROBE_TIMEOUT = 20


def kvm_usable(image, cache):
    """(usable, why): whether QEMU boots IMAGE under KVM here.  /dev/kvm
    alone proves nothing (a nested or restricted KVM may abort on an MSR or
    hang), so a kernel is booted to its first panic, once per QEMU binary,
    host kernel and /dev/kvm; the answer is kept in CACHE."""
    if not os.access('/dev/kvm', os.R_OK | os.W_OK):
        return False, 'no usable /dev/kvm'
    qemu = binary()
    st = os.stat(qemu)
    key = f'{qemu}:{st.st_mtime_ns}:{os.uname().release}:{os.stat("/dev/kvm").st_rdev}'
    mark = os.path.join(cache, 'kvm-probe')
    try:
        with open(mark) as f:
            k, ans, why = f.read().rstrip('\n').split('\t', 2)
        if k == key:
            return ans == 'yes', why
    except (OSError, ValueError):
        pass
    cmd = [qemu, '-nodefaults', '-display', 'none', '-no-reboot', '-m', '256',
           '-serial', 'stdio', '-accel', 'kvm', '-cpu', 'host', '-kernel', image,
           '-append', 'console=ttyS0 panic=-1 rdinit=/wqport-none init=/wqport-none']
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=KVM_PROBE_TIMEOUT, check=False)
        out = proc.stdout.decode(errors='replace')
        if 'Kernel panic' in out:
            ans, why = True, 'KVM'
        else:
            last = (out.strip().splitlines() or ['no output'])[-1][:120]
            ans, why = False, f'KVM probe failed: {last}'
    except subprocess.TimeoutExpired:
        ans, why = False, f'KVM probe hung for {KVM_PROBE_TIMEOUT} s'
    except OSError as e:
        ans, why = False, f'KVM probe: {e}'
    try:
        os.makedirs(cache, exist_ok=True)
        with open(mark, 'w') as f:
            f.write(f'{key}\t{"yes" if ans else "no"}\t{why}\n')
    except OSError:
        pass
    return ans, why


# How often WATCHDOG is asked whether to stop the guest, in seconds.
POLL = 0.2


def cmdline(append=''):
    """The guest's kernel command line: the harness's part, then APPEND."""
    # The hung-task report's threshold comes in APPEND (cmd_test.py).
    # acpi=noirq: PCI interrupts routed by the PIIX3's router, not by ACPI's
    # _PRT, whose AML the debug kernel interprets for 20 s under TCG (past
    # ACPICA's 30 s loop limit on a loaded host: the snapshots' virtio disk
    # then had no interrupt; docs/architecture.md, "Snapshots").
    # debug_boot_weak_hash: %p gives each pointer its own value from the
    # boot on (a trace names items by address), where it would give
    # "(____ptrval____)" until the guest's random pool is ready, late.
    # trace_event=: the events a trace records (wqport test --trace) are on
    # from the boot, turned on before the other CPUs come up: turning one
    # on later patches kernel text across CPUs, which multi-threaded TCG
    # on a busy host has stalled on for a minute (a soft lockup).
    # trace_clock=mono: events recorded from the boot on, the default clock
    # (local) can go back when the TSC is calibrated again (on a loaded
    # host, where the PIT calibration fails), and the ring buffer then says
    # so with a printk from inside an event, the workqueue pool's lock held.
    # On the debug kernel that printk ties the pool's lock to the serial
    # port's; the host's next word on the console (a restored snapshot's
    # "wqport-load") queues the tty's work from the port's interrupt, and
    # lockdep's report of the cycle, printed to that same port, deadlocks.
    # The monotonic clock never goes back.
    return ('console=ttyS0 printk.time=0 loglevel=7 panic=-1 oops=panic '
            'softlockup_all_cpu_backtrace=1 acpi=noirq debug_boot_weak_hash '
            f'trace_event={",".join(TRACE_EVENTS)} trace_clock=mono rdinit=/init ' +
            append).strip()


# The kernel's events of wqport trace (trace-record.sh's EVENTS).
TRACE_EVENTS = ('workqueue:workqueue_queue_work', 'workqueue:workqueue_execute_start',
                'workqueue:workqueue_execute_end', 'timer:timer_start', 'timer:timer_cancel',
                'timer:timer_expire_entry', 'timer:timer_expire_exit', 'module:module_load',
                'module:module_free')


def command(image, initrd, accel='tcg', memory=1024, cpus=2, append=''):
    """The QEMU command line that boots IMAGE with INITRD."""
    cmd = [binary(), '-nodefaults', '-display', 'none', '-no-reboot',
           '-m', str(memory), '-smp', str(cpus),
           '-serial', 'stdio',
           '-device', 'isa-debug-exit,iobase=0xf4,iosize=0x04',
           '-kernel', image, '-initrd', initrd, '-append', cmdline(append)]
    if accel == 'kvm':
        cmd += ['-accel', 'kvm', '-cpu', 'host']
    elif accel == 'tcg-single':
        # one host thread runs every vCPU in turn: slower, but immune to
        # QEMU 7.2's hang on live kernel text patching (docs/testing.md)
        cmd += ['-accel', 'tcg,thread=single']
    else:
        cmd += ['-accel', 'tcg,thread=multi']
    return cmd


def run(image, initrd, log, timeout, accel='tcg', memory=1024, cpus=2, append='',
        progress=None, watchdog=None, extra=(), started=None, header=None, pass_fds=()):
    """Boot IMAGE with INITRD; the serial console goes to LOG (after the
    line HEADER, when given), and each of its lines, as it comes, to
    PROGRESS (a function) when given: a string it returns is typed on the
    console (the guest's stdin).  EXTRA: more QEMU arguments, PASS_FDS the
    file descriptors they name.  STARTED, a
    function, is called with the QEMU process once it runs; a string it
    returns is typed on the console, an InfraError it raises stops QEMU
    and is raised.  The guest is killed after TIMEOUT seconds (None: no
    limit) or as soon as WATCHDOG (a function) returns true
    (Result.timed_out either way)."""
    cmd = command(image, initrd, accel, memory, cpus, append) + list(extra)
    errors = []
    with open(log, 'wb') as out:
        if header:
            out.write(header.encode() + b'\n')
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, pass_fds=pass_fds)
        except OSError as e:
            raise InfraError(f'qemu: {e}')

        def console():
            for line in proc.stdout:
                out.write(line)
                out.flush()
                if progress:
                    answer = progress(line.decode(errors='replace').rstrip('\r\n'))
                    if answer:
                        try:
                            proc.stdin.write(answer.encode())
                            proc.stdin.flush()
                        except OSError:
                            pass    # QEMU is gone

        readers = [threading.Thread(target=console, daemon=True),
                   threading.Thread(target=lambda: errors.append(proc.stderr.read()),
                                    daemon=True)]
        for t in readers:
            t.start()
        if started:
            try:
                answer = started(proc)
                if answer:
                    proc.stdin.write(answer.encode())
                    proc.stdin.flush()
            except (InfraError, OSError) as e:
                proc.kill()
                proc.wait()
                for t in readers:
                    t.join()
                # QEMU's own complaint, when it has one, says more
                msg = b''.join(errors).decode(errors='replace').strip().splitlines()
                raise InfraError(msg[-1] if msg else str(e))
        deadline = None if timeout is None else time.monotonic() + timeout
        status = proc.poll()
        while status is None:
            if (watchdog and watchdog()) or (deadline and time.monotonic() > deadline):
                proc.kill()
                proc.wait()
                break
            try:
                status = proc.wait(timeout=POLL)
            except subprocess.TimeoutExpired:
                pass
        for t in readers:
            t.join()
    if status is None:
        return Result(None, True)
    if status not in (0, GUEST_DONE):
        # QEMU's own complaint (bad option, no kernel, ...) is the reason.
        msg = b''.join(errors).decode(errors='replace').strip().splitlines()
        if msg:
            raise InfraError(msg[-1] if msg[-1].startswith('qemu') else 'qemu: ' + msg[-1])
    return Result(status, False)
