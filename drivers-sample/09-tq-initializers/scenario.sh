#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sample 9 scenario (guest busybox sh): run every task twice (each run is
# synchronous: the write returns after flush_scheduled_tasks) and print the
# event log, each line prefixed "log: ".
D=/sys/kernel/debug/wqsample/tq_initializers

# The script reports itself as one KTAP test (it runs nested under the
# top-level "scenario" test of wqport test): plan first, result last.
echo "1..1"
fail=0
[ -d $D ] || { echo "no $D"; echo "not ok 1 09-tq-initializers"; exit 1; }
echo run > $D/ctl || fail=1
echo run > $D/ctl || fail=1
sed 's/^/log: /' $D/log
if [ $fail -eq 0 ]; then echo "ok 1 09-tq-initializers"; else echo "not ok 1 09-tq-initializers"; fi
exit $fail
