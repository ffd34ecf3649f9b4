// SPDX-License-Identifier: GPL-2.0
/* See ring.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "ring.h"

void ring_prep(struct io_uring_sqe *sqe, int opcode, int fd)
{
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = (__u8)opcode;
	sqe->fd = fd;
}

int ring_run(struct uring *r, const struct io_uring_sqe *sqe)
{
	struct io_uring_cqe cqe;
	int ret;

	*uring_sqe(r) = *sqe;
	ret = uring_submit(r, 1);
	if (ret != 1) {
		if (ret >= 0)
			errno = EIO;
		else
			errno = -ret;
		return INT_MIN;
	}
	ret = uring_cqe(r, &cqe);
	if (ret < 0) {
		errno = -ret;
		return INT_MIN;
	}
	return cqe.res;
}
