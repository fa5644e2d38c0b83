#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sample 3 scenario (guest busybox sh): the device receives two texts, one
# byte per interrupt; print the event log, each line prefixed "log: ".
D=/sys/kernel/debug/wqsample/tq_immediate

. /lib/wqport.sh

# wait_state WANT: wait until the state file reads WANT (30 s at most)
wait_state() { wqport_wait_content $D/state "$1"; }

# The script reports itself as one KTAP test (it runs nested under the
# top-level "scenario" test of wqport test): plan first, result last.
echo "1..1"
fail=0
[ -d $D ] || { echo "no $D"; echo "not ok 1 03-tq-immediate"; exit 1; }
echo "send hello, world" > $D/ctl || fail=1
wait_state "done" || fail=1
printf 'send first line\nsecond line\nthird' > $D/ctl || fail=1
wait_state "done" || fail=1
sed 's/^/log: /' $D/log
if [ $fail -eq 0 ]; then echo "ok 1 03-tq-immediate"; else echo "not ok 1 03-tq-immediate"; fi
exit $fail
