#!/bin/bash
# Usage: scripts/run-tests.sh [--debug]
# The README's test command. On a fresh Debian 12 machine: installs what
# it needs, builds the stock and the patched 6.12 kernel (cached under
# $CACHE_DIR), checks the series (checkpatch --strict, every patch builds
# on its own, the selftests patch matches selftests/, include/ matches the
# patched UAPI), boots both kernels in QEMU with the same test binaries
# and ends with one line "N passed, N failed, N skipped". Exits non-zero
# on any failure, kernel splat, crash or hung guest.
# --debug: the patched kernel is built with kernel-patches/guest-debug.config
# on top (KASAN, lockdep, DEBUG_ATOMIC_SLEEP, kmemleak) and booted with
# more memory and time; everything else is the same.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
scripts="$REPO_DIR/scripts"
start=$SECONDS
debug=0
case "${1:-}" in
--debug) debug=1 ;;
"") ;;
*) die "usage: $0 [--debug]" ;;
esac

# The suites every guest must report (a new suite file is a new one)
suites="$("$scripts/expected-suites.sh")"
# a debug run keeps its own logs: it may run beside a normal one
if ((debug)); then new_run_dir test-run-debug; else new_run_dir test-run; fi

declare -A kernel
"$scripts/setup.sh"
"$scripts/kernel-tree.sh"
kernel[stock]="$("$scripts/build-kernel.sh" stock)"
# The build after each patch goes in series order from the stock kernel's
# objects, so each rebuilds only what its patch changed, and the last one
# is the patched kernel, which is then found in the cache.
log "checking the series"
"$scripts/check-series.sh" >"$run/series.tap"
kernel[patched]="$("$scripts/build-kernel.sh" patched)"
# the instruction-count check compares the kernels as shipped, never the
# debug build
kernel[plain]="${kernel[patched]}"
timeout_s=900
# the per-program timeout of the guest suites (scripts/guest/suites/)
test_timeout=60
if ((debug)); then
	kernel[patched]="$("$scripts/build-kernel.sh" patched "$PATCH_DIR/guest-debug.config")"
	export GUEST_MEM=4096
	timeout_s=3600
	# KASAN under TCG: the fuzzer's 120,000 SQEs take minutes
	test_timeout=900
fi

host="$run/host.tap"
log "building the series in other configurations and for other architectures"
"$scripts/check-builds.sh" >"$run/builds.tap"
{
	echo "TAP version 13"
	echo "1..3"
	if cmp -s "$REPO_DIR/include/linux/seccomp.h" "${kernel[patched]}/usr/include/linux/seccomp.h"; then
		echo "ok 1 include/linux/seccomp.h is the patched kernel's UAPI header"
	else
		diff -u "${kernel[patched]}/usr/include/linux/seccomp.h" "$REPO_DIR/include/linux/seccomp.h" | sed 's/^/# /'
		echo "not ok 1 include/linux/seccomp.h is the patched kernel's UAPI header"
	fi
	if out="$("$scripts/gen-selftest-patch.sh" --check 2>&1)"; then
		echo "ok 2 the series' selftests patch is generated from selftests/"
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		echo "not ok 2 the series' selftests patch is generated from selftests/"
	fi
	# a git child left running by the builds (a detached "gc --auto")
	# would keep the tree lock and stall the next build for minutes
	holders="$(lock_holders git)"
	if [[ -z "$holders" ]]; then
		echo "ok 3 no git process holds the kernel tree lock after the builds"
	else
		printf '# %s\n' "$holders"
		echo "not ok 3 no git process holds the kernel tree lock after the builds"
	fi
} >"$host"
# the opcode table of the series' documentation against the series' source
opcodes="$(mktemp -d)"
tree_git archive patched io_uring include/uapi/linux include/linux/io_uring \
	Documentation/userspace-api/seccomp_filter.rst | tar -x -C "$opcodes"
python3 "$scripts/check-opcode-table.py" \
	"$opcodes/Documentation/userspace-api/seccomp_filter.rst" "$opcodes" \
	>"$run/opcodes.tap" || true
rm -rf "$opcodes"

# the NOP's cost under a filter that did not opt in, in guest instructions
log "measuring the cost of a NOP SQE (QEMU's instruction counter)"
"$scripts/check-nop-cost.sh" "${kernel[stock]}" "${kernel[plain]}" "$run/nop-cost" >"$run/nopcost.tap"

log "building the test programs"
"$scripts/build-tests.sh" "${kernel[patched]}" "$run/tests" >/dev/null
# liburing's own tests, unfiltered, on both kernels
"$scripts/build-liburing-upstream.sh" "$run/liburing-upstream"
# the kernel's own seccomp_bpf, run on both kernels: the regression check
"$scripts/build-seccomp-bpf.sh" "${kernel[patched]}" "$run/regress" 2>/dev/null
"$scripts/make-initramfs.sh" "$run/tests/bin" "$run/tests.cpio.gz" "$run/regress/seccomp_bpf" \
	"$run/tests/launcher" "$run/liburing-upstream"

# uring_seccomp.expect=: each guest knows which kernel it runs (on the
# patched one a filter that cannot opt in fails, never skips)
rc=0
for k in patched stock; do
	kdir="${kernel[$k]}"
	extra=()
	((debug)) && [[ $k == patched ]] && extra=(uring_seccomp.debug=1)
	"$scripts/boot-guest.sh" "$kdir" "$run/tests.cpio.gz" "$run/$k.log" "$timeout_s" \
		"uring_seccomp.timeout=$test_timeout" "uring_seccomp.expect=$k" "${extra[@]}" || rc=$?
	((rc == 124)) && echo "ERROR: the $k guest hung (killed after $timeout_s s)" >&2
	rc=0
done

log "results (logs in $run)"
python3 "$scripts/compare-seccomp-bpf.py" "$run/stock.log" "$run/patched.log" \
	>"$run/regress.tap"
python3 "$scripts/compare-unfiltered.py" "$run/stock.log" "$run/patched.log" \
	>"$run/unfiltered.tap"
# the checks of the checks: the parsers above fail what they must
python3 "$scripts/test-harness.py" >"$run/harness.tap" || true
expect=()
while read -r suite; do
	expect+=(--expect-suite "$suite")
done <<<"$suites"
rc=0
python3 "$scripts/parse-results.py" --allowed-skips "$scripts/allowed-skips.txt" "${expect[@]}" \
	--host "series=$run/series.tap" --host "builds=$run/builds.tap" --host "host=$host" \
	--host "regress=$run/regress.tap" --host "unfiltered=$run/unfiltered.tap" \
	--host "harness=$run/harness.tap" --host "opcodes=$run/opcodes.tap" \
	--host "nopcost=$run/nopcost.tap" \
	--guest "patched=$run/patched.log" --guest "stock=$run/stock.log" || rc=$?
log "took $((SECONDS - start)) s"
exit "$rc"
