#!/bin/bash
# The guest booted Debian's systemd as init from the root disk, with no
# failed unit, on the kernel the host said it booted.
set -euo pipefail
# shellcheck source=scripts/real/tap.sh
source /tests/tap.sh
echo "# suite: real/boot"
init="$(readlink /proc/1/exe)"
check "systemd is init ($init)" test "$init" = /usr/lib/systemd/systemd
root="$(findmnt -n -o SOURCE,FSTYPE /)"
check "the root file system is /dev/vda, ext4 ($root)" test "$root" = "/dev/vda ext4"
failed="$(systemctl list-units --failed --plain --no-legend | awk '{print $1}' | tr '\n' ' ')"
check "no failed units${failed:+: $failed}" test -z "$failed"
echo "# boot: $(systemd-analyze time 2>&1 | head -1)"
# (this unit itself is still starting: "starting", or "running" if not)
state="$(systemctl is-system-running || true)"
check "the system state is starting or running ($state)" \
	grep -qxE 'starting|running' <<<"$state"
tap_end
