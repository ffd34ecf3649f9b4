#!/bin/sh
# liburing's own regression tests (scripts/build-liburing-upstream.sh),
# no filter loaded: each must pass or skip, on the stock kernel and on
# the patched one. Each runs in an empty directory of its own. Exits 1
# if any failed.
# URING_SECCOMP_TESTS: where the tests are (default /tests).
echo "# suite: liburing-upstream"
dir="${URING_SECCOMP_TESTS:-/tests}/liburing-upstream"
limit="${URING_SECCOMP_TIMEOUT:-60}"
set -- "$dir"/*.t
echo "TAP version 13"
echo "1..$#"
n=0
status=0
for t in "$@"; do
	n=$((n + 1))
	name="${t##*/}"
	name="${name%.t}"
	work="/tmp/liburing-upstream.$name"
	mkdir -p "$work"
	out="$(cd "$work" && timeout "$limit" "$t" 2>&1)"
	rc=$?
	rm -rf "$work"
	# busybox's timeout kills with SIGTERM and exits with it: 143
	[ $rc -eq 124 ] || [ $rc -eq 143 ] && echo "# $name: killed after $limit s?"
	[ $rc -ne 0 ] && [ -n "$out" ] && printf '%s\n' "$out" | tail -5 | sed 's/^/# /'
	# some tests write to the console itself (tty-write-dpoll): start
	# the result on a line of its own
	echo
	case $rc in
	0) echo "ok $n $name" ;;
	77) echo "ok $n $name # SKIP" ;;
	*)
		echo "not ok $n $name # exit $rc"
		status=1
		;;
	esac
done
exit $status
