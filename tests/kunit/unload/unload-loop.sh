#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest scenario for `wqport test`: a legacy driver that unloads with 2.4
# tasks queued on every shim queue and 2.6 work queued, armed and running
# (wqcompat_leaky.ko) is loaded and unloaded LOOPS times: make check's
# slice, 50 (25 on the debug kernel), or wqport.unload_loops=N on the
# kernel command line (scripts/soak, make soak: 1,000).
# The kernel must survive with a clean log (KASAN watches module memory on
# the debug kernel), the shim must name the module each time, and
# afterwards every shim queue must be empty and every 2.6 record free.
#
#   scripts/wqport test --script tests/kunit/unload/unload-loop.sh \
#       --file build/6.1/tests/kunit/unload/wqcompat_leaky.ko
#
# The tracepoints are switched on and off only while no legacy module is
# loaded: switching patches the code that calls them, and under QEMU 7.2's
# multi-threaded TCG a vCPU running code being patched can hang the guest
# (docs/testing.md).  For the same reason ftrace's record-cmd is off: it
# would patch the scheduler's sched_switch site, which always runs.
#
# WARN=1 (unload-warn.sh) keeps misuse_warn=Y and work26_unload_warn=Y:
# each unload then WARNs, a kernel-log finding by design (wqport test
# exits 3); the default turns each WARN into one line naming the module,
# so that the run is clean.  Prints KTAP (the plan and results; the guest
# /init opened the subtest).
# half as many on the debug kernel (kmemleak's file tells it), where each
# costs twice as much under TCG and KASAN watches every one
asked=$(sed -n 's/.*wqport\.unload_loops=\([0-9]*\).*/\1/p' /proc/cmdline)
if [ -e /sys/kernel/debug/kmemleak ]; then slice=25; else slice=50; fi
LOOPS=${LOOPS:-${asked:-$slice}}
MOD=wqcompat_leaky
KO=/modules/$MOD.ko
PARAM=/sys/module/wqcompat/parameters/misuse_warn
PARAM26=/sys/module/wqcompat/parameters/work26_unload_warn
DBG=/sys/kernel/debug/wqcompat/tqueue
DBG26=/sys/kernel/debug/wqcompat/work26
n=0 failed=0

ok() {
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n $2"; else echo "not ok $n $2"; failed=1; fi
}

# The guest /init opened the subtest (KTAP version, name): plan and results.
echo "1..11"
[ "${WARN:-0}" = 1 ] || { echo N > $PARAM; echo N > $PARAM26; }
# the tracepoints: on for the loop, switched while wqcompat is idle, in a
# trace instance of their own (the guests boot with the kernel's workqueue
# and timer events on in the main buffer, which overwrite older events)
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
echo 0 > $T/options/record-cmd
echo 0 > $T/options/record-tgid
T=$T/instances/unload-loop
mkdir $T 2>/dev/null
[ -d $T/events/wqcompat_tq ] && echo 1 > $T/events/wqcompat_tq/enable
# The shim's own counts, not the kernel log: many unloads overflow its ring.
misuse() { awk '$1 == "misuse" { print $2 }' $DBG; }
before=$(misuse)
bound0=$(sed -n 's/^bound: //p' $DBG26)
P=/sys/module/wqcompat/parameters
losses() { echo "$(cat $P/work26_exhausted) $(cat $P/work26_lost)"; }
losses0=$(losses)

# counts: c26, the 2.6 layer's going_cancelled, and d24, the tasks the 2.4
# layer took off at unloads (the dropped column of tq_timer, tq_immediate,
# tq_disk, keventd and private runs), read with the shell's own
# read: each process would cost about a quarter of a second a loop under
# TCG on the debug kernel
counts() {
	c26=0 d24=0 ln=0
	while read -r k v; do
		[ "$k" != going_cancelled: ] || c26=$v
	done < $DBG26
	# shellcheck disable=SC2034 # f2..f6: columns before the seventh
	while read -r f1 f2 f3 f4 f5 f6 f7 rest; do
		ln=$((ln + 1))
		[ $ln -lt 2 ] || [ $ln -gt 6 ] || d24=$((d24 + f7))
	done < $DBG
}
counts
before26=$c26
rc=0
i=0
# each unload on its own: the 2.6 layer reported (cancelled) something of
# it, the 2.4 layer took something off; a total over the loop would let
# most unloads report nothing
silent26=0 silent24=0
while [ $i -lt "$LOOPS" ] && [ $rc -eq 0 ]; do
	counts
	c0=$c26 d0=$d24
	insmod $KO || { rc=1; break; }
	rmmod $MOD || { rc=1; break; }
	counts
	[ "$c26" -gt "$c0" ] || silent26=$((silent26 + 1))
	[ "$d24" -gt "$d0" ] || silent24=$((silent24 + 1))
	i=$((i + 1))
