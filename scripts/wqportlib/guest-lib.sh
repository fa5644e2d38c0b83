# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# /lib/wqport.sh in every test initramfs: helpers for scenario scripts
# (busybox sh).  A scenario sources it: . /lib/wqport.sh
#
# Waiting here is for a state the module reports, never for time to pass:
# the loop ends as soon as the state is there and fails, saying what it saw,
# when it is not there in the time given.

# wqport_check DESCRIPTION COMMAND...: run COMMAND and print its TAP line,
# "ok N DESCRIPTION" or "not ok N DESCRIPTION", N the scenario's count $n
# (set n=0 failed=0 first); a failure sets failed=1 (the scenario's exit
# status: exit $failed).
wqport_check() {
	n=$((n + 1))
	_wq_what=$1
	shift
	if "$@"; then
		echo "ok $n $_wq_what"
	else
		echo "not ok $n $_wq_what"
		# shellcheck disable=SC2034 # the scenario's: exit $failed
		failed=1
	fi
}

# wqport_wait_content FILE WANT [TENTHS]: poll FILE until it reads exactly
# WANT, at most TENTHS tenths of a second (default 300: 30 s, TCG is slow).
# Return 0 when it does; else print what FILE holds and return 1.
wqport_wait_content() {
	_wq_i=0
	while [ "$_wq_i" -lt "${3:-300}" ]; do
		[ "$(cat "$1" 2>/dev/null)" = "$2" ] && return 0
		sleep 0.1
		_wq_i=$((_wq_i + 1))
	done
	echo "$1 is \"$(cat "$1" 2>/dev/null)\", not \"$2\""
	return 1
}

# wqport_wait_change FILE FROM [TENTHS]: poll FILE until it no longer reads
# FROM, at most TENTHS tenths of a second (default 300).  Return 0 when it
# does; else say so and return 1.
wqport_wait_change() {
	_wq_i=0
	while [ "$_wq_i" -lt "${3:-300}" ]; do
		[ "$(cat "$1" 2>/dev/null)" != "$2" ] && return 0
		sleep 0.1
		_wq_i=$((_wq_i + 1))
	done
	echo "$1 is still \"$2\""
	return 1
}

# wqport_wait_at_least FILE N [TENTHS]: poll FILE, a number, until it is at
# least N, at most TENTHS tenths of a second (default 300).  Return 0 when
# it is; else print what FILE holds and return 1.
wqport_wait_at_least() {
	_wq_i=0
	while [ "$_wq_i" -lt "${3:-300}" ]; do
		[ "$(cat "$1" 2>/dev/null)" -ge "$2" ] 2>/dev/null && return 0
		sleep 0.1
		_wq_i=$((_wq_i + 1))
	done
	echo "$1 is \"$(cat "$1" 2>/dev/null)\", less than $2"
	return 1
}

# wqport_wait_chardev PATH [TENTHS]: wait for devtmpfs to make the character
# device PATH (as udev users did), at most TENTHS tenths of a second
# (default 50).  Return 0 when it is there; else say so and return 1.
wqport_wait_chardev() {
	_wq_i=0
	while [ ! -c "$1" ] && [ "$_wq_i" -lt "${2:-50}" ]; do
		sleep 0.1
		_wq_i=$((_wq_i + 1))
	done
	[ -c "$1" ] && return 0
	echo "no character device $1"
	return 1
}
