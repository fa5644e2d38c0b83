#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest scenario for `wqport test`: wqcompat_w26_peer runs work items in
# memory it is given and forgets them; wqcompat_w26_owner then makes that
# memory its own items and arms them.  Unloading the peer must not touch
# them: the records the peer left at those addresses belong to the owner
# from the moment it initialised or queued the items.
P=/sys/module/wqcompat_w26_owner/parameters
# shellcheck disable=SC2034 # n: wqport_check (/lib/wqport.sh) counts in it
n=0 failed=0
. /lib/wqport.sh

echo "1..5"
wqport_check "insmod peer" insmod /modules/wqcompat_w26_peer.ko
wqport_check "insmod owner" insmod /modules/wqcompat_w26_owner.ko
wqport_check "rmmod peer" rmmod wqcompat_w26_peer
echo 1 > $P/check
result=$(cat $P/result)
wqport_check "owner's items still armed after the peer went: $result" \
	[ "${result%% *}" = ok ]
wqport_check "rmmod owner" rmmod wqcompat_w26_owner
exit $failed
