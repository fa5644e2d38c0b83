#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# wqport guest /init: runs inside the QEMU guest from the test initramfs.
# The initramfs holds one directory per run, /runs/1, /runs/2, ...: its
# modules and files in modules/, its optional scenario script, and run.conf
# (MODULES, the ones to load, wqcompat.ko first; TRACE, when set, the
# seconds the run settles for and records, trace()).  The runs are done in the
# order the kernel command line lists them (wqport.runs=3,4,5; default:
# all): the host boots again for the rest after a crash, a timeout, or a
# run that left the kernel changed.
#
# Each run: /modules is its modules/, load the modules, run the scenario,
# unload everything in reverse order.  Between
# "wqport: begin N" and "wqport: end N" its KTAP: one top-level result per
# load, per KUnit suite (printed by the kernel while the module loads), for
# the scenario, and per unload.  Test numbers are 0 here: the host numbers
# each run's top level.  Other lines for the host start with "wqport: ".
# "wqport: tainted T" gives the taint flags the run added.
#
# With wqport.payload=disk the runs come later, on a disk: the guest loads
# the virtio modules in /lib/wqport-virtio (a stock kernel's), says
# "wqport: ready" and waits for "wqport-load RUNS" on the console: the host
# saves the VM there, once, and restores it for each boot (snapshot.py),
# with the runs' archive on /dev/vda, which the guest unpacks.
#
# After each run the guest waits for the host to type "wqport-go" on the
# console ("wqport-stop" when the run changed the kernel).  A run that
# leaves a module loaded stops the boot too ("wqport: stop").  Then, on a
# kernel with kmemleak, one check for all the runs of the boot, between
# "wqport: kmemleak" and "wqport: kmemleak done", and the guest reports
# that it reached its end through QEMU's isa-debug-exit port.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug

say() { echo "wqport: $*"; }
result() { if [ "$1" -eq 0 ]; then echo "ok 0 $2"; else echo "not ok 0 $2"; fi; }
# QEMU exits with (value << 1) | 1; 0x10 = the guest ran to the end.
leave() {
	printf "\\$(printf %03o "$1")" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	poweroff -f
}

# The scenario is one test: its own KTAP or TAP 13 (when it prints a plan)
# nests under it, its version line (if it prints one) first; a "not ok" at
# its top level fails it whatever its exit status.  Any other output becomes
# the test's diagnostic lines.
scenario() {
	/scenario < /dev/null > /tmp/scenario.out 2>&1
	rc=$?
	if grep -q '^ *1\.\.[0-9]' /tmp/scenario.out; then
		version='^(KTAP version [0-9]+|TAP version [0-9]+)$'
		v=$(grep -m1 -E "$version" /tmp/scenario.out)
		echo "    ${v:-KTAP version 1}"
		echo "    # Subtest: scenario"
		grep -v -E "$version" /tmp/scenario.out | sed 's/^/    /'
		if [ $rc -eq 0 ] && grep -q '^not ok ' /tmp/scenario.out; then
			rc=1
		fi
	else
		sed 's/^/# /' /tmp/scenario.out
	fi
	result $rc scenario
}

modules() { cut -d' ' -f1 /proc/modules | sort; }

# trace N: the run's trace (run.conf's TRACE: wqport-trace, trace-record.sh)
# on the console, each line prefixed, then how many lines there were: the
# host takes a trace whose count does not match as damaged.  The kernel's
# messages would land in the middle of its lines: they wait in the log
# while it is printed, and follow it.
trace() {
	wqport-trace stop -o /tmp/trace || { say "no trace: the recorder failed"; return; }
	dmesg -c > /dev/null
	read -r level _ < /proc/sys/kernel/printk
	echo 1 > /proc/sys/kernel/printk
	say "trace begin $1"
	sed 's/^/wqport-trace: /' /tmp/trace
	say "trace end $1 $(wc -l < /tmp/trace)"
	echo "$level" > /proc/sys/kernel/printk
	dmesg -c
	rm -f /tmp/trace
}

