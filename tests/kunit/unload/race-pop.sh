#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest scenario for `wqport test`, with the shim's test build (@hooks):
# wqcompat_race_pop unloads while its task waits on keventd's queue behind
# wqcompat_race_blocker, which lets keventd go 100 ms into the unload.  The
# delay points hold the unload 300 ms after it begins and keventd's run 1 s
# after it takes a task: the run takes the module's task as a going
# module's (it is not called) and must not touch it after that, since the
# unload frees the module meanwhile (KASAN on the debug kernel reports a
# write into freed module memory), and must have counted the task dropped
# in the hold that took it (the counts are checked while the run is still
# held).  misuse_warn=N makes the shim's report one error line.
M=wqcompat_race_pop
D=/sys/module/wqcompat/parameters/test_delay
# shellcheck disable=SC2034 # n: wqport_check (/lib/wqport.sh) counts in it
n=0 failed=0
. /lib/wqport.sh

H=/sys/module/wqcompat/parameters/test_hits
hits() { awk -v p="$1" '$1 == p { print $2 }' $H; }

echo "1..7"
echo N > /sys/module/wqcompat/parameters/misuse_warn
wqport_check "insmod blocker" insmod /modules/wqcompat_race_blocker.ko
wqport_check "insmod $M" insmod /modules/$M.ko
popped=$(hits tq_popped) begun=$(hits going_begin)
echo tq_popped=1000000,going_begin=300000 > $D
wqport_check "rmmod $M" rmmod $M
# the windows were there: the unload was held, and a run took a task
reached() {
	[ "$(hits going_begin)" -gt "$begun" ] && [ "$(hits tq_popped)" -gt "$popped" ]
}
wqport_check "both delay points were reached" reached
# The run is still held after the hold that took the task: the count of
# tasks dropped must already include it (the unload does not wait for it).
counted() {
	awk '$1 == "keventd" { exit !($3 == $2 + $5 + $7) }' /sys/kernel/debug/wqcompat/tqueue
}
wqport_check "keventd: queued == run + dropped + length while the run is held" counted
# Its exit waits for keventd's run, held at the delay point.
wqport_check "rmmod blocker" rmmod wqcompat_race_blocker
echo off > $D
# one predicate: wqport_check runs a command, and `a && b` after it would
# leave b out of the result
taken_off() {
	[ "$(dmesg | grep -c "module $M unloaded with 1 task(s) queued (.*keventd 1")" -eq 1 ] &&
		[ "$(dmesg | grep -c "$M: task ran")" -eq 0 ]
}
wqport_check "the task was taken off as the going module's, never called" taken_off
dmesg | grep "$M" | sed 's/^/# /'
echo Y > /sys/module/wqcompat/parameters/misuse_warn
exit $failed
