#!/bin/sh
# The liburing/libseccomp tests: one TAP line each, from the exit code
# (0 pass, 77 skip, 99 bypass reproduced, else fail). A skip and a bypass
# are skips only on the stock kernel (URING_SECCOMP_EXPECT=stock, or unset
# when run by hand); on the patched kernel both are failures: these tests
# skip only where the feature is missing. Exits 1 if any failed.
# URING_SECCOMP_TESTS: where the tests are (default /tests; the host's
# scripts/test-harness.py points it at fakes).
echo "# suite: liburing-tests"
# per-program timeout (run-guest.sh)
limit="${URING_SECCOMP_TIMEOUT:-60}"
set -- "${URING_SECCOMP_TESTS:-/tests}"/bin/uring-*
echo "TAP version 13"
echo "1..$#"
n=0
status=0
for t in "$@"; do
	n=$((n + 1))
	name="${t##*/uring-}"
	start=$(date +%s)
	out="$(timeout "$limit" "$t" 2>&1)"
	rc=$?
	[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/# /'
	echo "# $name: $(($(date +%s) - start)) s"
	# busybox's timeout kills with SIGTERM and exits with it: 143
	[ $rc -eq 124 ] || [ $rc -eq 143 ] && echo "# $name: killed after $limit s?"
	if [ "${URING_SECCOMP_EXPECT:-stock}" != stock ]; then
		[ $rc -eq 99 ] && rc=bypass
		[ $rc -eq 77 ] && rc=missing
	fi
	case $rc in
	0) echo "ok $n $name" ;;
	77) echo "ok $n $name # SKIP" ;;
	99) echo "ok $n $name # SKIP BYPASS reproduced on stock kernel" ;;
	missing)
		echo "not ok $n $name # exit 77: skipped on the $URING_SECCOMP_EXPECT kernel (feature missing)"
		status=1
		;;
	bypass)
		echo "not ok $n $name # exit 99: bypass reproduced on the $URING_SECCOMP_EXPECT kernel"
		status=1
		;;
	*)
		echo "not ok $n $name # exit $rc"
		status=1
		;;
	esac
done
exit $status
