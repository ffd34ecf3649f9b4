// SPDX-License-Identifier: GPL-2.0
/*
 * IORING_OP_SENDMSG is refused by a rule on sendmsg: the peer of a
 * socketpair receives nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "helpers.h"

int main(void)
{
	char payload[] = "leak", buf[16];
	struct iovec iov = { .iov_base = payload, .iov_len = 4 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct io_uring ring;
	scmp_filter_ctx ctx;
	int sv[2], stock, res;
	ssize_t got;

	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return T_EXIT_FAIL;
	t_create_ring(&ring, 4);
	ctx = t_filter(SCMP_ACT_ALLOW);
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), sendmsg, 0);
	stock = t_load(ctx);

	if (sendmsg(sv[0], &msg, 0) != -1 || errno != EPERM) {
		printf("sendmsg(2) was not denied\n");
		return T_EXIT_FAIL;
	}
	io_uring_prep_sendmsg(io_uring_get_sqe(&ring), sv[0], &msg, 0);
	res = t_run(&ring);
	got = recv(sv[1], buf, sizeof(buf), MSG_DONTWAIT);
	return t_verdict(stock, res == -EPERM, got > 0,
			 "the peer received the message sent through the ring");
}
