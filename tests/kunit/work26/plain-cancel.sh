#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest scenario for `wqport test`, with the shim's test build (@hooks):
# wqcompat_w26_armer arms wqcompat_w26_holder's modern item with the 2.6
# queue_delayed_work() (the timer's record is the armer's).  The holder
# cancels it the 2.6 way; the shim's delay point holds the cancel 5 s
# after it has won, and the armer is unloaded in that window: its unload
# unbinds and recycles the record.  The cancel must then give the item
# back its PENDING bit without the record (before the fix it cleared the
# bit through the record's item, NULL by then: an oops), and the item
# must queue and run.  The review's N12.
P=/sys/module/wqcompat_w26_holder/parameters
D=/sys/module/wqcompat/parameters/test_delay
# shellcheck disable=SC2034 # n: wqport_check (/lib/wqport.sh) counts in it
n=0 failed=0
. /lib/wqport.sh

echo "1..7"
wqport_check "insmod holder" insmod /modules/wqcompat_w26_holder.ko
wqport_check "insmod armer" insmod /modules/wqcompat_w26_armer.ko
before=$(cat $P/hits)
echo plain_cancelled=5000000 > $D
echo 1 > $P/cancel
wqport_check "the cancel won and is held at the delay point" \
	wqport_wait_at_least $P/hits $((before + 1))
wqport_check "rmmod armer while the cancel is held" rmmod wqcompat_w26_armer
# the window was hit: the cancel has not returned yet
wqport_check "the unload ended before the cancel did" \
	[ "$(cat $P/result)" = "not cancelled" ]
wqport_wait_change $P/result "not cancelled"
echo off > $D
result=$(cat $P/result)
wqport_check "cancelled, not pending, queued and ran: $result" \
	[ "${result%% *}" = ok ]
wqport_check "rmmod holder" rmmod wqcompat_w26_holder
exit $failed
