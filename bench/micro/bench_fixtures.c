// SPDX-License-Identifier: GPL-2.0
/* See bench_fixtures.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "bench_fixtures.h"

int fixture_block(struct bench_fixture *f)
{
	f->block_fd = open(BENCH_BLOCK_DEV, O_RDONLY | O_DIRECT);
	if (f->block_fd < 0)
		return -errno;
	return -posix_memalign(&f->block_buf, BENCH_READ_SIZE, BENCH_READ_SIZE);
}

int fixture_file(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY, 0600);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int fixture_sockets(struct bench_fixture *f, const char *path)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (fd < 0)
		return -errno;
	if (strlen(path) >= sizeof(f->addr.sun_path))
		return -ENAMETOOLONG;
	strcpy(f->addr.sun_path, path);
	unlink(path);
	if (bind(fd, (struct sockaddr *)&f->addr, sizeof(f->addr)))
		return -errno;
	f->sock_fd = socket(AF_UNIX, SOCK_STREAM, 0);
	return f->sock_fd < 0 ? -errno : 0;
}
