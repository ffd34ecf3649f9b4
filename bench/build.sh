#!/bin/bash
# Usage: bench/build.sh KERNEL_DIR OUT_DIR
# Builds the benchmark programs as static binaries into OUT_DIR:
# uring_bench (bench/micro, the SQE and syscall loops), nop_cost (the
# guest side of scripts/check-nop-cost.sh), prof_loop (the guest side of
# bench/profile/profile.sh), filter_exec (bench/filters, loads a
# benchmark filter and execs fio) and, for a kernel with io_uring's BPF
# filters (7.0 and later), side_by_side (bench/micro, our opted-in
# seccomp filters beside them), against include/ and the exported UAPI
# headers of KERNEL_DIR.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/../scripts/lib.sh"

kernel_out_args "$@"

bench="$REPO_DIR/bench"
CC="${CC:-gcc}"
CFLAGS=(-std=gnu11 -O2 -Wall -Wextra -Werror -static
	-I "$REPO_DIR/include" -I "$bench/filters" -I "$bench/micro"
	-idirafter "$kdir/usr/include")
# what the loops share: the operations and what they work on, the
# instruction clock, running in a fresh child, the filters
loops=("$bench/micro/bench_ops.c" "$bench/micro/bench_fixtures.c"
	"$bench/micro/bench_icount.c" "$bench/micro/bench_child.c"
	"$bench/filters/bench_filter.c")
mkdir -p "$out"
for prog in micro/uring_bench micro/nop_cost profile/prof_loop; do
	"$CC" "${CFLAGS[@]}" -o "$out/${prog#*/}" "$bench/$prog.c" "${loops[@]}" -luring
done
"$CC" "${CFLAGS[@]}" -o "$out/filter_exec" "$bench/filters/filter_exec.c" \
	"$bench/filters/bench_filter.c"
# side_by_side needs io_uring's BPF filters (Linux 7.0 and later): against
# older headers (the 6.12 backport) it is not built, and not run. Their
# registration needs the kernel's own linux/io_uring.h (liburing 2.3 and
# the distribution's headers predate IORING_REGISTER_BPF_FILTER): that
# file alone is built with the exported headers first.
rm -f "$out/side_by_side"
if [[ -f "$kdir/usr/include/linux/io_uring/bpf_filter.h" ]]; then
	"$CC" "${CFLAGS[@]/-idirafter/-isystem}" -c -o "$out/side_policy_uring.o" \
		"$bench/filters/side_policy_uring.c"
	"$CC" "${CFLAGS[@]}" -o "$out/side_by_side" "$bench/micro/side_by_side.c" \
		"$bench/micro/side_ops.c" "$bench/micro/side_cache.c" \
		"$bench/micro/side_checks.c" "$bench/filters/side_policy_seccomp.c" \
		"$out/side_policy_uring.o" "${loops[@]}" -luring
	rm "$out/side_policy_uring.o"
fi
log "benchmark binaries in $out"
