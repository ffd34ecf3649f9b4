#!/bin/bash
# Usage: scripts/build-tests.sh KERNEL_DIR OUT_DIR
# Builds the guest's test programs as static binaries into OUT_DIR/bin:
# the kselftest from selftests/ (against the harness of the kernel tree)
# and every liburing-tests/*.c but helpers.c (liburing.a, libseccomp.a),
# and the demo of liburing-tests/demo/ into OUT_DIR/demo.
# KERNEL_DIR is a directory printed by scripts/build-kernel.sh; its
# exported UAPI headers (usr/include) are used, after include/.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

kernel_out_args "$@"

CC="${CC:-gcc}"
CFLAGS=(-std=gnu11 -O2 -g -Wall -Wextra -Werror -static
	-I "$REPO_DIR/include" -isystem "$kdir/usr/include")
mkdir -p "$out/bin" "$out/src/seccomp"

# The selftests include "../kselftest_harness.h": build them where the
# series puts them, next to a copy of the harness of the kernel tree.
cp "$TREE_DIR"/tools/testing/selftests/kselftest_harness.h \
	"$TREE_DIR"/tools/testing/selftests/kselftest.h "$out/src/"
cp "$REPO_DIR"/selftests/*.c "$REPO_DIR"/selftests/*.h "$out/src/seccomp/"
# (The harness's TEST() wrappers have parameters a test may not use.)
for src in "$out"/src/seccomp/*.c; do
	name="$(basename "$src" .c)"
	"$CC" "${CFLAGS[@]}" -Wno-unused-parameter -o "$out/bin/$name" "$src" -lpthread
done

LIBURING_CFLAGS=(-I "$REPO_DIR/liburing-tests")
for src in "$REPO_DIR"/liburing-tests/*.c; do
	name="$(basename "$src" .c)"
	[[ "$name" == helpers ]] && continue
	"$CC" "${CFLAGS[@]/-isystem/-idirafter}" "${LIBURING_CFLAGS[@]}" \
		-o "$out/bin/uring-$name" "$src" "$REPO_DIR/liburing-tests/helpers.c" \
		-luring -lseccomp -lpthread
done
# The README's demo, kept out of bin/ so the test run does not run it.
mkdir -p "$out/demo"
for src in "$REPO_DIR"/liburing-tests/demo/*.c; do
	"$CC" "${CFLAGS[@]/-isystem/-idirafter}" "${LIBURING_CFLAGS[@]}" \
		-o "$out/demo/$(basename "$src" .c)" "$src" \
		"$REPO_DIR/liburing-tests/helpers.c" -luring -lseccomp
done
log "test binaries in $out/bin, demo in $out/demo"
