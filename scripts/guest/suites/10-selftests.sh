#!/bin/sh
# The kselftests of selftests/ (the series' tools/testing/selftests/seccomp
# programs): each prints its own TAP and is one suite.
for t in /tests/bin/seccomp_uring*; do
	echo "# suite: selftests/${t##*/}"
	"$t" 2>&1
done
