/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The operations of the profile equivalence test: each once as a system
 * call and once as the SQE that io_uring judges as that system call,
 * with the same arguments, on the same fixture.
 */
#ifndef URING_EQUIVALENCE_CASES_H
#define URING_EQUIVALENCE_CASES_H

#include <liburing.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>

/*
 * The fixture's descriptors, at fixed numbers in the process that runs
 * one case (see equivalence.c): the same in both runs of a case.
 */
enum fixture_fd {
	FD_DATA = 10,	/* "data", O_RDWR, holding "0123456789abcdef" */
	FD_DIR,		/* the fixture directory */
	FD_PIPE_R,	/* a pipe holding "pipe-data" */
	FD_PIPE_W,
	FD_PIPE2_W,	/* an empty pipe's write end, for tee */
	FD_SOCK,	/* AF_UNIX stream; the peer sent "hello" */
	FD_ACCEPT,	/* TCP listener with one pending connection */
	FD_INET,	/* an unbound, unconnected TCP socket */
	FD_DGRAM,	/* an unbound AF_UNIX datagram socket */
	FD_LAST = FD_DGRAM,
};

/* The fixture directory's bound AF_UNIX datagram socket, for FD_DGRAM. */
#define FIXTURE_UNIX_PATH "sock"

/* What prep or the system call points into: alive until completion. */
struct case_ctx {
	int port;		/* of the listener to connect to */
	const char *dir;	/* the fixture directory */
	struct sockaddr_un sun;	/* its bound AF_UNIX socket */
	char buf[64];
	struct iovec iov;
	struct msghdr msg;
	struct sockaddr_in sin;
	struct open_how how;
	struct statx stx;
	void *map;		/* one page, for madvise */
	unsigned int futex;
	int epfd;
	struct epoll_event ev;
};

enum case_result {
	RES_EXACT,	/* compare the return value */
	RES_FD,		/* a new descriptor: compare only >= 0 */
	RES_DATA,	/* compare the return value and the bytes in buf */
};

struct eq_case {
	const char *name;
	const char *syscall;	/* the twin, as seccomp sees it */
	enum case_result result;
	void (*setup)(struct case_ctx *c);	/* in both runs, before either */
	long (*sys)(struct case_ctx *c);	/* -errno on failure */
	void (*prep)(struct io_uring_sqe *sqe, struct case_ctx *c);
};

extern const struct eq_case eq_cases[];
extern const unsigned int eq_ncases;

#endif
