#!/bin/sh
# Runs inside the guest: every suite script of /tests/suites, in name
# order. Each prints "# suite: NAME" and then TAP with a plan, so the host
# can check that every suite ran to its end. Exits 1 if any suite did.
# From the kernel command line, for the suites and every program they run:
#   uring_seccomp.timeout=S        URING_SECCOMP_TIMEOUT: the per-program
#                                  timeout (default 60 s; longer for debug
#                                  kernels)
#   uring_seccomp.expect=KERNEL    URING_SECCOMP_EXPECT=patched|stock: the
#                                  kernel the host booted. On "patched" a
#                                  filter that cannot opt in is a failure,
#                                  never a skip or a bypass.
#   uring_seccomp.debug=1          URING_SECCOMP_DEBUG=1: a --debug kernel
#                                  (kmemleak, lockdep must be there)
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case "$arg" in
	uring_seccomp.timeout=*) export URING_SECCOMP_TIMEOUT="${arg#*=}" ;;
	uring_seccomp.expect=*) export URING_SECCOMP_EXPECT="${arg#*=}" ;;
	uring_seccomp.debug=*) export URING_SECCOMP_DEBUG="${arg#*=}" ;;
	esac
done
# unset (run by hand) lets each test decide; set, it must be one of two
if [ -n "${URING_SECCOMP_EXPECT+set}" ]; then
	case "$URING_SECCOMP_EXPECT" in
	patched | stock) ;;
	*)
		echo "# run-guest: uring_seccomp.expect=$URING_SECCOMP_EXPECT: want patched or stock"
		exit 1
		;;
	esac
fi
status=0
for suite in /tests/suites/*.sh; do
	sh "$suite" || status=1
done
exit $status