done
ok $rc "insmod/rmmod $MOD $LOOPS times"

[ ! -d /sys/module/$MOD ]
ok $? "$MOD is gone"

after=$(misuse)
[ $((after - before)) -eq "$LOOPS" ]
ok $? "the 2.4 layer complained of $MOD at each of $LOOPS unloads (counted $((after - before)))"
dmesg | grep -m 1 "wqcompat: module $MOD unloaded with .* task" | sed 's/^/# /'

counts
after26=$c26
[ "$silent26" -eq 0 ] && [ "$i" -eq "$LOOPS" ]
ok $? "the 2.6 layer reported $MOD's pending work at each of $i unloads (none at $silent26; $((after26 - before26)) items)"
dmesg | grep -m 1 "wqcompat: module $MOD unloaded with legacy work" | sed 's/^/# /'

[ "$(losses)" = "$losses0" ]
ok $? "no queueing refused for want of a record, no work lost (work26_exhausted, work26_lost: $losses0 before, $(losses) after)"

bound=$(sed -n 's/^bound: //p' $DBG26)
[ "$bound" -eq "$bound0" ]
ok $? "every 2.6 record of $MOD back in the pool (bound $bound0 before, $bound after)"
sed 's/^/# /' $DBG26

# length column of tq_timer, tq_immediate, tq_disk, keventd: all 0
lens=$(awk 'NR > 1 && NR <= 5 { print $2 }' $DBG | tr '\n' ' ')
[ "$lens" = "0 0 0 0 " ]
ok $? "shim queues empty afterwards (lengths: $lens)"

counts
dropped=$d24
[ "$silent24" -eq 0 ] && [ "$i" -eq "$LOOPS" ]
ok $? "the 2.4 layer took tasks of $MOD off at each of $i unloads (none at $silent24; $dropped tasks)"
# every task newly queued was run, dropped, or is still queued
bad=$(awk 'NR > 1 && NR <= 6 && $3 != $2 + $5 + $7 { print $1 }' $DBG | tr '\n' ' ')
[ -z "$bad" ]
ok $? "queued == run + dropped + length on every queue${bad:+ (not on: $bad)}"
sed 's/^/# /' $DBG

# Each unload waits for the routines and handlers running when it began,
# which can start nothing of it again: the second round of both layers
# finds only what they queued, the third nothing (main.c, tq_module.c).
# Work that sleeps and requeues itself (leaky_sched_fn, leaky_w26_busy_fn)
# or a 2.6 handler feeding the 2.4 layer must not stretch this.
rounds=$(awk '$1 == "unload_rounds_max" { print $2 }' $DBG)
[ "${rounds:-99}" -le 3 ]
ok $? "every unload took at most 3 rounds (most: ${rounds:-?})"

echo 0 > $T/events/wqcompat_tq/enable 2>/dev/null
q=$(grep -c 'wqcompat_tq_queue:' $T/trace 2>/dev/null)
r=$(grep -c 'wqcompat_tq_run:' $T/trace 2>/dev/null)
b=$(grep -c 'wqcompat_bh_run:' $T/trace 2>/dev/null)
[ "${q:-0}" -gt 0 ] && [ "${r:-0}" -gt 0 ] && [ "${b:-0}" -gt 0 ]
ok $? "tracepoints fired: queue ${q:-0}, run ${r:-0}, bh ${b:-0}"
grep -m 3 'wqcompat_tq_run:' $T/trace | sed 's/^/# /'
rmdir $T 2>/dev/null

echo Y > $PARAM
echo Y > $PARAM26
exit $failed
