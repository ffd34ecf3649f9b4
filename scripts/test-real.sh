#!/bin/bash
# Usage: scripts/test-real.sh KERNEL_DIR patched|stock LOG [TIMEOUT_S]
# The real-software tests of issue 16 on one kernel: boots
# KERNEL_DIR/bzImage (built with kernel-patches/guest.config) on the
# Debian 12 root disk of
# scripts/build-rootfs.sh, with systemd as init and a second disk,
# /dev/vdb, holding /tests: scripts/real/ (run-real.sh, the suites and
# their TAP helpers), bin/uring-policy (real-tests/, static, built
# against KERNEL_DIR's UAPI headers) and bundle/, the OCI bundle crun
# runs: uring-policy in a rootfs of its own, config.json with Docker's
# default profile (../shared/profiles/docker-default.json) converted by
# scripts/docker-seccomp-to-oci.py, plus the io_uring system calls, and
# config-flag.json, the same with uring-launch (scripts/launcher/,
# static) around uring-policy, loading that profile with the flag. The
# guest prints "# suite:" sections of TAP to LOG and reboots, which ends
# QEMU; the exit status is scripts/boot-guest.sh's. Runs as root (the
# root file system image is built as root).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
scripts="$REPO_DIR/scripts"

kdir="${1:-}"
expect="${2:-}"
logf="${3:-}"
timeout_s="${4:-900}"
[[ -f "$kdir/bzImage" && -d "$kdir/usr/include" && -n "$logf" &&
	("$expect" == patched || "$expect" == stock) ]] ||
	die "usage: $0 KERNEL_DIR patched|stock LOG [TIMEOUT_S]"
profile="$REPO_DIR/../shared/profiles/docker-default.json"
[[ -f "$profile" ]] || die "$profile is missing (Docker's default seccomp profile)"

image="$("$scripts/build-rootfs.sh")"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/tests/bin" "$stage/tests/bundle/rootfs/bin"
CC="${CC:-gcc}"
"$CC" -std=gnu11 -O2 -Wall -Wextra -Werror -static -I "$REPO_DIR/selftests" \
	-isystem "$kdir/usr/include" \
	-o "$stage/tests/bin/uring-policy" "$REPO_DIR"/real-tests/*.c -lpthread
cp "$scripts/real/run-real.sh" "$scripts/real/tap.sh" "$scripts/real/mariadb.sh" \
	"$scripts/real/crun.sh" "$stage/tests/"
cp -a "$scripts/real/suites" "$stage/tests/"
# the container: uring-policy alone, the mount points crun needs
root="$stage/tests/bundle/rootfs"
cp "$stage/tests/bin/uring-policy" "$root/bin/"
# the flag path (suites/15-crun-flag.sh): uring-launch, static, loads the
# same Docker profile with SECCOMP_FILTER_FLAG_URING inside the container
"$CC" -std=gnu11 -O2 -Wall -Wextra -Werror -static -I "$REPO_DIR/include" \
	-isystem "$kdir/usr/include" -o "$root/bin/uring-launch" \
	"$REPO_DIR"/scripts/launcher/*.c -lseccomp -ljson-c -lcap
cp "$profile" "$root/docker-default.json"
mkdir -p "$root"/{proc,dev,sys,tmp}
python3 "$scripts/docker-seccomp-to-oci.py" "$profile" \
	--allow io_uring_setup --allow io_uring_enter --allow io_uring_register \
	>"$stage/seccomp.json"
python3 "$scripts/oci-bundle-config.py" "$stage/seccomp.json" \
	URING_SECCOMP_EXPECT=@EXPECT@ -- /bin/uring-policy work socket=38:EPERM socket=40:EPERM \
	>"$stage/tests/bundle/config.json"
python3 "$scripts/oci-bundle-config.py" "$stage/seccomp.json" \
	URING_SECCOMP_EXPECT=@EXPECT@ -- /bin/uring-launch --allow-io-uring \
	--profile /docker-default.json -- /bin/uring-policy work socket=38:EPERM socket=40:EPERM \
	>"$stage/tests/bundle/config-flag.json"
truncate -s 64M "$stage/tests.img"
mkfs.ext4 -q -F -L uring-tests -d "$stage/tests" "$stage/tests.img"

rc=0
GUEST_DISK2="$stage/tests.img" "$scripts/boot-guest.sh" "$kdir" "$image" "$logf" \
	"$timeout_s" "uring_seccomp.expect=$expect" || rc=$?
exit "$rc"
