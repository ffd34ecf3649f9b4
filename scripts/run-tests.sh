#!/bin/bash
# Usage: scripts/run-tests.sh [--debug] [--real]
# The README's test command. On a fresh Debian 12 machine: installs what
# it needs, then for each kernel, 7.3 (the primary series) first and 6.12
# (the LTS backport) second, builds the stock and the patched kernel
# (cached under $CACHE_DIR), checks the series, boots both kernels in
# QEMU with the same test binaries (scripts/test-kernel.sh); every-patch,
# configuration and cross builds run for the primary series only. Ends
# with one line "N passed, N failed, N skipped" over both kernels. Exits
# non-zero on any failure, kernel splat, crash or hung guest.
# --debug: each patched kernel is built with kernel-patches/guest-debug.config
# on top (KASAN, lockdep, DEBUG_ATOMIC_SLEEP, kmemleak) and booted with
# more memory and time; everything else is the same.
# The real-software guest of issue 16 (scripts/test-real.sh: Debian 12's
# systemd, crun and MariaDB on a root disk) runs on both kernels of the
# primary series; --real runs it on the backport's too.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
scripts="$REPO_DIR/scripts"
start=$SECONDS
flags=()
for arg in "$@"; do
	case "$arg" in
	--debug | --real) flags+=("$arg") ;;
	*) die "usage: $0 [--debug] [--real]" ;;
	esac
done

# The suites every guest must report (a new suite file is a new one)
suites="$("$scripts/expected-suites.sh")"
# and the real-software guest's (scripts/real/suites/)
real_suites="$("$scripts/expected-suites.sh" "$scripts/real/suites")"
# a debug run keeps its own logs: it may run beside a normal one
if [[ " ${flags[*]} " == *" --debug "* ]]; then new_run_dir test-run-debug; else new_run_dir test-run; fi

"$scripts/setup.sh"
# The real-software guest's root image (a download and dpkg, mostly one
# core and the network) is built beside the first kernel build; its
# first user (scripts/test-real.sh) waits for it on the image's lock, and
# builds it itself if this failed.
"$scripts/build-rootfs.sh" >/dev/null 2>"$run/rootfs.log" &
rootfs_pid=$!
args=()
for v in "${KERNEL_VERSIONS[@]}"; do
	primary=()
	[[ "$v" == "${KERNEL_VERSIONS[0]}" ]] && primary=(--primary)
	t=$SECONDS
	URING_SECCOMP_KERNEL="$v" "$scripts/test-kernel.sh" "$run/$v" "${primary[@]}" "${flags[@]}"
	log "$v: $((SECONDS - t)) s"
	mapfile -t -O "${#args[@]}" args <"$run/$v/parse-args"
done

wait "$rootfs_pid" || log "the root image build beside the kernels failed (see $run/rootfs.log)"
log "results (logs in $run)"
# the checks of the checks: the parsers fail what they must
python3 "$scripts/test-harness.py" >"$run/harness.tap" || true
expect=()
while read -r suite; do
	expect+=(--expect-suite "$suite")
done <<<"$suites"
while read -r suite; do
	expect+=(--expect-real-suite "$suite")
done <<<"$real_suites"
rc=0
python3 "$scripts/parse-results.py" --allowed-skips "$scripts/allowed-skips.txt" "${expect[@]}" \
	--host "harness=$run/harness.tap" "${args[@]}" || rc=$?
log "took $((SECONDS - start)) s"
exit "$rc"
