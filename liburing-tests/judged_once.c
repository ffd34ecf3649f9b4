// SPDX-License-Identifier: GPL-2.0
/*
 * An SQE is judged once, when it is submitted: not again when io_uring
 * punts it to io-wq (IOSQE_ASYNC) or retries it, and not for each
 * completion of a multishot request. The stricter filters below refuse
 * with SECCOMP_RET_ERRNO(EDOM), an errno no read, recv or accept gives
 * of its own: a judgment that refuses completes the request with -EDOM
 * and ends it. So a second judgment of an armed request would show as a
 * -EDOM CQE in place of its data or connection (or of the
 * IORING_CQE_F_MORE completion of a multishot request): every CQE an
 * armed request gives is counted, and a -EDOM among them, one CQE too
 * many or one without its data fails the test. No signal is involved
 * (TRAP no longer sends SIGSYS for an SQE; none of these verdicts sends
 * one, and SIGSYS keeps its default action, so one would end the test).
 *  1. Armed while allowed, then a filter refusing their twin is
 *     installed, then the data or connections they wait for arrive:
 *     - an IOSQE_ASYNC read of an empty pipe (it goes to io-wq: an
 *       iou-wrk thread is seen) completes once with the data;
 *     - a multishot recv with provided buffers completes once per
 *       message, each CQE with its data and IORING_CQE_F_MORE;
 *     - a multishot accept keeps accepting, one CQE with
 *       IORING_CQE_F_MORE per connection;
 *     all with no -EDOM CQE, while a new SQE of each kind is refused:
 *     exactly one CQE, -EDOM, and the read leaves the pipe's data.
 *  2. Refused at submission (ERRNO(EDOM)): an IOSQE_ASYNC pread, a
 *     multishot accept and a multishot recv with provided buffers each
 *     complete exactly once (-EDOM, no IORING_CQE_F_MORE), and nothing is
 *     read or accepted although data and connections arrive afterwards.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "helpers.h"

#define CONNECTIONS	3
#define MESSAGES	3
#define BUF_GROUP	7
#define BUF_SIZE	16
#define BUFS		8
/* The errno of every refusal: what a judgment that refuses gives. */
#define REFUSAL		EDOM

static int connect_to(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)))
		return -1;
	return fd;
}

/* What reap() saw. */
struct reaped {
	int n;		/* CQEs */
	int first_res;
	int more;	/* with IORING_CQE_F_MORE */
	int positive;	/* with res >= 0 */
	int refused;	/* with res -REFUSAL: a judgment refused */
	int bytes;	/* the sum of the positive res */
};

/* Every CQE that arrives within @ms. */
static struct reaped reap(struct io_uring *ring, int ms)
{
	struct __kernel_timespec ts = { .tv_nsec = ms * 1000000L };
	struct io_uring_cqe *cqe;
	struct reaped r = { 0 };

	while (!io_uring_wait_cqe_timeout(ring, &cqe, &ts)) {
		if (!r.n)
			r.first_res = cqe->res;
		r.more += !!(cqe->flags & IORING_CQE_F_MORE);
		r.positive += cqe->res >= 0;
		r.refused += cqe->res == -REFUSAL;
		r.bytes += cqe->res > 0 ? cqe->res : 0;
		r.n++;
		io_uring_cqe_seen(ring, cqe);
	}
	return r;
}

/* Hand BUFS buffers of @bufs to buffer group BUF_GROUP; 0 or -1. */
static int provide_buffers(struct io_uring *ring, char (*bufs)[BUF_SIZE])
{
	io_uring_prep_provide_buffers(io_uring_get_sqe(ring), bufs, BUF_SIZE,
				      BUFS, BUF_GROUP, 0);
	return t_run(ring) == 0 ? 0 : -1;
}

/* A multishot recv of @fd into buffer group BUF_GROUP. */
static void prep_multishot_recv(struct io_uring *ring, int fd)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	io_uring_prep_recv_multishot(sqe, fd, NULL, 0, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = BUF_GROUP;
}

