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
# shellcheck source=scripts/real/crun.sh
source /tests/crun.sh
echo "# suite: real/crun-docker-default"
tap_force_uring
echo "# $(crun --version | head -1)"
rc=0
run_bundle config.json "$URING_SECCOMP_EXPECT" uring-docker-default || rc=$?
check "crun ran the bundle with Docker's default profile (exit $rc)" test "$rc" = 0
tap_lines container </run/uring-docker-default.out
tap_end
