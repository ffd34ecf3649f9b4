#!/bin/sh
# The profile equivalence table: for each case of
# liburing-tests/equivalence/, under no filter and under each profile of
# scripts/launcher/profiles/, the SQE has the outcome of its twin system
# call. A kernel without SECCOMP_FILTER_FLAG_URING runs only the unfiltered
# column, which the host compares with the patched kernel's.
L=/tests/launcher
echo "# suite: profile-equivalence"
if "$L/uring-launch" --check --profile "$L/profiles/strict-nonet.json" | grep -q 'io_uring judged'; then
	set -- "$L"/profiles/*.json
else
	echo "# no SECCOMP_FILTER_FLAG_URING: unfiltered column only"
	set --
fi
# per-program timeout (run-guest.sh)
limit="${URING_SECCOMP_TIMEOUT:-60}"
# 312 children, each started by uring-launch: ten times the per-program limit
cd /tmp && timeout $((limit * 10)) "$L/profile-equivalence" "$L/uring-launch" "$@" 2>&1
