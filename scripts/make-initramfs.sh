#!/bin/bash
# Usage: scripts/make-initramfs.sh BIN_DIR OUT.cpio.gz [FILE...]
# Packs busybox-static, the guest init (scripts/guest/init), the guest
# test runner and every program in BIN_DIR (as /tests/bin/) into a gzip
# initramfs. Extra FILEs (or DIRs) land in /tests/ under their own name.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

bin_dir="${1:-}"
out="${2:-}"
[[ -d "$bin_dir" && -n "$out" ]] || die "usage: $0 BIN_DIR OUT.cpio.gz [FILE...]"
shift 2
busybox=/bin/busybox
[[ -x "$busybox" && "$(file -L "$busybox")" == *"statically linked"* ]] ||
	die "$busybox is missing or not static; run scripts/setup.sh (busybox-static)"

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,etc,tests/bin,tests/suites}
cp "$busybox" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"
cp "$REPO_DIR/scripts/guest/init" "$stage/init"
cp "$REPO_DIR/scripts/guest/run-guest.sh" "$stage/tests/"
cp -a "$REPO_DIR/scripts/guest/suites/." "$stage/tests/suites/"
cp -a "$bin_dir"/. "$stage/tests/bin/"
for f in "$@"; do
	cp -a "$f" "$stage/tests/"
done
# ROOT_OVERLAY: a directory tree copied over the root (e.g. fio and the
# shared libraries it needs, at their own paths)
if [[ -n "${ROOT_OVERLAY:-}" ]]; then
	cp -a "$ROOT_OVERLAY"/. "$stage/"
fi
echo "root:x:0:0:root:/:/bin/sh" >"$stage/etc/passwd"
mknod -m 600 "$stage/dev/console" c 5 1
mknod -m 666 "$stage/dev/null" c 1 3
(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet) | gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
