// SPDX-License-Identifier: GPL-2.0
/* IORING_OP_LINKAT is refused by a rule on linkat; no hard link appears. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "helpers.h"

int main(void)
{
	const char *from = t_path("link_from");
	const char *to = t_path("link_to");
	struct io_uring ring;
	scmp_filter_ctx ctx;
	int stock, res;

	t_create_file(from, "x");
	t_create_ring(&ring, 4);
	ctx = t_filter(SCMP_ACT_ALLOW);
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), linkat, 0);
	stock = t_load(ctx);

	if (linkat(AT_FDCWD, from, AT_FDCWD, to, 0) != -1 || errno != EPERM) {
		printf("linkat(2) was not denied\n");
		return T_EXIT_FAIL;
	}
	io_uring_prep_linkat(io_uring_get_sqe(&ring), AT_FDCWD, from,
			     AT_FDCWD, to, 0);
	res = t_run(&ring);
	return t_verdict(stock, res == -EPERM, t_exists(to),
			 "IORING_OP_LINKAT made the link");
}
