#!/bin/bash
# Usage: bench/build.sh KERNEL_DIR OUT_DIR
# Builds the benchmark programs as static binaries into OUT_DIR:
# uring_bench (bench/micro, the SQE and syscall loops), nop_cost (the
# guest side of scripts/check-nop-cost.sh), prof_loop (the guest side of
# bench/profile/profile.sh) and filter_exec (bench/filters, loads a
# benchmark filter and execs fio), against include/ and the exported
# UAPI headers of KERNEL_DIR.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/../scripts/lib.sh"

kernel_out_args "$@"

bench="$REPO_DIR/bench"
CC="${CC:-gcc}"
CFLAGS=(-std=gnu11 -O2 -Wall -Wextra -Werror -static
	-I "$REPO_DIR/include" -I "$bench/filters" -I "$bench/micro"
	-idirafter "$kdir/usr/include")
# what the loops share: the operations, the instruction clock, the filters
loops=("$bench/micro/bench_ops.c" "$bench/micro/bench_icount.c" "$bench/filters/bench_filter.c")
mkdir -p "$out"
for prog in micro/uring_bench micro/nop_cost profile/prof_loop; do
	"$CC" "${CFLAGS[@]}" -o "$out/${prog#*/}" "$bench/$prog.c" "${loops[@]}" -luring
done
"$CC" "${CFLAGS[@]}" -o "$out/filter_exec" "$bench/filters/filter_exec.c" \
	"$bench/filters/bench_filter.c"
log "benchmark binaries in $out"
