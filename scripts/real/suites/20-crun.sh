#!/bin/bash
# Container: Debian's crun runs the OCI bundle /tests/bundle, whose
# config.json carries Docker's default seccomp profile converted as
# Docker converts it, plus io_uring_setup, io_uring_enter and
# io_uring_register (scripts/docker-seccomp-to-oci.py; crun compiles it
# to BPF itself), with kernel.seccomp.uring_force=1 on the patched
# kernel. Inside, uring-policy: allowed io_uring work succeeds, and
# socket(AF_ALG) and socket(AF_VSOCK), the families (38, 40) the profile's
# socket rules leave out (EPERM, its default action), are refused as
# system calls and as IORING_OP_SOCKET, with no descriptor made.
set -euo pipefail
# shellcheck source=scripts/real/tap.sh
source /tests/tap.sh
echo "# suite: real/crun-docker-default"
tap_force_uring
bundle=/run/uring-bundle
rm -rf "$bundle"
cp -a /tests/bundle "$bundle"
sed -i "s/@EXPECT@/$URING_SECCOMP_EXPECT/" "$bundle/config.json"
echo "# $(crun --version | head -1)"
rc=0
crun run --bundle "$bundle" uring-docker-default >/run/crun.out 2>&1 || rc=$?
check "crun ran the bundle with Docker's default profile (exit $rc)" test "$rc" = 0
tap_lines container </run/crun.out
crun delete -f uring-docker-default >/dev/null 2>&1 || true
tap_end
