#!/bin/bash
# Usage: scripts/export-series.sh [DEV_TREE]
# For developers of the series: regenerates the NNNN-*.patch files of
# kernel-patches/VERSION/ and its series file with git format-patch from
# the branch checked out in DEV_TREE (default $CACHE_DIR/dev-$KERNEL, a
# worktree of the kernel tree whose history starts at branch "base").
#
# Each series ends with its Documentation patch: the commits of
# base..HEAD are cut after each commit whose subject starts with
# "Documentation:", and the pieces go, in order, to the series
# directories (scripts/lib.sh series_dirs: 1-uring/, 2-cache/, 3-ext/
# on 7.3, the one series of 6.12), each numbered from 0001. Every patch
# is written and signed off by kernel-patches/identity. Then the
# selftests patch that closes each series is generated again
# (scripts/gen-selftest-patch.sh), and each cover letter from its
# cover-letter.txt (scripts/gen-cover-letters.sh).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

dev="${1:-$CACHE_DIR/dev-$KERNEL}"
git -C "$dev" rev-parse -q --verify base >/dev/null || die "$dev has no branch base"
[[ -z "$(git -C "$dev" status --porcelain --untracked-files=no)" ]] ||
	die "$dev has uncommitted changes; commit them first"
mapfile -t dirs < <(series_dirs)
mapfile -t commits < <(git -C "$dev" rev-list --reverse base..HEAD)
((${#commits[@]})) || die "$dev has no commits on top of base"

# the last commit of each series: its Documentation patch
ends=()
for c in "${commits[@]}"; do
	[[ "$(git -C "$dev" log -1 --format=%s "$c")" == Documentation:* ]] && ends+=("$c")
done
[[ "${ends[-1]:-}" == "${commits[-1]}" ]] ||
	die "the last commit of $dev is not a Documentation patch: every series ends with one"
((${#ends[@]} == ${#dirs[@]})) ||
	die "$dev has ${#ends[@]} series (one a Documentation patch), ${PATCH_DIR#"$REPO_DIR"/}/ has ${#dirs[@]}"

from=base
for i in "${!dirs[@]}"; do
	d="${dirs[$i]}"
	find "$d" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' -delete
	git -C "$dev" format-patch -q --no-signature --zero-commit -N -o "$d" "$from..${ends[$i]}"
	# written and signed off by kernel-patches/identity, whoever committed
	for p in "$d"/[0-9][0-9][0-9][0-9]-*.patch; do
		[[ "$p" == */0000-* ]] && continue
		IDENTITY="$IDENTITY" perl -0pi -e \
			's/^From: .*$/From: $ENV{IDENTITY}/m; s/^Signed-off-by: .*$/Signed-off-by: $ENV{IDENTITY}/mg' "$p"
	done
	log "exported $(git -C "$dev" rev-list --count "$from..${ends[$i]}") patches to ${d#"$REPO_DIR"/}/"
	from="${ends[$i]}"
done
write_series
"$REPO_DIR/scripts/gen-selftest-patch.sh"
"$REPO_DIR/scripts/gen-cover-letters.sh"
