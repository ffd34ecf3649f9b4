#!/bin/bash
# Usage: scripts/check-series.sh [--checkpatch-only]
# Reviews the series of URING_SECCOMP_KERNEL (kernel-patches/VERSION/) as
# a maintainer would and prints TAP: every patch must pass
# scripts/checkpatch.pl --strict and be written and signed off by
# kernel-patches/identity, and, unless --checkpatch-only,
# each patch must build on its own (bisectable): after each patch but
# the last, every C file the series has changed so far compiles (with
# the headers it includes, CONFIG_WERROR); after the last, the whole
# kernel builds and links (the patched kernel). Compiling only those
# objects keeps a patch that edits a widely included header (seccomp.h
# reaches most of the kernel through ptrace.h) from rebuilding the whole
# tree once per patch. Builds are cached like any other (see
# scripts/build-kernel.sh).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
lock_tree

builds=1
case "${1:-}" in
--checkpatch-only) builds=0 ;;
"") ;;
*) die "usage: $0 [--checkpatch-only]" ;;
esac

"$REPO_DIR/scripts/kernel-tree.sh"
# checkpatch runs scripts/spdxcheck.py, which needs Debian's python3-ply
export PATH="/usr/bin:$PATH"
mapfile -t patches < <(series_patches)
# Whether a maintainer (not only the catch-all list) covers every file
# the patch adds. Each is asked as a patch that adds it, on stdin: -f
# needs the file in the work tree, which holds whatever revision was
# built last.
new_files_maintained() {
	local f who
	while read -r f; do
		who="$(printf 'diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+\n' \
			"$f" "$f" "$f" | (cd "$TREE_DIR" && perl scripts/get_maintainer.pl \
			--no-git --no-git-fallback --no-rolestats 2>/dev/null) |
			grep -v '^linux-kernel@vger.kernel.org$')" || true
		[[ -n "$who" ]] || return 1
	done < <(awk '/^diff --git /{f=substr($4, 3)} /^new file mode/{print f}' "$1")
}
n=${#patches[@]}
echo "TAP version 13"
echo "1..$(((1 + builds) * n))"
i=0
for patch in "${patches[@]}"; do
	i=$((i + 1))
	name="$(basename "$patch")"
	out="$(cd "$TREE_DIR" && perl scripts/checkpatch.pl --strict --quiet \
		--show-types "$patch" 2>&1)" && status=0 || status=$?
	# The findings allowed: ENOSYS, which checkpatch documents as having
	# false positives; seccomp gives it exactly its meaning here, the
	# result of a syscall that was not run (TRAP, TRACE, USER_NOTIF).
	# And FILE_PATH_CHANGES ("does MAINTAINERS need updating?") for a
	# patch whose new files an entry of MAINTAINERS already covers (the
	# selftests of the later series, under SECCOMP and IO_URING).
	allowed='^WARNING:(ENOSYS|FILE_PATH_CHANGES):'
	others="$(grep -E '^(ERROR|WARNING|CHECK):' <<<"$out" | grep -Ev "$allowed" || true)"
	# written and signed off by kernel-patches/identity
	if [[ "$(sed -n '1,/^$/s/^From: //p' "$patch")" != "$IDENTITY" ]] ||
		! grep -qxF "Signed-off-by: $IDENTITY" "$patch"; then
		out+=$'\n'"ERROR:IDENTITY: From: and Signed-off-by: must be kernel-patches/identity ($IDENTITY)"
		others+=" identity"
	fi
	if [[ -z "$others" ]] && grep -q '^WARNING:FILE_PATH_CHANGES:' <<<"$out" &&
		! new_files_maintained "$patch"; then
		others="new files no MAINTAINERS entry covers"
	fi
	# --quiet prints nothing for a clean patch: anything else (a helper
	# such as spdxcheck.py crashing) is a finding, whatever the status
	if ((status == 0)) && [[ -z "$out" ]]; then
		echo "ok $i checkpatch --strict $name"
	elif [[ -z "$others" ]] && grep -Eq "$allowed" <<<"$out"; then
		echo "ok $i checkpatch --strict $name # only $(grep -Eo "$allowed" <<<"$out" |
			sort -u | sed 's/^WARNING://; s/:$//' | paste -sd' ')"
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		echo "not ok $i checkpatch --strict $name"
	fi
done
((builds)) || exit 0
for patch in "${patches[@]}"; do
	i=$((i + 1))
	name="$(basename "$patch")"
	# patch k of the series is commit patched~(n-k)
	rev="patched~$((2 * n - i))"
	if ((i == 2 * n)); then
		what="kernel builds" how="rev:$rev"
	else
		what="changed files compile" how="objects:$rev"
	fi
	if out="$("$REPO_DIR/scripts/build-kernel.sh" "$how" 2>&1 >/dev/null)"; then
		echo "ok $i $what with $name applied"
	else
		printf '%s\n' "$out" | tail -20 | sed 's/^/# /'
		echo "not ok $i $what with $name applied"
	fi
done
