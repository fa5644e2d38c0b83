#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest scenario for `wqport test`: wqcompat_race_mixed unloads while its
# 2.6 handler runs, and the handler queues one of the module's 2.4 tasks on
# tq_timer, and installs and marks one of its bottom halves, before it
# returns.  The unload must take that task off and refuse the BH (and say
# so), and neither may ever run: on the debug kernel, KASAN would report
# the tick running the freed module's code.  misuse_warn=N turns the
# shim's report into one error line, so that the log stays clean.
M=wqcompat_race_mixed
# shellcheck disable=SC2034 # n: wqport_check (/lib/wqport.sh) counts in it
n=0 failed=0
. /lib/wqport.sh

echo "1..5"
echo N > /sys/module/wqcompat/parameters/misuse_warn
echo N > /sys/module/wqcompat/parameters/work26_unload_warn
wqport_check "insmod $M" insmod /modules/$M.ko
wqport_check "rmmod $M while its handler runs" rmmod $M
wqport_check "its handler queued inside the 2.6 layer's wait, after the 2.4 layer's first round" \
	[ "$(dmesg | grep -c "$M: queueing inside the 2.6 layer's round")" -eq 1 ]
wqport_check "the task it queued meanwhile was taken off, the BH refused" \
	[ "$(dmesg | grep -c "module $M unloaded with 1 task(s) queued (tq_timer 1.* and 1 bottom half(s)")" -eq 1 ]
# one predicate: wqport_check runs a command, and `a && b` after it would
# leave b out of the result
nothing_ran() {
	len=$(awk '$1 == "tq_timer" { print $2 }' /sys/kernel/debug/wqcompat/tqueue)
	[ "$len" -eq 0 ] && [ "$(dmesg | grep -c "$M: task ran")" -eq 0 ] &&
		[ "$(dmesg | grep -c "$M: bh ran")" -eq 0 ]
}
wqport_check "tq_timer is empty, and neither the task nor the BH ran" nothing_ran
dmesg | grep "$M" | sed 's/^/# /'
echo Y > /sys/module/wqcompat/parameters/misuse_warn
echo Y > /sys/module/wqcompat/parameters/work26_unload_warn
exit $failed
