#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest scenario for `wqport test` (shim with delay points): the peer
# leaves a record at an address; while the peer's unload holds that record
# marked dying (going_marked delay point), wqcompat_w26_adopt initialises
# the memory as its own item and queues it.  The item must be queued and
# run then, and again after the peer is gone.
P=/sys/module/wqcompat_w26_adopt/parameters
D=/sys/module/wqcompat/parameters/test_delay
# shellcheck disable=SC2034 # n: wqport_check (/lib/wqport.sh) counts in it
n=0 failed=0
. /lib/wqport.sh

echo "1..6"
wqport_check "insmod peer" insmod /modules/wqcompat_w26_peer.ko
wqport_check "insmod adopt" insmod /modules/wqcompat_w26_adopt.ko
echo 1 > $P/arm
echo going_marked=3000000 > $D
rmmod wqcompat_w26_peer &
peer=$!
echo 1 > $P/adopt
result=$(cat $P/result)
wqport_check "queued and ran during the peer's unload: $result" [ "${result%% *}" = ok ]
wait $peer
wqport_check "rmmod peer" [ $? -eq 0 ]
echo off > $D
echo 1 > $P/check
result=$(cat $P/result)
wqport_check "queued and ran after it: $result" [ "${result%% *}" = ok ]
wqport_check "rmmod adopt" rmmod wqcompat_w26_adopt
exit $failed
