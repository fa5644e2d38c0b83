# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# KTAP helpers for the test suites' shell drivers.  Source it.
#
#   ktap_begin N          print the header and plan of a document of N tests
#   ktap_nest NAME CMD... run CMD (which prints a KTAP document), nest it as
#                         the next test NAME; ok when CMD exits 0
#   ktap_result RC NAME   print the next result line, ok when RC is 0
#   ktap_skip NAME WHY    print the next result line as a skip
#   ktap_end              the results must be the plan's number: any
#                         missing is "not ok"; exits 1 when a test failed
#                         or the count is off, else 0
# Every result of a document goes through these, which count for
# themselves: a runner's exit status follows its results.

ktap_n=0
ktap_plan=
ktap_failed=0

ktap_begin() {
	ktap_plan=$1
	echo "KTAP version 1"
	echo "1..$1"
}

ktap_result() {
	ktap_n=$((ktap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $ktap_n $2"
	else
		ktap_failed=1
		echo "not ok $ktap_n $2"
	fi
}

ktap_skip() {
	ktap_n=$((ktap_n + 1))
	echo "ok $ktap_n $1 # SKIP $2"
}

ktap_end() {
	if [ -n "$ktap_plan" ] && [ "$ktap_n" -gt "$ktap_plan" ]; then
		echo "# $ktap_n results for a plan of $ktap_plan: the plan is wrong"
		ktap_failed=1
	fi
	while [ -n "$ktap_plan" ] && [ "$ktap_n" -lt "$ktap_plan" ]; do
		ktap_result 1 "result $((ktap_n + 1)) of $ktap_plan: never given"
	done
	exit "$ktap_failed"
}

ktap_nest() {
	local name=$1 rc errf
	shift
	errf=$(mktemp)
	"$@" 2>"$errf" | sed 's/^/    /'
	rc=${PIPESTATUS[0]}
	# the command's one-line verdict (stderr) as diagnostics
	sed 's/^/    # /' "$errf"
	rm -f "$errf"
	ktap_result "$rc" "$name"
	return "$rc"
}

# ktap_splice N PREFIX CMD...: run CMD, which prints a KTAP document of N
# tests (wqport test --runs), and print its tests as the next N of this
# document, each name (in its result and its "# Subtest:" line, which
# kunit.py's parser matches) after PREFIX; results it does not give are "not ok",
# with its stderr as their diagnostics.  Returns CMD's status.
ktap_splice() {
	local want=$1 prefix=$2 rc errf out line got=0
	shift 2
	errf=$(mktemp)
	out=$(mktemp)
	"$@" >"$out" 2>"$errf"
	rc=$?
	while IFS= read -r line; do
		case $line in
		'KTAP version '* | '1..'*) ;;
		'ok '* | 'not ok '*)
			got=$((got + 1))
			[[ $line =~ ^(ok|not\ ok)\ [0-9]+\ (.*)$ ]]
			ktap_n=$((ktap_n + 1))
			[ "${BASH_REMATCH[1]}" = ok ] || ktap_failed=1
			echo "${BASH_REMATCH[1]} $ktap_n $prefix${BASH_REMATCH[2]}"
			;;
		'    # Subtest: '*) echo "    # Subtest: $prefix${line#    # Subtest: }" ;;
		*) echo "$line" ;;
		esac
	done <"$out"
	while [ "$got" -lt "$want" ]; do
		got=$((got + 1))
		sed 's/^/# /' "$errf"
		ktap_result 1 "${prefix}run $got of $want: no result"
	done
	rm -f "$errf" "$out"
	return "$rc"
}
