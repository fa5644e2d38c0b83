#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest scenario for `wqport test`: the soak (wqcompat_soak.ko).  It runs
# while it loads, until CYCLES items ran: wqport.soak_cycles=N on the
# kernel command line (make soak), else the module's default.
# wqport.soak_stress=1 (make soak) adds flushes from handlers and CPU
# hotplug.
cycles=$(sed -n 's/.*wqport\.soak_cycles=\([0-9]*\).*/\1/p' /proc/cmdline)
stress=
grep -q 'wqport\.soak_stress=1' /proc/cmdline && stress="flushes=Y hotplug=Y"
P=/sys/module/wqcompat/parameters
echo "1..3"
# the shim's loss counters: a refused queueing or an item it could not
# run counts there, whatever the soak's own accounting saw
losses() { echo "$(cat $P/work26_exhausted) $(cat $P/work26_lost)"; }
before=$(losses)
# shellcheck disable=SC2086 # $stress: parameters, split on purpose
if insmod /modules/wqcompat_soak.ko ${cycles:+cycles=$cycles} $stress; then
	echo "ok 1 insmod wqcompat_soak${cycles:+ cycles=$cycles}${stress:+ $stress}"
else
	echo "not ok 1 insmod wqcompat_soak"
fi
result=$(cat /sys/module/wqcompat_soak/parameters/result 2>/dev/null)
case $result in
ok*) echo "ok 2 soak" ;;
*) echo "not ok 2 soak" ;;
esac
echo "# $result"
after=$(losses)
if [ "$after" = "$before" ]; then
	echo "ok 3 no queueing refused, no work lost (work26_exhausted, work26_lost: $after)"
else
	echo "not ok 3 no queueing refused, no work lost (work26_exhausted, work26_lost: $before before, $after after)"
fi
rmmod wqcompat_soak
[ "${result%%:*}" = ok ] && [ "$after" = "$before" ]
