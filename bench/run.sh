#!/bin/bash
# Usage: bench/run.sh
# The benchmark command. Installs what it needs, builds the stock and the
# patched kernel (cached, shared with scripts/run-tests.sh), builds the
# benchmark programs and boots each kernel twice with fio and null_blk in
# the initramfs:
#   icount  single-threaded TCG with -icount shift=0,sleep=off (guest
#           time = guest instructions): uring_bench's SQE and syscall
#           loops, the growth curve (patched) and fio, each configuration
#           twice in the same boot (the two must agree within 1 %)
#   wall    an ordinary TCG guest: fio once per configuration, the noisy
#           wall-clock sanity column
# then writes bench/results/: micro.csv, growth.csv, fio.csv, report.md
# (every target with its measured value), fio.png, growth.png (gnuplot),
# and, on a kernel with io_uring's own BPF filters (7.0 and later),
# side-by-side.md, side-by-side.csv (bench/side_by_side.py: the same
# policies as opted-in seccomp filters and as those filters, targets T1
# and T2, the capabilities table). Fails if a measurement failed or two
# passes disagree.
# For development: BENCH_STOCK_KERNEL and BENCH_PATCHED_KERNEL (both)
# name kernel directories (bzImage, usr/include, commit) to use instead
# of building; BENCH_WALL=0 skips the wall-clock boots.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/../scripts/lib.sh"
scripts="$REPO_DIR/scripts"
bench="$REPO_DIR/bench"
start=$SECONDS

declare -A kernel
if [[ -n "${BENCH_STOCK_KERNEL:-}${BENCH_PATCHED_KERNEL:-}" ]]; then
	kernel[stock]="${BENCH_STOCK_KERNEL:-}"
	kernel[patched]="${BENCH_PATCHED_KERNEL:-}"
	for k in stock patched; do
		[[ -f "${kernel[$k]}/bzImage" && -d "${kernel[$k]}/usr/include" ]] ||
			die "BENCH_STOCK_KERNEL and BENCH_PATCHED_KERNEL must both name built kernels ($k: '${kernel[$k]}')"
	done
else
	prepare_kernels
fi
modes=(icount wall)
[[ "${BENCH_WALL:-1}" == 0 ]] && modes=(icount)

# (before runs had directories of their own, out/bench was one)
[[ -d "$OUT_DIR/bench" && ! -L "$OUT_DIR/bench" ]] && rm -rf "${OUT_DIR:?}/bench"
new_run_dir bench
# shellcheck disable=SC2154 # "run" is set by new_run_dir
mkdir -p "$run/root/tests/bench"
"$bench/build.sh" "${kernel[patched]}" "$run/bin"
"$bench/stage-fio.sh" "$run/root"
cp "$bench/fio/randread.fio" "$run/root/tests/bench/"
cp "$bench/guest/run-bench.sh" "$run/root/tests/"
ROOT_OVERLAY="$run/root" "$scripts/make-initramfs.sh" "$run/bin" "$run/bench.cpio.gz"
took=(--took "build (kernels from the cache) and initramfs=$((SECONDS - start))")
log "built in $((SECONDS - start)) s"

# null_blk: no memory backing, completions in submission context
nullb=(null_blk.nr_devices=1 null_blk.irqmode=0 null_blk.memory_backed=0)
for k in patched stock; do
	for mode in "${modes[@]}"; do
		t=$SECONDS
		logf="$run/$k-$mode.log"
		icount=0
		[[ $mode == icount ]] && icount=1
		rc=0
		GUEST_ICOUNT=$icount "$scripts/boot-guest.sh" "${kernel[$k]}" "$run/bench.cpio.gz" \
			"$logf" 1800 uring_seccomp.run=/tests/run-bench.sh \
			"uring_seccomp.expect=$k" "uring_seccomp.bench=$mode" "${nullb[@]}" || rc=$?
		((rc == 124)) && die "the $k $mode benchmark guest hung (log: $logf)"
		grep -q '^# bench-done status=0' "$logf" ||
			die "the $k $mode benchmark guest failed (log: $logf)"
		took+=(--took "$k $mode=$((SECONDS - t))")
		log "$k $mode guest: $((SECONDS - t)) s"
	done
done

mkdir -p "$bench/results"
wall=()
for k in patched stock; do
	[[ -f "$run/$k-wall.log" ]] && wall+=(--"$k"-wall "$run/$k-wall.log")
done
took+=(--took "total=$((SECONDS - start))")
rc=0
python3 "$bench/report.py" --patched "$run/patched-icount.log" --stock "$run/stock-icount.log" \
	"${wall[@]}" "${took[@]}" --commit "$(cat "${kernel[patched]}/commit")" \
	--out "$bench/results" || rc=$?
(cd "$bench/results" && gnuplot "$bench/plot.gp")
# (side_by_side runs only where io_uring has its BPF filters, 7.0+)
side=0 side_rc=0
[[ -f "${kernel[patched]}/usr/include/linux/io_uring/bpf_filter.h" ]] && side=1
if ((side)); then
	python3 "$bench/side_by_side.py" --patched "$run/patched-icount.log" \
		--stock "$run/stock-icount.log" --commit "$(cat "${kernel[patched]}/commit")" \
		--out "$bench/results" || side_rc=$?
fi
log "results in $bench/results (logs in $run; took $((SECONDS - start)) s)"
cat "$bench/results/report.md"
((side)) && sed -n '/^## Targets/,/^## Policy A/p' "$bench/results/side-by-side.md"
((rc == 0)) || die "a measurement failed its self-check (see report.md)"
((side_rc == 0)) || die "a side-by-side figure or check failed its self-check (see side-by-side.md)"
