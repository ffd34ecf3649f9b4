#!/bin/bash
# Usage: scripts/gen-selftest-patch.sh [--check]
# selftests/ is the one source of the series' selftests patches. Each
# series (scripts/lib.sh series_dirs) ends with one, made here: the
# files its selftests-files lists (every selftests/*.c and *.h when it
# has none, as on 6.12) copied to tools/testing/selftests/seccomp/, its
# programs added to the Makefile and .gitignore (the programs that set
# kernel.seccomp.uring_force for good, seccomp_uring_force*, kept last)
# and, by the first series, the tests listed under IO_URING in
# MAINTAINERS; committed after the series' last patch with the message
# in its selftests-commit.txt, signed off by kernel-patches/identity,
# and written with git format-patch as the series' last patch.
#
# The commits of branch "patched" are replayed for that, each series'
# old selftests commit replaced by the new one, so a later series' patch
# sees the earlier series' tests as the series file applies them.
# With --check nothing is written: exits 1 if a selftests patch of the
# series differs from what selftests/ gives (run this script to update).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

check=0
[[ "${1:-}" == --check ]] && check=1
"$REPO_DIR/scripts/kernel-tree.sh"
mapfile -t dirs < <(series_dirs)
series_commits
is_selftests() { [[ "$(basename "$1")" == [0-9][0-9][0-9][0-9]-selftests-seccomp-* ]]; }

