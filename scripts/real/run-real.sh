#!/bin/bash
# Runs inside the real-software guest (scripts/build-rootfs.sh's image;
# its uring-seccomp-tests.service starts it as /tests/run-real.sh when
# systemd has finished booting): every suite of /tests/suites, in name
# order, each printing "# suite: NAME" and TAP (scripts/real/tap.sh).
# From the kernel command line, for the suites:
#   uring_seccomp.expect=KERNEL    URING_SECCOMP_EXPECT=patched|stock: the
#                                  kernel the host booted. On "patched" an
#                                  SQE that escapes its policy is a failure;
#                                  on "stock" it is a bypass (SKIP BYPASS).
# Exits 1 if any suite did.
set -euo pipefail
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case "$arg" in
	uring_seccomp.expect=*) export URING_SECCOMP_EXPECT="${arg#*=}" ;;
	esac
done
case "${URING_SECCOMP_EXPECT:-}" in
patched | stock) ;;
*)
	echo "# run-real: uring_seccomp.expect=${URING_SECCOMP_EXPECT:-}: want patched or stock"
	exit 1
	;;
esac
status=0
for suite in /tests/suites/*.sh; do
	bash "$suite" || status=1
done
exit "$status"
