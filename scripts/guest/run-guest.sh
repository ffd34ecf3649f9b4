#!/bin/sh
# Runs inside the guest: every suite script of /tests/suites, in name
# order. Each prints "# suite: NAME" and then TAP with a plan, so the host
# can check that every suite ran to its end.
# uring_seccomp.timeout=S on the kernel command line: the per-program
# timeout of the suites (default 60 s; longer for debug kernels).
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case "$arg" in
	uring_seccomp.timeout=*) export URING_SECCOMP_TIMEOUT="${arg#*=}" ;;
	esac
done
status=0
for suite in /tests/suites/*.sh; do
	sh "$suite" || status=1
done
exit $status
