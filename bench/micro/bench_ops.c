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

#include "bench_ops.h"

#define BLOCK_DEV	"/dev/nullb0"
#define READ_SIZE	4096
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
static int block_fd = -1, sock_fd = -1;
static void *block_buf;
static const struct open_how how = { .flags = O_RDONLY };
static struct sockaddr_un addr = { .sun_family = AF_UNIX };

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

/*
 * A socket bound to SOCK_PATH that never listens, so connects are refused;
 * left open for the life of the process.
 */
static int bind_refuser(void)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (fd < 0)
		return -errno;
	unlink(SOCK_PATH);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)))
		return -errno;
	return 0;
}

static int open_block(void)
{
	int ret;

	block_fd = open(BLOCK_DEV, O_RDONLY | O_DIRECT);
	if (block_fd < 0)
		return -errno;
	ret = posix_memalign(&block_buf, READ_SIZE, READ_SIZE);
	return -ret;
}

static int create_file(void)
{
	int fd = open(OPEN_PATH, O_CREAT | O_WRONLY, 0600);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int open_sockets(void)
{
	int ret;

	strcpy(addr.sun_path, SOCK_PATH);
	ret = bind_refuser();
	if (ret)
		return ret;
	sock_fd = socket(AF_UNIX, SOCK_STREAM, 0);
	return sock_fd < 0 ? -errno : 0;
}

int bench_ops_prepare(enum bench_op op)
{
	int ret = 0;

	if (op == OP_READ)
		ret = open_block();
	else if (op == OP_OPENAT2)
		ret = create_file();
	else if (op == OP_CONNECT)
		ret = open_sockets();
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
		return res == READ_SIZE;
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
		ret = pread(block_fd, block_buf, READ_SIZE, 0);
		break;
	case OP_OPENAT2:
		ret = syscall(__NR_openat2, AT_FDCWD, OPEN_PATH, &how,
			      sizeof(how));
		break;
	case OP_CONNECT:
		ret = connect(sock_fd, (struct sockaddr *)&addr, sizeof(addr));
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
		io_uring_prep_read(sqe, block_fd, block_buf, READ_SIZE, 0);
		break;
	case OP_OPENAT2:
		io_uring_prep_openat2(sqe, AT_FDCWD, OPEN_PATH,
				      (struct open_how *)&how);
		break;
	case OP_CONNECT:
		io_uring_prep_connect(sqe, sock_fd, (struct sockaddr *)&addr,
				      sizeof(addr));
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
