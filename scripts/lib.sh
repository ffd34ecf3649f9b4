# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are for the scripts that source this
# Shared settings for the uring-seccomp scripts. Sourced, never run.
#
# Two series, one per kernel: URING_SECCOMP_KERNEL picks the one a
# script works on, 7.3 (the primary, kernel-patches/7.3/, developed and
# tested first) or 6.12 (the LTS backport, kernel-patches/6.12/). Their
# guest configuration fragments (kernel-patches/*.config, cross/) are
# shared.
#
# Everything the scripts build lives under CACHE_DIR (default
# /var/cache/uring-seccomp), keyed by content hashes, so a rerun reuses
# it and deleting the directory forces a cold start:
#   linux-VERSION/    git tree: branch "base" = the Debian tarball,
#                     branch "patched" = base + kernel-patches/VERSION/
#   build-VERSION/    kernel object directory shared by both branches
#   kernels/<key>/    bzImage and headers for one (tree, config) pair
#   out/              test binaries, initramfs images, guest logs

REPO_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE_DIR="${URING_SECCOMP_CACHE:-/var/cache/uring-seccomp}"
KERNEL="${URING_SECCOMP_KERNEL:-7.3}"
case "$KERNEL" in
7.3 | 6.12) ;;
*)
	echo "error: URING_SECCOMP_KERNEL is '$KERNEL'; the series are for 7.3 and 6.12" >&2
	exit 1
	;;
esac
# the kernels the README's test command builds and tests, primary first
KERNEL_VERSIONS=(7.3 6.12)
LINUX_TARBALL="${LINUX_TARBALL:-/usr/src/linux-source-$KERNEL.tar.xz}"
TREE_DIR="$CACHE_DIR/linux-$KERNEL"
BUILD_DIR="$CACHE_DIR/build-$KERNEL"
KERNELS_DIR="$CACHE_DIR/kernels"
OUT_DIR="$CACHE_DIR/out"
CONF_DIR="$REPO_DIR/kernel-patches"
PATCH_DIR="$CONF_DIR/$KERNEL"
JOBS="$(nproc)"

export LC_ALL=C
# Who writes and signs off the patches: the one line "Name <email>" of
# kernel-patches/identity, the one place a maintainer changes it before
# posting. scripts/check-series.sh holds every patch to it.
IDENTITY="$(grep -v '^#' "$CONF_DIR/identity" 2>/dev/null | grep -m1 . || true)"
[[ "$IDENTITY" =~ ^[^\<\>]+\ \<[^\<\>@\ ]+@[^\<\>\ ]+\>$ ]] ||
	{ echo "error: $CONF_DIR/identity must hold one line \"Name <email>\"" >&2; exit 1; }
export GIT_AUTHOR_NAME="${IDENTITY% <*}"
GIT_AUTHOR_EMAIL="${IDENTITY##*<}"
export GIT_AUTHOR_EMAIL="${GIT_AUTHOR_EMAIL%>}"
export GIT_COMMITTER_NAME="$GIT_AUTHOR_NAME"
export GIT_COMMITTER_EMAIL="$GIT_AUTHOR_EMAIL"

die() {
	echo "error: $*" >&2
	exit 1
}

log() {
	echo "==> $(date +%T) $*" >&2
}

# The series of PATCH_DIR, in the order they apply, one directory a
# line: its numbered subdirectories (7.3: 1-uring/, 2-cache/, 3-ext/,
# each a series a maintainer takes on its own, with its cover letter and
# its selftests), or PATCH_DIR itself when it holds one series (6.12).
series_dirs() {
	local d found=0
	for d in "$PATCH_DIR"/[0-9]-*/; do
		[[ -d "$d" ]] || continue
		found=1
		echo "${d%/}"
	done
	((found)) || echo "$PATCH_DIR"
}

# Writes PATCH_DIR/series from the patch files: each series' NNNN-*.patch
# but its cover letter, series by series.
write_series() {
	local d rel
	{
		echo "# uring-seccomp series, applied in this order by scripts/kernel-tree.sh"
		while read -r d; do
			rel="${d#"$PATCH_DIR"}"
			rel="${rel#/}"
			find "$d" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' ! -name '0000-*' -printf '%f\n' |
				sort | sed "s|^|${rel:+$rel/}|"
		done < <(series_dirs)
	} >"$PATCH_DIR/series"
}

