#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest scenario for `wqport test`: wqcompat_w26_borrower queues
# wqcompat_w26_lender's static item first, armed for much later, and is
# unloaded.  The item and its handler are the lender's: the borrower's
# unload must leave it armed (no report), and the lender can then cancel
# it, queue it and see it run.
P=/sys/module/wqcompat_w26_lender/parameters
# shellcheck disable=SC2034 # n: wqport_check (/lib/wqport.sh) counts in it
n=0 failed=0
. /lib/wqport.sh

echo "1..5"
wqport_check "insmod lender" insmod /modules/wqcompat_w26_lender.ko
wqport_check "insmod borrower" insmod /modules/wqcompat_w26_borrower.ko
wqport_check "rmmod borrower" rmmod wqcompat_w26_borrower
echo 1 > $P/check
result=$(cat $P/result)
wqport_check "the lender's item survived the borrower: $result" \
	[ "${result%% *}" = ok ]
wqport_check "rmmod lender" rmmod wqcompat_w26_lender
exit $failed
