#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest scenario for `wqport test`: the soak (wqcompat_soak.ko).  It runs
# while it loads, until CYCLES items ran: wqport.soak_cycles=N on the
# kernel command line (make soak), else the module's default.
cycles=$(sed -n 's/.*wqport\.soak_cycles=\([0-9]*\).*/\1/p' /proc/cmdline)
echo "1..2"
if insmod /modules/wqcompat_soak.ko ${cycles:+cycles=$cycles}; then
	echo "ok 1 insmod wqcompat_soak${cycles:+ cycles=$cycles}"
else
	echo "not ok 1 insmod wqcompat_soak"
fi
result=$(cat /sys/module/wqcompat_soak/parameters/result 2>/dev/null)
case $result in
ok*) echo "ok 2 soak" ;;
*) echo "not ok 2 soak" ;;
esac
echo "# $result"
rmmod wqcompat_soak
[ "${result%%:*}" = ok ]
