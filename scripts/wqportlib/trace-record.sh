#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# wqport-trace: record a kernel module's deferred work through tracefs, on
# any Linux 5.x/6.x machine with a POSIX shell (busybox is enough), as root.
# `wqport trace record` runs this script; on a board without wqport, copy it
# there (make install puts it in PREFIX/bin/wqport-trace).
#
#   wqport-trace record [-o FILE] [--module NAME]... [--settle S] [--max-wait S]
#                       [--buffer-kb KB] -- COMMAND [ARG...]
#	start, run COMMAND, settle (when --settle is given), stop: the trace
#	in FILE (default wqport.trace).  Exit status: COMMAND's, or 2.
#   wqport-trace start [--buffer-kb KB]	enable the events, empty the buffer
#   wqport-trace symbols [NAME...]	keep the symbols of these loaded modules
#					(all modules without NAME)
#   wqport-trace shim			turn on the events of a wqcompat.ko
#					loaded since start (symbols does too)
#   wqport-trace settle S MAX NAME...	wait until the modules' handlers have
#					not run for S seconds (MAX at most)
#   wqport-trace stop [-o FILE]		stop, write the trace (default stdout)
#
# Recorded: workqueue:workqueue_queue_work, workqueue_execute_start/_end,
# timer:timer_start, timer_cancel, timer_expire_entry/_exit,
# module:module_load, module_free and, when wqcompat.ko is loaded, its own
# events (wqcompat_tq:*, wqcompat_work26:*).  The kernel names a handler
# only while its module is loaded: the recorder reads the events as they
# come (trace_pipe), and keeps the symbols of the modules it sees (at
# start, every 0.2 s while COMMAND runs): the reader names the addresses
# of an event read too late with them.  Unloading wqcompat.ko empties the
# kernel's trace buffers: what the reader had not taken yet is lost, so
# unload it after the recording.  An item is its address, hashed as %p
# hashes (the same pointer, the same value); not the trace option
# nohash-ptr, which empties the events' strings on 6.1.
#
# The trace file: "# wqport-trace 1", "# kernel RELEASE", "# command ...",
# "# symbols" and /proc/kallsyms lines, "# trace" and the tracefs text.

T=${WQPORT_TRACEFS:-/sys/kernel/tracing}
STATE=${WQPORT_TRACE_STATE:-/tmp/wqport-trace.state}
# The kernel's events; wqcompat.ko's (wqcompat_tq, wqcompat_work26) come
# and go with it (shim_events).
EVENTS='workqueue/workqueue_queue_work workqueue/workqueue_execute_start
workqueue/workqueue_execute_end timer/timer_start timer/timer_cancel
timer/timer_expire_entry timer/timer_expire_exit module/module_load
module/module_free'

die() { echo "wqport-trace: $*" >&2; exit 2; }

tracefs() {
	[ -e "$T/trace" ] && return 0
	[ -e /sys/kernel/debug/tracing/trace ] && { T=/sys/kernel/debug/tracing; return 0; }
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	[ -e "$T/trace" ] || die "no tracefs at $T (CONFIG_TRACING, root, mount -t tracefs nodev $T)"
}

# set_event EVENT 0|1: turn EVENT on or off if it exists; say nothing (wqcompat's come
# and go with the module).
set_event() {
	[ -e "$T/events/$1/enable" ] && echo "$2" > "$T/events/$1/enable" 2>/dev/null
}

# Turning an event on or off patches kernel text, which a busy emulator
# (QEMU's multi-threaded TCG) can stall on: an event already on (the
# kernel command line's trace_event=, as wqport test boots its guests) is
# left as it is, and stop turns off only what start turned on.
start() {
	kb=
	while [ $# -gt 0 ]; do
		case $1 in
		--buffer-kb) kb=$2; shift 2 ;;
		*) die "start: unknown argument $1" ;;
		esac
	done
	tracefs
	mkdir -p "$STATE" || die "cannot create $STATE"
	: > "$STATE/symbols"
	echo 0 > "$T/tracing_on"
	echo nop > "$T/current_tracer"
	[ -z "$kb" ] || echo "$kb" > "$T/buffer_size_kb" 2>/dev/null
	echo irq-info > "$T/trace_options" 2>/dev/null
	: > "$STATE/turned-on"
	for e in $EVENTS; do
		if [ -e "$T/events/$e/enable" ] && [ "$(cat "$T/events/$e/enable")" = 0 ]; then
			set_event "$e" 1 && echo "$e" >> "$STATE/turned-on"
		fi
	done
	[ -e "$T/events/workqueue/workqueue_execute_start/enable" ] ||
		die "the kernel has no workqueue events (CONFIG_EVENT_TRACING)"
	: > "$T/trace"
	: > "$STATE/pipe"
	shim_events
	# read as it comes: the kernel empties every buffer when a module
	# with events (wqcompat.ko) is unloaded, and names a module's code
	# only while it is loaded
	cat "$T/trace_pipe" > "$STATE/pipe" &
	echo $! > "$STATE/reader"
	echo 1 > "$T/tracing_on"
}

