#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest scenario for `wqport test`: wqcompat_w26_stale unloads after the
# kernel's own cancel_work_sync() of a legacy item whose memory it freed,
# and with a modern item queued by a 2.6 timer that already fired, behind
# a queue wqcompat_w26_blocker holds.  The shim must report the second
# (the module's code would run after it is gone: it is taken off) and not
# the first (nor touch its freed memory); when the blocker lets go nothing
# of the module may run.  The report is a pr_warn here (work26_unload_warn
# off), so that the kernel log stays clean.
. /lib/wqport.sh
M=wqcompat_w26_stale
# shellcheck disable=SC2034 # n: wqport_check (/lib/wqport.sh) counts in it
n=0 failed=0
reports() { dmesg | grep -c "module $M unloaded with legacy work"; }

echo "1..7"
echo N > /sys/module/wqcompat/parameters/work26_unload_warn
wqport_check "insmod blocker" insmod /modules/wqcompat_w26_blocker.ko
wqport_check "insmod $M" insmod /modules/$M.ko
wqport_check "rmmod $M" rmmod $M
wqport_check "one report: the fired timer's run, taken off" [ "$(reports)" -eq 1 ]
# the case is a timer that fired (its run queued behind the blocker): a
# report of an armed timer means the module's wait did not cover it, and
# the case was not tested
wqport_check "the report is of queued work, not of an armed timer" \
	[ "$(dmesg | grep -c "module $M unloaded with legacy work .*: work still queued: cancelled")" -eq 1 ]
echo 1 > /sys/module/wqcompat_w26_blocker/parameters/release
wqport_check "rmmod blocker" rmmod wqcompat_w26_blocker
wqport_check "the module's handler never ran" \
	[ "$(dmesg | grep -c 'wqcompat_w26_stale: modern handler ran')" -eq 0 ]
dmesg | grep "module $M" | sed 's/^/# /'
echo Y > /sys/module/wqcompat/parameters/work26_unload_warn
exit $failed
