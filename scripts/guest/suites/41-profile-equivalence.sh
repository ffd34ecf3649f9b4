#!/bin/sh
# The profile equivalence table: for each case of
# liburing-tests/equivalence/, under no filter, under each profile of
# scripts/launcher/profiles/ and under the real default profiles with
# --allow-io-uring (Podman's; Docker's when it was shipped), the SQE has
# the outcome of its twin system call. A stock kernel runs only the
# unfiltered column, which the host compares with the patched kernel's.
# Which kernel this is comes from URING_SECCOMP_EXPECT, never from a
# message; unset (run by hand), the launcher's --check answer decides.
L=/tests/launcher
echo "# suite: profile-equivalence"
case "${URING_SECCOMP_EXPECT:-}" in
patched) stock=0 ;;
stock) stock=1 ;;
*)
	stock=1
	"$L/uring-launch" --check --profile "$L/profiles/strict-nonet.json" |
		grep -q 'io_uring judged' && stock=0
	;;
esac
if [ $stock -eq 0 ]; then
	set -- "$L"/profiles/*.json --allow-io-uring "podman=$L/real/podman.json"
	if [ -e "$L/real/docker-default.json" ]; then
		set -- "$@" --allow-io-uring "docker-default=$L/real/docker-default.json"
	else
		echo "# $L/real/docker-default.json was not shipped: no docker-default column"
	fi
else
	echo "# a stock kernel: unfiltered column only"
	set --
fi
# per-program timeout (run-guest.sh)
limit="${URING_SECCOMP_TIMEOUT:-60}"
# 492 children, each started by uring-launch: twenty times the per-program limit
cd /tmp && timeout $((limit * 20)) "$L/profile-equivalence" "$L/uring-launch" "$@" 2>&1
