# shellcheck shell=bash
# KTAP helpers for the test suites' shell drivers.  Source it.
#
#   ktap_begin N          print the header and plan of a document of N tests
#   ktap_nest NAME CMD... run CMD (which prints a KTAP document), nest it as
#                         the next test NAME; ok when CMD exits 0
#   ktap_result RC NAME   print the next result line, ok when RC is 0

ktap_n=0

ktap_begin() {
	echo "KTAP version 1"
	echo "1..$1"
}

ktap_result() {
	ktap_n=$((ktap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $ktap_n $2"
	else
		echo "not ok $ktap_n $2"
	fi
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
