#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest scenario for `wqport test`, with the shim's test build (@hooks):
# wqcompat_w26_seqhold stops one CPU for 3 s between the two seqcount
# writes of a PREPARE_WORK, with a hard-IRQ timer on that CPU
# first-queueing items (each takes the shim's lock), and
# wqcompat_w26_bystander, whose one item is idle, is unloaded meanwhile.
# The unload's look at the records must end inside the hold (before the
# fix it spun on the odd seqcount under the shim's lock, the interrupt
# spun on that lock, and neither CPU went on), and every item the
# interrupt queued must run once.  rmmod itself returns after the hold
# (it waits for an RCU grace period, which the held CPU delays).  The
# review's N9.
P=/sys/module/wqcompat_w26_seqhold/parameters
# shellcheck disable=SC2034 # n: wqport_check (/lib/wqport.sh) counts in it
n=0 failed=0
. /lib/wqport.sh

echo "1..6"
wqport_check "insmod bystander" insmod /modules/wqcompat_w26_bystander.ko
wqport_check "insmod seqhold" insmod /modules/wqcompat_w26_seqhold.ko
echo 1 > $P/hold
wqport_check "a CPU holds the seqcount odd" wqport_wait_content $P/holding Y
wqport_check "rmmod bystander meanwhile" rmmod wqcompat_w26_bystander
wqport_wait_content $P/done Y
result=$(cat $P/result)
wqport_check "the unload looked inside the hold, every item ran once: $result" \
	[ "${result%% *}" = ok ]
wqport_check "rmmod seqhold" rmmod wqcompat_w26_seqhold
exit $failed
