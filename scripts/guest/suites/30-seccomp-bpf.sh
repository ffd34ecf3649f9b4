#!/bin/sh
# The kernel's own seccomp selftest (seccomp_bpf), for the regression
# check: its TAP is printed behind "#| " so the host does not count it
# here; scripts/compare-seccomp-bpf.py compares the stock and patched
# runs case by case. Absent (not built): nothing is printed.
t=/tests/seccomp_bpf
[ -x "$t" ] || exit 0
echo "# seccomp_bpf-raw begin"
start=$(date +%s)
timeout 600 "$t" 2>&1 | sed 's/^/#| /'
echo "# seccomp_bpf-raw end ($(($(date +%s) - start)) s)"
