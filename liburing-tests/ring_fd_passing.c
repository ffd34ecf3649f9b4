// SPDX-License-Identifier: GPL-2.0
/*
 * A ring shared between a filtered process (mkdirat refused) and an
 * unfiltered one, both directions, with and without SQPOLL. The kernel
 * refuses to pass an io_uring fd over a unix socket (SCM_RIGHTS gives
 * EINVAL since Linux 6.7, also on stock): each case checks that, then
 * shares the ring the way that is left, pidfd_getfd(2), with the ring's
 * fd number and setup params sent over the socket. The documented
 * semantics:
 *  - A ring without SQPOLL carries no filter: the SQEs a process submits
 *    with io_uring_enter(2) are judged by that process's filters. The
 *    filtered process cannot use a ring it was given to escape its
 *    filter, and its filter does not follow a ring it gives away.
 *  - A SQPOLL ring is judged by its creator's filters, whoever writes the
 *    SQEs (the kernel cannot tell who wrote an SQE). A filtered creator's
 *    filter follows the ring; an unfiltered creator that hands out a
 *    SQPOLL ring lends its own rights, as any unfiltered helper process
 *    that runs requests for another would.
 * Each case checks the CQE and whether the directory was created.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "helpers.h"

struct ring_msg {
	struct io_uring_params p;
	pid_t pid;
	int fd;		/* the ring's number in @pid */
	int scm_errno;	/* what SCM_RIGHTS gave the sender */
	int result;
};

static int scm_refused = 1;

/* Try SCM_RIGHTS first (refused for rings), then send fd number and params. */
static int send_ring(int sock, int fd, struct ring_msg *m)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct ring_msg probe = { .fd = -1 };
	struct iovec iov = { .iov_base = &probe, .iov_len = sizeof(probe) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	m->scm_errno = sendmsg(sock, &msg, 0) < 0 ? errno : 0;
	if (!m->scm_errno)
		return -1;	/* a kernel that passes rings: not this test's */
	m->pid = getpid();
	m->fd = fd;
	return send(sock, m, sizeof(*m), 0) == sizeof(*m) ? 0 : -1;
}

static int send_msg(int sock, const struct ring_msg *m)
{
	return send(sock, m, sizeof(*m), 0) == sizeof(*m) ? 0 : -1;
}

static int recv_msg(int sock, struct ring_msg *m)
{
	return recv(sock, m, sizeof(*m), MSG_WAITALL) == sizeof(*m) ? 0 : -1;
}

/* The sender's ring in this process, by pidfd_getfd(2). */
static int recv_ring(int sock, struct ring_msg *m)
{
	int pidfd, fd;

	if (recv_msg(sock, m))
		return -1;
	if (m->scm_errno != EINVAL)
		scm_refused = 0;
	pidfd = syscall(SYS_pidfd_open, m->pid, 0);
	if (pidfd < 0)
		return -1;
	fd = syscall(SYS_pidfd_getfd, pidfd, m->fd, 0);
	close(pidfd);
	return fd;
}

/* Map a ring received with its params; submit mkdirat(@path); its res. */
static int use_ring(int fd, struct io_uring_params *p, const char *path)
{
	struct io_uring_cqe *cqe;
	struct io_uring ring;
	int res;

	if (io_uring_queue_mmap(fd, p, &ring))
		return -1000;
	io_uring_prep_mkdirat(io_uring_get_sqe(&ring), AT_FDCWD, path, 0700);
	res = io_uring_submit_and_wait(&ring, 1);
	if (res < 0)
		return res - 2000;
	if (io_uring_wait_cqe(&ring, &cqe))
		return -3000;
	res = cqe->res;
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	return res;
}

/*
 * One case: @creator_filtered says which side makes the ring (with
 * @setup_flags); the other side submits. Returns the CQE's res; *stock
 * tells whether the filter had to be loaded without the io_uring flag.
 */