# Wait until the reader has taken every event (each CPU's buffer holds
# none), 5 s at most, then stop it.
drain() {
	i=0
	while [ $i -lt 50 ] && grep -q '^entries: [1-9]' "$T"/per_cpu/cpu*/stats 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	kill "$(cat "$STATE/reader")" 2>/dev/null
	wait "$(cat "$STATE/reader")" 2>/dev/null
}

# The symbols of the loaded modules NAME... (all without NAME), added to
# what was kept; the events of a wqcompat.ko loaded after start enabled
# (call it after loading wqcompat.ko, before the driver).
shim_events() {
	set_event wqcompat_tq 1
	set_event wqcompat_work26 1
}

symbols() {
	tracefs
	[ -d "$STATE" ] || die "not started (no $STATE)"
	shim_events
	# one read of /proc/kallsyms for all the names: each read formats
	# the kernel's whole symbol table, seconds under an emulator
	if [ $# -eq 0 ]; then
		grep '\[' /proc/kallsyms >> "$STATE/symbols"
	else
		for m in "$@"; do
			echo "[$m]"
		done > "$STATE/names"
		grep -F -f "$STATE/names" /proc/kallsyms >> "$STATE/symbols"
	fi
	# a kernel that hides addresses (kptr_restrict) gives zeros: useless
	grep -v '^0* ' "$STATE/symbols" | sort -u > "$STATE/symbols.new"
	mv "$STATE/symbols.new" "$STATE/symbols"
}

# count NAME...: how many events so far name these modules' code.
count() {
	_pat=
	for _m in "$@"; do
		_pat="$_pat${_pat:+\\|}\\[$_m\\]"
	done
	grep -c "$_pat" "$STATE/pipe" 2>/dev/null
}

settle() {
	[ $# -ge 3 ] || die "settle: SECONDS MAX NAME..."
	tracefs
	s=$1 max=$2
	shift 2
	last=$(count "$@") quiet=0 waited=0
	# tenths of a second, busybox sleep takes fractions
	while [ "$quiet" -lt $((s * 10)) ] && [ "$waited" -lt $((max * 10)) ]; do
		sleep 0.2
		waited=$((waited + 2))
		now=$(count "$@")
		if [ "$now" = "$last" ]; then
			quiet=$((quiet + 2))
		else
			quiet=0 last=$now
		fi
	done
}

stop() {
	out=
	while [ $# -gt 0 ]; do
		case $1 in
		-o) out=$2; shift 2 ;;
		*) die "stop: unknown argument $1" ;;
		esac
	done
	tracefs
	[ -d "$STATE" ] || die "not started (no $STATE)"
	echo 0 > "$T/tracing_on"
	drain
	while read -r e; do
		set_event "$e" 0
	done < "$STATE/turned-on"
	{
		echo "# wqport-trace 1"
		echo "# kernel $(uname -r)"
		[ ! -f "$STATE/command" ] || echo "# command $(cat "$STATE/command")"
		echo "# symbols"
		cat "$STATE/symbols"
		echo "# trace"
		cat "$STATE/pipe"
	} > "${out:-/dev/stdout}" || die "cannot write ${out:-stdout}"
	echo 1 > "$T/tracing_on"
	rm -rf "$STATE"
}

record() {
	out=wqport.trace mods='' settle_s='' max=30 kb=8192
	while [ $# -gt 0 ]; do
		case $1 in
		-o) out=$2; shift 2 ;;
		--module) mods="$mods $2"; shift 2 ;;
		--settle) settle_s=$2; shift 2 ;;
		--max-wait) max=$2; shift 2 ;;
		--buffer-kb) kb=$2; shift 2 ;;
		--) shift; break ;;
		*) die "record: unknown argument $1 (the command goes after --)" ;;
		esac
	done
	[ $# -gt 0 ] || die "record: no command (wqport-trace record [OPTIONS] -- COMMAND)"
	start --buffer-kb "$kb"
	echo "$*" > "$STATE/command"
	# the symbols of modules COMMAND loads, while they are loaded
	(
		while [ -d "$STATE" ] && [ ! -e "$STATE/done" ]; do
			# shellcheck disable=SC2086 # one word a module
			symbols $mods 2>/dev/null
			sleep 0.2
		done
	) &
	poller=$!
	"$@"
	rc=$?
	if [ -n "$settle_s" ] && [ -n "$mods" ]; then
		# shellcheck disable=SC2086 # one word a module
		settle "$settle_s" "$max" $mods
	fi
	: > "$STATE/done"
	wait "$poller"
	stop -o "$out"
	exit "$rc"
}

cmd=$1
[ $# -eq 0 ] || shift
case $cmd in
record) record "$@" ;;
shim) tracefs && shim_events ;;
start) start "$@" ;;
symbols) symbols "$@" ;;
settle) settle "$@" ;;
stop) stop "$@" ;;
*) die "usage: wqport-trace record|start|symbols|shim|settle|stop (see the head of this script)" ;;
esac
