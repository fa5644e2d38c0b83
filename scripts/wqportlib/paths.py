# SPDX-License-Identifier: GPL-2.0
"""Where things are: the source tree, the cache, the kernels.

The kernel lookups live in scripts/lib.sh, shared with the shell scripts;
this module asks it rather than keeping a second copy of the rules.
"""
import os
import subprocess

SCRIPTS = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
TOP = os.path.dirname(SCRIPTS)
CACHE = os.environ.get('WQPORT_CACHE') or os.path.join(
    os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'), 'wqport')
# Builds go to TOP/build, or to the cache for an installed, read-only tree.
BUILD = os.path.join(TOP, 'build') if os.access(TOP, os.W_OK) else os.path.join(CACHE, 'build')


class WqportError(Exception):
    """An error reported to the user as one line, exit status 2."""


class InfraError(WqportError):
    """The machinery failed (a tool or a kernel missing, QEMU refused)."""


def lib_sh(function, *args):
    """Run a function of scripts/lib.sh; return its stdout or None."""
    cmd = ['bash', '-c', '. "$0/lib.sh"; "$@"', SCRIPTS, function, *args]
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, check=False)
    out = res.stdout.strip()
    return out if res.returncode == 0 and out else None


def script(name):
    return os.path.join(SCRIPTS, name)


def kernel_build_name(kernel):
    """The build/ subdirectory scripts/kbuild uses for KERNEL."""
    if kernel in ('stock', 'debug'):
        return kernel
    import hashlib
    kdir = os.path.realpath(kernel)
    return 'kdir-' + hashlib.sha256((kdir + '\n').encode()).hexdigest()[:12]


def ensure_debug_kernel():
    """Build the debug kernel if it is not in the cache yet."""
    subprocess.run([script('build-debug-kernel')], stdout=subprocess.DEVNULL,
                   check=True)


def kernel_image(kernel):
    if kernel == 'debug':
        ensure_debug_kernel()
    return lib_sh('kernel_image', kernel)


def kernel_kdir(kernel):
    if kernel == 'debug':
        ensure_debug_kernel()
    return lib_sh('kernel_kdir', kernel)


def linux_source(relpath):
    """A path of Debian's linux-source-6.1: in the debug kernel's tree when it
    is built, else extracted once from the tarball into the cache."""
    dbg = lib_sh('debug_kernel_dir')
    if dbg and os.path.exists(os.path.join(dbg, '.built')):
        return os.path.join(dbg, 'linux', relpath)
    dest = os.path.join(CACHE, 'linux-source-parts')
    path = os.path.join(dest, 'linux-source-6.1', relpath)
    if not os.path.exists(path):
        tarball = '/usr/src/linux-source-6.1.tar.xz'
        if not os.path.exists(tarball):
            raise InfraError(f'{tarball} missing: run scripts/install-deps')
        os.makedirs(dest, exist_ok=True)
        subprocess.run(['tar', '-xJf', tarball, '-C', dest,
                        'linux-source-6.1/' + relpath], check=True)
    return path


def kunit_tool_dir():
    """linux-source's tools/testing/kunit (kunit.py and its KTAP parser)."""
    return linux_source('tools/testing/kunit')