static int one_case(int creator_filtered, unsigned int setup_flags, const char *path,
		    int *stock)
{
	int sv[2], status, fd, res;
	struct ring_msg m = { 0 };
	struct io_uring ring;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return -4000;
	pid = fork();
	if (pid == 0) {
		/* the filtered process: first tells whether the kernel is stock */
		scmp_filter_ctx ctx = t_filter(SCMP_ACT_ALLOW);

		close(sv[0]);
		t_rule(ctx, SCMP_ACT_ERRNO(EPERM), mkdirat, 0);
		m.result = t_load(ctx);
		send_msg(sv[1], &m);
		if (creator_filtered) {
			m.p.flags = setup_flags;
			m.p.sq_thread_idle = 1000;
			if (io_uring_queue_init_params(4, &ring, &m.p))
				_exit(T_EXIT_SKIP);
			send_ring(sv[1], ring.ring_fd, &m);
		} else {
			fd = recv_ring(sv[1], &m);
			m.result = fd < 0 ? -1000 : use_ring(fd, &m.p, path);
			m.scm_errno = scm_refused;
			send_msg(sv[1], &m);
		}
		/* keep the ring (and a SQPOLL thread) until the peer is done */
		recv_msg(sv[1], &m);
		_exit(0);
	}
	close(sv[1]);
	if (recv_msg(sv[0], &m))
		return -4001;
	*stock = m.result;
	if (creator_filtered) {
		fd = recv_ring(sv[0], &m);
		res = fd < 0 ? -1001 : use_ring(fd, &m.p, path);
		close(fd);
	} else {
		m = (struct ring_msg){ .p.flags = setup_flags, .p.sq_thread_idle = 1000 };
		if (io_uring_queue_init_params(4, &ring, &m.p))
			return -5000;
		if (send_ring(sv[0], ring.ring_fd, &m))
			return -5001;
		res = recv_msg(sv[0], &m) ? -4002 : m.result;
		scm_refused &= m.scm_errno;
		io_uring_queue_exit(&ring);
	}
	send_msg(sv[0], &m);
	close(sv[0]);
	waitpid(pid, &status, 0);
	return res;
}

int main(void)
{
	static const struct {
		const char *what;
		int creator_filtered;
		unsigned int flags;
		int denied;	/* the documented verdict */
	} cases[] = {
		{ "unfiltered creator, filtered submitter", 0, 0, 1 },
		{ "filtered creator, unfiltered submitter", 1, 0, 0 },
		{ "SQPOLL, filtered creator, unfiltered submitter", 1, IORING_SETUP_SQPOLL, 1 },
		{ "SQPOLL, unfiltered creator, filtered submitter", 0, IORING_SETUP_SQPOLL, 0 },
	};
	int failed = 0, bypass = 0, stock = 0;

	for (unsigned int i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *path = t_path("ring_fd_passing");
		int res = one_case(cases[i].creator_filtered, cases[i].flags, path, &stock);
		int made = t_exists(path);
		int ok;

		rmdir(path);
		if (res <= -1000) {
			printf("%s: setup failed (%d)\n", cases[i].what, res);
			return T_EXIT_FAIL;
		}
		ok = cases[i].denied ? res == -EPERM && !made : res == 0 && made;
		printf("%s: res %d, directory %s: %s\n", cases[i].what, res,
		       made ? "created" : "not created", ok ? "as documented" : "NOT as documented");
		if (stock && cases[i].denied && made)
			bypass = 1;
		else if (!ok)
			failed++;
	}
	printf("SCM_RIGHTS refused the ring fd with EINVAL in every case: %s\n",
	       scm_refused ? "yes" : "NO");
	failed += !scm_refused;
	if (stock)
		return bypass && !failed ? T_EXIT_BYPASS : T_EXIT_FAIL;
	return failed ? T_EXIT_FAIL : T_EXIT_PASS;
}
