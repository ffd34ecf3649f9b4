#!/bin/bash
# Usage: scripts/export-series.sh [DEV_TREE]
# For developers of the series: regenerates kernel-patches/NNNN-*.patch
# and kernel-patches/series with git format-patch from the branch checked
# out in DEV_TREE (default $CACHE_DIR/dev-$KERNEL, a worktree of the kernel tree
# whose history starts at branch "base"). The cover letter
# (0000-cover-letter.patch) is kept as it is; the selftests patch is
# generated again last (scripts/gen-selftest-patch.sh).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

dev="${1:-$CACHE_DIR/dev-$KERNEL}"
git -C "$dev" rev-parse -q --verify base >/dev/null || die "$dev has no branch base"
[[ -z "$(git -C "$dev" status --porcelain --untracked-files=no)" ]] ||
	die "$dev has uncommitted changes; commit them first"
find "$PATCH_DIR" -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' -delete
git -C "$dev" format-patch -q --no-signature --zero-commit -N -o "$PATCH_DIR" base..HEAD
{
	echo "# uring-seccomp series, applied in this order by scripts/kernel-tree.sh"
	find "$PATCH_DIR" -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' -printf '%f\n' | sort
} >"$PATCH_DIR/series"
log "exported $(git -C "$dev" rev-list --count base..HEAD) patches to $PATCH_DIR"
"$REPO_DIR/scripts/gen-selftest-patch.sh"
