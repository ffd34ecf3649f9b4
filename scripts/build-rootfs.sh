#!/bin/bash
# Usage: scripts/build-rootfs.sh
# Builds the root filesystem of the real-software guest (issue 16): Debian
# 12 (bookworm), debootstrap's minbase plus Debian's own, unmodified
# systemd, crun, MariaDB, fio and plocate, from the Debian mirror the
# host's apt sources name. Packs it into a 4 GiB sparse ext4 image with
# mkfs.ext4 -d (no loop mount), cached as
#   $CACHE_DIR/rootfs/<key>.img       the image (root=/dev/vda)
#   $CACHE_DIR/rootfs/<key>.manifest  versions and every package installed
# where <key> hashes this script and its package list; a rerun with the
# same key reuses the image. Prints the image's path on stdout.
#
# The guest it is made for: kernel-patches/guest.config (its real-software
# section), QEMU with -no-reboot, the image as the first virtio disk
# (boot it with snapshot=on to keep the cached image pristine), the
# console on ttyS0. root logs in without a password. At the end of the
# boot uring-seccomp-tests.service runs /tests/run-real.sh (or the
# command uring_seccomp.run= names) with its output on ttyS0, prints
# "# guest-done rc=N" and reboots, which ends QEMU (no login prompt on
# ttyS0 then: agetty would hang up the tests' terminal). /tests is in the
# image or on a second disk (/dev/vdb, ext4, e.g. made with mkfs.ext4 -d
# from a directory). uring_seccomp.interactive on the kernel command line
# skips the tests and leaves a login prompt. mariadb.service is installed
# but not started at boot: the tests start it with the filters they test.
#
# Runs as root, in a mount namespace of its own where it can make one
# (debootstrap's and the chroot's mounts never reach the host), and
# changes nothing on the host but CACHE_DIR and the packages it installs
# when missing.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

# Debian's packages for the guest; the rest of the Depends come along.
# liburing2 is listed although mariadb-server pulls it in: plocate and
# fio use it too, and the tests are about it.
packages=(
	systemd systemd-sysv udev dbus
	crun
	mariadb-server mariadb-client
	fio liburing2 plocate
	util-linux procps iproute2 e2fsprogs
)
# units that would need the network, or would start work of their own at
# a random moment of a test run (timers)
masked=(
	systemd-networkd.service systemd-networkd.socket systemd-networkd-wait-online.service
	apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer
	e2scrub_all.timer e2scrub_reap.service fstrim.timer plocate-updatedb.timer
)
suite=bookworm
image_size=4G

[[ $EUID -eq 0 ]] || die "run as root (debootstrap, chroot and mkfs.ext4 -d need it)"
# A mount namespace of its own where the root can be made private; in a
# chroot (whose root is no mount point, e.g. ../shared/fresh-debian.sh)
# it cannot, and the build runs in the caller's: cleanup() below
# unmounts whatever it mounted there.
if [[ -z "${URING_SECCOMP_ROOTFS_NS:-}" ]]; then
	if unshare --mount --propagation private true 2>/dev/null; then
		URING_SECCOMP_ROOTFS_NS=1 exec unshare --mount --propagation private -- "$0" "$@"
	fi
	log "no private mount namespace here (a chroot?): building in this one"
fi

key="$({
	cat "$0"
	printf '%s\n' "${packages[@]}"
} | sha256sum | cut -c1-16)"
dir="$CACHE_DIR/rootfs"
img="$dir/$key.img"
manifest="$dir/$key.manifest"
mkdir -p "$dir"
exec 7>"$dir/$key.lock"
flock 7
if [[ -f "$img" && -f "$manifest" ]]; then
	echo "$img"
	exit 0
fi

host_packages=(debootstrap e2fsprogs binutils debian-archive-keyring)
apt_install_missing "${host_packages[@]}"