# Fills the caller's arrays "entries" (series_patches) and "commits" (the
# commits of branch patched of the kernel tree, one a patch, in order).
# shellcheck disable=SC2034 # the arrays are the caller's
series_commits() {
	mapfile -t entries < <(series_patches)
	mapfile -t commits < <(tree_git rev-list --reverse base..patched)
	((${#entries[@]} == ${#commits[@]})) ||
		die "branch patched has ${#commits[@]} commits, the series file ${#entries[@]} patches"
}

# The patch files of the series, in series order.
series_patches() {
	local p
	[[ -f "$PATCH_DIR/series" ]] || die "$PATCH_DIR/series is missing"
	while read -r p; do
		[[ -z "$p" || "$p" == \#* ]] && continue
		[[ -f "$PATCH_DIR/$p" ]] || die "series names $p, which is not in $PATCH_DIR"
		echo "$PATCH_DIR/$p"
	done <"$PATCH_DIR/series"
}

# A short content hash of files given on stdin (one path a line).
hash_files() {
	xargs -r cat | sha256sum | cut -c1-16
}

# Serialise everything that touches the shared kernel tree and object
# directories (checkout, git am, make): two builds at once would corrupt
# them and overload the machine. The lock is held until the calling
# script exits; scripts it starts inherit it.
lock_tree() {
	[[ -n "${URING_SECCOMP_TREE_LOCKED:-}" ]] && return 0
	mkdir -p "$CACHE_DIR"
	exec 9>"$CACHE_DIR/tree.lock"
	if ! flock -n 9; then
		log "waiting for another build to release $CACHE_DIR/tree.lock"
		flock 9
	fi
	export URING_SECCOMP_TREE_LOCKED=1
}

# git on the shared kernel tree. Never with the lock's descriptor: a
# child that outlives the script (git's detached "gc --auto") would hold
# the lock after the script exits. Auto-gc is off there anyway: repacking
# the whole kernel tree in the middle of a build costs minutes.
tree_git() {
	git -C "$TREE_DIR" -c gc.auto=0 -c gc.autoDetach=false -c maintenance.auto=false "$@" 9>&-
}

# Whether CONFIG resolved every option the FRAGMENTS ask for, the last
# fragment that names an option winning ("CONFIG_X=v" or "# CONFIG_X is
# not set"). Names each option that was not taken on stderr.
check_config() {
	local config="$1" line sym ok=0
	shift
	declare -A want=()
	while read -r line; do
		if [[ "$line" =~ ^(CONFIG_[A-Za-z0-9_]+)= ]]; then
			want[${BASH_REMATCH[1]}]="$line"
		elif [[ "$line" =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			want[${BASH_REMATCH[1]}]="$line"
		fi
	done < <(cat "$@")
	for sym in "${!want[@]}"; do
		grep -qxF -- "${want[$sym]}" "$config" && continue
		# an option Kconfig hides because its dependency is off is "not set" too
		if [[ "${want[$sym]}" == "# $sym is not set" ]] && ! grep -q "^$sym=" "$config"; then
			continue
		fi
		echo "config: ${want[$sym]} was not taken" >&2
		ok=1
	done
	return "$ok"
}

# The processes named NAME that have the tree lock open, one "pid comm"
# a line.
lock_holders() {
	local fd pid
	for fd in /proc/[0-9]*/fd/*; do
		[[ "$(readlink "$fd" 2>/dev/null)" == "$CACHE_DIR/tree.lock" ]] || continue
		pid="${fd#/proc/}" pid="${pid%%/*}"
		[[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == "$1" ]] && echo "$pid $1"
	done
	return 0
}

# A directory of its own for everything one run writes, so two runs at
# once never read each other's logs: sets "run" to $OUT_DIR/NAME.XXXXXX,
# held locked (fd 8) until the caller exits, and points the symlink
# $OUT_DIR/NAME at it. Earlier runs' directories that no run holds are
# removed first.
new_run_dir() {
	local name="$1" d
	mkdir -p "$OUT_DIR"
	for d in "$OUT_DIR/$name".*/; do
		[[ -d "$d" ]] || continue
		exec 8>"$d/lock"
		flock -n 8 && rm -rf "$d"
		exec 8>&-
	done
	run="$(mktemp -d "$OUT_DIR/$name.XXXXXX")"
	exec 8>"$run/lock"
	flock 8
	ln -sfn "$(basename "$run")" "$OUT_DIR/$name.tmp" && mv -T "$OUT_DIR/$name.tmp" "$OUT_DIR/$name"
}

# Installs with apt-get those of the Debian packages PKG... that are not
# installed (as root; nothing to do when all are).
apt_install_missing() {
	local p status missing=()
	for p in "$@"; do
		status="$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)"
		[[ "$status" == *"ok installed" ]] || missing+=("$p")
	done
	((${#missing[@]})) || return 0
	log "installing: ${missing[*]}"
	[[ $EUID -eq 0 ]] || die "run as root (apt-get install ${missing[*]})"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
}

# Downloads the Debian source package SPEC (NAME or NAME=VERSION) of
# bookworm into DIR with apt-get source, from a deb-src list of our own
# under $CACHE_DIR/apt-src: the system's apt sources are left alone.
apt_source_download() {
	local spec="$1" dir="$2" apt_dir="$CACHE_DIR/apt-src"
	local apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list"
		-o "Dir::Etc::SourceParts=$apt_dir/parts"
		-o "Dir::State::Lists=$apt_dir/lists")
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/parts" "$dir"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
		"http://deb.debian.org/debian bookworm main" >"$apt_dir/sources.list"
	apt-get "${apt_opts[@]}" update -q >/dev/null
	(cd "$dir" && apt-get "${apt_opts[@]}" source --download-only -q "$spec" >/dev/null 2>&1)
}

# Installs the Debian package PKG from trixie-backports (linux-source-7.3
# is there, and nowhere in Debian 12) through an apt source list of our
# own, as apt_source_download does: the system's apt sources and package
# caches are left alone. Its InRelease is signed by keys that Debian 12's
# debian-archive-keyring holds. The package is fetched with "apt-get
# download" and installed with dpkg: its dependencies (binutils,
# xz-utils) come from Debian 12, installed by scripts/setup.sh first.
apt_backports_install() {
	local pkg="$1" apt_dir="$CACHE_DIR/apt-backports"
	local apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list"
		-o "Dir::Etc::SourceParts=$apt_dir/parts"
		-o "Dir::State::Lists=$apt_dir/lists"
		-o "Dir::Cache=$apt_dir/cache")
	rm -rf "$apt_dir/deb"
	mkdir -p "$apt_dir/lists/partial" "$apt_dir/parts" "$apt_dir/cache" "$apt_dir/deb"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
		"http://deb.debian.org/debian trixie-backports main" >"$apt_dir/sources.list"
	apt-get "${apt_opts[@]}" update -q >/dev/null
	# (as root: apt cannot hand the download to its _apt user in our dir)
	(cd "$apt_dir/deb" && apt-get "${apt_opts[@]}" -o APT::Sandbox::User=root download -q "$pkg" >/dev/null)
	dpkg -i "$apt_dir"/deb/*.deb >/dev/null
}

# The arguments of a script that builds programs against a kernel's
# exported headers: sets kdir and out, or dies with the usage.
kernel_out_args() {
	kdir="${1:-}"
	out="${2:-}"
	[[ -n "$kdir" && -n "$out" ]] || die "usage: $0 KERNEL_DIR OUT_DIR"
	[[ -d "$kdir/usr/include" ]] || die "$kdir has no usr/include; build the kernel first"
}

# What every command that boots both kernels does first: install the
# packages, prepare the kernel tree, build (or find in the cache) the
# stock and the patched kernel. Fills the caller's "declare -A kernel".
# shellcheck disable=SC2154 # "kernel" is the caller's associative array
prepare_kernels() {
	"$REPO_DIR/scripts/setup.sh"
	"$REPO_DIR/scripts/kernel-tree.sh"
	kernel[stock]="$("$REPO_DIR/scripts/build-kernel.sh" stock)"
	kernel[patched]="$("$REPO_DIR/scripts/build-kernel.sh" patched)"
}
