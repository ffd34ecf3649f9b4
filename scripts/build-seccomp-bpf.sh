#!/bin/bash
# Usage: scripts/build-seccomp-bpf.sh KERNEL_DIR OUT_DIR
# Builds the kernel's own seccomp selftest, seccomp_bpf, from the stock
# tree (branch "base" of the kernel tree, read with git archive, so the
# checked-out tree is not touched) as a static binary OUT_DIR/seccomp_bpf,
# against the exported UAPI headers of KERNEL_DIR. The test run runs it
# on both kernels and compares the results (the regression check).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

kernel_out_args "$@"

src="$(mktemp -d)"
trap 'rm -rf "$src"' EXIT
tree_git archive base tools/testing/selftests/kselftest_harness.h \
	tools/testing/selftests/kselftest.h tools/testing/selftests/seccomp \
	tools/testing/selftests/clone3 |
	tar -x -C "$src"
mkdir -p "$out"
dir="$src/tools/testing/selftests/seccomp"
# 7.3's selftests name their headers as lib.mk lets them (-I the
# selftests directory, -D_GNU_SOURCE=); 6.12's with "../", which works
# either way
"${CC:-gcc}" -O2 -static -isystem "$kdir/usr/include" \
	-I "$src/tools/testing/selftests" -D_GNU_SOURCE= \
	-o "$out/seccomp_bpf" "$dir/seccomp_bpf.c" -lcap -lpthread
log "seccomp_bpf in $out"
