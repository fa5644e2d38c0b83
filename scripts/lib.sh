# shellcheck shell=bash
# Shared helpers for wqport's shell scripts.  Source it; it defines functions only.

WQPORT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WQPORT_CACHE=${WQPORT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wqport}
# Builds go to build/ in the tree, or to the cache for an installed, read-only tree.
if [ -w "$WQPORT_TOP" ]; then WQPORT_BUILD=$WQPORT_TOP/build; else WQPORT_BUILD=$WQPORT_CACHE/build; fi

die() {
	echo "${0##*/}: error: $*" >&2
	exit 2
}

note() {
	echo "${0##*/}: $*" >&2
}

# stock_kernel_release: the release of the newest installed Debian linux-image
# that also has its headers installed (never `uname -r`: the host's own kernel
# has no headers here).
stock_kernel_release() {
	local d rel best=
	for d in /lib/modules/*/build; do
		[ -e "$d/Makefile" ] || continue
		rel=${d#/lib/modules/}
		rel=${rel%/build}
		[ -e "/boot/vmlinuz-$rel" ] || continue
		best=$rel
	done
	[ -n "$best" ] || return 1
	echo "$best"
}

# debug_kernel_dir: the cache directory of the debug kernel for the committed
# config fragment and the installed linux-source version (it may not be built):
# a build is reused while both are unchanged.
debug_kernel_dir() {
	local ver key
	ver=$(dpkg-query -W -f '${Version}' linux-source-6.1 2>/dev/null) || return 1
	key=$( { echo "$ver"; cat "$WQPORT_TOP/scripts/debug-kernel.config"; } |
		sha256sum | cut -c1-16)
	echo "$WQPORT_CACHE/debug-kernel-$key"
}

# kernel_kdir KERNEL: the build tree for `stock`, `debug` or a directory.
kernel_kdir() {
	case $1 in
	stock) echo "/lib/modules/$(stock_kernel_release)/build" ;;
	debug) echo "$(debug_kernel_dir)/linux" ;;
	*) (cd "$1" && pwd) ;;
	esac
}

# kernel_image KERNEL: the bootable image for `stock` or `debug`.
kernel_image() {
	case $1 in
	stock) echo "/boot/vmlinuz-$(stock_kernel_release)" ;;
	debug) echo "$(debug_kernel_dir)/linux/arch/x86/boot/bzImage" ;;
	*) [ -e "$1/arch/x86/boot/bzImage" ] && echo "$1/arch/x86/boot/bzImage" ;;
	esac
}
