#!/bin/sh
# lockdep: after every other suite ran, lockdep must still be on. It
# turns itself off at its first report, or when it runs out of room
# (MAX_LOCKDEP_ENTRIES and the like); either way nothing after that was
# checked. The report itself reaches the console (boot-guest.sh's
# loglevel) and fails the run there. Skipped without lockdep, unless
# the kernel is a --debug one (URING_SECCOMP_DEBUG=1, from
# run-guest.sh): there a missing lockdep fails. Exits 1 on failure.
echo "# suite: lockdep"
echo "TAP version 13"
echo "1..1"
f=/proc/lockdep_stats
if [ ! -r "$f" ] && [ "${URING_SECCOMP_DEBUG:-0}" = 1 ]; then
	echo "not ok 1 lockdep still validating # no lockdep in a --debug kernel"
	exit 1
fi
if [ ! -r "$f" ]; then
	echo "ok 1 lockdep still validating # SKIP no lockdep in this kernel"
	exit 0
fi
on="$(sed -n 's/^ *debug_locks: *//p' "$f")"
if [ "$on" = 1 ]; then
	echo "ok 1 lockdep still validating"
else
	dmesg | grep -i -A3 'lockdep\|debug_locks' | tail -20 | sed 's/^/# /'
	echo "not ok 1 lockdep still validating # debug_locks is '$on'"
	exit 1
fi
