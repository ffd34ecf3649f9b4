#!/bin/bash
# Usage: scripts/test-kernel.sh RUN_DIR [--primary] [--debug] [--real]
# One kernel's part of the README's test command (scripts/run-tests.sh),
# for URING_SECCOMP_KERNEL (see lib.sh): builds its stock and patched
# kernels (cached under $CACHE_DIR), checks its series (checkpatch
# --strict on every patch; with --primary also every patch building on
# its own, and the series in other configurations and for other
# architectures), checks the host side (include/ matches the patched
# UAPI, the selftests patch matches selftests/, the opcode table of the
# documentation matches the source, the NOP's instruction count), boots
# both kernels in QEMU with the same test binaries, and leaves in RUN_DIR
# the TAP files and guest logs, and RUN_DIR/parse-args: the --host,
# --guest and --real-guest arguments of scripts/parse-results.py for
# them, labelled with the version ("patched-7.3").
# With --primary (and for any series with --real) also the real-software
# guest of issue 16 (scripts/test-real.sh: Debian 12's systemd, crun and
# MariaDB on a root disk) on both kernels.
# --debug: the patched kernel is built with kernel-patches/guest-debug.config
# on top (KASAN, lockdep, DEBUG_ATOMIC_SLEEP, kmemleak) and booted with
# more memory and time; everything else is the same.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
scripts="$REPO_DIR/scripts"
run="${1:-}"
[[ -n "$run" ]] || die "usage: $0 RUN_DIR [--primary] [--debug] [--real]"
shift
primary=0 debug=0 real_sw=0
for arg in "$@"; do
	case "$arg" in
	--primary) primary=1 ;;
	--debug) debug=1 ;;
	--real) real_sw=1 ;;
	*) die "usage: $0 RUN_DIR [--primary] [--debug] [--real]" ;;
	esac
done
mkdir -p "$run"
v="$KERNEL"

declare -A kernel
"$scripts/kernel-tree.sh"
kernel[stock]="$("$scripts/build-kernel.sh" stock)"
# The build after each patch goes in series order from the stock kernel's
# objects, so each rebuilds only what its patch changed, and the last one
# is the patched kernel, which is then found in the cache.
log "checking the $v series"
if ((primary)); then
	"$scripts/check-series.sh" >"$run/series.tap"
else
	"$scripts/check-series.sh" --checkpatch-only >"$run/series.tap"
fi
kernel[patched]="$("$scripts/build-kernel.sh" patched)"
# the instruction-count check compares the kernels as shipped, never the
# debug build
kernel[plain]="${kernel[patched]}"
timeout_s=900
# the per-program timeout of the guest suites (scripts/guest/suites/)
test_timeout=60
if ((debug)); then
	kernel[patched]="$("$scripts/build-kernel.sh" patched "$CONF_DIR/guest-debug.config")"
	export GUEST_MEM=4096
	timeout_s=3600
	# KASAN under TCG: the fuzzer's 120,000 SQEs take minutes
	test_timeout=900
fi

hosts=(series)
if ((primary)); then
	log "building the $v series in other configurations and for other architectures"
	"$scripts/check-builds.sh" >"$run/builds.tap"
	hosts+=(builds)
fi
{
	echo "TAP version 13"
	echo "1..4"
	if cmp -s "$REPO_DIR/include/linux/seccomp.h" "${kernel[patched]}/usr/include/linux/seccomp.h"; then
		echo "ok 1 include/linux/seccomp.h is the patched kernel's UAPI header"
	else
		diff -u "${kernel[patched]}/usr/include/linux/seccomp.h" "$REPO_DIR/include/linux/seccomp.h" | sed 's/^/# /'
		echo "not ok 1 include/linux/seccomp.h is the patched kernel's UAPI header"
	fi
	if out="$("$scripts/gen-selftest-patch.sh" --check 2>&1)"; then
		echo "ok 2 the series' selftests patches are generated from selftests/"
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		echo "not ok 2 the series' selftests patches are generated from selftests/"
	fi
	if out="$("$scripts/gen-cover-letters.sh" --check 2>&1)"; then
		echo "ok 3 the series' cover letters list its patches (gen-cover-letters.sh)"
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		echo "not ok 3 the series' cover letters list its patches (gen-cover-letters.sh)"
	fi
	# a git child left running by the builds (a detached "gc --auto")
	# would keep the tree lock and stall the next build for minutes
	holders="$(lock_holders git)"
	if [[ -z "$holders" ]]; then
		echo "ok 4 no git process holds the kernel tree lock after the builds"
	else
		printf '# %s\n' "$holders"
		echo "not ok 4 no git process holds the kernel tree lock after the builds"
	fi
} >"$run/host.tap"
# the opcode table of the series' documentation against the series' source
opcodes="$(mktemp -d)"
tree_git archive patched io_uring include/uapi/linux include/linux/io_uring \
	Documentation/userspace-api/seccomp_filter.rst | tar -x -C "$opcodes"
