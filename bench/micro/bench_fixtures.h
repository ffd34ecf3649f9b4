/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the measured operations work on, set up before any filter is
 * loaded: the block device a READ reads, the file an OPENAT2 opens, and
 * the AF_UNIX socket pair a CONNECT is refused on. Shared by the
 * benchmark's operations (bench_ops.c) and the side-by-side comparison's
 * (side_ops.c).
 */
#ifndef BENCH_FIXTURES_H
#define BENCH_FIXTURES_H

#include <sys/un.h>

#define BENCH_BLOCK_DEV	"/dev/nullb0"
/* one O_DIRECT read of BENCH_READ_SIZE at offset 0 */
#define BENCH_READ_SIZE	4096

struct bench_fixture {
	int block_fd;		/* BENCH_BLOCK_DEV, O_DIRECT */
	void *block_buf;	/* BENCH_READ_SIZE, aligned to it */
	int sock_fd;		/* an unconnected AF_UNIX stream socket */
	struct sockaddr_un addr;	/* bound, never listening */
};

#define BENCH_FIXTURE_INIT { .block_fd = -1, .sock_fd = -1, \
			     .addr = { .sun_family = AF_UNIX } }

/* fixture_block - open the block device and its read buffer; 0 or -errno */
int fixture_block(struct bench_fixture *f);

/* fixture_file - create the regular file @path (empty); 0 or -errno */
int fixture_file(const char *path);

/*
 * fixture_sockets - bind a socket to @path that never listens (left open
 * for the life of the process, so connects to it are refused) and make
 * the socket to connect with; 0 or -errno
 */
int fixture_sockets(struct bench_fixture *f, const char *path);

#endif
