#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest scenario for `wqport test`, with the shim's test build (@hooks):
# wqcompat_tq_queuer queues wqcompat_tq_owner's static task onto tq_timer
# every jiffy, and goes on into the owner's unload (its exit forgets it).
# The delay point at the start of the unload holds it 100 ms, so that the
# queuer queues the going module's task during it (three times): each
# such queue_task() must return 1 without listing the task (counted as
# taken off), and the unload must end (before the fix each one listed the
# task again for the unload's next round to find, so that a queueing every
# jiffy could keep the rounds going).  misuse_warn=N makes the shim's
# report one line.
M=wqcompat_tq_owner
P=/sys/module/wqcompat_tq_queuer/parameters
D=/sys/module/wqcompat/parameters/test_delay
# shellcheck disable=SC2034 # n: wqport_check (/lib/wqport.sh) counts in it
n=0 failed=0
. /lib/wqport.sh

echo "1..8"
echo N > /sys/module/wqcompat/parameters/misuse_warn
wqport_check "insmod queuer" insmod /modules/wqcompat_tq_queuer.ko
wqport_check "insmod $M" insmod /modules/$M.ko
# the task has run from tq_timer: the queuer and tq_timer both work
wqport_check "the owner's task ran from tq_timer, 3 times" \
	wqport_wait_at_least $P/runs 3
echo going_begin=100000 > $D
wqport_check "rmmod $M ends while its task is queued every jiffy" rmmod $M
echo off > $D
wqport_check "queued during the unload: $(cat $P/going_queued) time(s)" \
	[ "$(cat $P/going_queued)" -ge 1 ]
wqport_check "never listed while its module was going ($(cat $P/going_listed))" \
	[ "$(cat $P/going_listed)" -eq 0 ]
wqport_check "the queuer stopped after the shim's rounds" \
	[ "$(cat $P/stopped)" = Y ]
# one predicate: the report names the module and counts tq_timer tasks
reported() {
	dmesg | grep -q "module $M unloaded with [1-9][0-9]* task(s) queued (tq_timer [1-9]"
}
wqport_check "the unload reported the tasks it took off" reported
dmesg | grep "$M" | sed 's/^/# /'
rmmod wqcompat_tq_queuer
echo Y > /sys/module/wqcompat/parameters/misuse_warn
exit $failed
