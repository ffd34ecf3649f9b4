/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two policies of the side-by-side benchmark (bench/micro/side_by_side.c),
 * each written for both mechanisms that can judge io_uring operations on
 * Linux 7.3: our opted-in seccomp filters (SECCOMP_FILTER_FLAG_URING) and
 * upstream's io_uring task filters (IORING_REGISTER_BPF_FILTER, 7.0).
 *
 *   POLICY_A  refuse socket(AF_VSOCK, ...) and openat/openat2 with
 *             O_CREAT, allow the rest
 *   POLICY_B  refuse every io_uring operation but READ, WRITE and NOP
 */
#ifndef SIDE_POLICY_H
#define SIDE_POLICY_H

enum side_policy { POLICY_A, POLICY_B };

/*
 * side_policy_seccomp - set no_new_privs and load @policy as one seccomp
 * filter with the seccomp(2) filter @flags (SECCOMP_FILTER_FLAG_URING and
 * SECCOMP_FILTER_FLAG_EXT_ARGS to judge SQEs; SECCOMP_FILTER_FLAG_EXT_ARGS
 * alone for a filter that judges system calls only). It refuses with
 * ERRNO(EPERM). POLICY_B's filter also allows, to system calls only (its
 * extension area's SECCOMP_EXT_URING is clear), what the benchmark itself
 * calls once loaded. Returns 0 or -errno.
 */
int side_policy_seccomp(enum side_policy policy, unsigned int flags);

/*
 * side_policy_uring - set no_new_privs and register @policy as io_uring
 * task filters (IORING_REGISTER_BPF_FILTER on fd -1): rings current sets
 * up from now on copy them, and refuse with -EACCES. POLICY_A: one
 * filter for SOCKET (the family), one for OPENAT and OPENAT2 (the flags),
 * none for any other opcode. POLICY_B: an allow filter for READ, WRITE
 * and NOP, the last one registered with IO_URING_BPF_FILTER_DENY_REST.
 * Returns 0 or -errno.
 */
int side_policy_uring(enum side_policy policy);

/*
 * side_uring_filter - register one io_uring task filter for @opcode with
 * IO_URING_BPF_FILTER_* @flags: @allow a filter that allows everything,
 * or one that refuses everything. For the behaviour checks. Returns 0 or
 * -errno.
 */
int side_uring_filter(int opcode, int allow, unsigned int flags);
#endif
