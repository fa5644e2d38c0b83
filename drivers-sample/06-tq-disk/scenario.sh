#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sample 6 scenario (guest busybox sh): three requests unplugged by an
# explicit run_task_queue(&tq_disk), then two left for tq_disk to be run by
# someone else (on a modern kernel: the shim's unplug delay).  The event log
# is printed with every line prefixed "log: ".
D=/sys/kernel/debug/wqsample/tq_disk

# wait_state WANT: poll the state file, at most 30 s (TCG is slow)
wait_state() {
	i=0
	while [ $i -lt 300 ]; do
		[ "$(cat $D/state)" = "$1" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "state is $(cat $D/state), not $1"
	return 1
}

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
