#!/bin/bash
# Usage: scripts/build-tests.sh KERNEL_DIR OUT_DIR
# Builds the guest's test programs as static binaries into OUT_DIR/bin:
# the kselftest from selftests/ (against the harness of the kernel tree)
# and every liburing-tests/*.c but helpers.c (liburing.a, libseccomp.a),
# the launcher of scripts/launcher/ with its profiles, its test helper and
# the real default profiles (real/) and the equivalence test of
# liburing-tests/equivalence/ into OUT_DIR/launcher, and the demo
# of liburing-tests/demo/ into OUT_DIR/demo.
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
# The profile launcher, its profiles and the equivalence test, as
# /tests/launcher/ (run by their own suites, not as bin/ programs).
mkdir -p "$out/launcher"
"$CC" "${CFLAGS[@]}" -o "$out/launcher/uring-launch" "$REPO_DIR"/scripts/launcher/*.c \
	-lseccomp -ljson-c -lcap
"$CC" "${CFLAGS[@]/-isystem/-idirafter}" -o "$out/launcher/profile-equivalence" \
	"$REPO_DIR"/liburing-tests/equivalence/*.c -luring
"$CC" "${CFLAGS[@]}" -o "$out/launcher/launch-probe" \
	"$REPO_DIR/scripts/launcher/test/launch-probe.c" -lseccomp -lcap
rm -rf "$out/launcher/profiles" "$out/launcher/bad-profiles" "$out/launcher/test" \
	"$out/launcher/real"
cp -a "$REPO_DIR/scripts/launcher/profiles" "$REPO_DIR/scripts/launcher/bad-profiles" \
	"$REPO_DIR/scripts/launcher/test" "$out/launcher/"
rm "$out/launcher/test/launch-probe.c"
# The real default profiles, unmodified, as real/: Podman's from Debian's
# golang-github-containers-common (scripts/setup.sh installs it) and
# Docker's from ../shared/profiles/ when it is there (never in the repo).
podman_profile=/usr/share/containers/seccomp.json
docker_profile="$REPO_DIR/../shared/profiles/docker-default.json"
[[ -f "$podman_profile" ]] ||
	die "$podman_profile is missing; run scripts/setup.sh (golang-github-containers-common)"
mkdir -p "$out/launcher/real"
cp "$podman_profile" "$out/launcher/real/podman.json"
if [[ -f "$docker_profile" ]]; then
	cp "$docker_profile" "$out/launcher/real/docker-default.json"
else
	log "no $docker_profile: the launcher suites skip Docker's profile"
fi
# The README's demo, kept out of bin/ so the test run does not run it.
mkdir -p "$out/demo"
for src in "$REPO_DIR"/liburing-tests/demo/*.c; do
	"$CC" "${CFLAGS[@]/-isystem/-idirafter}" "${LIBURING_CFLAGS[@]}" \
		-o "$out/demo/$(basename "$src" .c)" "$src" \
		"$REPO_DIR/liburing-tests/helpers.c" -luring -lseccomp
done
log "test binaries in $out/bin, demo in $out/demo"
