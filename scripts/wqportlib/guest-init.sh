#!/bin/sh
# wqport guest /init: runs inside the QEMU guest from the test initramfs.
# Loads wqcompat.ko and the modules under test, runs the optional scenario
# script, unloads everything, asks kmemleak (debug kernel), and reports the
# verdict to the host through QEMU's isa-debug-exit port (/dev/port 0xf4).
# Host and guest speak through console lines that start with "wqport:".
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
. /etc/wqport.conf

say() { echo "wqport: $*"; }
# exit code seen by the host: (value << 1) | 1; 0x10 = the guest ran to the end
leave() {
	sync
	printf "\\$(printf %03o "$1")" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	poweroff -f
}

say begin
n=0
loaded=
for m in $MODULES; do
	if insmod "/modules/$m"; then
		loaded="${m%.ko} $loaded"
	else
		say "insmod-failed $m"
	fi
done

if [ -x /scenario ]; then
	n=$((SUITES + 1))
	echo "    KTAP version 1"
	echo "    # Subtest: scenario"
	/scenario > /tmp/scenario.out 2>&1
	rc=$?
	sed 's/^/    /' /tmp/scenario.out
	if [ $rc -eq 0 ]; then echo "ok $n scenario"; else echo "not ok $n scenario # exit status $rc"; fi
fi

for m in $loaded; do
	rmmod "$m" || say "rmmod-failed $m"
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
