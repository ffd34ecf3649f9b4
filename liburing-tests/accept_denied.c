// SPDX-License-Identifier: GPL-2.0
/*
 * IORING_OP_ACCEPT is judged as accept4(2): a rule on accept4 refuses
 * it, and the pending connection stays queued (accept(2), a different
 * syscall, still finds it).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "helpers.h"

int main(void)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	int listener, client, port, stock, res, pending;
	struct io_uring ring;
	scmp_filter_ctx ctx;

	listener = t_listener(&port);
	addr.sin_port = htons(port);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	client = socket(AF_INET, SOCK_STREAM, 0);
	if (client < 0 ||
	    connect(client, (struct sockaddr *)&addr, sizeof(addr))) {
		perror("connect");
		return T_EXIT_FAIL;
	}
	t_create_ring(&ring, 4);
	ctx = t_filter(SCMP_ACT_ALLOW);
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), accept4, 0);
	stock = t_load(ctx);

	io_uring_prep_accept(io_uring_get_sqe(&ring), listener, NULL, NULL, 0);
	res = t_run(&ring);
	pending = accept(listener, NULL, NULL);
	return t_verdict(stock, res == -EPERM && pending >= 0, res >= 0,
			 "IORING_OP_ACCEPT accepted the connection");
}
