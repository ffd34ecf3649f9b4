#!/bin/bash
# Usage: bench/stage-fio.sh ROOT_DIR
# Copies Debian's fio and every shared library it loads (as ldd lists
# them, with the dynamic loader) into ROOT_DIR at their own paths, for
# scripts/make-initramfs.sh's ROOT_OVERLAY.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/../scripts/lib.sh"

root="${1:-}"
[[ -n "$root" ]] || die "usage: $0 ROOT_DIR"
fio="$(command -v fio)" || die "fio is not installed; run scripts/setup.sh"
mkdir -p "$root"
copy() {
	mkdir -p "$root/$(dirname "$1")"
	cp -L "$1" "$root/$1"
}
copy "$fio"
# ldd prints "name => /path (addr)" and "/path/ld-linux... (addr)"
while read -r lib; do
	copy "$lib"
done < <(ldd "$fio" | grep -o '/[^ ]*' | sort -u)
log "staged $fio and $(find "$root" -type f | wc -l) files in $root"
