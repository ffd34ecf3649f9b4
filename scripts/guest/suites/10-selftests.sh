#!/bin/sh
# The kselftests of selftests/ (the series' tools/testing/selftests/seccomp
# programs): each prints its own TAP and is one suite, named
# selftests/PROGRAM. A program's exit status is printed after its TAP;
# any but 0 makes this script exit 1 (and "# guest-done rc=" non-zero).
# URING_SECCOMP_TESTS: where the tests are (default /tests).
status=0
for t in "${URING_SECCOMP_TESTS:-/tests}"/bin/seccomp_uring*; do
	# set kernel.seccomp.uring_force for good: 85-uring-force.sh runs them last
	case "${t##*/}" in seccomp_uring_force*) continue ;; esac
	echo "# suite: selftests/${t##*/}"
	"$t" 2>&1
	rc=$?
	echo "# selftests/${t##*/}: exit $rc"
	[ $rc -eq 0 ] || status=1
done
exit $status
