#!/bin/bash
# Usage: scripts/setup.sh
# Installs every build and test dependency with apt-get (Debian 12) and
# checks that the kernel source tarball is Linux 6.12.x. Does nothing
# more when everything is already installed.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

packages=(
	build-essential flex bison bc libelf-dev libssl-dev cpio kmod xz-utils rsync
	git python3 python3-ply python3-git perl file qemu-system-x86 busybox-static linux-source-6.12
	liburing-dev libseccomp-dev libjson-c-dev libcap-dev fio gnuplot-nox iproute2 procps
	# the series is cross-built (compiled, not booted) for other architectures
	gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf gcc-riscv64-linux-gnu gcc-powerpc64-linux-gnu
	# Podman's default seccomp profile, /usr/share/containers/seccomp.json
	golang-github-containers-common
)
missing=()
for p in "${packages[@]}"; do
	status="$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)"
	[[ "$status" == *"ok installed" ]] || missing+=("$p")
done
if ((${#missing[@]})); then
	log "installing: ${missing[*]}"
	[[ $EUID -eq 0 ]] || die "run as root (apt-get install ${missing[*]})"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

[[ -f "$LINUX_TARBALL" ]] || die "$LINUX_TARBALL missing after installing linux-source-6.12"
# (the listing is cut after its first line, so tar's SIGPIPE is expected)
first="$(tar -tJf "$LINUX_TARBALL" 2>/dev/null | head -1 || true)"
version="$(sed -n 's|^linux-source-\([0-9.]*\)/.*|\1|p' <<<"$first")"
[[ "$version" == 6.12* ]] || die "$LINUX_TARBALL holds '$version', not Linux 6.12.x"
