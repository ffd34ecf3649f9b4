#!/bin/bash
# Usage: scripts/expected-suites.sh [SUITES_DIR [SELFTESTS_DIR]]
# Prints, one a line, the suites every test guest must report: each
# "# suite: NAME" that a file of SUITES_DIR (default scripts/guest/suites)
# echoes, so a new suite file is a new expectation. The kselftest suite
# (echo "# suite: selftests/${t##*/}") prints one per program of
# SELFTESTS_DIR (default selftests/). Fails on a suite file that echoes no
# "# suite:" line, or one whose name it cannot work out.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

suites_dir="${1:-$REPO_DIR/scripts/guest/suites}"
selftests_dir="${2:-$REPO_DIR/selftests}"
[[ -d "$suites_dir" && -d "$selftests_dir" ]] ||
	die "usage: $0 [SUITES_DIR [SELFTESTS_DIR]]"
for f in "$suites_dir"/*.sh; do
	[[ -f "$f" ]] || die "no suite files in $suites_dir"
	n=0
	while IFS= read -r line; do
		name="${line#*# suite: }" name="${name%\"}"
		n=$((n + 1))
		# shellcheck disable=SC2016 # the suite's own text, not expanded
		case "$name" in
		'selftests/${t##*/}')
			for src in "$selftests_dir"/*.c; do
				[[ -f "$src" ]] || die "no selftests in $selftests_dir"
				src="${src##*/}"
				# suites of their own, run last (85-uring-force.sh)
				[[ "$src" == seccomp_uring_force*.c ]] && continue
				echo "selftests/${src%.c}"
			done
			;;
		*'$'* | *'`'*) die "$f: cannot tell which suite \"$name\" names; teach $0" ;;
		*) echo "$name" ;;
		esac
	done < <(grep -E '^[[:space:]]*echo "# suite: [^"]+"$' "$f" || true)
	((n > 0)) || die "$f echoes no \"# suite: NAME\" line"
done