/* The io-wq workers of this process (threads named iou-wrk-*). */
static int io_wq_workers(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	char path[300], comm[32];
	int n = 0;
	FILE *f;

	while (d && (e = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		f = fopen(path, "r");
		if (f && fgets(comm, sizeof(comm), f) && !strncmp(comm, "iou-wrk-", 8))
			n++;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

/* A filter that refuses @nr with -REFUSAL for the descriptor @fd only. */
static int refuse_for_fd(int nr, int fd)
{
	scmp_filter_ctx ctx = t_filter(SCMP_ACT_ALLOW);

	t_rule_check(seccomp_rule_add(ctx, SCMP_ACT_ERRNO(REFUSAL), nr, 1,
				      SCMP_A0(SCMP_CMP_EQ, fd)), "refuse");
	return t_load(ctx);
}

/*
 * A new SQE of the kind armed before is refused now: exactly one CQE,
 * -REFUSAL. Returns whether it was; on stock, whether it ran.
 */
static int new_sqe_refused(struct io_uring *ring, const char *what, int stock,
			   int *ran)
{
	struct reaped r;

	io_uring_submit(ring);
	r = reap(ring, 300);
	printf("a new %s SQE: %d CQE (res %d, %d -EDOM)\n", what, r.n,
	       r.first_res, r.refused);
	if (stock) {
		*ran += r.positive > 0;
		return 1;
	}
	return r.n == 1 && r.first_res == -REFUSAL;
}

/* The bytes waiting in the pipe or socket @fd; -1 on error. */
static int queued(int fd)
{
	int n;

	return ioctl(fd, FIONREAD, &n) ? -1 : n;
}

/* Part 1a: an allowed IOSQE_ASYNC read waiting in io-wq. */
static int async_read_not_rejudged(int *stock, int *ran)
{
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	int data[2], failed = 0, workers;
	char buf[16] = "", buf2[16];
	struct reaped r;

	if (pipe(data))
		return 1;
	t_create_ring(&ring, 8);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, data[0], buf, sizeof(buf), -1);
	sqe->flags |= IOSQE_ASYNC;
	io_uring_submit(&ring);
	r = reap(&ring, 200);
	workers = io_wq_workers();
	printf("allowed IOSQE_ASYNC read of an empty pipe: %d CQE, %d io-wq workers\n",
	       r.n, workers);
	failed += r.n != 0 || workers < 1;
	*stock = refuse_for_fd(SCMP_SYS(pread64), data[0]);
	*stock |= refuse_for_fd(SCMP_SYS(read), data[0]);
	if (write(data[1], "data", 4) != 4)
		return 1;
	/* judged again in io-wq, it would complete with -EDOM, unread */
	r = reap(&ring, 300);
	printf("pread64 and read refused, then data: %d CQE (res %d, \"%.4s\", %d -EDOM)\n",
	       r.n, r.first_res, buf, r.refused);
	failed += r.refused || r.n != 1 || r.first_res != 4 ||
		  memcmp(buf, "data", 4);
	/* data for the new read: the refused read must leave it there */
	if (write(data[1], "more", 4) != 4)
		return 1;
	io_uring_prep_read(io_uring_get_sqe(&ring), data[0], buf2, sizeof(buf2), -1);
	failed += !new_sqe_refused(&ring, "read", *stock, ran);
	if (!*stock && queued(data[0]) != 4) {
		printf("the refused read consumed the pipe's data\n");
		failed++;
	}
	io_uring_queue_exit(&ring);
	return failed;
}

/* Part 1b: an allowed multishot recv with buffers, one CQE per message. */
static int multishot_recv_not_rejudged(int *stock, int *ran)
{
	static char bufs[BUFS][BUF_SIZE];
	struct io_uring ring;
	int sv[2], failed = 0, refused = 0, i, filled;
	struct reaped r;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return 1;
	t_create_ring(&ring, 8);
	if (provide_buffers(&ring, bufs))
		return 1;
	prep_multishot_recv(&ring, sv[0]);
	io_uring_submit(&ring);
	if (write(sv[1], "msg", 3) != 3)
		return 1;
	r = reap(&ring, 300);
	printf("allowed multishot recv, one message: %d CQE (res %d, %d with F_MORE)\n",
	       r.n, r.first_res, r.more);
	failed += r.n != 1 || r.first_res != 3 || r.more != 1;
	*stock = refuse_for_fd(SCMP_SYS(recvfrom), sv[0]);
	*stock |= refuse_for_fd(SCMP_SYS(recvmsg), sv[0]);
	/*
	 * One message at a time: each is one completion. Judged again when
	 * it is re-issued, the recv would end with a -EDOM CQE (no F_MORE).
	 */
	for (i = 0; i < MESSAGES; i++) {
		if (write(sv[1], "msg", 3) != 3)
			return 1;
		r = reap(&ring, 300);
		printf("recvfrom refused, then message %d: %d CQE (res %d, %d F_MORE, %d -EDOM)\n",
		       i + 1, r.n, r.first_res, r.more, r.refused);
		failed += r.n != 1 || r.first_res != 3 || r.more != 1;
		refused += r.refused;
	}
	failed += refused != 0;
	for (i = 0, filled = 0; i < BUFS; i++)
		filled += !memcmp(bufs[i], "msg", 3);
	printf("%d provided buffers hold a message\n", filled);
	failed += filled != MESSAGES + 1;
	/* (the armed recv stays armed: a new one gets no data) */
	prep_multishot_recv(&ring, sv[0]);
	failed += !new_sqe_refused(&ring, "multishot recv", *stock, ran);
	io_uring_queue_exit(&ring);
	return failed;
}

/* Part 1c: an armed multishot accept is not judged again. */
static int armed_accept_not_rejudged(int *stock, int *ran)
{
	int lfd, port, clients[CONNECTIONS], failed = 0;
	struct io_uring ring;
	struct reaped r;

	lfd = t_listener(&port);
	t_create_ring(&ring, 8);
	io_uring_prep_multishot_accept(io_uring_get_sqe(&ring), lfd, NULL, NULL, 0);
	io_uring_submit(&ring);
	clients[0] = connect_to(port);
	r = reap(&ring, 300);
	printf("allowed multishot accept: %d CQE, %d accepted\n", r.n, r.positive);
	failed += r.positive != 1 || r.more != 1;
	*stock = refuse_for_fd(SCMP_SYS(accept4), lfd);
	for (int c = 1; c < CONNECTIONS; c++)
		clients[c] = connect_to(port);
	/* judged again, it would end with a -EDOM CQE and accept no more */
	r = reap(&ring, 300);
	printf("accept4 refused, then connections: %d CQE (%d -EDOM), %d of %d accepted\n",
	       r.n, r.refused, r.positive, CONNECTIONS - 1);
	failed += r.refused || r.n != CONNECTIONS - 1 ||
		  r.positive != CONNECTIONS - 1 || r.more != CONNECTIONS - 1;
	io_uring_prep_accept(io_uring_get_sqe(&ring), lfd, NULL, NULL, 0);
	failed += !new_sqe_refused(&ring, "accept", *stock, ran);
	for (int c = 0; c < CONNECTIONS; c++)
		close(clients[c]);
	io_uring_queue_exit(&ring);
	return failed;
}

/*
 * Part 2: one refusing judgment each; returns the failures. *ran: whether
 * a refused operation ran after all (the bypass, on a stock kernel).
 */
static int refused_once(int *stock, int *ran)
{
	int lfd, port, sv[2], data[2], clients[CONNECTIONS], failed = 0;
	static char bufs[BUFS][BUF_SIZE];
	int i, left_in_pipe, left_in_socket;
	struct io_uring ring;
	scmp_filter_ctx ctx;
	struct reaped r;
	char buf[16];
	const char *const what[] = {
		"IOSQE_ASYNC pread", "multishot accept", "multishot recv",
	};

	lfd = t_listener(&port);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || pipe(data) ||
	    write(data[1], "data", 4) != 4)
		return 1;
	t_create_ring(&ring, 8);
	/* buffers for the recv: refused, it must not take one */
	if (provide_buffers(&ring, bufs))
		return 1;
	ctx = t_filter(SCMP_ACT_ALLOW);
	/* only the test's own descriptors: the runtime keeps its syscalls */
	/* a read at the file position (offset -1) is judged as read */
	t_rule(ctx, SCMP_ACT_ERRNO(REFUSAL), pread64, 1,
	       SCMP_A0(SCMP_CMP_EQ, data[0]));
	t_rule(ctx, SCMP_ACT_ERRNO(REFUSAL), read, 1,
	       SCMP_A0(SCMP_CMP_EQ, data[0]));
	t_rule(ctx, SCMP_ACT_ERRNO(REFUSAL), accept4, 1,
	       SCMP_A0(SCMP_CMP_EQ, lfd));
	t_rule(ctx, SCMP_ACT_ERRNO(REFUSAL), recvfrom, 1,
	       SCMP_A0(SCMP_CMP_EQ, sv[0]));
	*stock = t_load(ctx);
	for (i = 0; i < 3; i++) {
		struct io_uring_sqe *sqe;

		if (i == 0) {
			sqe = io_uring_get_sqe(&ring);
			io_uring_prep_read(sqe, data[0], buf, sizeof(buf), -1);
			sqe->flags |= IOSQE_ASYNC;
		} else if (i == 1) {
			sqe = io_uring_get_sqe(&ring);
			io_uring_prep_multishot_accept(sqe, lfd, NULL, NULL, 0);
		} else {
			prep_multishot_recv(&ring, sv[0]);
		}
		io_uring_submit(&ring);
		/* what would feed a request that was running */
		for (int c = 0; i == 1 && c < CONNECTIONS; c++)
			clients[c] = connect_to(port);
		for (int c = 0; i == 2 && c < MESSAGES; c++) {
			if (write(sv[1], "msg", 3) != 3)
				return 1;
			usleep(50000);
		}
		r = reap(&ring, 300);
		printf("%s refused (EDOM): %d CQE (res %d, %d F_MORE, %d >= 0, %d -EDOM)\n",
		       what[i], r.n, r.first_res, r.more, r.positive, r.refused);
		*ran += r.positive > 0;
		/* one judgment, one CQE: a request that was never issued */
		if (!*stock && (r.n != 1 || r.first_res != -REFUSAL || r.more ||
				r.positive))
			failed++;
		for (int c = 0; i == 1 && c < CONNECTIONS; c++)
			close(clients[c]);
	}
	/* nothing was consumed: the data is still in the pipe and socket */
	left_in_pipe = queued(data[0]);
	left_in_socket = queued(sv[0]);
	printf("the pipe still holds %d bytes, the socket %d\n", left_in_pipe,
	       left_in_socket);
	*ran += left_in_pipe != 4 || left_in_socket != 3 * MESSAGES;
	failed += !*stock && (left_in_pipe != 4 || left_in_socket != 3 * MESSAGES);
	io_uring_queue_exit(&ring);
	return failed;
}

int main(void)
{
	int failed, stock[4], ran = 0;

	/*
	 * (each part's filters name its own descriptors, never closed; no
	 * verdict here sends SIGSYS, and its default action ends the test)
	 */
	failed = async_read_not_rejudged(&stock[0], &ran);
	failed += multishot_recv_not_rejudged(&stock[1], &ran);
	failed += armed_accept_not_rejudged(&stock[2], &ran);
	failed += refused_once(&stock[3], &ran);
	if (stock[0])
		return t_verdict(1, 0, ran, "refused reads, recvs and accepts ran");
	return failed ? T_EXIT_FAIL : T_EXIT_PASS;
}
