#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sample 5 scenario (guest busybox sh): both ports receive a text, one byte
# per port per interrupt; then the driver reports what each port got.  The
# event log is printed with every line prefixed "log: ".
D=/sys/kernel/debug/wqsample/custom_bh

. /lib/wqport.sh

# wait_state WANT: wait until the state file reads WANT (30 s at most)
wait_state() { wqport_wait_content $D/state "$1"; }

# The script reports itself as one KTAP test (it runs nested under the
# top-level "scenario" test of wqport test): plan first, result last.
echo "1..1"
fail=0
[ -d $D ] || { echo "no $D"; echo "not ok 1 05-custom-bh"; exit 1; }
echo "send ttyS0:hello,world ttyS1:the_quick_brown_fox_jumps" > $D/ctl || fail=1
wait_state "done" || fail=1
echo report > $D/ctl || fail=1
echo "send abc 0123456789" > $D/ctl || fail=1
wait_state "done" || fail=1
echo report > $D/ctl || fail=1
sed 's/^/log: /' $D/log
if [ $fail -eq 0 ]; then echo "ok 1 05-custom-bh"; else echo "not ok 1 05-custom-bh"; fi
exit $fail