# The URI of the host's apt source that serves SUITE (one-line .list or
# deb822 .sources format), or nothing.
host_uri() {
	local name="$1" f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[[ -f "$f" ]] || continue
		# (the options in brackets dropped: "deb URI SUITE COMPONENT...")
		sed -E 's/\[[^]]*\]//' "$f" | awk -v s="$name" '$1 == "deb" && $3 == s { print $2; exit }'
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[[ -f "$f" ]] || continue
		awk -v s="$name" 'BEGIN { RS = ""; FS = "\n" } {
			types = uris = suites = ""; on = 1
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^Types:/) types = " " substr($i, 7) " "
				else if ($i ~ /^URIs:/) uris = substr($i, 6)
				else if ($i ~ /^Suites:/) suites = " " substr($i, 8) " "
				else if ($i ~ /^Enabled: *no/) on = 0
			}
			if (on && types ~ / deb / && suites ~ " " s " ") { split(uris, u, " "); print u[1]; exit }
		}' "$f"
	done | head -1
}
mirror="$(host_uri "$suite")"
security="$(host_uri "$suite-security")"
if [[ -z "$mirror" ]]; then
	mirror=http://deb.debian.org/debian
	log "no apt source of the host serves $suite; using $mirror"
fi
[[ -n "$security" ]] || security=http://deb.debian.org/debian-security
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

stage="$dir/$key.tree"
# Whatever is still mounted in the tree goes first, and rm stays on the
# tree's file system: debootstrap bind-mounts the host's /dev where it
# thinks it runs in a container.
cleanup() {
	local m
	while read -r m; do
		umount -l "$m" 2>/dev/null || true
	done < <(findmnt -rn -o TARGET | grep -F "$stage/" | sort -r)
	rm -rf --one-file-system "$stage" "$img.tmp" "$manifest.tmp"
}
cleanup
trap cleanup EXIT
in_root() {
	chroot "$stage" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C \
		DEBIAN_FRONTEND=noninteractive "$@"
}

log "debootstrap $suite (minbase) from $mirror"
debootstrap --variant=minbase --keyring="$keyring" "$suite" "$stage" "$mirror" >&2

# the host's suites (updates and security too), for the install below
rm -f "$stage/etc/apt/sources.list"
cat >"$stage/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: $suite $suite-updates
Components: main
Signed-By: $keyring

