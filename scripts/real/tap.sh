# shellcheck shell=bash
# TAP for the real-software guest's suites (scripts/real/suites/),
# sourced. A suite collects its results, from its own checks (tap) and
# from the programs it runs (tap_lines, which keeps their result lines
# and shows the rest as comments), and prints them numbered after its
# plan (tap_end), so the plan is right whatever a program printed.
# Runs in the guest under Debian's bash.
tap_results=()

# tap STATUS TEXT: "ok" when STATUS is 0, "not ok" otherwise
tap() {
	if [[ "$1" == 0 ]]; then
		tap_results+=("ok - $2")
	else
		tap_results+=("not ok - $2")
	fi
}

# check TEXT COMMAND...: "ok" when COMMAND succeeds (errexit is off
# inside the if)
check() {
	local text="$1"
	shift
	if "$@"; then
		tap 0 "$text"
	else
		tap 1 "$text"
	fi
}

# tap_lines PREFIX: the TAP result lines on stdin, renumbered later and
# labelled with PREFIX; any other line is printed now as a comment
tap_lines() {
	local line re='^(ok|not ok) [0-9]+ (.*)$'
	while IFS= read -r line; do
		if [[ "$line" =~ $re ]]; then
			tap_results+=("${BASH_REMATCH[1]} - $1: ${BASH_REMATCH[2]}")
		else
			echo "# $line"
		fi
	done
}

# the plan, then every result collected, numbered
tap_end() {
	local i=0 r
	echo "1..${#tap_results[@]}"
	for r in "${tap_results[@]}"; do
		i=$((i + 1))
		echo "${r/ - / $i }"
	done
}

# uring_force: 1 on the patched kernel (one way: set once, it stays);
# the stock kernel must not have it. Records the result.
tap_force_uring() {
	local f=/proc/sys/kernel/seccomp/uring_force
	if [[ "${URING_SECCOMP_EXPECT:-}" == stock ]]; then
		check "the stock kernel has no kernel.seccomp.uring_force" test ! -e "$f"
	else
		sysctl -q -w kernel.seccomp.uring_force=1 || true
		check "kernel.seccomp.uring_force=1" grep -qx 1 "$f"
	fi
}
