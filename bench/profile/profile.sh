#!/bin/bash
# Usage: bench/profile/profile.sh KERNEL_DIR CONFIG OP PATH [ROUNDS]
# For developers of the series: where the guest instructions of one
# benchmark cell go, per kernel function. Boots KERNEL_DIR (a directory
# scripts/build-kernel.sh made: bzImage, vmlinux, usr/include) twice
# under -icount with the tb_counts plugin, running prof_loop CONFIG OP
# PATH (see prof_loop.c) for ROUNDS (default 200) and 2 * ROUNDS rounds
# of 32 operations, and prints what fold.py makes of the difference:
# instructions per operation and function. PATH "side" profiles a cell
# of the side-by-side benchmark instead: side_by_side loop CONFIG OP
# (CONFIG and OP as in bench/micro/side_by_side.c, e.g. sec_a socket);
# its SQEs' fds are closed every 256 rounds, so close(2) is in the
# profile too. The plugin is built against the qemu-plugin.h of Debian's
# qemu source package (fetched once into $CACHE_DIR/qemu-src, see
# apt_source_download in scripts/lib.sh).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/../../scripts/lib.sh"

kdir="${1:-}" config="${2:-}" op="${3:-}" path="${4:-}" rounds="${5:-200}"
[[ -f "$kdir/bzImage" && -f "$kdir/vmlinux" && -n "$path" && "$rounds" =~ ^[0-9]+$ ]] ||
	die "usage: $0 KERNEL_DIR CONFIG OP syscall|uring|side [ROUNDS]"
prog=(prof_loop "$config" "$op" "$path")
[[ "$path" == side ]] && prog=(side_by_side loop "$config" "$op")
here="$REPO_DIR/bench/profile"

# qemu-plugin.h of the QEMU that runs the guest
src="$CACHE_DIR/qemu-src"
header="$src/include/qemu-plugin.h"
if [[ ! -f "$header" ]]; then
	log "fetching qemu-plugin.h from Debian's qemu source package (once)"
	rm -rf "$src"
	mkdir -p "$src/include"
	apt_source_download qemu "$src/dl"
	tar -xJf "$src"/dl/qemu_*.orig.tar.xz -C "$src/dl" --wildcards '*/include/qemu/qemu-plugin.h'
	cp "$src"/dl/qemu-*/include/qemu/qemu-plugin.h "$header"
	rm -rf "$src/dl"
fi

new_run_dir profile
# shellcheck disable=SC2154 # "run" is set by new_run_dir
mkdir -p "$run/bin"
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -shared -fPIC -I "$src/include" \
	-o "$run/tb_counts.so" "$here/tb_counts.c"
"$REPO_DIR/bench/build.sh" "$kdir" "$run/bin"

nullb=(null_blk.nr_devices=1 null_blk.irqmode=0 null_blk.memory_backed=0)
for n in "$rounds" "$((2 * rounds))"; do
	cat >"$run/prof.sh" <<-SCRIPT
		#!/bin/sh
		/tests/bin/${prog[*]} $n
	SCRIPT
	chmod +x "$run/prof.sh"
	"$REPO_DIR/scripts/make-initramfs.sh" "$run/bin" "$run/prof-$n.cpio.gz" "$run/prof.sh"
	GUEST_ICOUNT=1 GUEST_PLUGIN="$run/tb_counts.so,out=$run/counts-$n" \
		"$REPO_DIR/scripts/boot-guest.sh" "$kdir" "$run/prof-$n.cpio.gz" "$run/guest-$n.log" 600 \
		uring_seccomp.run=/tests/prof.sh "${nullb[@]}"
	grep -q '^PROF-DONE bad=0' "$run/guest-$n.log" ||
		die "prof_loop failed, see $run/guest-$n.log"
done
"$here/fold.py" "$kdir/vmlinux" "$run/counts-$rounds" "$run/counts-$((2 * rounds))" "$((rounds * 32))"
