#!/bin/sh
# Runs inside the benchmark guest (busybox sh), started by the guest init
# as uring_seccomp.run=/tests/run-bench.sh. /tests/bench.conf sets REPS
# and KERNEL (stock or patched). Prints one line a measurement, read by
# bench/report.py:
#   MICRO/GROWTH lines from uring_bench (patched only), and
#   FIO <config> <iodepth> <rep> <iops>
# Repetition 0 is a warm-up (TCG translates code on first use); every
# repetition runs each configuration once, interleaved.
# shellcheck disable=SC1091 # written by bench/run.sh into the initramfs
. /tests/bench.conf
bin=/tests/bin
dev=/dev/nullb0
fastpath=/proc/sys/kernel/seccomp/fastpath
status=0

echo "# bench: kernel $KERNEL $(uname -r), $REPS repetitions"
[ -b "$dev" ] || { echo "# bench: no $dev (CONFIG_BLK_DEV_NULL_BLK)"; exit 1; }

if [ "$KERNEL" = patched ]; then
	[ -w "$fastpath" ] || { echo "# bench: no $fastpath"; exit 1; }
	"$bin/uring_bench" micro "$REPS" || status=1
	"$bin/uring_bench" growth "$REPS" || status=1
	configs="nofilter fastpath bpf nocache"
else
	configs="stock"
fi

# fio_iops CONFIG DEPTH: one fio run, prints its read IOPS
fio_iops() {
	set -- "$1" "$2" fio --output-format=terse --terse-version=3 \
		--section="randread-qd$2" /tests/bench/randread.fio
	cfg=$1 && shift 2
	case $cfg in
	stock | nofilter) out="$("$@")" ;;
	fastpath) out="$("$bin/filter_exec" fastpath -- "$@")" ;;
	bpf) out="$("$bin/filter_exec" bpf -- "$@")" ;;
	nocache)
		echo 0 >"$fastpath"
		out="$("$bin/filter_exec" fastpath -- "$@")"
		echo 1 >"$fastpath"
		;;
	esac
	printf '%s\n' "$out" | cut -d';' -f8 | head -1
}

export FILENAME="$dev"
rep=0
while [ "$rep" -le "$REPS" ]; do
	for depth in 32 1; do
		for cfg in $configs; do
			iops="$(fio_iops "$cfg" "$depth")"
			[ -n "$iops" ] || status=1
			echo "FIO $cfg $depth $rep ${iops:-0}"
		done
	done
	rep=$((rep + 1))
done
echo "# bench-done status=$status"
exit $status
