#!/bin/sh
# Runs inside the benchmark guest (busybox sh), started by the guest init
# as uring_seccomp.run=/tests/run-bench.sh. The kernel command line
# names the kernel (uring_seccomp.expect=stock|patched) and the mode
# (uring_seccomp.bench=icount|wall):
#   icount  the guest runs under -icount shift=0 (its clock counts guest
#           instructions): uring_bench micro (and growth on patched),
#           side_by_side's checks (once) and SQE loops (7.0 and later),
#           then fio, every configuration twice (pass 1 and 2)
#   wall    an ordinary TCG guest: fio once per configuration, for the
#           noisy wall-clock column
# Prints one line a measurement, read by bench/report.py:
#   MICRO/GROWTH lines from uring_bench,
#   CHECK/CACHE/SIDE lines from side_by_side (read by bench/side_by_side.py),
#   FIO <config> <iodepth> <pass> <iops> <runtime ms>  (icount)
#   WALL <config> <iodepth> <iops>                      (wall)
KERNEL='' MODE=''
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case "$arg" in
	uring_seccomp.expect=*) KERNEL="${arg#*=}" ;;
	uring_seccomp.bench=*) MODE="${arg#*=}" ;;
	esac
done
bin=/tests/bin
dev=/dev/nullb0
status=0

echo "# bench: kernel $KERNEL $(uname -r), mode $MODE"
case "$KERNEL $MODE" in
stock\ icount | stock\ wall | patched\ icount | patched\ wall) ;;
*)
	echo "# bench: want uring_seccomp.expect=stock|patched and uring_seccomp.bench=icount|wall"
	exit 1
	;;
esac
[ -b "$dev" ] || { echo "# bench: no $dev (CONFIG_BLK_DEV_NULL_BLK)"; exit 1; }

# fio cannot run with its reads refused: no uring_deny here
if [ "$KERNEL" = patched ]; then
	configs="none plain_allow plain_bpf uring_allow uring_bpf uring_ea"
else
	configs="none plain_allow plain_bpf"
fi

# fio_run CONFIG DEPTH: one fio run, prints "IOPS RUNTIME_MS" of its reads
fio_run() {
	out="$("$bin/filter_exec" "$1" -- fio --output-format=terse \
		--terse-version=3 --section="randread-qd$2" /tests/bench/randread.fio)"
	# terse v3: field 8 is the read IOPS, 9 the read runtime in ms
	printf '%s\n' "$out" | cut -d';' -f8,9 | tr ';' ' ' | head -1
}

export FILENAME="$dev"
if [ "$MODE" = icount ]; then
	# the TSC is the instruction clock; jiffies would count milliseconds
	cs="$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	case "$cs" in
	tsc | tsc-early) ;;
	*)
		echo "# bench: clocksource $cs, not the TSC (boot with tsc=reliable)"
		exit 1
		;;
	esac
	for pass in 1 2; do
		"$bin/uring_bench" micro "$KERNEL" "$pass" || status=1
	done
	if [ "$KERNEL" = patched ]; then
		for pass in 1 2; do
			"$bin/uring_bench" growth "$pass" || status=1
		done
	fi
	# built only against a kernel with io_uring's BPF filters (7.0+)
	if [ -x "$bin/side_by_side" ]; then
		# (its two passes of each figure in one run, see run_all())
		"$bin/side_by_side" checks "$KERNEL" || status=1
		"$bin/side_by_side" run "$KERNEL" || status=1
	fi
	# 0.5 s of guest time: 5 * 10^8 instructions
	export RUNTIME=500ms RAMP=100ms
	for pass in 1 2; do
		for depth in 1 32 128; do
			for cfg in $configs; do
				r="$(fio_run "$cfg" "$depth")"
				[ -n "$r" ] || status=1
				echo "FIO $cfg $depth $pass ${r:-0 0}"
			done
		done
	done
else
	export RUNTIME=2s RAMP=1s
	for depth in 1 32 128; do
		for cfg in $configs; do
			r="$(fio_run "$cfg" "$depth")"
			[ -n "$r" ] || status=1
			echo "WALL $cfg $depth ${r%% *}"
		done
	done
fi
echo "# bench-done status=$status"
exit $status
