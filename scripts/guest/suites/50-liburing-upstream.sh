#!/bin/sh
# liburing's own regression tests (scripts/build-liburing-upstream.sh),
# no filter loaded: each must pass or skip, on the stock kernel and on
# the patched one. Each runs in an empty directory of its own. Exits 1
# if any failed.
#
# liburing's syzkaller reproducers map memory over 0x20000000-0x21000000
# with MAP_FIXED. Built statically, as here, a test keeps its thread
# control block (stack canary, pointer guard) in its brk heap, which
# x86_64 places anywhere in the gigabyte after the program when brk is
# randomized: about one run in 55 the mapping zeroes it, and the test
# dies of SIGSEGV (a demangled exit handler) or SIGABRT (the canary) on
# either kernel, with no filter loaded. Brk randomization is turned off
# (randomize_va_space 1: stack, mmap and vDSO stay randomized) while the
# suite runs, and the setting is put back after.
#
# A test that fails anyway is run again, up to ATTEMPTS times in all;
# the first pass or skip is the result, each failed attempt is printed
# as a "# retried:" line, which the host lists, and a test that fails
# every attempt fails.
# URING_SECCOMP_TESTS: where the tests are (default /tests).
# URING_SECCOMP_ASLR: the randomize_va_space file (default the kernel's).
echo "# suite: liburing-upstream"
dir="${URING_SECCOMP_TESTS:-/tests}/liburing-upstream"
limit="${URING_SECCOMP_TIMEOUT:-60}"
ATTEMPTS=3
aslr="${URING_SECCOMP_ASLR:-/proc/sys/kernel/randomize_va_space}"
aslr_was="$(cat "$aslr")"
[ "$aslr_was" -gt 1 ] && echo 1 >"$aslr"
echo "# randomize_va_space: $(cat "$aslr") while the suite runs (was $aslr_was)"
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
echo "$aslr_was" >"$aslr"
exit $status
