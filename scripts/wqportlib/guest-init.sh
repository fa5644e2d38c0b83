#!/bin/sh
# wqport guest /init: runs inside the QEMU guest from the test initramfs.
# Loads the modules (wqcompat.ko first), runs the optional scenario script,
# unloads everything in reverse order, asks kmemleak (debug kernel), and
# reports that it reached the end through QEMU's isa-debug-exit port.
#
# Its KTAP: one top-level result per load, per KUnit suite (printed by the
# kernel while the module loads), for the scenario, and per unload.  Test
# numbers are 0 here: the host numbers the top level of the whole run.
# Other lines for the host start with "wqport: ".
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
. /etc/wqport.conf

say() { echo "wqport: $*"; }
result() { if [ "$1" -eq 0 ]; then echo "ok 0 $2"; else echo "not ok 0 $2"; fi; }
# QEMU exits with (value << 1) | 1; 0x10 = the guest ran to the end.
leave() {
	printf "\\$(printf %03o "$1")" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	poweroff -f
}

say begin
loaded=
for m in $MODULES; do
	insmod "/modules/$m"
	rc=$?
	result $rc "load $m"
	[ $rc -ne 0 ] || loaded="${m%.ko} $loaded"
done

# The script is one test: its own KTAP or TAP 13 (when it prints a plan)
# nests under it, its version line (if it prints one) first; a "not ok" at
# its top level fails it whatever its exit status.  Any other output becomes
# the test's diagnostic lines.
if [ -x /scenario ]; then
	/scenario > /tmp/scenario.out 2>&1
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
fi

for m in $loaded; do
	mod=$(echo "$m" | tr - _)
	if [ ! -d "/sys/module/$mod" ]; then
		echo "ok 0 unload $m.ko # SKIP the scenario unloaded it"
		continue
	fi
	rmmod "$mod"
	result $? "unload $m.ko"
done

if [ -e /sys/kernel/debug/kmemleak ]; then
	# kmemleak reports only objects older than 5 s that two scans found
	# unreferenced: this wait is its ageing rule, not synchronisation.
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak
fi
say "tainted $(cat /proc/sys/kernel/tainted)"
say end
leave 16