python3 "$scripts/check-opcode-table.py" \
	"$opcodes/Documentation/userspace-api/seccomp_filter.rst" "$opcodes" \
	>"$run/opcodes.tap" || true
rm -rf "$opcodes"

# the NOP's cost under a filter that did not opt in, in guest instructions
log "measuring the cost of a NOP SQE on $v (QEMU's instruction counter)"
"$scripts/check-nop-cost.sh" "${kernel[stock]}" "${kernel[plain]}" "$run/nop-cost" >"$run/nopcost.tap"

log "building the test programs against $v"
"$scripts/build-tests.sh" "${kernel[patched]}" "$run/tests" >/dev/null
# liburing's own tests, unfiltered, on both kernels
"$scripts/build-liburing-upstream.sh" "$run/liburing-upstream"
# the kernel's own seccomp_bpf, run on both kernels: the regression check
"$scripts/build-seccomp-bpf.sh" "${kernel[patched]}" "$run/regress" 2>/dev/null
"$scripts/make-initramfs.sh" "$run/tests/bin" "$run/tests.cpio.gz" "$run/regress/seccomp_bpf" \
	"$run/tests/launcher" "$run/liburing-upstream"

# uring_seccomp.expect=: each guest knows which kernel it runs (on the
# patched one a filter that cannot opt in fails, never skips)
for k in patched stock; do
	extra=()
	((debug)) && [[ $k == patched ]] && extra=(uring_seccomp.debug=1)
	rc=0
	"$scripts/boot-guest.sh" "${kernel[$k]}" "$run/tests.cpio.gz" "$run/$k.log" "$timeout_s" \
		"uring_seccomp.timeout=$test_timeout" "uring_seccomp.expect=$k" "${extra[@]}" || rc=$?
	if ((rc == 124)); then
		echo "ERROR: the $v $k guest hung (killed after $timeout_s s)" >&2
	fi
done

# The real-software guest (issue 16): Debian 12's systemd, crun and
# MariaDB on the root disk of scripts/build-rootfs.sh, booted on the same
# two kernels (guest.config has what it needs). On the primary series
# always; on the backport with --real.
real=()
if ((primary || real_sw)); then
	# a --debug run's patched kernel is the debug build: the real
	# guest boots the kernel as shipped, as the NOP-cost check does
	kernel[real-patched]="${kernel[plain]}" kernel[real-stock]="${kernel[stock]}"
	for k in patched stock; do
		rc=0
		"$scripts/test-real.sh" "${kernel[real-$k]}" "$k" "$run/real-$k.log" "$timeout_s" || rc=$?
		if ((rc == 124)); then
			echo "ERROR: the $v $k real-software guest hung (killed after $timeout_s s)" >&2
		fi
		real+=("$k")
	done
fi

# The README's compatibility table (issue 16): the opcodes Docker's
# default profile and systemd's @system-service refuse although the job's
# classic system call is allowed, made from this series' opcode table and
# the real guest's systemd (its "# system-service-set:" lines).
if ((primary)); then
	compat="$(mktemp -d)"
	tree_git show patched:Documentation/userspace-api/seccomp_filter.rst >"$compat/table.rst"
	# (no log, no set: the check then fails, and the run goes on)
	sed -n 's/^# system-service-set: //p' "$run/real-patched.log" 2>/dev/null | tr -d '\r' |
		tr ' ' '\n' >"$compat/system-service" || true
	python3 "$scripts/uring-compat-table.py" --check "$REPO_DIR/README.md" "$compat/table.rst" \
		"${kernel[patched]}/usr/include/asm/unistd_64.h" \
		"$REPO_DIR/../shared/profiles/docker-default.json" "$compat/system-service" \
		>"$run/compat.tap" || true
	rm -rf "$compat"
	hosts+=(compat)
fi

python3 "$scripts/compare-seccomp-bpf.py" "$run/stock.log" "$run/patched.log" \
	>"$run/regress.tap"
python3 "$scripts/compare-unfiltered.py" "$run/stock.log" "$run/patched.log" \
	>"$run/unfiltered.tap"
hosts+=(host regress unfiltered opcodes nopcost)
{
	for h in "${hosts[@]}"; do
		echo "--host"
		echo "$h-$v=$run/$h.tap"
	done
	for k in patched stock; do
		echo "--guest"
		echo "$k-$v=$run/$k.log"
	done
	for k in "${real[@]}"; do
		echo "--real-guest"
		echo "$k-$v=$run/real-$k.log"
	done
} >"$run/parse-args"
