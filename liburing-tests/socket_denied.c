// SPDX-License-Identifier: GPL-2.0
/*
 * IORING_OP_SOCKET is refused by a rule on socket(AF_INET, ...); no
 * socket is created, while an AF_UNIX socket still is.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "helpers.h"

int main(void)
{
	struct io_uring ring;
	scmp_filter_ctx ctx;
	int stock, res, unix_res;

	t_create_ring(&ring, 4);
	ctx = t_filter(SCMP_ACT_ALLOW);
	t_rule(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), socket, 1,
	       SCMP_A0(SCMP_CMP_EQ, AF_INET));
	stock = t_load(ctx);

	if (socket(AF_INET, SOCK_STREAM, 0) != -1 || errno != EAFNOSUPPORT) {
		printf("socket(2) was not denied\n");
		return T_EXIT_FAIL;
	}
	io_uring_prep_socket(io_uring_get_sqe(&ring), AF_UNIX, SOCK_STREAM, 0, 0);
	unix_res = t_run(&ring);
	if (unix_res < 0) {
		printf("AF_UNIX socket through the ring failed: %d\n", unix_res);
		return T_EXIT_FAIL;
	}
	close(unix_res);
	io_uring_prep_socket(io_uring_get_sqe(&ring), AF_INET, SOCK_STREAM, 0, 0);
	res = t_run(&ring);
	if (res >= 0)
		close(res);
	return t_verdict(stock, res == -EAFNOSUPPORT, res >= 0,
			 "IORING_OP_SOCKET created an AF_INET socket");
}
