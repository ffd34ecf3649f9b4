#!/bin/bash
# Usage: scripts/build-liburing-upstream.sh OUT_DIR
# liburing's own regression tests, for the unfiltered comparison of stock
# and patched: fetches the Debian source of the installed liburing-dev
# (apt-get source, from a deb-src list of our own: the system's apt
# sources are left alone), builds its test/ programs statically (cached
# under $CACHE_DIR/liburing-upstream/VERSION) and copies them into
# OUT_DIR, leaving out those liburing-tests/upstream-excluded.txt names,
# and those of upstream-excluded-VERSION.txt for the kernel it is for.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

out="${1:-}"
[[ -n "$out" ]] || die "usage: $0 OUT_DIR"
version="$(dpkg-query -W -f='${source:Version}' liburing-dev)" ||
	die "liburing-dev is not installed; run scripts/setup.sh"
cache="$CACHE_DIR/liburing-upstream/$version"
# one build of the cache at a time; a second run waits and reuses it
mkdir -p "$CACHE_DIR/liburing-upstream"
exec 7>"$CACHE_DIR/liburing-upstream/lock"
flock 7

if [[ ! -f "$cache/built" ]]; then
	log "fetching and building liburing $version's tests"
	rm -rf "$cache"
	apt_source_download "liburing=$version" "$cache/dl"
	tar -xzf "$cache"/dl/liburing_*.orig.tar.gz -C "$cache"
	src="$(find "$cache" -mindepth 1 -maxdepth 1 -type d -name 'liburing-*')"
	(cd "$src" && ./configure >/dev/null && make -s -j"$JOBS" -C src >/dev/null 2>&1 &&
		make -s -j"$JOBS" -C test LDFLAGS=-static >/dev/null 2>&1)
	touch "$cache/built"
fi
src="$(find "$cache" -mindepth 1 -maxdepth 1 -type d -name 'liburing-*')"
rm -rf "$out"
mkdir -p "$out"
cp "$src"/test/*.t "$out/"
strip "$out"/*.t
# the list for every kernel, and the one for URING_SECCOMP_KERNEL's
excluded=("$REPO_DIR/liburing-tests/upstream-excluded.txt")
[[ -f "$REPO_DIR/liburing-tests/upstream-excluded-$KERNEL.txt" ]] &&
	excluded+=("$REPO_DIR/liburing-tests/upstream-excluded-$KERNEL.txt")
while read -r name _; do
	[[ -z "$name" || "$name" == \#* ]] && continue
	rm -f "$out/$name.t"
done < <(cat "${excluded[@]}")
log "$(find "$out" -name '*.t' | wc -l) liburing $version tests in $out"
