#!/bin/bash
# Usage: scripts/setup.sh
# Installs every build and test dependency with apt-get (Debian 12):
# linux-source-6.12 from Debian 12, linux-source-7.3 from trixie-backports
# (see apt_backports_install in lib.sh). Checks that each tarball holds
# the Linux version its series is for. Does nothing more when everything
# is already installed.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

packages=(
	build-essential flex bison bc libelf-dev libssl-dev cpio kmod xz-utils rsync
	git python3 python3-ply python3-git perl file qemu-system-x86 busybox-static linux-source-6.12
	debian-archive-keyring
	liburing-dev libseccomp-dev libjson-c-dev libcap-dev fio gnuplot-nox iproute2 procps
	# the series is cross-built (compiled, not booted) for other architectures
	gcc-aarch64-linux-gnu gcc-arm-linux-gnueabihf gcc-riscv64-linux-gnu gcc-powerpc64-linux-gnu
	# Podman's default seccomp profile, /usr/share/containers/seccomp.json
	golang-github-containers-common
)
apt_install_missing "${packages[@]}"

status="$(dpkg-query -W -f='${Status}' linux-source-7.3 2>/dev/null || true)"
if [[ "$status" != *"ok installed" ]]; then
	log "installing linux-source-7.3 from trixie-backports"
	[[ $EUID -eq 0 ]] || die "run as root (linux-source-7.3 from trixie-backports)"
	apt_backports_install linux-source-7.3
fi

for v in "${KERNEL_VERSIONS[@]}"; do
	tarball="/usr/src/linux-source-$v.tar.xz"
	[[ "$v" != "$KERNEL" ]] || tarball="$LINUX_TARBALL"
	[[ -f "$tarball" ]] || die "$tarball missing after installing linux-source-$v"
	# (the listing is cut after its first line, so tar's SIGPIPE is expected)
	first="$(tar -tJf "$tarball" 2>/dev/null | head -1 || true)"
	version="$(sed -n 's|^linux-source-\([0-9.]*\)/.*|\1|p' <<<"$first")"
	[[ "$version" == "$v" ]] || die "$tarball holds '$version', not Linux $v"
done
