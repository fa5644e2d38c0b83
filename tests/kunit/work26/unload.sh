#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest scenario for `wqport test --script`: a module unloads with two legacy
# delayed work items armed (wqcompat_work26_unload.ko, given with --file).
# wqcompat must cancel both at MODULE_STATE_GOING, name the module, and give
# its records back.  The report is a WARN by default; a WARN is a kernel-log
# finding for the harness, so this run asks for the pr_warn form instead
# (same text) through wqcompat.work26_unload_warn; UNLOAD_WARN=1 keeps the
# WARN (unload-warn.sh, a run that expects the finding).
param=/sys/module/wqcompat/parameters/work26_unload_warn
stats=/sys/kernel/debug/wqcompat/work26
# shellcheck disable=SC2034 # n: wqport_check (/lib/wqport.sh) counts in it
n=0 failed=0
. /lib/wqport.sh
field() { sed -n "s/^$1: //p" $stats; }

echo "1..6"
echo "${UNLOAD_WARN:-0}" > $param
bound0=$(field bound)
armed0=$(field armed)
wqport_check "insmod" insmod /modules/wqcompat_work26_unload.ko
wqport_check "two more armed records" [ "$(field armed)" -eq $((armed0 + 2)) ]
wqport_check "rmmod" rmmod wqcompat_work26_unload
wqport_check "both reported by module name" \
	[ "$(dmesg | grep -c 'module wqcompat_work26_unload unloaded with legacy work .* delayed work still armed: cancelled')" -eq 2 ]
wqport_check "no armed records left" [ "$(field armed)" -eq "$armed0" ]
wqport_check "records released" [ "$(field bound)" -eq "$bound0" ]
echo 1 > $param
cat $stats | sed 's/^/# /'
exit $failed
