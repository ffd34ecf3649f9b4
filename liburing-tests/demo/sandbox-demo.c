// SPDX-License-Identifier: GPL-2.0
/*
 * sandbox-demo: an ordinary libseccomp profile (deny connect(2) and
 * openat(2) with O_CREAT) applied to a process, then the same two
 * operations tried as syscalls and as io_uring SQEs. On a kernel with
 * the series the profile is loaded with SECCOMP_FILTER_FLAG_URING and
 * judges both; on a stock kernel io_uring walks past it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "helpers.h"

static int bypasses;

static void report(const char *path, const char *op, int res, int happened,
		   const char *effect)
{
	char what[32];

	if (res < 0)
		snprintf(what, sizeof(what), "refused (%s)", strerrorname_np(-res));
	else
		snprintf(what, sizeof(what), "ran (result %d)", res);
	printf("  %-8s %-26s %-22s %s: %s%s\n", path, op, what, effect,
	       happened ? "YES" : "no", happened ? "   <-- bypass" : "");
	bypasses += happened;
}

int main(void)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	const char *file = "/tmp/sandbox-demo-file";
	int listener, port, stock, sock, res, seen;
	struct io_uring ring;
	scmp_filter_ctx ctx;
	struct utsname u;

	uname(&u);
	listener = t_listener(&port);
	addr.sin_port = htons(port);
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	t_create_ring(&ring, 4);

	ctx = t_filter(SCMP_ACT_ALLOW);
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), connect, 0);
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), openat, 1,
	       SCMP_A2(SCMP_CMP_MASKED_EQ, O_CREAT, O_CREAT));
	stock = t_load(ctx);

	printf("\nkernel %s: profile \"deny connect, deny openat with O_CREAT\"\n", u.release);
	printf("  loaded %s\n\n", stock ?
	       "WITHOUT SECCOMP_FILTER_FLAG_URING (this kernel does not know it)" :
	       "with SECCOMP_FILTER_FLAG_URING");

	unlink(file);
	res = openat(AT_FDCWD, file, O_CREAT | O_WRONLY, 0600);
	res = res < 0 ? -errno : res;
	report("syscall", "openat(O_CREAT)", res, access(file, F_OK) == 0,
	       "file created");
	unlink(file);
	io_uring_prep_openat(io_uring_get_sqe(&ring), AT_FDCWD, file,
			     O_CREAT | O_WRONLY, 0600);
	res = t_run(&ring);
	report("io_uring", "IORING_OP_OPENAT(O_CREAT)", res, access(file, F_OK) == 0,
	       "file created");

	sock = socket(AF_INET, SOCK_STREAM, 0);
	res = connect(sock, (struct sockaddr *)&addr, sizeof(addr));
	res = res < 0 ? -errno : res;
	seen = accept4(listener, NULL, NULL, SOCK_NONBLOCK);
	report("syscall", "connect(127.0.0.1)", res, seen >= 0,
	       "listener got a connection");
	close(sock);
	sock = socket(AF_INET, SOCK_STREAM, 0);
	io_uring_prep_connect(io_uring_get_sqe(&ring), sock,
			      (struct sockaddr *)&addr, sizeof(addr));
	res = t_run(&ring);
	seen = accept4(listener, NULL, NULL, SOCK_NONBLOCK);
	report("io_uring", "IORING_OP_CONNECT", res, seen >= 0,
	       "listener got a connection");

	if (bypasses)
		printf("\n=> io_uring bypassed the profile %d time(s).\n", bypasses);
	else
		printf("\n=> the profile judged io_uring exactly as it judged the syscalls.\n");
	return 0;
}
