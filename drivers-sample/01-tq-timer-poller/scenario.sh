#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sample 1 scenario (guest busybox sh): poll 5 times, then 3 more times, and
# print the event log, each line prefixed "log: ".
D=/sys/kernel/debug/wqsample/tq_timer_poller

. /lib/wqport.sh

# wait_state WANT: wait until the state file reads WANT (30 s at most)
wait_state() { wqport_wait_content $D/state "$1"; }

# The script reports itself as one KTAP test (it runs nested under the
# top-level "scenario" test of wqport test): plan first, result last.
echo "1..1"
fail=0
[ -d $D ] || { echo "no $D"; echo "not ok 1 01-tq-timer-poller"; exit 1; }
[ "$(cat $D/state)" = idle ] || fail=1
echo "start 5" > $D/ctl || fail=1
wait_state "done" || fail=1
echo "start 3" > $D/ctl || fail=1
wait_state "done" || fail=1
sed 's/^/log: /' $D/log
if [ $fail -eq 0 ]; then echo "ok 1 01-tq-timer-poller"; else echo "not ok 1 01-tq-timer-poller"; fi
exit $fail
