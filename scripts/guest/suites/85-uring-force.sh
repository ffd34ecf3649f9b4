#!/bin/sh
# The kselftest that sets kernel.seccomp.uring_force, which cannot be
# cleared until reboot: it runs after every other suite that judges
# filters (10-selftests.sh skips it), before the leak and lock checks.
# URING_SECCOMP_TESTS: where the tests are (default /tests).
t="${URING_SECCOMP_TESTS:-/tests}/bin/seccomp_uring_force"
echo "# suite: selftests/seccomp_uring_force"
"$t" 2>&1
rc=$?
echo "# selftests/seccomp_uring_force: exit $rc"
exit $rc
