# SPDX-License-Identifier: GPL-2.0
"""Where things are: the source tree, the cache, the kernels.

The kernel lookups live in scripts/lib.sh, shared with the shell scripts;
this module asks it rather than keeping a second copy of the rules.
"""
import os
import re
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


def lib_sh(function, *args, show_errors=False):
    """Run a function of scripts/lib.sh; return its stdout or None.  With
    show_errors its stderr (progress of a kernel fetch or build, errors)
    reaches the user."""
    cmd = ['bash', '-c', '. "$0/lib.sh"; "$@"', SCRIPTS, function, *args]
    res = subprocess.run(cmd, stdout=subprocess.PIPE,
                         stderr=None if show_errors else subprocess.DEVNULL,
                         text=True, check=False)
    out = res.stdout.strip()
    return out if res.returncode == 0 and out else None


def script(name):
    return os.path.join(SCRIPTS, name)


KERNELS = 'stock (the default, 6.1), 6.1, 6.12, debug, debug-kcsan or a kernel build tree'


def kernel_name(kernel):
    """The canonical name of KERNEL (`stock` is 6.1; a tree, its absolute
    path), or None when it is no kernel (see KERNELS)."""
    return lib_sh('kernel_name', kernel)


def is_debug(kernel):
    """Whether KERNEL is one of the debug kernels built by wqport."""
    return (kernel_name(kernel) or '').startswith('debug')


def kernel_build_name(kernel):
    """The build/ subdirectory scripts/kbuild uses for KERNEL."""
    name = lib_sh('kernel_build_name', kernel)
    if not name:
        raise WqportError(f'--kernel {kernel}: not {KERNELS}')
    return name


def kernel_image(kernel):
    """KERNEL's bootable image, fetched or built into the cache first."""
    return lib_sh('kernel_image', kernel, show_errors=True)


def kernel_kdir(kernel):
    """KERNEL's build tree, fetched or built into the cache first."""
    return lib_sh('kernel_kdir', kernel, show_errors=True)


def linux_source(relpath):
    """A path of Debian's linux-source the debug kernels are built from: in
    the debug kernel's tree when it is built, else extracted once from the
    tarball into the cache."""
    dbg = lib_sh('debug_kernel_dir')
    if dbg and os.path.exists(os.path.join(dbg, '.built')):
        return os.path.join(dbg, 'linux', relpath)
    src = lib_sh('debug_kernel_source')
    dest = os.path.join(CACHE, 'linux-source-parts')
    path = os.path.join(dest, src, relpath)
    if not os.path.exists(path):
        tarball = f'/usr/src/{src}.tar.xz'
        if not os.path.exists(tarball):
            raise InfraError(f'{tarball} missing: run scripts/install-deps')
        os.makedirs(dest, exist_ok=True)
        subprocess.run(['tar', '-xJf', tarball, '-C', dest, f'{src}/{relpath}'], check=True)
    return path


def kunit_tool_dir():
    """linux-source's tools/testing/kunit (kunit.py and its KTAP parser)."""
    return linux_source('tools/testing/kunit')


def version():
    """wqport's version: dkms.conf's PACKAGE_VERSION (the shim's DKMS package
    and the tool are released together), with the git commit when run from
    a checkout."""
    v = 'unknown'
    try:
        with open(os.path.join(TOP, 'dkms.conf')) as f:
            m = re.search(r'^PACKAGE_VERSION="?([^"\n]+)', f.read(), re.M)
            v = m.group(1) if m else v
    except OSError:
        pass
    if os.path.isdir(os.path.join(TOP, '.git')):
        try:
            rev = subprocess.run(['git', '-C', TOP, 'describe', '--always', '--dirty'],
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                 text=True, check=False).stdout.strip()
            if rev:
                v += f' ({rev})'
        except OSError:
            pass
    return v


def shim_build(kernel):
    """The directory of the one wqcompat.ko build that `wqport build` links
    against and `wqport test` loads for KERNEL (scripts/kbuild --shim-only,
    build/NAME-shim): rebuilt first when a file of compat/ is newer than it
    (a pull, an edit), so that the two can never disagree.  Raises
    WqportError when it does not build."""
    d = os.path.join(BUILD, kernel_build_name(kernel) + '-shim')
    ko = os.path.join(d, 'compat', 'wqcompat.ko')
    try:
        built = os.stat(ko).st_mtime_ns
        newest = max(os.stat(os.path.join(r, f)).st_mtime_ns
                     for r, _, fs in os.walk(os.path.join(TOP, 'compat')) for f in fs)
        if newest <= built and os.path.exists(os.path.join(d, 'Module.symvers')):
            return d
    except (OSError, ValueError):
        pass
    res = subprocess.run([script('kbuild'), '--kernel', kernel, '--shim-only'],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         check=False)
    if res.returncode or not os.path.exists(ko):
        raise WqportError(f'the shim (wqcompat.ko) does not build for {kernel}:\n'
                          + '\n'.join(res.stderr.strip().splitlines()[-20:]))
    return res.stdout.strip()
