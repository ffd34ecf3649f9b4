#!/bin/bash
# Usage: scripts/build-kernel.sh stock|patched|rev:REV|objects:REV [extra.config]
# Builds the guest kernel from branch "base" (stock), "patched", or any
# revision REV of the tree made by scripts/kernel-tree.sh, with
# tinyconfig plus kernel-patches/guest.config (plus the optional extra
# fragment). objects:REV compiles, in the same configuration, only the
# object of every C file that base..REV changes (with the headers they
# include), links nothing and prints nothing: the series check uses it
# for each patch before the last one (see scripts/check-series.sh).
# Both flavours share one object directory, so switching branches
# rebuilds only what the series touches. The result is cached under
# $CACHE_DIR/kernels/<hash of source tree and config>; the path of that
# directory (holding bzImage and usr/include) is printed on stdout.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
lock_tree

flavour="${1:-}"
extra="${2:-}"
case "$flavour" in
stock) branch=base ;;
patched) branch=patched ;;
rev:?*) branch="${flavour#rev:}" flavour=rev ;;
objects:?*) branch="${flavour#objects:}" flavour=objects ;;
*) die "usage: $0 stock|patched|rev:REV|objects:REV [extra.config]" ;;
esac
# the guest configuration, and what only one kernel version has (an
# option the other lacks)
guest=("$CONF_DIR/guest.config")
[[ -f "$PATCH_DIR/guest.config" ]] && guest+=("$PATCH_DIR/guest.config")
fragments=("${guest[@]}")
[[ -n "$extra" ]] && fragments+=("$(realpath "$extra")")

"$REPO_DIR/scripts/kernel-tree.sh"
commit="$(tree_git rev-parse --verify -q "$branch^{commit}")" ||
	die "no revision $branch in $TREE_DIR"
# Keyed by the source tree, not the commit: a reworded commit message
# needs no rebuild.
tree="$(tree_git rev-parse "$commit^{tree}")"
key="$( (echo "$tree"; cat "${fragments[@]}") | sha256sum | cut -c1-16)"
# one entry per tree and configuration, whatever the name it was asked by
# (the build after the last patch is the patched kernel)
dest="$KERNELS_DIR/$key"
[[ $flavour == objects ]] && dest="$KERNELS_DIR/objects-$key"
if [[ $flavour == objects && -f "$dest/objects" ]]; then
	log "objects of $branch cached: $dest"
	exit 0
fi
if [[ -f "$dest/bzImage" ]]; then
	log "kernel $flavour cached: $dest"
	echo "$dest"
	exit 0
fi

log "building $flavour kernel ($branch, ${commit:0:12})"
tree_git checkout -q -f "$commit"
cfg_key="$(cat "${fragments[@]}" | sha256sum | cut -c1-16)"
obj="$BUILD_DIR/$cfg_key"
mk=(make -s -C "$TREE_DIR" O="$obj" -j"$JOBS" KBUILD_BUILD_TIMESTAMP="2026-01-01 00:00 UTC" KBUILD_BUILD_USER=ci KBUILD_BUILD_HOST=ci)
# A configuration variant (an extra fragment) starts from a copy of the
# guest configuration's objects: Kbuild then rebuilds only the files
# that depend on the options the variant changes.
base_obj="$BUILD_DIR/$(cat "${guest[@]}" | sha256sum | cut -c1-16)"
if [[ -n "$extra" && ! -d "$obj" && -f "$base_obj/vmlinux" ]]; then
	log "seeding the $(basename "$extra") objects from the guest configuration's"
	rm -rf "$obj.tmp"
	cp -a "$base_obj" "$obj.tmp" && mv "$obj.tmp" "$obj"
fi
mkdir -p "$obj"
# The configuration depends only on the fragments and the Kconfig files
# of the tree: when neither changed since it was made (the per-patch
# builds of scripts/check-series.sh, mostly), it is kept as it is.
config_stamp="$( (cat "${fragments[@]}"
	tree_git ls-tree -r "$commit" | grep -E $'\t(.*/)?Kconfig[^/]*$') | sha256sum | cut -c1-16)"
stamp_file="$obj/.config.uring-seccomp"
if [[ ! -f "$obj/.config" || ! -f "$stamp_file" ||
	"$(cat "$stamp_file")" != "$config_stamp $(sha256sum <"$obj/.config" | cut -c1-16)" ]]; then
	"${mk[@]}" tinyconfig >/dev/null 9>&-
	"$TREE_DIR/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${fragments[@]}" >/dev/null 9>&-
	"${mk[@]}" olddefconfig >/dev/null 9>&-
	check_config "$obj/.config" "${fragments[@]}" ||
		die "config fragments ${fragments[*]} do not resolve; fix them"
	echo "$config_stamp $(sha256sum <"$obj/.config" | cut -c1-16)" >"$stamp_file"
fi
if [[ $flavour == objects ]]; then
	mapfile -t objects < <(tree_git diff --name-only --diff-filter=AM base "$commit" -- '*.c' |
		grep -v '^tools/' | sed 's/\.c$/.o/')
	log "compiling ${#objects[@]} objects of $branch"
	"${mk[@]}" "${objects[@]}" 2>"$obj/build.log" 9>&- ||
		{ tail -40 "$obj/build.log" >&2; die "objects of $branch do not compile"; }
	mkdir -p "$dest"
	printf '%s\n' "${objects[@]}" >"$dest/objects"
	exit 0
fi
"${mk[@]}" bzImage 2>"$obj/build.log" 9>&- || { tail -40 "$obj/build.log" >&2; die "kernel build failed ($flavour)"; }
"${mk[@]}" headers_install INSTALL_HDR_PATH="$obj/hdr" >/dev/null 9>&-
mkdir -p "$dest.tmp"
# vmlinux (with symbols) too, to disassemble what a cost measurement
# ran (gdb, objdump) when two kernels differ
cp "$obj/arch/x86/boot/bzImage" "$obj/.config" "$obj/vmlinux" "$dest.tmp/"
rm -rf "$dest.tmp/usr" && cp -r "$obj/hdr" "$dest.tmp/usr"
echo "$commit" >"$dest.tmp/commit"
rm -rf "$dest" && mv "$dest.tmp" "$dest"
echo "$dest"
