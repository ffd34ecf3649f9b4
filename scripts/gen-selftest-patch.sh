#!/bin/bash
# Usage: scripts/gen-selftest-patch.sh [--check]
# selftests/ is the one source of the series' selftests patch. This
# script makes that patch: selftests/*.c and *.h copied to
# tools/testing/selftests/seccomp/, each selftests/*.c program added to
# its Makefile and .gitignore and the tests listed under IO_URING in
# MAINTAINERS, committed on top of the rest of the series with the
# message in kernel-patches/selftests-commit.txt, and written with git
# format-patch as the last patch of kernel-patches/series.
# With --check nothing is written: exits 1 if the patch in the series
# differs from what selftests/ gives (run this script to update it).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

check=0
[[ "${1:-}" == --check ]] && check=1
msg="$PATCH_DIR/selftests-commit.txt"
subject="$(head -1 "$msg")"
"$REPO_DIR/scripts/kernel-tree.sh"
parent=patched
[[ "$(tree_git log -1 --format=%s patched)" == "$subject" ]] && parent=patched~1
number=$(($(tree_git rev-list --count "base..$parent") + 1))

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export GIT_INDEX_FILE="$work/index"
tree_git read-tree "$parent"
dir=tools/testing/selftests/seccomp
add_blob() { # path file
	local blob
	blob="$(tree_git hash-object -w "$2")"
	tree_git update-index --add --cacheinfo 100644 "$blob" "$1"
}
for f in "$REPO_DIR"/selftests/*.[ch]; do
	add_blob "$dir/$(basename "$f")" "$f"
done
progs=()
for f in "$REPO_DIR"/selftests/*.c; do
	[[ "$f" == */seccomp_uring_force.c ]] && continue
	progs+=("$(basename "$f" .c)")
done
# it sets kernel.seccomp.uring_force for good: run_tests runs it last
progs+=(seccomp_uring_force)
tree_git show "$parent:$dir/Makefile" |
	sed "s/^TEST_GEN_PROGS := seccomp_bpf seccomp_benchmark\$/& ${progs[*]}/" >"$work/Makefile"
grep -q 'seccomp_uring' "$work/Makefile" || die "$dir/Makefile changed upstream; update this script"
add_blob "$dir/Makefile" "$work/Makefile"
{ tree_git show "$parent:$dir/.gitignore"; printf '%s\n' "${progs[@]}"; } >"$work/gitignore"
add_blob "$dir/.gitignore" "$work/gitignore"
# io_uring's maintainers hear of changes to the io_uring tests
tree_git show "$parent:MAINTAINERS" |
	sed '/^IO_URING$/,/^$/s|^F:\tio_uring/$|&\nF:\ttools/testing/selftests/seccomp/*uring*|' >"$work/MAINTAINERS"
grep -q 'selftests/seccomp/\*uring\*' "$work/MAINTAINERS" || die "MAINTAINERS: no IO_URING entry to extend"
add_blob MAINTAINERS "$work/MAINTAINERS"
tree="$(tree_git write-tree)"
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
commit="$(tree_git commit-tree "$tree" -p "$parent" -F "$msg")"
unset GIT_INDEX_FILE
tree_git format-patch -q --no-signature --zero-commit \
	--start-number "$number" -o "$work/out" -1 "$commit"
new="$(ls "$work/out"/*.patch)"
name="$(basename "$new")"

if ((check)); then
	if ! grep -qx "$name" "$PATCH_DIR/series" || ! cmp -s "$new" "$PATCH_DIR/$name"; then
		echo "${PATCH_DIR#"$REPO_DIR"/}/$name is not what selftests/ gives; run $0" >&2
		exit 1
	fi
	exit 0
fi
find "$PATCH_DIR" -name '*-selftests-seccomp-*.patch' -delete
cp "$new" "$PATCH_DIR/$name"
grep -qx "$name" "$PATCH_DIR/series" || echo "$name" >>"$PATCH_DIR/series"
log "wrote ${PATCH_DIR#"$REPO_DIR"/}/$name"