# which series dir owns each selftests/ file
declare -A owner=()
for d in "${dirs[@]}"; do
	[[ -f "$d/selftests-commit.txt" ]] || die "${d#"$REPO_DIR"/}/selftests-commit.txt is missing"
	[[ -f "$d/selftests-files" ]] || continue
	while read -r f; do
		[[ -z "$f" || "$f" == \#* ]] && continue
		[[ -f "$REPO_DIR/selftests/$f" ]] || die "${d#"$REPO_DIR"/}/selftests-files names selftests/$f, which does not exist"
		[[ -z "${owner[$f]:-}" ]] || die "selftests/$f is in two series' selftests-files"
		owner[$f]="$d"
	done <"$d/selftests-files"
done
files_of() { # dir: the selftests/ files of that series, one a line
	local f name
	for f in "$REPO_DIR"/selftests/*.[ch]; do
		name="$(basename "$f")"
		if ((${#owner[@]})); then
			[[ -n "${owner[$name]:-}" ]] || die "selftests/$name is in no series' selftests-files"
			[[ "${owner[$name]}" == "$1" ]] || continue
		fi
		echo "$f"
	done
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export GIT_INDEX_FILE="$work/index"
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
dir=tools/testing/selftests/seccomp
add_blob() { # path file
	local blob
	blob="$(tree_git hash-object -w "$2")"
	tree_git update-index --add --cacheinfo 100644 "$blob" "$1"
}

# The selftests commit of series dir $1 on top of commit $2: prints it.
selftests_commit() {
	local d="$1" parent="$2" f name words=() progs=() force=() first=0
	tree_git read-tree "$parent"
	while read -r f; do
		add_blob "$dir/$(basename "$f")" "$f"
		name="$(basename "$f")"
		[[ "$name" == *.c ]] && progs+=("${name%.c}")
	done < <(files_of "$d")
	((${#progs[@]})) || die "${d#"$REPO_DIR"/}: no selftests/*.c program in this series"
	tree_git show "$parent:$dir/Makefile" >"$work/Makefile"
	grep -q '^TEST_GEN_PROGS := seccomp_bpf seccomp_benchmark' "$work/Makefile" ||
		die "$dir/Makefile changed upstream; update this script"
	grep -q seccomp_uring "$work/Makefile" || first=1
	# the programs that set kernel.seccomp.uring_force for good run last
	read -ra words < <(sed -n 's/^TEST_GEN_PROGS := //p' "$work/Makefile")
	for name in "${words[@]}" "${progs[@]}"; do
		[[ "$name" == seccomp_uring_force* ]] && force+=("$name")
	done
	for name in "${progs[@]}"; do
		[[ "$name" == seccomp_uring_force* ]] || words+=("$name")
	done
	mapfile -t words < <(printf '%s\n' "${words[@]}" | grep -v '^seccomp_uring_force')
	sed -i "s/^TEST_GEN_PROGS := .*/TEST_GEN_PROGS := ${words[*]}${force[*]:+ ${force[*]}}/" "$work/Makefile"
	add_blob "$dir/Makefile" "$work/Makefile"
	{ tree_git show "$parent:$dir/.gitignore"; printf '%s\n' "${progs[@]}"; } >"$work/gitignore"
	add_blob "$dir/.gitignore" "$work/gitignore"
	if ((first)); then
		# io_uring's maintainers hear of changes to the io_uring tests
		tree_git show "$parent:MAINTAINERS" |
			sed '/^IO_URING$/,/^$/s|^F:\tio_uring/$|&\nF:\ttools/testing/selftests/seccomp/*uring*|' >"$work/MAINTAINERS"
		grep -q 'selftests/seccomp/\*uring\*' "$work/MAINTAINERS" || die "MAINTAINERS: no IO_URING entry to extend"
		add_blob MAINTAINERS "$work/MAINTAINERS"
	fi
	grep -v '^Signed-off-by:' "$d/selftests-commit.txt" |
		git interpret-trailers --trailer "Signed-off-by: $IDENTITY" >"$work/msg"
	tree_git commit-tree "$(tree_git write-tree)" -p "$parent" -F "$work/msg"
}

# Replays commit $1 onto $2 (which holds other selftests commits than its
# parent did): prints the new commit.
replay() {
	local c="$1" parent="$2"
	if [[ "$(tree_git rev-parse "$c^")" == "$parent" ]]; then
		echo "$c"
		return
	fi
	tree_git read-tree "$parent"
	tree_git diff --binary "$c^" "$c" | tree_git apply --cached ||
		die "$(tree_git log -1 --format=%s "$c") does not apply onto the new selftests"
	tree_git log -1 --format=%B "$c" >"$work/msg"
	GIT_AUTHOR_NAME="$(tree_git log -1 --format=%an "$c")" \
		GIT_AUTHOR_EMAIL="$(tree_git log -1 --format=%ae "$c")" \
		tree_git commit-tree "$(tree_git write-tree)" -p "$parent" -F "$work/msg"
}

parent="$(tree_git rev-parse base)"
stale=0
mkdir -p "$work/out"
for i in "${!entries[@]}"; do
	e="${entries[$i]}"
	is_selftests "$e" && continue
	parent="$(replay "${commits[$i]}" "$parent")"
	d="$(dirname "$e")"
	next="${entries[$((i + 1))]:-}"
	# after the series' last patch but its selftests: that patch
	[[ -n "$next" && "$(dirname "$next")" == "$d" ]] && ! is_selftests "$next" && continue
	parent="$(selftests_commit "$d" "$parent")"
	n=$(find "$d" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' \
		! -name '*-selftests-seccomp-*' | wc -l)
	rm -rf "$work/out"/*
	tree_git format-patch -q --no-signature --zero-commit -N \
		--start-number "$((n + 1))" -o "$work/out" -1 "$parent"
	new="$(ls "$work/out"/*.patch)"
	name="$(basename "$new")"
	if ((check)); then
		if ! cmp -s "$new" "$d/$name"; then
			echo "${d#"$REPO_DIR"/}/$name is not what selftests/ gives; run $0" >&2
			stale=1
		fi
		continue
	fi
	find "$d" -maxdepth 1 -name '*-selftests-seccomp-*.patch' -delete
	cp "$new" "$d/$name"
	log "wrote ${d#"$REPO_DIR"/}/$name"
done
unset GIT_INDEX_FILE
((check)) && exit "$stale"
write_series
