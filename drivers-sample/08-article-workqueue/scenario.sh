#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sample 8 scenario (guest busybox sh): run the synchronous demo, then the
# events on the default queue, and print the event log, each line prefixed
# "log: ".
D=/sys/kernel/debug/wqsample/article_workqueue

. /lib/wqport.sh

# wait_state WANT: wait until the state file reads WANT (30 s at most)
wait_state() { wqport_wait_content $D/state "$1"; }

# The script reports itself as one KTAP test (it runs nested under the
# top-level "scenario" test of wqport test): plan first, result last.
echo "1..1"
fail=0
[ -d $D ] || { echo "no $D"; echo "not ok 1 08-article-workqueue"; exit 1; }
echo demo > $D/ctl || fail=1
echo events > $D/ctl || fail=1
wait_state events-done || fail=1
sed 's/^/log: /' $D/log
if [ $fail -eq 0 ]; then echo "ok 1 08-article-workqueue"; else echo "not ok 1 08-article-workqueue"; fi
exit $fail
