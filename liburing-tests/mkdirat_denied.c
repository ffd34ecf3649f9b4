// SPDX-License-Identifier: GPL-2.0
/* IORING_OP_MKDIRAT is refused by a rule on mkdirat; no directory appears. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>

#include "helpers.h"

int main(void)
{
	const char *path = t_path("mkdirat");
	struct io_uring ring;
	scmp_filter_ctx ctx;
	int stock, res;

	t_create_ring(&ring, 4);
	ctx = t_filter(SCMP_ACT_ALLOW);
	t_rule(ctx, SCMP_ACT_ERRNO(EACCES), mkdirat, 0);
	stock = t_load(ctx);

	if (mkdirat(AT_FDCWD, path, 0700) != -1 || errno != EACCES) {
		printf("mkdirat(2) was not denied\n");
		return T_EXIT_FAIL;
	}
	io_uring_prep_mkdirat(io_uring_get_sqe(&ring), AT_FDCWD, path, 0700);
	res = t_run(&ring);
	return t_verdict(stock, res == -EACCES, t_exists(path),
			 "IORING_OP_MKDIRAT made the directory");
}
