// SPDX-License-Identifier: GPL-2.0
/* IORING_OP_SYMLINKAT is refused by a rule on symlinkat; no symlink appears. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "helpers.h"

int main(void)
{
	const char *link = t_path("symlink");
	struct io_uring ring;
	scmp_filter_ctx ctx;
	int stock, res;

	t_create_ring(&ring, 4);
	ctx = t_filter(SCMP_ACT_ALLOW);
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), symlinkat, 0);
	stock = t_load(ctx);

	if (symlinkat("/etc/passwd", AT_FDCWD, link) != -1 || errno != EPERM) {
		printf("symlinkat(2) was not denied\n");
		return T_EXIT_FAIL;
	}
	io_uring_prep_symlinkat(io_uring_get_sqe(&ring), "/etc/passwd",
				AT_FDCWD, link);
	res = t_run(&ring);
	return t_verdict(stock, res == -EPERM, t_exists(link),
			 "IORING_OP_SYMLINKAT made the symlink");
}
