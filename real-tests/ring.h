/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal io_uring of raw system calls for the real-software guest's
 * programs: they are built statically against the kernel's own UAPI
 * headers, so every opcode the kernel has can be named, whatever
 * liburing the host or the guest ships.
 */
#ifndef URING_SECCOMP_REAL_RING_H
#define URING_SECCOMP_REAL_RING_H

#include <linux/io_uring.h>

struct ring {
	int fd;
	unsigned int entries;
	unsigned int *sq_head, *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

/* Set up @r with @entries; returns 0 or a negative errno. */
int ring_init(struct ring *r, unsigned int entries);
/* A zeroed SQE of @opcode, with @fd. */
void ring_prep(struct io_uring_sqe *sqe, int opcode, int fd);
/*
 * Submit @sqe alone and wait for its completion: returns the CQE's res,
 * or, when io_uring_enter(2) itself fails, INT_MIN (errno says why).
 */
int ring_run(struct ring *r, const struct io_uring_sqe *sqe);

#endif
