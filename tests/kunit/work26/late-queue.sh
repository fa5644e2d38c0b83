#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest scenario for `wqport test`: wqcompat_w26_latecomer queues
# wqcompat_w26_quitter's bound item, held 3 s by the overlay's test hook
# between the fast path's check of the item's record and its queueing of
# the shadow; wqcompat_w26_quitter is unloaded in that window.  The unload
# must wait for the queueing (the check and the queueing are one
# preempt-off section, which its grace period waits for) and cancel what
# it queued; the shadow of a record already recycled must never be
# queued (before the fix: "has no handler ... not run", a finding).  The
# review's N11.  work26_unload_warn=N makes the unload's report one line.
P=/sys/module/wqcompat_w26_latecomer/parameters
# shellcheck disable=SC2034 # n: wqport_check (/lib/wqport.sh) counts in it
n=0 failed=0
. /lib/wqport.sh

echo "1..7"
echo N > /sys/module/wqcompat/parameters/work26_unload_warn
wqport_check "insmod quitter" insmod /modules/wqcompat_w26_quitter.ko
wqport_check "insmod latecomer" insmod /modules/wqcompat_w26_latecomer.ko
echo 1 > $P/queue
wqport_check "the queueing is held after its check" wqport_wait_content $P/in_hook Y
wqport_check "rmmod quitter meanwhile" rmmod wqcompat_w26_quitter
wqport_wait_change $P/result "not queued"
result=$(cat $P/result)
wqport_check "the queueing returned: $result" [ "${result%% *}" = ok ]
wqport_check "rmmod latecomer" rmmod wqcompat_w26_latecomer
no_stray_run() {
	! dmesg | grep -q "has no handler"
}
wqport_check "no shadow of a recycled record ran" no_stray_run
dmesg | grep "wqcompat_w26_quitter\|no handler" | sed 's/^/# /'
echo Y > /sys/module/wqcompat/parameters/work26_unload_warn
exit $failed
