// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <liburing.h>
#include <linux/openat2.h>

#include "bench_loop.h"

/* SQEs submitted per io_uring_enter(2) */
#define BATCH		32
#define OPEN_PATH	"/tmp/uring-bench-file"

static struct io_uring ring;
static int null_fd = -1;
static char buf[64];

int bench_prepare(void)
{
	int fd, ret;

	null_fd = open("/dev/null", O_RDONLY);
	if (null_fd < 0)
		return -errno;
	fd = open(OPEN_PATH, O_CREAT | O_WRONLY, 0600);
	if (fd < 0)
		return -errno;
	close(fd);
	ret = io_uring_queue_init(2 * BATCH, &ring, 0);
	return ret < 0 ? ret : 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void syscall_round(enum bench_op op)
{
	struct open_how how = { .flags = O_RDONLY };
	long fd;
	int i;

	for (i = 0; i < BATCH; i++) {
		if (op == OP_READ) {
			if (pread(null_fd, buf, 1, 0) < 0)
				buf[0]++;
			continue;
		}
		fd = syscall(__NR_openat2, AT_FDCWD, OPEN_PATH, &how,
			     sizeof(how));
		if (fd >= 0)
			close(fd);
	}
}

/* One batch of SQEs; returns how many completed with an error. */
static int uring_round(enum bench_op op)
{
	struct open_how how = { .flags = O_RDONLY };
	struct io_uring_cqe *cqes[BATCH];
	struct io_uring_sqe *sqe;
	unsigned int n, i;
	int errors = 0;

	for (i = 0; i < BATCH; i++) {
		sqe = io_uring_get_sqe(&ring);
		if (op == OP_READ)
			io_uring_prep_read(sqe, null_fd, buf, 1, 0);
		else
			io_uring_prep_openat2(sqe, AT_FDCWD, OPEN_PATH, &how);
	}
	if (io_uring_submit_and_wait(&ring, BATCH) < 0)
		return BATCH;
	n = io_uring_peek_batch_cqe(&ring, cqes, BATCH);
	for (i = 0; i < n; i++) {
		if (cqes[i]->res < 0)
			errors++;
		else if (op == OP_OPENAT2)
			close(cqes[i]->res);
	}
	io_uring_cq_advance(&ring, n);
	return errors;
}

double bench_loop(enum bench_path path, enum bench_op op, int min_ms)
{
	uint64_t start, elapsed, ops = 0;

	start = now_ns();
	do {
		if (path == PATH_SYSCALL)
			syscall_round(op);
		else
			uring_round(op);
		ops += BATCH;
		elapsed = now_ns() - start;
	} while (elapsed < (uint64_t)min_ms * 1000000u);
	return (double)elapsed / ops;
}
