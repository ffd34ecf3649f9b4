#!/bin/bash
# Usage: scripts/kernel-tree.sh
# Prepares the kernel git tree of URING_SECCOMP_KERNEL (see lib.sh) in
# $CACHE_DIR/linux-VERSION: branch "base" holds the Debian
# linux-source-VERSION tarball as one commit, branch "patched" is base
# plus kernel-patches/VERSION/ applied with git am in series order.
# Idempotent: the tarball is unpacked once, the series re-applied only
# when it changed. Prints nothing on stdout.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
lock_tree

[[ -f "$LINUX_TARBALL" ]] || die "$LINUX_TARBALL not found; run scripts/setup.sh"

if ! tree_git rev-parse -q --verify base >/dev/null 2>&1; then
	log "unpacking $LINUX_TARBALL (once)"
	# A new tree has old mtimes: objects built from another tree would
	# look up to date, so the object directory goes too.
	rm -rf "$TREE_DIR" "$TREE_DIR.tmp" "$BUILD_DIR"
	mkdir -p "$TREE_DIR.tmp"
	tar -xf "$LINUX_TARBALL" -C "$TREE_DIR.tmp" --strip-components=1
	version="$(make -s -C "$TREE_DIR.tmp" kernelversion)"
	[[ "$version" == "$KERNEL".* ]] || die "tarball is Linux $version, want $KERNEL.x"
	# Debian's .gitignore ends with "/*" and "!/debian/", which would
	# ignore every top-level path of the tree: drop those two lines.
	# The base is the tarball as shipped, so add it with -f: files the
	# kernel's own .gitignore rules match (.gitignore files themselves,
	# .clang-format, ...) are part of the source too.
	sed -i -e '/^\/\*$/d' -e '/^!\/debian\/$/d' "$TREE_DIR.tmp/.gitignore"
	git -C "$TREE_DIR.tmp" init -q -b base 9>&-
	mv "$TREE_DIR.tmp" "$TREE_DIR"
	tree_git add -A -f
	tree_git commit -q -m "Linux $version (Debian linux-source-$KERNEL)"
fi
# for a developer's own git commands in the tree too (scripts/export-series.sh)
tree_git config gc.auto 0
tree_git config maintenance.auto false
# patch index lines of a stable length, whatever the state of the packs
tree_git config core.abbrev 9

series_hash="$(series_patches | hash_files)"
if [[ "$(tree_git config --get uring-seccomp.series || true)" != "$series_hash" ]] ||
	! tree_git rev-parse -q --verify patched >/dev/null; then
	log "applying ${PATCH_DIR#"$REPO_DIR"/}/ onto base"
	tree_git am --abort >/dev/null 2>&1 || true
	tree_git checkout -q -f -B patched base
	while read -r patch; do
		if ! tree_git am -q --keep-cr "$patch" >/dev/null 2>&1; then
			tree_git am --abort >/dev/null 2>&1 || true
			die "patch $(basename "$patch") does not apply onto base (git am failed)"
		fi
	done < <(series_patches)
	tree_git config uring-seccomp.series "$series_hash"
fi
