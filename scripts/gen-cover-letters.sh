#!/bin/bash
# Usage: scripts/gen-cover-letters.sh [--check]
# Writes each series' cover letter, 0000-cover-letter.patch, from its
# cover-letter.txt (the subject on the first line, a blank line, the
# body) as git format-patch --cover-letter would: From: the identity of
# kernel-patches/identity, "[PATCH 0/N]" with N the series' patches, the
# body, then the shortlog of the patches and the diffstat of the whole
# series (branch "patched" of the kernel tree, from the commit before the
# series' first patch to its last). So the list of patches a reader sees
# in the cover letter is always the series'.
# With --check nothing is written: exits 1 if a cover letter differs
# from what its cover-letter.txt and the series give.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

check=0
[[ "${1:-}" == --check ]] && check=1
"$REPO_DIR/scripts/kernel-tree.sh"
series_commits

# the subject of a patch file, its folded header lines joined, without "[PATCH ...]"
subject_of() {
	awk '/^Subject: /{s=substr($0, 10); on=1; next} on && /^ /{s=s $0; next} {on=0}
		END{sub(/^\[PATCH[^]]*\] /, "", s); print s}' "$1"
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
stale=0
while read -r d; do
	txt="$d/cover-letter.txt"
	[[ -f "$txt" ]] || die "${txt#"$REPO_DIR"/} is missing"
	[[ -z "$(sed -n 2p "$txt")" ]] || die "${txt#"$REPO_DIR"/}: the subject, a blank line, then the body"
	first="" last=""
	subjects=()
	for i in "${!entries[@]}"; do
		[[ "$(dirname "${entries[$i]}")" == "$d" ]] || continue
		[[ -n "$first" ]] || first="${commits[$i]}^"
		last="${commits[$i]}"
		subjects+=("$(subject_of "${entries[$i]}")")
	done
	[[ -n "$last" ]] || die "${d#"$REPO_DIR"/} has no patch in the series file"
	{
		echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
		echo "From: $IDENTITY"
		echo "Date: Thu, 1 Jan 2026 00:00:00 +0000"
		echo "Subject: [PATCH 0/${#subjects[@]}] $(head -1 "$txt")"
		echo
		tail -n +3 "$txt"
		echo
		echo "${IDENTITY% <*} (${#subjects[@]}):"
		printf '  %s\n' "${subjects[@]}"
		echo
		tree_git diff --stat=72 "$first" "$last" | sed 's/^ */ /'
	} >"$work/cover"
	if ((check)); then
		if ! cmp -s "$work/cover" "$d/0000-cover-letter.patch"; then
			echo "${d#"$REPO_DIR"/}/0000-cover-letter.patch is not what cover-letter.txt and the series give; run $0" >&2
			stale=1
		fi
		continue
	fi
	cp "$work/cover" "$d/0000-cover-letter.patch"
	log "wrote ${d#"$REPO_DIR"/}/0000-cover-letter.patch"
done < <(series_dirs)
exit "$stale"
