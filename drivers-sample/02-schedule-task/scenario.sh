#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sample 2 scenario (guest busybox sh): raise 20 interrupts, flush, print the
# event log; then unload in the middle of a burst and check that the unload
# flushed.  Every log line is printed prefixed "log: ".
M=wqsample_schedule_task
D=/sys/kernel/debug/wqsample/schedule_task

. /lib/wqport.sh

# wait_state WANT: wait until the state file reads WANT (30 s at most)
wait_state() { wqport_wait_content $D/state "$1"; }

# The script reports itself as one KTAP test (it runs nested under the
# top-level "scenario" test of wqport test): plan first, result last.
echo "1..1"
fail=0
[ -d $D ] || { echo "no $D"; echo "not ok 1 02-schedule-task"; exit 1; }
echo "raise 20" > $D/ctl || fail=1
wait_state raised || fail=1
echo flush > $D/ctl || fail=1
sed 's/^/log: /' $D/log

# Unload while the interrupt still fires: exit must stop it and flush.
echo "raise 1000" > $D/ctl || fail=1
rmmod $M || fail=1
line=$(dmesg | grep "$M: exit: " | tail -n 1)
[ -n "$line" ] || { echo "no exit line in dmesg"; fail=1; }
echo "log: ${line#*$M: }"
if [ $fail -eq 0 ]; then echo "ok 1 02-schedule-task"; else echo "not ok 1 02-schedule-task"; fi
exit $fail
