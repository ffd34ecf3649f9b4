#!/bin/bash
# The flag path: a runtime that cannot pass SECCOMP_FILTER_FLAG_URING
# itself (Debian's crun 1.8.1 maps four flag names and refuses any other;
# on EINVAL it retries with no flags) opts in with a wrapper instead. The
# container's process is uring-launch (scripts/launcher/), which loads
# Docker's default profile, the same file crun compiled, once more with
# the flag, then runs uring-policy: its SQEs are judged although
# kernel.seccomp.uring_force is 0. Runs before 20-crun.sh, which sets
# uring_force for good. On the stock kernel the wrapper finds no flag and
# runs nothing (exit 3): it fails closed, there is no bypass to show.
# A control run first: the same bundle without the wrapper, where crun's
# filter alone does not judge SQEs (filters opt in), so the wrapper is
# what makes the difference.
set -euo pipefail
# shellcheck source=scripts/real/tap.sh
source /tests/tap.sh
# shellcheck source=scripts/real/crun.sh
source /tests/crun.sh
echo "# suite: real/crun-flag-path"
force=/proc/sys/kernel/seccomp/uring_force

# no_results FILE: FILE holds no TAP result line
no_results() {
	! grep -qE '^(not )?ok ' "$1"
}

if [[ "$URING_SECCOMP_EXPECT" == stock ]]; then
	rc=0
	run_bundle config-flag.json stock uring-flag || rc=$?
	sed 's/^/# /' /run/uring-flag.out
	check "the stock kernel has no flag: the wrapper runs nothing (exit $rc)" \
		test "$rc" = 3
	check "the wrapper said why" grep -q "has no SECCOMP_FILTER_FLAG_URING" /run/uring-flag.out
	check "uring-policy did not run" no_results /run/uring-flag.out
	tap_end
	exit 0
fi

check "kernel.seccomp.uring_force is still 0" grep -qx 0 "$force"
# control: crun's filter alone; uring-policy told to expect the stock
# kernel, so an SQE that gets through is reported as a bypass
# (its exit status is whatever uring-policy made of the bypasses)
run_bundle config.json stock uring-noflag || true
sed 's/^/# control: /' /run/uring-noflag.out
check "control: without the flag or uring_force crun's filter does not judge IORING_OP_SOCKET" \
	grep -q "^ok .*refused as an SQE # SKIP BYPASS" /run/uring-noflag.out
rc=0
run_bundle config-flag.json patched uring-flag || rc=$?
check "crun ran uring-launch with Docker's default profile (exit $rc)" test "$rc" = 0
tap_lines container-flag </run/uring-flag.out
check "kernel.seccomp.uring_force is still 0 afterwards" grep -qx 0 "$force"
tap_end
