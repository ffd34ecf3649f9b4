#!/bin/bash
# systemd: transient services (systemd-run) under
# SystemCallFilter=@system-service plus the io_uring system calls and
# RestrictAddressFamilies=AF_UNIX, systemd 252's own filters, with
# kernel.seccomp.uring_force=1 on the patched kernel:
# - Debian's fio, ioengine=io_uring, reads /dev/nullb0 (null_blk): it
#   completes with no error and reads all it was asked to;
# - uring-policy: allowed io_uring work succeeds; socket(AF_INET) (refused
#   by RestrictAddressFamilies=, EAFNOSUPPORT), futex_wait and futex_wake
#   (not in systemd 252's @system-service, which lists futex; refused with
#   SystemCallErrorNumber=EPERM) are refused as system calls and as SQEs,
#   and did not happen.
# It also prints @system-service as this systemd expands it ("#
# system-service-set:" lines), from which the host makes the README's
# compatibility table (scripts/uring-compat-table.py).
set -euo pipefail
# shellcheck source=scripts/real/tap.sh
source /tests/tap.sh
echo "# suite: real/systemd-run-system-service"
tap_force_uring

# expand GROUP: the system calls of a systemd syscall group, nested groups
# expanded
expand() {
	local name
	systemd-analyze syscall-filter "$1" | tail -n +2 | while read -r name; do
		case "$name" in
		'' | '#'*) ;;
		@*) expand "$name" ;;
		*) echo "$name" ;;
		esac
	done
}
expand @system-service | sort -u | xargs -n 16 echo "# system-service-set:"

filter=(-p SystemCallFilter=@system-service
	-p "SystemCallFilter=io_uring_setup io_uring_enter io_uring_register"
	-p RestrictAddressFamilies=AF_UNIX)

rc=0
systemd-run --wait --pipe --quiet "${filter[@]}" \
	fio --name=uring-nullb0 --filename=/dev/nullb0 --ioengine=io_uring \
	--rw=randread --bs=4k --size=64M --iodepth=16 --direct=1 \
	--output-format=terse --terse-version=3 >/run/fio.out 2>&1 || rc=$?
check "fio (io_uring) under @system-service exits 0 (exit $rc)" test "$rc" = 0
sed 's/^/# fio: /' /run/fio.out
# terse v3: field 5 is the job's error, 6 the KiB read
line="$(grep '^3;' /run/fio.out | head -1 || true)"
err="$(cut -d';' -f5 <<<"$line")" kib="$(cut -d';' -f6 <<<"$line")"
check "fio reports no error (error ${err:-none})" test "${err:-x}" = 0
check "fio read all 64 MiB (${kib:-0} KiB)" test "${kib:-0}" = 65536

rc=0
systemd-run --wait --pipe --quiet "${filter[@]}" -p SystemCallErrorNumber=EPERM \
	-p PrivateTmp=yes -p WorkingDirectory=/tmp -E "URING_SECCOMP_EXPECT=$URING_SECCOMP_EXPECT" \
	/tests/bin/uring-policy work socket=2:EAFNOSUPPORT futex_wait=EPERM futex_wake=EPERM \
	>/run/policy.out 2>&1 || rc=$?
check "uring-policy under @system-service ran to its end (exit $rc)" grep -qx '[01]' <<<"$rc"
tap_lines service </run/policy.out
tap_end
