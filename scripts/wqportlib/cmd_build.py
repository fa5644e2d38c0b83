# SPDX-License-Identifier: GPL-2.0
"""wqport build: build an out-of-tree driver against the shim, or plainly."""
import glob
import os
import re
import sys

from . import kbuild, paths
from .paths import WqportError


def add_parser(sub):
    p = sub.add_parser('build', help='build an out-of-tree driver',
                       description='Build the driver in DIR against KERNEL, with the '
                       'shim: its <linux/tqueue.h>, <linux/interrupt.h> and old-form '
                       '<linux/workqueue.h> come ahead of the kernel\'s and it links '
                       'against wqcompat.ko.  DIR keeps its own Kbuild or Makefile; a '
                       'DIR without one, or with a 2.4 Makefile (Rules.make, O_TARGET), '
                       'becomes one module of all its .c files, named after DIR.  The '
                       'build happens in a copy of links, so DIR gets no objects.  '
                       'Compiler warnings are shown, not fatal (--lint makes them '
                       'fatal).  Prints the paths of the modules built.')
    p.add_argument('--kernel', default='stock',
                   help='stock (the default: 6.1), 6.1, 6.12, debug, debug-kcsan or a KDIR')
    p.add_argument('--no-shim', action='store_true',
                   help='build plainly, as a converted driver must build')
    p.add_argument('--lint', action='store_true',
                   help='W=1 C=2 and fail on any warning (for code written for this '
                   'kernel; a legacy driver has many)')
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
    kbuild.link(src, kbuild.sources(src), out)


# A 2.4 kernel Makefile: it includes Rules.make and names its objects with
# O_TARGET/list-multi; Kbuild cannot read it.
OLD_MAKEFILE = re.compile(r'^\s*include\s+\$\(TOPDIR\)/Rules\.make|^\s*O_TARGET\s*:?=|'
                          r'^\s*list-multi\s*:?=', re.M)

# The Kbuild file `wqport build` writes over a driver's own: the overlay
# headers go after the kernel's -nostdinc and ahead of its include path (as
# Linux backports does it), exported so that subdirectories get them too;
# then the driver's own file, or the module wqport makes of its sources.
WRAPPER = """\
# Written by `wqport build`: the shim's headers first, then the driver's own.
NOSTDINC_FLAGS += -I{include}
export NOSTDINC_FLAGS
{body}
"""


def old_makefile(path):
    """Is PATH a 2.4 kernel Makefile (Rules.make)?"""
    try:
        with open(path, errors='replace') as f:
            return bool(OLD_MAKEFILE.search(f.read()))
    except OSError:
        return False


def composite_name(makefile, name, objs):
    """The name of the one module made of OBJS: the composite object a 2.4
    MAKEFILE names (O_TARGET, list-multi) when it is not one of them, else
    NAME, or NAME_drv when NAME.o is one of several objects (Kbuild cannot
    link a module from an object of its own name)."""
    cands = []
    if makefile:
        with open(makefile, errors='replace') as f:
            text = f.read()
        for var in ('list-multi', 'O_TARGET'):
            m = re.search(r'^\s*%s\s*:?=\s*(\w+)\.o\b' % re.escape(var), text, re.M)
            if m:
                cands.append(m.group(1))
    for c in cands + [name, name + '_drv']:
        if c + '.o' not in objs or objs == [c + '.o']:
            return c
    return name + '_module'


def driver_kbuild(src, out, name, shim):
    """Write OUT/Kbuild for the driver in SRC; return a note for the user or None."""
    own = next((f for f in ('Kbuild', 'Makefile')
                if os.path.exists(os.path.join(src, f))), None)
    note = None
    cfiles = sorted(os.path.basename(f) for f in glob.glob(os.path.join(src, '*.c')))
    objs = [f[:-2] + '.o' for f in cfiles]
    if own == 'Makefile' and old_makefile(os.path.join(src, own)):
        name = composite_name(os.path.join(src, own), name, objs)
        note = (f'{own} is a 2.4 kernel Makefile (Rules.make); building every .c '
                f'of the directory as one module, {name}.ko')
        own = None
    elif len(objs) > 1 and name + '.o' in objs:
        name = composite_name(None, name, objs)
    if own:
        if not shim:
            return None          # the driver's file, as it is
        inc = os.path.join(out, 'wqport-driver.kbuild')
        if os.path.lexists(inc):
            os.unlink(inc)
        os.symlink(os.path.join(src, own), inc)
        body = 'include $(src)/wqport-driver.kbuild'
    else:
        if not cfiles:
            raise WqportError(f'{src}: no Kbuild, no Makefile and no .c file')
        body = f'obj-m += {name}.o\n'
        if objs != [name + '.o']:
            body += f'{name}-y := {" ".join(objs)}\n'
    for f in ('Kbuild', 'Makefile'):
        if os.path.lexists(os.path.join(out, f)):
            os.unlink(os.path.join(out, f))
    include = os.path.join(paths.TOP, 'compat', 'include')
    with open(os.path.join(out, 'Kbuild'), 'w') as f:
        f.write(WRAPPER.format(include=include, body=body) if shim else body)
    return note


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
    note = driver_kbuild(src, out, name, shim)
    if note and not quiet:
        print(f'wqport build: {directory}: {note}', file=sys.stderr)
    args = []
    if shim:
        args.append(f'KBUILD_EXTRA_SYMBOLS={paths.shim_build(kernel)}/Module.symvers')
    res = kbuild.make(kdir, out, args, lint=lint, log_name='build.log')
    warnings, log = res.findings, res.log
    if not res.ok:
        if not quiet:
            sys.stderr.write('\n'.join(warnings or res.output.splitlines()[-30:]) + '\n')
        raise WqportError(f'{directory}: build failed against {kernel} (log: {log})')
    if warnings and not quiet:
        sys.stderr.write('\n'.join(warnings[:20]) + '\n')
        print(f'wqport build: {directory}: {len(warnings)} compiler warning(s), '
              f'not fatal without --lint (log: {log})', file=sys.stderr)
    return res.modules


def run(args):
    for ko in build(args.dir, args.kernel, not args.no_shim, args.lint, args.out,
                    root=args.root):
        print(ko)
    return 0
