/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SQEs of the side-by-side benchmark (side_by_side.c): an operation
 * each policy allows and, where one refuses something, the same opcode
 * with the arguments it refuses. Submitted BENCH_BATCH per
 * io_uring_enter(2), as bench_ops.h's are.
 */
#ifndef SIDE_OPS_H
#define SIDE_OPS_H

#include <stdbool.h>

enum side_op {
	SIDE_NOP,		/* IORING_OP_NOP */
	SIDE_READ,		/* IORING_OP_READ, 4 KiB O_DIRECT at offset 0
				 * of /dev/nullb0 */
	SIDE_OPENAT2,		/* IORING_OP_OPENAT2 O_RDONLY of a tmpfs
				 * file */
	SIDE_OPENAT2_CREAT,	/* the same with O_RDWR | O_CREAT (the file
				 * exists: opened); policy A refuses it */
	SIDE_SOCKET,		/* IORING_OP_SOCKET AF_UNIX, SOCK_STREAM */
	SIDE_SOCKET_VSOCK,	/* the same with AF_VSOCK, which policy A
				 * refuses (unfiltered: EAFNOSUPPORT where
				 * the kernel has no vsock) */
	SIDE_CONNECT,		/* IORING_OP_CONNECT of an AF_UNIX stream
				 * socket to a bound socket that does not
				 * listen: ECONNREFUSED */
	SIDE_OP_COUNT,
};

/* side_op_name - the name in the benchmark's output */
const char *side_op_name(enum side_op op);

/* side_op_nr - the system call @op's opcode is judged as by seccomp */
int side_op_nr(enum side_op op);

/*
 * side_op_prepare - make what @op uses (the block device, the file, the
 * sockets). Call before loading filters. Returns 0 or -errno.
 */
int side_op_prepare(enum side_op op);

struct io_uring;
struct io_uring_sqe;

/*
 * side_ring_init - set up @ring for rounds of BENCH_BATCH, with
 * IORING_SETUP_SUBMIT_ALL: without it, an SQE io_uring's filters refuse
 * ends the submission of its batch (io_submit_sqes()), while one seccomp
 * refuses does not. io_uring task filters are copied into a ring when it
 * is set up, so set it up after registering them. Returns 0 or -errno.
 */
int side_ring_init(struct io_uring *ring);

/* A round: what it submits, where, and what each result must be */
struct side_round {
	struct io_uring *ring;
	enum side_op op;
	int refused;		/* 0: allowed; else the errno refusing it */
};

/* The most fds rounds keep open until side_settle() */
#define SIDE_KEEP_MAX	16384

/*
 * side_round - submit @count (0 or BENCH_BATCH) SQEs of @arg's op (@arg
 * is a struct side_round) with one io_uring_enter(2) and reap them. The
 * fds they make are kept open for side_settle(), so that no close(2)
 * (which a seccomp filter makes dearer) is in the measured loop. Returns
 * how many results were not what @arg expects, an fd with no room to
 * keep it included. A bench_round_fn.
 */
int side_round(void *arg, int count);

/*
 * side_settle - close the fds side_round() kept, then sleep a few ms of
 * guest time, so that what the kernel frees through RCU is freed outside
 * the measured loops. A bench_settle_fn.
 */
void side_settle(void *arg);

/* side_prep - fill @sqe with @op */
void side_prep(struct io_uring_sqe *sqe, enum side_op op);

/*
 * side_run_one - submit one SQE of @op on @ring and return its result
 * (an fd it made is closed). For the behaviour checks.
 */
int side_run_one(struct io_uring *ring, enum side_op op);
#endif
