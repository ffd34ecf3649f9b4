#!/bin/sh
# The liburing/libseccomp tests: one TAP line each, from the exit code
# (0 pass, 77 skip, 99 bypass reproduced on a stock kernel, else fail).
echo "# suite: liburing-tests"
# per-program timeout (run-guest.sh)
limit="${URING_SECCOMP_TIMEOUT:-60}"
set -- /tests/bin/uring-*
echo "TAP version 13"
echo "1..$#"
n=0
for t in "$@"; do
	n=$((n + 1))
	name="${t##*/uring-}"
	start=$(date +%s)
	out="$(timeout "$limit" "$t" 2>&1)"
	rc=$?
	[ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/# /'
	echo "# $name: $(($(date +%s) - start)) s"
	[ $rc -eq 124 ] && echo "# $name: killed after $limit s"
	case $rc in
	0) echo "ok $n $name" ;;
	77) echo "ok $n $name # SKIP" ;;
	99) echo "ok $n $name # SKIP BYPASS reproduced on stock kernel" ;;
	*) echo "not ok $n $name # exit $rc" ;;
	esac
done
