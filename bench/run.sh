#!/bin/bash
# Usage: bench/run.sh
# The benchmark command. Installs what it needs, builds the stock and the
# patched kernel (cached, shared with scripts/run-tests.sh), builds the
# benchmark programs, boots each kernel once with fio and null_blk in the
# initramfs and runs every configuration interleaved, BENCH_REPS times
# (default 5) after a warm-up, then writes bench/results/: fio.csv,
# micro.csv, growth.csv, report.md (ratios against the targets) and
# fio.png, growth.png (gnuplot).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/../scripts/lib.sh"
scripts="$REPO_DIR/scripts"
bench="$REPO_DIR/bench"
reps="${BENCH_REPS:-5}"
start=$SECONDS

declare -A kernel
prepare_kernels

work="$OUT_DIR/bench"
rm -rf "$work"
mkdir -p "$work/root/tests/bench"
"$bench/build.sh" "${kernel[patched]}" "$work/bin"
"$bench/stage-fio.sh" "$work/root"
cp "$bench/fio/randread.fio" "$work/root/tests/bench/"
cp "$bench/guest/run-bench.sh" "$work/root/tests/"

# null_blk: no memory backing, completions in submission context
nullb=(null_blk.nr_devices=1 null_blk.irqmode=0 null_blk.memory_backed=0)
for k in patched stock; do
	printf 'REPS=%s\nKERNEL=%s\n' "$reps" "$k" >"$work/root/tests/bench.conf"
	ROOT_OVERLAY="$work/root" "$scripts/make-initramfs.sh" "$work/bin" "$work/$k.cpio.gz"
	rc=0
	"$scripts/boot-guest.sh" "${kernel[$k]}" "$work/$k.cpio.gz" "$work/$k.log" 2400 \
		uring_seccomp.run=/tests/run-bench.sh "${nullb[@]}" || rc=$?
	((rc == 124)) && die "the $k benchmark guest hung (log: $work/$k.log)"
	grep -q '^# bench-done status=0' "$work/$k.log" ||
		die "the $k benchmark guest failed (log: $work/$k.log)"
done

mkdir -p "$bench/results"
python3 "$bench/report.py" --patched "$work/patched.log" --stock "$work/stock.log" \
	--commit "$(cat "${kernel[patched]}/commit")" --out "$bench/results"
(cd "$bench/results" && gnuplot "$bench/plot.gp")
log "results in $bench/results (took $((SECONDS - start)) s)"
cat "$bench/results/report.md"
