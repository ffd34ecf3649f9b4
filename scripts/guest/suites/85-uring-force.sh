#!/bin/sh
# The kselftests that set kernel.seccomp.uring_force, which cannot be
# cleared until reboot: they run after every other suite that judges
# filters (10-selftests.sh skips them), before the leak and lock checks.
# URING_SECCOMP_TESTS: where the tests are (default /tests).
bin="${URING_SECCOMP_TESTS:-/tests}/bin"
status=0
echo "# suite: selftests/seccomp_uring_force"
"$bin/seccomp_uring_force" 2>&1
rc=$?
echo "# selftests/seccomp_uring_force: exit $rc"
[ $rc -eq 0 ] || status=1
echo "# suite: selftests/seccomp_uring_force_cache"
"$bin/seccomp_uring_force_cache" 2>&1
rc=$?
echo "# selftests/seccomp_uring_force_cache: exit $rc"
[ $rc -eq 0 ] || status=1
exit $status
