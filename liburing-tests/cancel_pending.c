// SPDX-License-Identifier: GPL-2.0
/*
 * Cancellation under a filter. Requests are judged when submitted, so:
 *  1. Two reads pending on an empty pipe, then a filter refusing pread64 and read
 *     on that pipe: data still completes one of them (it is not judged
 *     again), IORING_OP_ASYNC_CANCEL (judged as io_uring_enter, allowed)
 *     cancels the other (-ECANCELED), a new read is refused (-EPERM),
 *     and cancelling the refused one finds nothing (-ENOENT).
 *  2. A filter refusing io_uring_enter from SQEs only (instruction_pointer
 *     is 0 for an SQE): an ASYNC_CANCEL SQE is refused (-EPERM) and the
 *     pending read it aimed at is not lost: it completes when data comes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#define URING_SECCOMP_LIBSECCOMP
#include "uring_seccomp.h"

/* The next CQE within 300 ms: its user_data and res; 0 if one came. */
static int next_cqe(struct io_uring *ring, unsigned long long *ud, int *res)
{
	struct __kernel_timespec ts = { .tv_nsec = 300000000L };
	struct io_uring_cqe *cqe;

	if (io_uring_wait_cqe_timeout(ring, &cqe, &ts))
		return -1;
	*ud = cqe->user_data;
	*res = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return 0;
}

static void submit_read(struct io_uring *ring, int fd, char *buf, unsigned long long ud)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	io_uring_prep_read(sqe, fd, buf, 8, -1);
	sqe->user_data = ud;
	io_uring_submit(ring);
}

static void submit_cancel(struct io_uring *ring, unsigned long long target,
			  unsigned long long ud)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	io_uring_prep_cancel64(sqe, target, 0);
	sqe->user_data = ud;
	io_uring_submit(ring);
}

/* Expect the next CQEs, in any order, to be exactly @n (ud, res) pairs. */
static int expect(struct io_uring *ring, const char *what, int n,
		  const unsigned long long *ud, const int *res)
{
	int seen[4] = { 0 }, got_res, bad = 0, i, j;
	unsigned long long got_ud;

	for (i = 0; i < n; i++) {
		if (next_cqe(ring, &got_ud, &got_res)) {
			printf("%s: CQE %d of %d did not come\n", what, i + 1, n);
			return 1;
		}
		for (j = 0; j < n && (got_ud != ud[j] || seen[j]); j++)
			;
		printf("%s: user_data %llu res %d%s\n", what, got_ud, got_res,
		       j < n && got_res == res[j] ? "" : "  <-- not expected");
		if (j < n && got_res == res[j])
			seen[j] = 1;
		else
			bad = 1;
	}
	if (!next_cqe(ring, &got_ud, &got_res)) {
		printf("%s: unexpected CQE user_data %llu res %d\n", what, got_ud, got_res);
		bad = 1;
	}
	return bad;
}

int main(void)
{
	char a[8], b[8], c[8], d[8];
	int p1[2], p2[2], failed = 0, stock, res;
	unsigned long long ud;
	struct io_uring ring;
	scmp_filter_ctx ctx;

	if (pipe(p1) || pipe(p2))
		return T_EXIT_FAIL;
	t_create_ring(&ring, 8);

	/* 1: pending requests are not judged again; cancel and refusal */
	submit_read(&ring, p1[0], a, 1);
	submit_read(&ring, p1[0], b, 2);
	ctx = t_filter(SCMP_ACT_ALLOW);
	/* a read at the file position (offset -1) is judged as read */
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), pread64, 1, SCMP_A0(SCMP_CMP_EQ, p1[0]));
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), read, 1, SCMP_A0(SCMP_CMP_EQ, p1[0]));
	stock = t_load(ctx);
	if (write(p1[1], "four", 4) != 4)
		return T_EXIT_FAIL;
	/* io_uring wakes either: the one that read cancels the other */
	if (next_cqe(&ring, &ud, &res) || (ud != 1 && ud != 2) || res != 4) {
		printf("data for the pending reads: no read completed with it\n");
		return T_EXIT_FAIL;
	}
	printf("data for the pending reads: user_data %llu res %d\n", ud, res);
	submit_cancel(&ring, 3 - ud, 10);
	failed += expect(&ring, "cancel the other pending read", 2,
			 (unsigned long long[]){ 10, 3 - ud }, (int[]){ 0, -ECANCELED });
	submit_read(&ring, p1[0], c, 3);
	if (stock) {
		/* the refused read is pending: the bypass */
		res = next_cqe(&ring, &ud, &res) ? 0 : 1;
		printf("stock: the new read %s\n", res ? "completed" : "is pending (not refused)");
		return T_EXIT_BYPASS;
	}
	failed += expect(&ring, "a new read is refused", 1,
			 (unsigned long long[]){ 3 }, (int[]){ -EPERM });
	submit_cancel(&ring, 3, 11);
	failed += expect(&ring, "cancel the refused read", 1,
			 (unsigned long long[]){ 11 }, (int[]){ -ENOENT });

	/* 2: a refused cancellation leaves its target pending */
	submit_read(&ring, p2[0], d, 4);
	if (t_load_sqe_only(__NR_io_uring_enter, SECCOMP_RET_ERRNO | EPERM)) {
		printf("the flag loaded before, not now\n");
		return T_EXIT_FAIL;
	}
	submit_cancel(&ring, 4, 12);
	failed += expect(&ring, "ASYNC_CANCEL refused as an SQE-born io_uring_enter", 1,
			 (unsigned long long[]){ 12 }, (int[]){ -EPERM });
	if (write(p2[1], "late", 4) != 4)
		return T_EXIT_FAIL;
	failed += expect(&ring, "the read it aimed at still completes", 1,
			 (unsigned long long[]){ 4 }, (int[]){ 4 });
	io_uring_queue_exit(&ring);
	return failed ? T_EXIT_FAIL : T_EXIT_PASS;
}
