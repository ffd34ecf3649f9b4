#!/bin/bash
# Usage: scripts/check-builds.sh [NAME...]
# Builds the whole series in the configurations the guest kernel does not
# use and prints TAP, one line a build (build only, nothing is booted):
# - x86-64 with each fragment of kernel-patches/variants/ on top of the
#   guest configuration (scripts/build-kernel.sh patched FRAGMENT);
# - arm64, arm, riscv64 and powerpc64 with Debian's cross compilers:
#   tinyconfig plus kernel-patches/cross/common.config and ARCH.config,
#   then every C file of the kernel the series changes (compiled, not
#   linked: a cold build of four architectures would not fit the budget).
# Every build has warnings as errors (CONFIG_WERROR). A successful build
# is remembered under $KERNELS_DIR, keyed by the source tree and the
# configuration, so a rerun with nothing changed builds nothing.
# With NAMEs (x86_64-FRAGMENT, arm64, arm, riscv64, powerpc64), only those.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
lock_tree

"$REPO_DIR/scripts/kernel-tree.sh"

# ARCH name, kernel ARCH, compiler prefix (Debian's gcc-PREFIX package)
cross=(
	"arm64 arm64 aarch64-linux-gnu-"
	"arm arm arm-linux-gnueabihf-"
	"riscv64 riscv riscv64-linux-gnu-"
	"powerpc64 powerpc powerpc64-linux-gnu-"
)
mapfile -t variants < <(find "$CONF_DIR/variants" -name '*.config' | sort)
# wanted NAME: whether NAME was asked for (everything when none was)
wanted() {
	(($# == 1)) && return 0
	local name="$1" w
	shift
	for w in "$@"; do [[ "$w" == "$name" ]] && return 0; done
	return 1
}
names=("$@")
known=()
for fragment in "${variants[@]}"; do known+=("x86_64-$(basename "$fragment" .config)"); done
# What the cross builds compile: every C file of the kernel the series
# changes (the x86-64 builds link it all; this catches what differs
# between architectures: system call numbers, compat paths, types).
mapfile -t targets < <(tree_git diff --name-only base patched -- '*.c' ':!tools' |
	sed 's/\.c$/.o/')
((${#targets[@]})) || die "the series changes no C file of the kernel?"

for entry in "${cross[@]}"; do known+=("${entry%% *}"); done
for w in "${names[@]}"; do
	wanted "$w" "${known[@]}" || die "usage: $0 [NAME...]; NAME is one of: ${known[*]}"
done
mapfile -t variants < <(for f in "${variants[@]}"; do
	wanted "x86_64-$(basename "$f" .config)" "${names[@]}" && echo "$f"; done)
mapfile -t cross < <(for e in "${cross[@]}"; do wanted "${e%% *}" "${names[@]}" && echo "$e"; done)

echo "TAP version 13"
echo "1..$((${#variants[@]} + ${#cross[@]}))"
i=0

for fragment in "${variants[@]}"; do
	i=$((i + 1))
	name="x86_64 $(basename "$fragment" .config)"
	if out="$("$REPO_DIR/scripts/build-kernel.sh" patched "$fragment" 2>&1 >/dev/null)"; then
		echo "ok $i the series builds: $name"
	else
		printf '%s\n' "$out" | tail -20 | sed 's/^/# /'
		echo "not ok $i the series builds: $name"
	fi
done

# cross_build NAME KARCH PREFIX: compiles the targets in the patched tree.
cross_build() {
	local name="$1" karch="$2" prefix="$3" commit tree key dest obj
	local fragments=("$CONF_DIR/cross/common.config" "$CONF_DIR/cross/$name.config")
	command -v "${prefix}gcc" >/dev/null || { echo "${prefix}gcc not found; run scripts/setup.sh"; return 1; }
	commit="$(tree_git rev-parse --verify -q "patched^{commit}")"
	tree="$(tree_git rev-parse "$commit^{tree}")"
	key="$( (echo "$tree $karch $prefix"; cat "${fragments[@]}") | sha256sum | cut -c1-16)"
	dest="$KERNELS_DIR/cross-$name-$key"
	[[ -f "$dest/ok" ]] && return 0
	tree_git checkout -q -f "$commit"
	obj="$BUILD_DIR/cross-$name"
	mkdir -p "$obj"
	local mk=(make -s -C "$TREE_DIR" O="$obj" -j"$JOBS" ARCH="$karch" CROSS_COMPILE="$prefix"
		KBUILD_BUILD_TIMESTAMP="2026-01-01 00:00 UTC" KBUILD_BUILD_USER=ci KBUILD_BUILD_HOST=ci)
	"${mk[@]}" tinyconfig >/dev/null 9>&-
	"$TREE_DIR/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${fragments[@]}" >/dev/null 9>&-
	"${mk[@]}" olddefconfig >/dev/null 9>&-
	check_config "$obj/.config" "${fragments[@]}" 2>&1 || return 1
	"${mk[@]}" "${targets[@]}" 2>"$obj/build.log" 9>&- || { tail -30 "$obj/build.log"; return 1; }
	mkdir -p "$dest" && cp "$obj/.config" "$dest/config" && touch "$dest/ok"
}

for entry in "${cross[@]}"; do
	read -r name karch prefix <<<"$entry"
	i=$((i + 1))
	if out="$(cross_build "$name" "$karch" "$prefix" 2>&1)"; then
		echo "ok $i the series builds: $name (cross, not booted)"
	else
		printf '%s\n' "$out" | tail -20 | sed 's/^/# /'
		echo "not ok $i the series builds: $name (cross, not booted)"
	fi
done
