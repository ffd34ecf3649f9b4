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
#include <time.h>
#include <liburing.h>
#include <linux/openat2.h>

#include "bench_fixtures.h"
#include "bench_ops.h"
#include "side_ops.h"

#define OPEN_PATH	"/tmp/side-bench-file"
#define SOCK_PATH	"/tmp/side-bench-sock"
/*
 * Guest time side_settle() sleeps (free with -icount sleep=off): the
 * kernel frees what the closes and the SQEs left to RCU then, not in the
 * next measured loop (a socket's inode, say).
 */
#define SETTLE_NS	5000000

static const char *const names[SIDE_OP_COUNT] = {
	[SIDE_NOP] = "nop", [SIDE_READ] = "read",
	[SIDE_OPENAT2] = "openat2", [SIDE_OPENAT2_CREAT] = "openat2_creat",
	[SIDE_SOCKET] = "socket", [SIDE_SOCKET_VSOCK] = "socket_vsock",
	[SIDE_CONNECT] = "connect",
};

/* The twins, as io_uring/opdef.c of the patched kernel has them */
static const int nrs[SIDE_OP_COUNT] = {
	[SIDE_NOP] = __NR_io_uring_enter, [SIDE_READ] = __NR_pread64,
	[SIDE_OPENAT2] = __NR_openat2, [SIDE_OPENAT2_CREAT] = __NR_openat2,
	[SIDE_SOCKET] = __NR_socket, [SIDE_SOCKET_VSOCK] = __NR_socket,
	[SIDE_CONNECT] = __NR_connect,
};

static struct bench_fixture fx = BENCH_FIXTURE_INIT;
/* The fds rounds made, for side_settle() */
static int kept[SIDE_KEEP_MAX];
static unsigned int nkept;
static const struct open_how how_rdonly = { .flags = O_RDONLY };
static const struct open_how how_creat = {
	.flags = O_RDWR | O_CREAT, .mode = 0600,
};

const char *side_op_name(enum side_op op)
{
	return names[op];
}

int side_op_nr(enum side_op op)
{
	return nrs[op];
}

int side_op_prepare(enum side_op op)
{
	switch (op) {
	case SIDE_READ:
		return fixture_block(&fx);
	case SIDE_OPENAT2:
	case SIDE_OPENAT2_CREAT:
		return fixture_file(OPEN_PATH);
	case SIDE_CONNECT:
		return fixture_sockets(&fx, SOCK_PATH);
	default:
		return 0;
	}
}

int side_ring_init(struct io_uring *ring)
{
	int ret = io_uring_queue_init(2 * BENCH_BATCH, ring,
				      IORING_SETUP_SUBMIT_ALL);

	return ret < 0 ? ret : 0;
}

/* Whether @res is what @op returns when nothing refuses it */
static bool allowed_result(enum side_op op, int res)
{
	switch (op) {
	case SIDE_NOP:
		return res == 0;
	case SIDE_READ:
		return res == BENCH_READ_SIZE;
	case SIDE_OPENAT2:
	case SIDE_OPENAT2_CREAT:
	case SIDE_SOCKET:
		return res >= 0;
	case SIDE_SOCKET_VSOCK:
		return res >= 0 || res == -EAFNOSUPPORT;
	case SIDE_CONNECT:
		return res == -ECONNREFUSED;
	default:
		return false;
	}
}

void side_prep(struct io_uring_sqe *sqe, enum side_op op)
{
	switch (op) {
	case SIDE_READ:
		io_uring_prep_read(sqe, fx.block_fd, fx.block_buf,
				   BENCH_READ_SIZE, 0);
		break;
	case SIDE_OPENAT2:
		io_uring_prep_openat2(sqe, AT_FDCWD, OPEN_PATH,
				      (struct open_how *)&how_rdonly);
		break;
	case SIDE_OPENAT2_CREAT:
		io_uring_prep_openat2(sqe, AT_FDCWD, OPEN_PATH,
				      (struct open_how *)&how_creat);
		break;
	case SIDE_SOCKET:
		io_uring_prep_socket(sqe, AF_UNIX, SOCK_STREAM, 0, 0);
		break;
	case SIDE_SOCKET_VSOCK:
		io_uring_prep_socket(sqe, AF_VSOCK, SOCK_STREAM, 0, 0);
		break;
	case SIDE_CONNECT:
		io_uring_prep_connect(sqe, fx.sock_fd,
				      (struct sockaddr *)&fx.addr,
				      sizeof(fx.addr));
		break;
	default:
		io_uring_prep_nop(sqe);
	}
}

/* Whether @op's result, when not an error, is an fd it made */
static bool makes_fd(enum side_op op)
{
	return op != SIDE_NOP && op != SIDE_READ && op != SIDE_CONNECT;
}

/* Keep @fd for side_settle(); false if there is no room left */
static bool keep(int fd)
{
	if (nkept == SIDE_KEEP_MAX) {
		close(fd);
		return false;
	}
	kept[nkept++] = fd;
	return true;
}

int side_round(void *arg, int count)
{
	const struct side_round *r = arg;
	struct io_uring_cqe *cqes[BENCH_BATCH];
	struct io_uring_sqe *sqe;
	int i, n, res, bad = 0;

	if (!count)
		return 0;
	for (i = 0; i < count; i++) {
		sqe = io_uring_get_sqe(r->ring);
		if (!sqe)
			return count;
		side_prep(sqe, r->op);
	}
	if (io_uring_submit_and_wait(r->ring, count) < 0)
		return count;
	n = io_uring_peek_batch_cqe(r->ring, cqes, count);
	for (i = 0; i < n; i++) {
		res = cqes[i]->res;
		bad += r->refused ? res != -r->refused :
				    !allowed_result(r->op, res);
		if (res >= 0 && makes_fd(r->op))
			bad += !keep(res);
	}
	io_uring_cq_advance(r->ring, n);
	return bad + count - n;
}

void side_settle(void *arg)
{
	const struct timespec pause = { .tv_nsec = SETTLE_NS };

	(void)arg;
	while (nkept)
		close(kept[--nkept]);
	nanosleep(&pause, NULL);
}

int side_run_one(struct io_uring *ring, enum side_op op)
{
	struct io_uring_cqe *cqe;
	int res;

	side_prep(io_uring_get_sqe(ring), op);
	res = io_uring_submit_and_wait(ring, 1);
	if (res < 0)
		return res;
	res = io_uring_peek_cqe(ring, &cqe);
	if (res < 0)
		return res;
	res = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	if (res >= 0 && makes_fd(op))
		close(res);
	return res;
}
