# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared helpers for wqport's shell scripts.  Source it; it defines functions only.
#
# Kernels (docs/architecture.md):
#   6.1, 6.12     Debian 12's own stock kernels (6.12 from bookworm-security),
#                 unpacked from their packages into the cache, never installed
#   stock         the default: 6.1
#   debug         built from linux-source-6.12 with scripts/debug-kernel.config
#   debug-kcsan   the same with KCSAN instead of KASAN and kmemleak
#   DIR           any kernel build tree

WQPORT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WQPORT_CACHE=${WQPORT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wqport}
# shellcheck disable=SC2034 # the variables below are for the scripts that source this
# Builds go to build/ in the tree, or to the cache for an installed, read-only tree.
if [ -w "$WQPORT_TOP" ]; then WQPORT_BUILD=$WQPORT_TOP/build; else WQPORT_BUILD=$WQPORT_CACHE/build; fi
# What `stock` means, the stock kernels, and the debug kernels' source.
WQPORT_DEFAULT_KERNEL=6.1
# shellcheck disable=SC2034
WQPORT_STOCK_KERNELS="6.1 6.12"
WQPORT_DEBUG_SERIES=6.12

die() {
	echo "${0##*/}: error: $*" >&2
	exit 2
}

note() {
	echo "${0##*/}: $*" >&2
}

# kernel_name KERNEL: the canonical name of a kernel (stock becomes 6.1), or
# a build tree's absolute path; status 1 for anything else.
kernel_name() {
	case $1 in
	stock) echo "$WQPORT_DEFAULT_KERNEL" ;;
	6.1|6.12|debug|debug-kcsan) echo "$1" ;;
	*) [ -e "$1/Makefile" ] || return 1
		(cd "$1" && pwd -P) ;;
	esac
}

# kernel_build_name KERNEL: the directory under build/ for KERNEL's objects.
kernel_build_name() {
	local k
	k=$(kernel_name "$1") || return 1
	case $k in
	/*) echo "kdir-$(echo "$k" | sha256sum | cut -c1-12)" ;;
	*) echo "$k" ;;
	esac
}

# --- the stock kernels: Debian packages, unpacked into the cache -----------

# stock_kernel_abi_regex SERIES: how Debian 12 names SERIES' kernel ABIs.
stock_kernel_abi_regex() {
	case $1 in
	6.1) echo '6\.1\.0-[0-9]+' ;;
	6.12) echo '6\.12\.[0-9]+\+deb12' ;;
	*) return 1 ;;
	esac
}

# apt_lists_signature: changes when `apt-get update` brings new package lists.
apt_lists_signature() {
	stat -c '%n %s %Y' /var/lib/apt/lists/*Packages* /etc/apt/preferences* 2>/dev/null |
		sha256sum | cut -c1-16
}

# apt_candidate PKG: the version apt would install, or nothing.
apt_candidate() {
	apt-cache policy "$1" 2>/dev/null | sed -n 's/^  Candidate: //p' | grep -v '^(none)$'
}

# stock_kernel_resolve SERIES: the packages of the newest SERIES kernel apt
# knows, as NAME=VERSION lines: the image, its headers, the common headers,
# linux-kbuild.  Asks apt (a few seconds); stock_kernel_packages remembers it.
stock_kernel_resolve() {
	local series=$1 rx abi image headers common kbuild p v out
	rx=$(stock_kernel_abi_regex "$series") || return 1
	for abi in $(apt-cache pkgnames "linux-headers-$series." 2>/dev/null |
		sed -n -E "s/^linux-headers-($rx)-amd64\$/\\1/p" | sort -rV); do
		headers=linux-headers-$abi-amd64
		image=linux-image-$abi-amd64
		[ -n "$(apt_candidate "$image")" ] || image=$image-unsigned
		common='' kbuild=''
		while read -r p; do
			case $p in
			linux-headers-*-common) common=$p ;;
			linux-kbuild-*) kbuild=$p ;;
			esac
		done < <(apt-cache depends "$headers" 2>/dev/null | sed -n 's/^ *Depends: //p')
		if [ -z "$common" ] || [ -z "$kbuild" ]; then continue; fi
		out=
		for p in "$image" "$headers" "$common" "$kbuild"; do
			v=$(apt_candidate "$p") || { out=; break; }
			out+="$p=$v"$'\n'
		done
		[ -n "$out" ] || continue
		printf '%s' "$out"
		return 0
	done
	return 1
}

# stock_kernel_packages SERIES: stock_kernel_resolve, remembered in the cache
# until the package lists change.
stock_kernel_packages() {
	local memo=$WQPORT_CACHE/kernel-$1.packages sig pkgs
	sig=$(apt_lists_signature)
	if [ -r "$memo" ] && [ "$(head -1 "$memo")" = "lists $sig" ]; then
		tail -n +2 "$memo"
		return 0
	fi
	pkgs=$(stock_kernel_resolve "$1") || return 1
	mkdir -p "$WQPORT_CACHE"
	printf 'lists %s\n%s\n' "$sig" "$pkgs" >"$memo.$$"
	mv -f "$memo.$$" "$memo"
	echo "$pkgs"
}

# stock_kernel_dir SERIES: the cache directory of SERIES' kernel, keyed by its
# package names and versions (it may not be fetched yet).  When apt knows no
# such kernel (no package lists), the newest one already fetched.
stock_kernel_dir() {
	local pkgs
	stock_kernel_abi_regex "$1" >/dev/null || return 1
	if pkgs=$(stock_kernel_packages "$1"); then
		echo "$WQPORT_CACHE/kernel-$1-$(echo "$pkgs" | sha256sum | cut -c1-16)"
		return 0
	fi
	stock_kernel_dir_fetched "$1"
}

# stock_kernel_dir_fetched SERIES: the newest SERIES kernel in the cache.
stock_kernel_dir_fetched() {
	local d
	d=$(find "$WQPORT_CACHE" -maxdepth 2 -path "$WQPORT_CACHE/kernel-$1-*/.ready" \
		-printf '%T@ %h\n' 2>/dev/null | sort -rn | head -1)
	[ -n "$d" ] || return 1
	echo "${d#* }"
}

