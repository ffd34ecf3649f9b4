#!/bin/sh
# The kernel's own seccomp selftest (seccomp_bpf), for the regression
# check: its TAP is printed behind "#| " so the host does not count it
# here; scripts/compare-seccomp-bpf.py compares the stock and patched
# runs case by case. This suite's own result is seccomp_bpf's exit
# status (0: every case passed or skipped). Not built: a skip, which
# scripts/allowed-skips.txt does not allow.
# URING_SECCOMP_TESTS: where the tests are (default /tests; the host's
# scripts/test-harness.py points it at fakes).
t="${URING_SECCOMP_TESTS:-/tests}/seccomp_bpf"
echo "# suite: seccomp_bpf"
echo "TAP version 13"
echo "1..1"
if [ ! -x "$t" ]; then
	echo "ok 1 seccomp_bpf # SKIP not built"
	exit 0
fi
echo "# seccomp_bpf-raw begin"
start=$(date +%s)
# the exit status, past the pipe (POSIX sh has no pipefail)
rcf=/tmp/seccomp_bpf.rc.$$
{
	timeout 600 "$t" 2>&1
	echo $? >"$rcf"
} | sed 's/^/#| /'
rc=$(cat "$rcf" 2>/dev/null || echo lost)
rm -f "$rcf"
echo "# seccomp_bpf-raw end (exit $rc, $(($(date +%s) - start)) s)"
[ "$rc" = 124 ] && echo "# seccomp_bpf: killed after 600 s"
if [ "$rc" = 0 ]; then
	echo "ok 1 seccomp_bpf exit status"
else
	echo "not ok 1 seccomp_bpf exit status # exit $rc"
	exit 1
fi
