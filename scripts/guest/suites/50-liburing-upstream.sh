#!/bin/sh
# liburing's own regression tests (scripts/build-liburing-upstream.sh),
# no filter loaded: each must pass or skip, on the stock kernel and on
# the patched one. Each runs in an empty directory of its own. Exits 1
# if any failed.
#
# A test that fails is run again, up to ATTEMPTS times in all: several
# of liburing 2.3's tests are syzkaller reproducers that race threads or
# children against the ring on purpose and die of SIGSEGV or SIGABRT now
# and then under TCG, on either kernel, with no filter loaded. The first
# pass or skip is the result; each failed attempt is printed as a
# "# retried:" line, which the host lists. A test that fails every
# attempt fails.
# URING_SECCOMP_TESTS: where the tests are (default /tests).
echo "# suite: liburing-upstream"
dir="${URING_SECCOMP_TESTS:-/tests}/liburing-upstream"
limit="${URING_SECCOMP_TIMEOUT:-60}"
ATTEMPTS=3
set -- "$dir"/*.t
echo "TAP version 13"
echo "1..$#"
n=0
status=0
for t in "$@"; do
	n=$((n + 1))
	name="${t##*/}"
	name="${name%.t}"
	attempt=0
	codes=""
	while :; do
		attempt=$((attempt + 1))
		work="/tmp/liburing-upstream.$name"
		mkdir -p "$work"
		out="$(cd "$work" && timeout "$limit" "$t" 2>&1)"
		rc=$?
		rm -rf "$work"
		codes="$codes${codes:+, }$rc"
		[ $rc -eq 0 ] || [ $rc -eq 77 ] && break
		# busybox's timeout kills with SIGTERM and exits with it: 143
		[ $rc -eq 124 ] || [ $rc -eq 143 ] && echo "# $name: killed after $limit s?"
		[ -n "$out" ] && printf '%s\n' "$out" | tail -5 | sed 's/^/# /'
		[ $attempt -ge $ATTEMPTS ] && break
	done
	[ $attempt -gt 1 ] &&
		echo "# retried: $name: exit codes $codes ($attempt attempts of at most $ATTEMPTS)"
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
