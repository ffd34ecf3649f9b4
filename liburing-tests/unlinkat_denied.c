// SPDX-License-Identifier: GPL-2.0
/* IORING_OP_UNLINKAT is refused by a rule on unlinkat; the file stays. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "helpers.h"

int main(void)
{
	const char *path = t_path("unlinkat");
	struct io_uring ring;
	scmp_filter_ctx ctx;
	int stock, res;

	t_create_file(path, "keep me");
	t_create_ring(&ring, 4);
	ctx = t_filter(SCMP_ACT_ALLOW);
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), unlinkat, 0);
	stock = t_load(ctx);

	if (unlinkat(AT_FDCWD, path, 0) != -1 || errno != EPERM) {
		printf("unlinkat(2) was not denied\n");
		return T_EXIT_FAIL;
	}
	io_uring_prep_unlinkat(io_uring_get_sqe(&ring), AT_FDCWD, path, 0);
	res = t_run(&ring);
	return t_verdict(stock, res == -EPERM, !t_exists(path),
			 "IORING_OP_UNLINKAT removed the file");
}