Types: deb
URIs: $security
Suites: $suite-security
Components: main
Signed-By: $keyring
EOF
# no service starts in the chroot; /proc is there until the versions
# below are read (crun re-executes itself through /proc/self/exe)
printf '#!/bin/sh\nexit 101\n' >"$stage/usr/sbin/policy-rc.d"
chmod 755 "$stage/usr/sbin/policy-rc.d"
mount -t proc proc "$stage/proc"
log "installing: ${packages[*]}"
# (no /dev/pts in the chroot: dpkg runs without a pseudo-terminal)
apt=(apt-get -y -q -o Dpkg::Use-Pty=0)
in_root "${apt[@]}" update >/dev/null
in_root "${apt[@]}" dist-upgrade >/dev/null
in_root "${apt[@]}" install --no-install-recommends "${packages[@]}" >/dev/null
in_root "${apt[@]}" clean
rm -f "$stage/usr/sbin/policy-rc.d"
rm -rf "$stage"/var/lib/apt/lists/* "$stage"/var/cache/apt/*.bin \
	"$stage"/var/log/apt/* "$stage"/var/log/dpkg.log "$stage"/var/log/bootstrap.log

log "configuring the guest"
echo uring-guest >"$stage/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\turing-guest\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
	>"$stage/etc/hosts"
rm -f "$stage/etc/resolv.conf"
# empty: systemd makes one up at each boot of the (snapshot) image
: >"$stage/etc/machine-id"
rm -f "$stage/var/lib/dbus/machine-id"
in_root passwd -dq root
cat >"$stage/etc/fstab" <<'EOF'
# <file system> <mount point> <type> <options> <dump> <pass>
/dev/vda  /       ext4  rw,relatime,errors=remount-ro  0  1
# the tests, when they come on a second disk rather than in the image
# (udev's coldplug under QEMU's TCG takes seconds: a 5 s timeout expired
# before /dev/vdb was announced)
/dev/vdb  /tests  ext4  rw,nofail,x-systemd.device-timeout=60s  0  0
EOF
mkdir -p "$stage/tests" "$stage/etc/systemd/journald.conf.d"
# the journal in memory: nothing of a run is kept on the image
printf '[Journal]\nStorage=volatile\n' >"$stage/etc/systemd/journald.conf.d/uring-seccomp.conf"

cat >"$stage/usr/local/sbin/uring-seccomp-tests" <<'EOF'
#!/bin/sh
# Runs the command uring_seccomp.run= names on the kernel command line
# (default /tests/run-real.sh) from uring-seccomp-tests.service, between
# the markers the host's scripts look for.
run=/tests/run-real.sh
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case "$arg" in
	uring_seccomp.run=*) run="${arg#uring_seccomp.run=}" ;;
	esac
done
cd /tmp || exit 1
echo
read -r up _ </proc/uptime
echo "# guest: $(uname -r), $(systemctl --version | head -1), up $up s, running $run"
if [ -x "$run" ]; then
	"$run"
	rc=$?
else
	echo "# guest: $run is missing"
	rc=127
fi
echo "# guest-done rc=$rc"
sync
EOF
chmod 755 "$stage/usr/local/sbin/uring-seccomp-tests"
cat >"$stage/etc/systemd/system/uring-seccomp-tests.service" <<'EOF'
[Unit]
Description=uring-seccomp tests on the serial console, then reboot (QEMU -no-reboot exits)
# Last of the boot: after multi-user.target, which wants this unit. A
# unit a target wants is ordered before it unless it drops the default
# dependencies, so it does, and names the ones it needs.
DefaultDependencies=no
Requires=sysinit.target
After=sysinit.target basic.target multi-user.target tests.mount
Conflicts=shutdown.target
Before=shutdown.target
ConditionKernelCommandLine=!uring_seccomp.interactive

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/uring-seccomp-tests
# whatever the tests did; the kernel has no ACPI, so no poweroff: QEMU
# runs with -no-reboot and ends on the reboot
ExecStopPost=/usr/bin/systemctl reboot --force
TimeoutStartSec=infinity
StandardOutput=tty
StandardError=inherit
TTYPath=/dev/ttyS0
TTYReset=no
TTYVHangup=no

[Install]
WantedBy=multi-user.target
EOF
# The login prompt on ttyS0 only when asked for: agetty hangs up the
# terminal it opens (vhangup), which under TCG's slow start came in the
# middle of the tests and killed the test unit with SIGHUP.
mkdir -p "$stage/etc/systemd/system/serial-getty@ttyS0.service.d"
printf '[Unit]\nConditionKernelCommandLine=uring_seccomp.interactive\n' \
	>"$stage/etc/systemd/system/serial-getty@ttyS0.service.d/uring-seccomp.conf"
in_root systemctl enable -q uring-seccomp-tests.service serial-getty@ttyS0.service
in_root systemctl disable -q mariadb.service
in_root systemctl mask -q "${masked[@]}"

# what the issue's tests need, and what they run
for f in usr/bin/crun usr/bin/systemd-run usr/bin/fio usr/sbin/mariadbd usr/bin/mariadb usr/bin/plocate; do
	[[ -x "$stage/$f" ]] || die "/$f is missing from the root filesystem"
done
{
	echo "# $suite root filesystem $key, built $(date -u +%FT%TZ) from $mirror"
	echo "crun: $(in_root crun --version | head -1)"
	echo "systemd: $(in_root systemctl --version | head -1)"
	echo "mariadbd: $(in_root mariadbd --version)"
	echo "fio: $(in_root fio --version)"
	echo "mariadbd NEEDED: $(readelf -d "$stage/usr/sbin/mariadbd" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' ')"
	echo "# packages"
	# shellcheck disable=SC2016 # dpkg-query's own ${...}
	in_root dpkg-query -W -f='${Package} ${Version}\n'
} >"$manifest.tmp"
umount "$stage/proc"

log "packing $(du -sh "$stage" | cut -f1) into a $image_size ext4 image"
truncate -s "$image_size" "$img.tmp"
mkfs.ext4 -q -F -L uring-rootfs -d "$stage" "$img.tmp"
mv "$manifest.tmp" "$manifest"
mv "$img.tmp" "$img"
echo "$img"
