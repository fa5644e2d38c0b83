#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sample 6 scenario (guest busybox sh): three requests unplugged by an
# explicit run_task_queue(&tq_disk), then two left for tq_disk to be run by
# someone else (on a modern kernel: the shim's unplug delay).  The event log
# is printed with every line prefixed "log: ".
D=/sys/kernel/debug/wqsample/tq_disk

. /lib/wqport.sh

# wait_state WANT: wait until the state file reads WANT (30 s at most)
wait_state() { wqport_wait_content $D/state "$1"; }

# The script reports itself as one KTAP test (it runs nested under the
# top-level "scenario" test of wqport test): plan first, result last.
echo "1..1"
fail=0
[ -d $D ] || { echo "no $D"; echo "not ok 1 06-tq-disk"; exit 1; }
echo "sync 3" > $D/ctl || fail=1
wait_state "idle 3" || fail=1
echo "submit 2" > $D/ctl || fail=1
wait_state "idle 5" || fail=1
sed 's/^/log: /' $D/log
if [ $fail -eq 0 ]; then echo "ok 1 06-tq-disk"; else echo "not ok 1 06-tq-disk"; fi
exit $fail