# --- the debug kernels: built from linux-source in the cache ---------------

# debug_kernel_source: the Debian package the debug kernels are built from.
debug_kernel_source() {
	echo "linux-source-$WQPORT_DEBUG_SERIES"
}

# debug_kernel_name VARIANT: the kernel name of a debug-kernel variant.
debug_kernel_name() {
	case $1 in
	kasan|debug) echo debug ;;
	kcsan|debug-kcsan) echo debug-kcsan ;;
	*) return 1 ;;
	esac
}

# debug_kernel_fragments NAME: the config fragments of debug kernel NAME, in
# merge order.
debug_kernel_fragments() {
	echo "$WQPORT_TOP/scripts/debug-kernel.config"
	case $1 in
	debug) ;;
	debug-kcsan) echo "$WQPORT_TOP/scripts/debug-kernel-kcsan.config" ;;
	*) return 1 ;;
	esac
}

# debug_kernel_dir [NAME]: the cache directory of debug kernel NAME (default
# debug) for the committed fragments and source patch and the installed
# linux-source version (it may not be built): a build is reused while they
# are unchanged.
debug_kernel_dir() {
	local name=${1:-debug} ver key frags
	frags=$(debug_kernel_fragments "$name") || return 1
	ver=$(dpkg-query -W -f '${Version}' "linux-source-$WQPORT_DEBUG_SERIES" 2>/dev/null) ||
		return 1
	# shellcheck disable=SC2086 # one path a line, no spaces in them
	key=$( { echo "$ver"; cat $frags "$WQPORT_TOP/scripts/debug-kernel.patch"; } |
		sha256sum | cut -c1-16)
	echo "$WQPORT_CACHE/$name-kernel-$key"
}

# --- any kernel ----------------------------------------------------------

# kernel_prepare KERNEL: fetch (stock) or build (debug) KERNEL if the cache
# lacks it; print its directory: the cache directory (stock), the build tree
# (debug) or the tree given.  Progress and errors go to stderr.
kernel_prepare() {
	local k
	k=$(kernel_name "$1") || { echo "${0##*/}: error: $1: not stock, 6.1, 6.12," \
		"debug, debug-kcsan or a kernel build tree" >&2; return 2; }
	case $k in
	6.*) "$WQPORT_TOP/scripts/fetch-kernel" "$k" ;;
	debug) "$WQPORT_TOP/scripts/build-debug-kernel" ;;
	debug-kcsan) "$WQPORT_TOP/scripts/build-debug-kernel" --variant kcsan ;;
	*) echo "$k" ;;
	esac
}

# kernel_kdir KERNEL: the build tree modules are built against (prepared).
kernel_kdir() {
	local k d
	k=$(kernel_name "$1") || return 2
	d=$(kernel_prepare "$k") || return
	case $k in
	6.*) echo "$d/root/lib/modules/$(cat "$d/release")/build" ;;
	*) echo "$d" ;;
	esac
}

# kernel_image KERNEL: the image QEMU boots (prepared): the kernel's ELF
# where it has a PVH entry point (CONFIG_PVH), booted without the bzImage's
# decompressor, 3 s of a stock kernel's 5 s boot under TCG; else the bzImage.
# A stock kernel's ELF is taken out of its image once, into the cache
# (scripts/wqportlib/vmlinux.py; vmlinux-REL.none: it has none).
kernel_image() {
	local k d rel
	k=$(kernel_name "$1") || return 2
	d=$(kernel_prepare "$k") || return
	case $k in
	6.*) rel=$(cat "$d/release")
		if [ ! -e "$d/vmlinux-$rel" ] && [ ! -e "$d/vmlinux-$rel.none" ] &&
			! python3 "$WQPORT_TOP/scripts/wqportlib/vmlinux.py" \
				"$d/root/boot/vmlinuz-$rel" "$d/vmlinux-$rel" 2>"$d/vmlinux-$rel.why"; then
			mv -f "$d/vmlinux-$rel.why" "$d/vmlinux-$rel.none"
		fi
		rm -f "$d/vmlinux-$rel.why"
		if [ -e "$d/vmlinux-$rel" ]; then
			echo "$d/vmlinux-$rel"
		else
			echo "$d/root/boot/vmlinuz-$rel"
		fi ;;
	*) [ -e "$d/arch/x86/boot/bzImage" ] || return 1
		if [ -e "$d/vmlinux" ] && grep -qx 'CONFIG_PVH=y' "$d/.config" 2>/dev/null; then
			echo "$d/vmlinux"
		else
			echo "$d/arch/x86/boot/bzImage"
		fi ;;
	esac
}

# kernel_release KERNEL: its `uname -r` (prepared).
kernel_release() {
	local kdir
	kdir=$(kernel_kdir "$1") || return
	sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h"
}
