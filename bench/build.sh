#!/bin/bash
# Usage: bench/build.sh KERNEL_DIR OUT_DIR
# Builds the benchmark programs as static binaries into OUT_DIR:
# uring_bench (bench/micro, the microbenchmarks) and filter_exec
# (bench/filters, loads a benchmark filter and execs fio), against
# include/ and the exported UAPI headers of KERNEL_DIR.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/../scripts/lib.sh"

kernel_out_args "$@"

bench="$REPO_DIR/bench"
CC="${CC:-gcc}"
CFLAGS=(-std=gnu11 -O2 -Wall -Wextra -Werror -static
	-I "$REPO_DIR/include" -I "$bench/filters" -idirafter "$kdir/usr/include")
mkdir -p "$out"
"$CC" "${CFLAGS[@]}" -o "$out/uring_bench" "$bench"/micro/*.c \
	"$bench/filters/bench_filter.c" -luring
"$CC" "${CFLAGS[@]}" -o "$out/filter_exec" "$bench/filters/filter_exec.c" \
	"$bench/filters/bench_filter.c"
log "benchmark binaries in $out"
