// SPDX-License-Identifier: GPL-2.0
/*
 * IORING_OP_RENAMEAT is judged as renameat2(2): a rule on renameat2
 * refuses it, the file keeps its name.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "helpers.h"

int main(void)
{
	const char *from = t_path("rename_from");
	const char *to = t_path("rename_to");
	struct io_uring ring;
	scmp_filter_ctx ctx;
	int stock, res;

	t_create_file(from, "x");
	t_create_ring(&ring, 4);
	ctx = t_filter(SCMP_ACT_ALLOW);
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), renameat2, 0);
	stock = t_load(ctx);

	if (syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 0) != -1 ||
	    errno != EPERM) {
		printf("renameat2(2) was not denied\n");
		return T_EXIT_FAIL;
	}
	io_uring_prep_renameat(io_uring_get_sqe(&ring), AT_FDCWD, from,
			       AT_FDCWD, to, 0);
	res = t_run(&ring);
	return t_verdict(stock, res == -EPERM, t_exists(to) || !t_exists(from),
			 "IORING_OP_RENAMEAT renamed the file");
}
