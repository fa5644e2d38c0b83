#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sample 4 scenario (guest busybox sh): run the demo (synchronous: the write
# returns when it is over) and print the event log, each line prefixed "log: ".
D=/sys/kernel/debug/wqsample/private_queue

# The script reports itself as one KTAP test (it runs nested under the
# top-level "scenario" test of wqport test): plan first, result last.
echo "1..1"
fail=0
[ -d $D ] || { echo "no $D"; echo "not ok 1 04-private-queue"; exit 1; }
echo demo > $D/ctl || fail=1
sed 's/^/log: /' $D/log
if [ $fail -eq 0 ]; then echo "ok 1 04-private-queue"; else echo "not ok 1 04-private-queue"; fi
exit $fail
