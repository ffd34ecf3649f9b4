// SPDX-License-Identifier: GPL-2.0
/*
 * IORING_OP_CONNECT is refused by a rule on connect: the listener on
 * 127.0.0.1 never sees a connection.
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
	int listener, sock, port, stock, res, accepted;
	struct io_uring ring;
	scmp_filter_ctx ctx;

	listener = t_listener(&port);
	addr.sin_port = htons(port);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sock = socket(AF_INET, SOCK_STREAM, 0);
	if (sock < 0)
		return T_EXIT_FAIL;
	t_create_ring(&ring, 4);
	ctx = t_filter(SCMP_ACT_ALLOW);
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), connect, 0);
	stock = t_load(ctx);

	if (connect(sock, (struct sockaddr *)&addr, sizeof(addr)) != -1 ||
	    errno != EPERM) {
		printf("connect(2) was not denied\n");
		return T_EXIT_FAIL;
	}
	io_uring_prep_connect(io_uring_get_sqe(&ring), sock,
			      (struct sockaddr *)&addr, sizeof(addr));
	res = t_run(&ring);
	accepted = accept4(listener, NULL, NULL, SOCK_NONBLOCK);
	if (accepted < 0 && errno != EAGAIN) {
		perror("accept4");
		return T_EXIT_FAIL;
	}
	return t_verdict(stock, res == -EPERM, accepted >= 0,
			 "the listener accepted a connection made through the ring");
}
