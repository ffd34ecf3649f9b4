#!/bin/bash
# Usage: scripts/boot-guest.sh KERNEL_DIR INITRAMFS|ROOT.img LOG [TIMEOUT_S] [CMDLINE...]
# Boots KERNEL_DIR/bzImage with INITRAMFS in QEMU, serial console to LOG.
# ROOT.img (a name ending in .img): a root-disk guest instead, no initrd:
# the raw ext4 image of scripts/build-rootfs.sh as the first virtio disk,
# /dev/vda, with snapshot=on (the guest's writes go to a temporary file,
# the cached image stays as built), root=/dev/vda rootfstype=ext4 rw.
# GUEST_DISK2=IMG adds a second virtio disk, /dev/vdb, also snapshot=on
# (the real-software guest mounts its /tests from it).
# Uses KVM when it can really run a guest here, TCG otherwise. The guest
# is killed after TIMEOUT_S seconds (default 600); the exit status is
# QEMU's, or 124 on timeout. Extra CMDLINE words go to the kernel.
# GUEST_ICOUNT=1: for measurement, never KVM: single-threaded TCG with
# QEMU's instruction counter (-icount shift=0,sleep=off: guest time
# advances 1 ns per guest instruction, so an in-guest clock reads
# instructions executed) and one vCPU. The guest kernel is told
# tsc=reliable: its TSC is that instruction clock, and the clocksource
# watchdog, which has only jiffies to compare it with here, would
# otherwise swap it for jiffies (1 ms resolution) in the middle of a run.
# GUEST_PLUGIN=PATH[,ARG...]: a TCG plugin for QEMU's -plugin (see
# bench/profile/profile.sh).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

kdir="${1:-}"
initrd="${2:-}"
logf="${3:-}"
timeout_s="${4:-600}"
[[ -f "$kdir/bzImage" && -f "$initrd" && -n "$logf" ]] ||
	die "usage: $0 KERNEL_DIR INITRAMFS|ROOT.img LOG [TIMEOUT_S] [CMDLINE...]"
shift $(($# < 4 ? $# : 4))

# KVM only where it really runs a guest: where nested virtualisation
# fails, /dev/kvm opens and even creates VMs, but QEMU aborts setting up
# the vCPU. So the probe is a paused KVM machine that must still be alive
# after 3 s (timeout's 124); anything else means TCG.
accel=(-accel 'tcg,thread=multi')
smp=(-smp '2,sockets=2')
cmdline=()
probe=0
if [[ "${GUEST_ICOUNT:-0}" == 1 ]]; then
	# icount needs single-threaded TCG (thread=multi refuses it)
	accel=(-accel tcg -icount 'shift=0,sleep=off')
	smp=(-smp 1)
	cmdline=(tsc=reliable)
elif [[ -w /dev/kvm ]]; then
	probe="$({ (timeout 3 qemu-system-x86_64 -accel kvm -cpu host -nodefaults \
		-display none -monitor none -serial none -S) >/dev/null 2>&1
		echo $?; } 2>/dev/null)"
fi
((probe == 124)) && accel=(-accel kvm -cpu host)
boot=(-initrd "$initrd")
if [[ "$initrd" == *.img ]]; then
	boot=(-drive "file=$initrd,if=virtio,format=raw,snapshot=on")
	cmdline+=(root=/dev/vda rootfstype=ext4 rw)
fi
if [[ -n "${GUEST_DISK2:-}" ]]; then
	[[ -f "$GUEST_DISK2" ]] || die "GUEST_DISK2=$GUEST_DISK2 is not a file"
	boot+=(-drive "file=$GUEST_DISK2,if=virtio,format=raw,snapshot=on")
fi
plugin=()
[[ -n "${GUEST_PLUGIN:-}" ]] && plugin=(-plugin "$GUEST_PLUGIN")
log "booting $(basename "$kdir") (${accel[*]:1}), log: $logf"

# loglevel=5: the console gets KERN_WARNING and above, which is where
# WARN() and lockdep print their reports ("quiet" would hide them); the
# host's scripts/parse-results.py reads them from the log.
rc=0
timeout -k 10 "$timeout_s" qemu-system-x86_64 "${accel[@]}" "${plugin[@]}" \
	-m "${GUEST_MEM:-2048}" "${smp[@]}" -nographic -no-reboot -nodefaults \
	-serial stdio -monitor none \
	-kernel "$kdir/bzImage" "${boot[@]}" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=5 ${cmdline[*]} $*" \
	</dev/null >"$logf" 2>&1 || rc=$?
exit "$rc"
