#!/bin/bash
# Usage: scripts/check-nop-cost.sh STOCK_KERNEL_DIR PATCHED_KERNEL_DIR OUT_DIR
# Whether the series costs nothing for processes whose filters did not opt
# in: boots each kernel under QEMU's instruction counter (GUEST_ICOUNT=1:
# single-threaded TCG, -icount shift=0,sleep=off, so the guest's clock
# counts guest instructions) with a tiny initramfs running
# bench/micro/nop_cost, which measures guest instructions per
# IORING_OP_NOP (32 per io_uring_enter) under an allow-all filter loaded
# without SECCOMP_FILTER_FLAG_URING, twice. The figure is deterministic,
# so it can be a test: prints TAP (a host part of scripts/run-tests.sh)
# that fails unless each kernel's two passes agree within 1 % and the
# patched kernel's figure is at most stock's + 5, and so is its figure
# with no filter at all (measured once, first); a guest log with a
# kernel splat fails its kernel's test. On the patched kernel alone,
# under an allow-all filter loaded with SECCOMP_FILTER_FLAG_URING, a
# 4 KiB IORING_OP_READ (whose twin prep chooses) must add at most
# $read_slack instructions more than a NOP adds over no filter: both are
# answered by the allow bitmap before prep. Exits 0 once the TAP is
# printed (the results are in it). Logs in OUT_DIR.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

declare -A kdir=([stock]="${1:-}" [patched]="${2:-}")
out="${3:-}"
[[ -f "${kdir[stock]}/bzImage" && -f "${kdir[patched]}/bzImage" && -n "$out" ]] ||
	die "usage: $0 STOCK_KERNEL_DIR PATCHED_KERNEL_DIR OUT_DIR"
# the allowed differences, in instructions per SQE
slack=5
read_slack=10

mkdir -p "$out/bin" "$out/guest"
"$REPO_DIR/bench/build.sh" "${kdir[patched]}" "$out/bin" 2>/dev/null
cp "$out/bin/nop_cost" "$out/guest/"
"$REPO_DIR/scripts/make-initramfs.sh" "$out/guest" "$out/nop-cost.cpio.gz"

echo "TAP version 13"
echo "1..5"
declare -A cost=() plain=() read_none=() uring=()
n=0
for k in stock patched; do
	n=$((n + 1))
	logf="$out/$k.log"
	GUEST_ICOUNT=1 "$REPO_DIR/scripts/boot-guest.sh" "${kdir[$k]}" "$out/nop-cost.cpio.gz" \
		"$logf" 300 uring_seccomp.run=/tests/bin/nop_cost 2>/dev/null || true
	p1='' p2=''
	read -r _ _ p1 p2 < <(grep -a '^NOP-COST plain_allow ' "$logf" || true) || true
	none="$(grep -a '^NOP-COST nofilter ' "$logf" | cut -d' ' -f3 || true)"
	read_none[$k]="$(grep -a '^NOP-COST read_nofilter ' "$logf" | cut -d' ' -f3 || true)"
	uring[$k]="$(grep -a '^NOP-COST uring_allow ' "$logf" | cut -d' ' -f3- || true)"
	name="$k: guest instructions per NOP SQE under a filter that did not opt in"
	if grep -a -q -E 'BUG: |WARNING: |Oops|Kernel panic|Call Trace:' "$logf"; then
		grep -a -E 'BUG: |WARNING: |Oops|Kernel panic' "$logf" | head -5 | sed 's/^/# /'
		echo "not ok $n $name: kernel splat (log: $logf)"
		continue
	fi
	if [[ -z "$p1" || -z "$p2" ]]; then
		grep -a -E '^# nop_cost|^# guest|Kernel panic|BUG' "$logf" | sed 's/^/# /' || true
		echo "not ok $n $name: not measured (log: $logf)"
		continue
	fi
	if ! python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(abs(a - b) > 0.01 * min(a, b))' \
		"$p1" "$p2"; then
		echo "not ok $n $name: the two passes differ by more than 1 % ($p1, $p2)"
		continue
	fi
	cost[$k]="$p1"
	plain[$k]="$none"
	echo "ok $n $name: $p1 (passes $p1, $p2; no filter: $none)"
done
# at_most N WHAT STOCK PATCHED: the TAP line of "PATCHED <= STOCK + slack"
at_most() {
	local name="patched NOP per SQE $2 is at most stock's + $slack"
	if [[ -z "$3" || -z "$4" ]]; then
		echo "not ok $1 $name: not measured on both kernels"
	elif python3 -c 'import sys; s, p, d = map(float, sys.argv[1:]); sys.exit(p > s + d)' \
		"$3" "$4" "$slack"; then
		echo "ok $1 $name ($4 <= $3 + $slack)"
	else
		echo "not ok $1 $name ($4 > $3 + $slack)"
	fi
}
at_most 3 "under a filter that did not opt in" "${cost[stock]:-}" "${cost[patched]:-}"
at_most 4 "with no filter" "${plain[stock]:-}" "${plain[patched]:-}"
# The READ on the patched kernel: added cost over no filter, against NOP's
name="patched READ under an opted-in allow-all filter adds at most NOP's addition + $read_slack"
u_nop='' u_read=''
read -r u_nop u_read <<<"${uring[patched]:-}" || true
if [[ -z "${cost[patched]:-}" || -z "${plain[patched]:-}" || -z "${read_none[patched]:-}" ||
	-z "$u_nop" || -z "$u_read" || "$u_nop" == unsupported ]]; then
	echo "not ok 5 $name: not measured (log: $out/patched.log)"
elif python3 -c 'import sys; n0, n1, r0, r1, d = map(float, sys.argv[1:]); sys.exit(r1 - r0 > n1 - n0 + d)' \
	"${plain[patched]}" "$u_nop" "${read_none[patched]}" "$u_read" "$read_slack"; then
	echo "ok 5 $name (READ $u_read - ${read_none[patched]}, NOP $u_nop - ${plain[patched]})"
else
	echo "not ok 5 $name (READ $u_read - ${read_none[patched]}, NOP $u_nop - ${plain[patched]})"
fi
