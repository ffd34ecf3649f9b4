#!/bin/bash
# Usage: scripts/run-demo.sh
# The README's main command. Installs what it needs, builds the stock and
# the patched kernel (cached under $CACHE_DIR), and boots each in QEMU
# with liburing-tests/demo/sandbox-demo: a process under a libseccomp
# profile that denies connect and openat(O_CREAT) tries both as syscalls
# and through io_uring. Stock lets io_uring through; patched does not.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
scripts="$REPO_DIR/scripts"

declare -A kernel
prepare_kernels
new_run_dir demo-run
"$scripts/build-tests.sh" "${kernel[patched]}" "$run/build" >/dev/null
"$scripts/make-initramfs.sh" "$run/build/demo" "$run/demo.cpio.gz"

rc=0
for k in stock patched; do
	kdir="${kernel[$k]}"
	echo
	echo "=== $k kernel ==="
	"$scripts/boot-guest.sh" "$kdir" "$run/demo.cpio.gz" "$run/$k.log" 300 \
		uring_seccomp.run=/tests/bin/sandbox-demo || rc=$?
	# the serial log holds firmware escape codes and CRs: strip them
	tr -d '\r' <"$run/$k.log" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1b[a-z]//g' |
		sed -n '/^# guest:/,/^# guest-done/{/^# guest/d;p}'
	grep -q '^# guest-done rc=0' "$run/$k.log" || { echo "demo failed, see $run/$k.log" >&2; rc=1; }
done
exit "$rc"
