// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <liburing.h>
#include <linux/openat2.h>

#include "bench_fixtures.h"
#include "bench_ops.h"

#define OPEN_PATH	"/tmp/uring-bench-file"
#define SOCK_PATH	"/tmp/uring-bench-sock"

static const char *const names[OP_COUNT] = {
	[OP_NOP] = "nop", [OP_GETPID] = "getpid", [OP_READ] = "read",
	[OP_OPENAT2] = "openat2", [OP_CONNECT] = "connect",
};

static const int nrs[OP_COUNT] = {
	[OP_NOP] = __NR_io_uring_enter, [OP_GETPID] = __NR_getpid,
	[OP_READ] = __NR_pread64, [OP_OPENAT2] = __NR_openat2,
	[OP_CONNECT] = __NR_connect,
};

static struct io_uring ring;
static struct bench_fixture fx = BENCH_FIXTURE_INIT;
static const struct open_how how = { .flags = O_RDONLY };

const char *bench_op_name(enum bench_op op)
{
	return names[op];
}

int bench_op_nr(enum bench_op op)
{
	return nrs[op];
}

bool bench_op_has_path(enum bench_op op, enum bench_path path)
{
	return op != OP_GETPID || path == PATH_SYSCALL;
}

int bench_ops_prepare(enum bench_op op)
{
	int ret = 0;

	if (op == OP_READ)
		ret = fixture_block(&fx);
	else if (op == OP_OPENAT2)
		ret = fixture_file(OPEN_PATH);
	else if (op == OP_CONNECT)
		ret = fixture_sockets(&fx, SOCK_PATH);
	if (ret)
		return ret;
	ret = io_uring_queue_init(2 * BENCH_BATCH, &ring, 0);
	return ret < 0 ? ret : 0;
}

/* The result of @op when allowed: true if @res is it */
static bool allowed_result(enum bench_op op, long res)
{
	switch (op) {
	case OP_NOP:
		return res == 0;
	case OP_GETPID:
	case OP_OPENAT2:
		return res > 0;
	case OP_READ:
		return res == BENCH_READ_SIZE;
	case OP_CONNECT:
		return res == -ECONNREFUSED;
	default:
		return false;
	}
}

static bool expected(enum bench_op op, long res, bool denied)
{
	return denied ? res == -EPERM : allowed_result(op, res);
}

/* One syscall of @op; returns its result or -errno */
static long syscall_op(enum bench_op op)
{
	long ret;

	switch (op) {
	case OP_NOP:
		ret = syscall(__NR_io_uring_enter, ring.ring_fd, 0, 0, 0,
			      NULL, 0);
		break;
	case OP_GETPID:
		ret = syscall(__NR_getpid);
		break;
	case OP_READ:
		ret = pread(fx.block_fd, fx.block_buf, BENCH_READ_SIZE, 0);
		break;
	case OP_OPENAT2:
		ret = syscall(__NR_openat2, AT_FDCWD, OPEN_PATH, &how,
			      sizeof(how));
		break;
	case OP_CONNECT:
		ret = connect(fx.sock_fd, (struct sockaddr *)&fx.addr,
			      sizeof(fx.addr));
		break;
	default:
		errno = EINVAL;
		ret = -1;
	}
	return ret < 0 ? -errno : ret;
}

static int syscall_round(enum bench_op op, int count, bool denied)
{
	int i, bad = 0;
	long res;

	for (i = 0; i < count; i++) {
		res = syscall_op(op);
		bad += !expected(op, res, denied);
		if (op == OP_OPENAT2 && res >= 0)
			close(res);
	}
	return bad;
}

static void prep(struct io_uring_sqe *sqe, enum bench_op op)
{
	switch (op) {
	case OP_READ:
		io_uring_prep_read(sqe, fx.block_fd, fx.block_buf,
				   BENCH_READ_SIZE, 0);
		break;
	case OP_OPENAT2:
		io_uring_prep_openat2(sqe, AT_FDCWD, OPEN_PATH,
				      (struct open_how *)&how);
		break;
	case OP_CONNECT:
		io_uring_prep_connect(sqe, fx.sock_fd,
				      (struct sockaddr *)&fx.addr,
				      sizeof(fx.addr));
		break;
	default:
		io_uring_prep_nop(sqe);
	}
}

static int uring_round(enum bench_op op, int count, bool denied)
{
	struct io_uring_cqe *cqes[BENCH_BATCH];
	int i, n, bad = 0;

	if (!count)
		return 0;
	for (i = 0; i < count; i++)
		prep(io_uring_get_sqe(&ring), op);
	if (io_uring_submit_and_wait(&ring, count) < 0)
		return count;
	n = io_uring_peek_batch_cqe(&ring, cqes, count);
	for (i = 0; i < n; i++) {
		bad += !expected(op, cqes[i]->res, denied);
		if (op == OP_OPENAT2 && cqes[i]->res >= 0)
			close(cqes[i]->res);
	}
	io_uring_cq_advance(&ring, n);
	return bad + count - n;
}

int bench_round(enum bench_path path, enum bench_op op, int count,
		bool denied)
{
	if (path == PATH_SYSCALL)
		return syscall_round(op, count, denied);
	return uring_round(op, count, denied);
}
