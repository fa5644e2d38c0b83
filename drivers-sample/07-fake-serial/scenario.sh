#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Sample 7 scenario (guest busybox sh): write to the fake serial port, wait
# until the bytes came back through the flip buffer, read them back.  The
# event log and what was read back are printed with every line prefixed
# "log: ".
DEV=/dev/wqsample_serial
D=/sys/kernel/debug/wqsample/fake_serial

. /lib/wqport.sh

# wait_state WANT: wait until the state file reads WANT (30 s at most)
wait_state() { wqport_wait_content $D/state "$1"; }

# The script reports itself as one KTAP test (it runs nested under the
# top-level "scenario" test of wqport test): plan first, result last.
echo "1..1"
fail=0
[ -d $D ] || { echo "no $D"; echo "not ok 1 07-fake-serial"; exit 1; }
# devtmpfs makes the node; wait for it like udev users did
wqport_wait_chardev $DEV || { echo "not ok 1 07-fake-serial"; exit 1; }

printf 'hello' > $DEV || fail=1
wait_state "rx 5" || fail=1
got1=$(dd if=$DEV bs=256 count=1 2>/dev/null)

printf 'The quick brown fox ' > $DEV || fail=1
printf 'jumps over the lazy dog' > $DEV || fail=1
wait_state "rx 43" || fail=1
got2=$(dd if=$DEV bs=256 count=1 2>/dev/null)
wait_state "rx 0" || fail=1

sed 's/^/log: /' $D/log
echo "log: read back: $got1"
echo "log: read back: $got2"
[ "$got1" = hello ] || fail=1
[ "$got2" = "The quick brown fox jumps over the lazy dog" ] || fail=1
if [ $fail -eq 0 ]; then echo "ok 1 07-fake-serial"; else echo "not ok 1 07-fake-serial"; fi
exit $fail
