/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One SQE at a time on the selftests' raw ring (selftests/uring_raw.h:
 * raw system calls, no liburing), for the real-software guest's
 * programs: they are built statically against the kernel's own UAPI
 * headers, so every opcode the kernel has can be named, whatever
 * liburing the host or the guest ships. Set the ring up with
 * uring_init(&r, entries, 0).
 */
#ifndef URING_SECCOMP_REAL_RING_H
#define URING_SECCOMP_REAL_RING_H

#include "uring_raw.h"

/* A zeroed SQE of @opcode, with @fd. */
void ring_prep(struct io_uring_sqe *sqe, int opcode, int fd);
/*
 * Submit @sqe alone and wait for its completion: returns the CQE's res,
 * or, when io_uring_enter(2) itself fails, INT_MIN (errno says why), so
 * that a refused io_uring_enter is never taken for a refused SQE.
 */
int ring_run(struct uring *r, const struct io_uring_sqe *sqe);

#endif