# run N: one run, from its begin marker to its end marker.  Returns 1 when
# it leaves a module loaded that was not loaded before it.
run() {
	rm -f /modules /scenario
	ln -s "/runs/$1/modules" /modules
	[ -x "/runs/$1/scenario" ] && ln -s "/runs/$1/scenario" /scenario
	# shellcheck source=/dev/null
	. "/runs/$1/run.conf"
	before=$(cat /proc/sys/kernel/tainted)
	modules > /tmp/modules.before
	# the kernel log a scenario reads (dmesg) is its run's own: an earlier
	# run's lines, of a module of the same name, never count (the host
	# reads the console, which this leaves alone)
	dmesg -c > /dev/null
	# the pid of a new task: the run's tasks are this one and after
	say "begin $1 pid $(sh -c 'echo $$')"
	[ -z "$TRACE" ] || wqport-trace start || say "no trace: the recorder failed to start"
	loaded=
	for m in $MODULES; do
		{ echo '#'; modules; } > /tmp/modules.pre	# never empty, for grep -f
		insmod "/modules/$m"
		rc=$?
		result $rc "load $m"
		[ $rc -eq 0 ] || continue
		# the module's name is what /proc/modules gained: a .ko's file
		# name need not be its module's
		mod=$(modules | grep -vxF -f /tmp/modules.pre | head -n 1)
		[ -n "$mod" ] || mod=$(echo "${m%.ko}" | tr - _)
		# wqcompat.ko's events on before the driver loads
		[ -z "$TRACE" ] || [ "$mod" != wqcompat ] || wqport-trace shim
		loaded="$mod:${m%.ko} $loaded"
	done
	# the drivers' symbols kept while they are loaded (a scenario may
	# unload one), in one read of /proc/kallsyms
	if [ -n "$TRACE" ]; then
		drivers=
		for entry in $loaded; do
			[ "${entry%%:*}" = wqcompat ] || drivers="$drivers ${entry%%:*}"
		done
		# shellcheck disable=SC2086 # one word a module
		[ -z "$drivers" ] || wqport-trace symbols $drivers
	fi
	[ -x /scenario ] && scenario
	# shellcheck disable=SC2086 # one word a module
	[ -z "$TRACE" ] || [ -z "$drivers" ] || wqport-trace settle "$TRACE" 30 $drivers
	for entry in $loaded; do
		mod=${entry%%:*}
		m=${entry#*:}
		# unloading wqcompat.ko empties the trace buffers: the trace
		# ends before it (it is loaded first, unloaded last)
		[ -z "$TRACE" ] || [ "$mod" != wqcompat ] || trace "$1"
		if [ ! -d "/sys/module/$mod" ]; then
			echo "ok 0 unload $m.ko # SKIP the scenario unloaded it"
			continue
		fi
		rmmod "$mod"
		result $? "unload $m.ko"
	done
	[ -z "$TRACE" ] || [ ! -d /tmp/wqport-trace.state ] || trace "$1"
	after=$(cat /proc/sys/kernel/tainted)
	say "tainted $((after & ~before))"
	say "end $1"
	modules | cmp -s - /tmp/modules.before
}

# Centiseconds since boot.
uptime_cs() {
	read -r up _ </proc/uptime
	echo $(( ${up%.*} * 100 + 1${up#*.} - 100 ))
}

# The kmemleak check of the runs of this boot (the debug kernel): kmemleak
# reports an object that two scans found unreferenced with the same
# contents (the first scan only takes its checksum) once it is older than
# its kernel's MSECS_MIN_AGE (wqport.leak_age_ms, which `wqport test` reads
# from the kernel's tree: 1 s in the debug kernels, scripts/debug-kernel.patch;
# 5 s, kmemleak's own, when not given).  The first scan goes at once, the
# second that age and half a second more after the runs ended: the wait is
# kmemleak's ageing rule, not synchronisation, and the first scan's time
# (a second or more under TCG with KASAN) is spent inside it.
kmemleak() {
	say kmemleak
	t0=$(uptime_cs)
	echo scan > /sys/kernel/debug/kmemleak
	wait_cs=$(( (leak_age_ms + 500) / 10 - ($(uptime_cs) - t0) ))
	[ "$wait_cs" -le 0 ] || sleep "$(( wait_cs / 100 )).$(printf %02d $(( wait_cs % 100 )))"
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak
	say "kmemleak done"
}

runs=
payload=
leak_age_ms=5000
for arg in $(cat /proc/cmdline); do
	case $arg in
	wqport.runs=*) runs=$(echo "${arg#wqport.runs=}" | tr , ' ') ;;
	wqport.leak_age_ms=*) leak_age_ms=${arg#wqport.leak_age_ms=} ;;
	wqport.payload=*) payload=${arg#wqport.payload=} ;;
	esac
done
stty -echo 2>/dev/null
# The runs' files on a disk (snapshot.py): the host saves the guest while
# it waits here, and restores that for each boot, with the runs on the
# disk, and types "wqport-load RUNS" (RUNS as wqport.runs= gives them).
if [ "$payload" = disk ]; then
	for m in /lib/wqport-virtio/*.ko; do
		[ ! -e "$m" ] || insmod "$m" || say "no disk: insmod $m failed"
	done
	if [ ! -b /dev/vda ]; then
		say "no disk: /dev/vda missing"
		leave 16
	fi
	say ready
	read -r word list || { say "no disk: no word from the host"; leave 16; }
	[ "$word" = wqport-load ] || { say "no disk: the host said $word"; leave 16; }
	runs=$(echo "$list" | tr , ' ')
	# what the saved guest read of the disk (its partition table) is stale
	blockdev --flushbufs /dev/vda
	(cd / && cpio -i -d -m < /dev/vda 2>/tmp/cpio.err) || {
		say "no disk: $(tail -n 1 /tmp/cpio.err)"
		leave 16
	}
fi
leaks=
if [ -e /sys/kernel/debug/kmemleak ]; then
	leaks=kmemleak
	# no scan of kmemleak's own in the middle of a run: the check after
	# the runs scans when it needs to
	echo scan=off > /sys/kernel/debug/kmemleak
fi
say "boot${leaks:+ $leaks}"
[ -n "$runs" ] || runs=$(ls /runs | sort -n)
# shellcheck disable=SC2086
set -- $runs
while [ $# -gt 0 ]; do
	n=$1
	shift
	if ! run "$n"; then
		say stop
		break
	fi
	if [ $# -eq 0 ]; then
		# a grace period after the boot's last run: a timer or work item
		# the unloads left behind would fire into freed module memory in
		# it, on the host's watch (the runs before this one had the wait
		# for the host's word after them); not synchronisation with
		# anything, a window to be seen in
		sleep 1
		break
	fi
	read -r answer || break
	[ "$answer" = wqport-go ] || break
done
[ -z "$leaks" ] || kmemleak
leave 16
