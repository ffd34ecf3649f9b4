// SPDX-License-Identifier: GPL-2.0
/*
 * An SQE is judged once, when it is submitted: not again when io_uring
 * punts it to io-wq (IOSQE_ASYNC) and not for each completion of a
 * multishot request.
 *  1. Under SECCOMP_RET_TRAP for the twin (each judgment that traps sends
 *     one SIGSYS), a refused IOSQE_ASYNC pread, multishot accept and
 *     multishot recv each give exactly one SIGSYS and one CQE (-ENOSYS,
 *     no IORING_CQE_F_MORE), and nothing is read or accepted although
 *     connections and data arrive afterwards.
 *  2. A multishot accept armed while accept4 was allowed keeps accepting
 *     after a filter refusing accept4 is installed (it was judged when it
 *     was submitted), while a new accept SQE is refused.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "helpers.h"

#define CONNECTIONS 3

static volatile sig_atomic_t sigsys;

static void on_sigsys(int sig)
{
	(void)sig;
	sigsys++;
}

static int connect_to(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)))
		return -1;
	return fd;
}

/* Every CQE that arrives within @ms; counts and flags into the out args. */
static int reap(struct io_uring *ring, int ms, int *first_res, int *more, int *positive)
{
	struct __kernel_timespec ts = { .tv_nsec = ms * 1000000L };
	struct io_uring_cqe *cqe;
	int n = 0;

	*more = *positive = 0;
	while (!io_uring_wait_cqe_timeout(ring, &cqe, &ts)) {
		if (!n)
			*first_res = cqe->res;
		*more += !!(cqe->flags & IORING_CQE_F_MORE);
		*positive += cqe->res >= 0;
		n++;
		io_uring_cqe_seen(ring, cqe);
	}
	return n;
}

/*
 * Part 1: one trapped judgment each; returns the failures. *ran: whether
 * the refused pread ran after all (the bypass, on a stock kernel).
 */
static int trapped_once(int *ran)
{
	int lfd, port, sv[2], data[2], clients[CONNECTIONS], failed = 0;
	int res = 0, more, positive, n, before, i, stock;
	struct io_uring ring;
	scmp_filter_ctx ctx;
	char buf[16];
	const struct {
		const char *what;
		int kind;
	} kinds[] = { { "IOSQE_ASYNC pread", 0 }, { "multishot accept", 1 },
		      { "multishot recv", 2 } };

	signal(SIGSYS, on_sigsys);
	lfd = t_listener(&port);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || pipe(data) ||
	    write(data[1], "data", 4) != 4)
		return 1;
	t_create_ring(&ring, 8);
	ctx = t_filter(SCMP_ACT_ALLOW);
	/* only the test's own descriptors: the runtime keeps its syscalls */
	t_rule(ctx, SCMP_ACT_TRAP, pread64, 1, SCMP_A0(SCMP_CMP_EQ, data[0]));
	t_rule(ctx, SCMP_ACT_TRAP, accept4, 1, SCMP_A0(SCMP_CMP_EQ, lfd));
	t_rule(ctx, SCMP_ACT_TRAP, recvfrom, 1, SCMP_A0(SCMP_CMP_EQ, sv[0]));
	stock = t_load(ctx);
	for (i = 0; i < 3; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

		if (kinds[i].kind == 0) {
			io_uring_prep_read(sqe, data[0], buf, sizeof(buf), -1);
			sqe->flags |= IOSQE_ASYNC;
		} else if (kinds[i].kind == 1) {
			io_uring_prep_multishot_accept(sqe, lfd, NULL, NULL, 0);
		} else {
			/* multishot: len 0, the buffer comes from a group */
			io_uring_prep_recv(sqe, sv[0], NULL, 0, 0);
			sqe->ioprio |= IORING_RECV_MULTISHOT;
			/* multishot recv needs a provided buffer group */
			sqe->flags |= IOSQE_BUFFER_SELECT;
			sqe->buf_group = 1;
		}
		before = sigsys;
		io_uring_submit(&ring);
		/* what would feed a request that was running */
		for (int c = 0; kinds[i].kind == 1 && c < CONNECTIONS; c++)
			clients[c] = connect_to(port);
		for (int c = 0; kinds[i].kind == 2 && c < CONNECTIONS; c++)
			if (write(sv[1], "msg", 3) != 3)
				return 1;
		n = reap(&ring, 300, &res, &more, &positive);
		printf("%s refused (TRAP): %d SIGSYS, %d CQE (res %d, %d with F_MORE, %d >= 0)\n",
		       kinds[i].what, sigsys - before, n, res, more, positive);
		if (!stock && (sigsys - before != 1 || n != 1 || res != -ENOSYS || more ||
			       positive))
			failed++;
		for (int c = 0; kinds[i].kind == 1 && c < CONNECTIONS; c++)
			close(clients[c]);
	}
	/* nothing was consumed: the data is still in the pipe */
	fcntl(data[0], F_SETFL, O_NONBLOCK);
	n = (int)read(data[0], buf, sizeof(buf));
	printf("pipe still holds %d bytes\n", n < 0 ? 0 : n);
	*ran = n != 4;
	failed += !stock && *ran;
	io_uring_queue_exit(&ring);
	return failed;
}

/* Part 2: an armed multishot accept is not judged again. */
static int armed_not_rejudged(int *stock)
{
	int lfd, port, res = 0, more, positive, n, clients[CONNECTIONS], failed = 0;
	struct io_uring ring;
	scmp_filter_ctx ctx;

	lfd = t_listener(&port);
	t_create_ring(&ring, 8);
	io_uring_prep_multishot_accept(io_uring_get_sqe(&ring), lfd, NULL, NULL, 0);
	io_uring_submit(&ring);
	clients[0] = connect_to(port);
	n = reap(&ring, 300, &res, &more, &positive);
	printf("multishot accept armed: %d CQE, %d accepted\n", n, positive);
	failed += positive != 1 || more != 1;
	ctx = t_filter(SCMP_ACT_ALLOW);
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), accept4, 1, SCMP_A0(SCMP_CMP_EQ, lfd));
	*stock = t_load(ctx);
	for (int c = 1; c < CONNECTIONS; c++)
		clients[c] = connect_to(port);
	n = reap(&ring, 300, &res, &more, &positive);
	printf("after accept4 was refused: the armed request accepted %d of %d\n",
	       positive, CONNECTIONS - 1);
	failed += positive != CONNECTIONS - 1 || more != CONNECTIONS - 1;
	io_uring_prep_accept(io_uring_get_sqe(&ring), lfd, NULL, NULL, 0);
	io_uring_submit(&ring);
	n = reap(&ring, 300, &res, &more, &positive);
	printf("a new accept SQE: %d CQE, res %d\n", n, res);
	if (!*stock)
		failed += n != 1 || res != -EPERM;
	for (int c = 0; c < CONNECTIONS; c++)
		close(clients[c]);
	io_uring_queue_exit(&ring);
	return failed;
}

int main(void)
{
	int failed, stock = 0, ran = 0;

	failed = armed_not_rejudged(&stock);
	failed += trapped_once(&ran);
	if (stock)
		return t_verdict(stock, 0, ran, "IOSQE_ASYNC pread refused with TRAP");
	return failed ? T_EXIT_FAIL : T_EXIT_PASS;
}
