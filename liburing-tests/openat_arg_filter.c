// SPDX-License-Identifier: GPL-2.0
/*
 * An argument rule written for openat(2) judges IORING_OP_OPENAT the
 * same way: O_RDONLY opens (and reads the right bytes), O_CREAT is
 * refused and creates nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

int main(void)
{
	const char *existing = t_path("arg_existing");
	const char *created = t_path("arg_created");
	struct io_uring ring;
	scmp_filter_ctx ctx;
	int stock, fd, res;
	char buf[16] = "";

	t_create_file(existing, "content");
	t_create_ring(&ring, 4);
	ctx = t_filter(SCMP_ACT_ALLOW);
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), openat, 1,
	       SCMP_A2(SCMP_CMP_MASKED_EQ, O_CREAT, O_CREAT));
	stock = t_load(ctx);

	if (openat(AT_FDCWD, created, O_CREAT | O_WRONLY, 0600) != -1 ||
	    errno != EPERM) {
		printf("openat(2) with O_CREAT was not denied\n");
		return T_EXIT_FAIL;
	}
	io_uring_prep_openat(io_uring_get_sqe(&ring), AT_FDCWD, existing,
			     O_RDONLY, 0);
	fd = t_run(&ring);
	if (fd < 0 || read(fd, buf, sizeof(buf)) != 7 || strcmp(buf, "content")) {
		printf("O_RDONLY through the ring: fd %d, read \"%s\"\n", fd, buf);
		return T_EXIT_FAIL;
	}
	io_uring_prep_openat(io_uring_get_sqe(&ring), AT_FDCWD, created,
			     O_CREAT | O_WRONLY, 0600);
	res = t_run(&ring);
	return t_verdict(stock, res == -EPERM, t_exists(created),
			 "IORING_OP_OPENAT with O_CREAT created the file");
}
