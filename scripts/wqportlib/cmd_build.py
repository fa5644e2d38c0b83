# SPDX-License-Identifier: GPL-2.0
"""wqport build: build an out-of-tree driver against the shim, or plainly."""
import glob
import os
import re
import shutil
import subprocess
import sys

from . import paths
from .paths import WqportError


def add_parser(sub):
    p = sub.add_parser('build', help='build an out-of-tree driver',
                       description='Build the driver in DIR against KERNEL, with the '
                       'shim: its <linux/tqueue.h>, <linux/interrupt.h> and old-form '
                       '<linux/workqueue.h> come ahead of the kernel\'s and it links '
                       'against wqcompat.ko.  DIR keeps its own Kbuild or Makefile; a '
                       'DIR without one becomes one module of all its .c files, named '
                       'after DIR.  The build happens in a copy of links, so DIR gets no '
                       'objects.  Prints the paths of the modules built.')
    p.add_argument('--kernel', default='stock',
                   help='stock (the default: 6.1), 6.1, 6.12, debug, debug-kcsan or a KDIR')
    p.add_argument('--no-shim', action='store_true',
                   help='build plainly, as a converted driver must build')
    p.add_argument('--lint', action='store_true', help='W=1 C=2; fail on any warning')
    p.add_argument('--out', help='build directory (default build/drivers/NAME/KERNEL)')
    p.add_argument('--root', help='mirror this directory around DIR too, for a Kbuild that '
                   'reaches outside DIR (e.g. -I$(src)/../include)')
    p.add_argument('dir', metavar='DIR')
    p.set_defaults(func=run)


def module_name(directory):
    name = re.sub(r'[^A-Za-z0-9_]', '_', os.path.basename(os.path.abspath(directory)))
    return name if name[:1].isalpha() else 'm_' + name


def link_farm(src, out):
    """Mirror SRC into OUT as symbolic links (objects land in OUT only)."""
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if not d.startswith('.')]
        rel = os.path.relpath(root, src)
        os.makedirs(os.path.join(out, rel), exist_ok=True)
        for f in files:
            if f.endswith(('.o', '.ko', '.cmd', '.mod', '.mod.c', '.symvers', '.order')):
                continue
            dest = os.path.join(out, rel, f)
            if os.path.lexists(dest):
                os.unlink(dest)
            os.symlink(os.path.abspath(os.path.join(root, f)), dest)


def build(directory, kernel='stock', shim=True, lint=False, out=None, quiet=False,
          root=None):
    """Build DIRECTORY; returns the list of .ko paths.  Raises WqportError."""
    if not os.path.isdir(directory):
        raise WqportError(f'{directory}: no such directory')
    if root and os.path.relpath(os.path.abspath(directory),
                                os.path.abspath(root)).startswith('..'):
        raise WqportError(f'--root {root} does not contain {directory}')
    build_name = paths.kernel_build_name(kernel)
    kdir = paths.kernel_kdir(kernel)
    if not kdir or not os.path.exists(os.path.join(kdir, 'Makefile')):
        raise WqportError(f'no kernel build tree for {kernel}: run scripts/install-deps')
    src = os.path.abspath(directory)
    name = module_name(src)
    out = os.path.abspath(out or os.path.join(
        paths.BUILD, 'drivers', name, build_name + ('' if shim else '-noshim')))
    if root:
        # mirror ROOT; build its DIRECTORY part
        link_farm(os.path.abspath(root), out)
        out = os.path.join(out, os.path.relpath(src, os.path.abspath(root)))
    else:
        link_farm(src, out)
    if not any(os.path.exists(os.path.join(src, f)) for f in ('Kbuild', 'Makefile')):
        cfiles = sorted(os.path.basename(f) for f in glob.glob(os.path.join(src, '*.c')))
        if not cfiles:
            raise WqportError(f'{directory}: no Kbuild, no Makefile and no .c file')
        objs = [f[:-2] + '.o' for f in cfiles]
        with open(os.path.join(out, 'Kbuild'), 'w') as f:
            f.write(f'obj-m += {name}.o\n')
            if objs != [name + '.o']:
                f.write(f'{name}-y := {" ".join(objs)}\n')
    cmd = ['make', '-C', kdir, f'M={out}']
    if shim:
        res = subprocess.run([paths.script('kbuild'), '--kernel', kernel, '--shim-only'],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             check=False)
        if res.returncode:
            sys.stderr.write(res.stderr)
            raise WqportError('the shim (wqcompat.ko) does not build for ' + kernel)
        shim_dir = res.stdout.strip()
        cmd += [f'NOSTDINC_FLAGS=-I{paths.TOP}/compat/include',
                f'KBUILD_EXTRA_SYMBOLS={shim_dir}/Module.symvers']
    if lint:
        cmd += ['W=1', 'C=2']
    cmd.append('modules')
    for ko in glob.glob(os.path.join(out, '**', '*.ko'), recursive=True):
        os.unlink(ko)
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         check=False)
    with open(os.path.join(out, 'build.log'), 'w') as f:
        f.write(res.stdout)
    warnings = [line for line in res.stdout.splitlines()
                if re.search(r': (warning|error):|^WARNING: ', line)]
    if res.returncode or (lint and warnings):
        if not quiet:
            sys.stderr.write('\n'.join(warnings or res.stdout.splitlines()[-30:]) + '\n')
        raise WqportError(f'{directory}: build failed against {kernel} '
                          f'(log: {os.path.join(out, "build.log")})')
    return sorted(glob.glob(os.path.join(out, '**', '*.ko'), recursive=True))


def run(args):
    for ko in build(args.dir, args.kernel, not args.no_shim, args.lint, args.out,
                    root=args.root):
        print(ko)
    return 0
