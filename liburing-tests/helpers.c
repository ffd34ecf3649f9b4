// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>

#include "helpers.h"

#define URING_SECCOMP_LIBSECCOMP
#include "uring_seccomp.h"

const char *t_path(const char *name)
{
	static char buf[8][128];
	static int next;
	char *p = buf[next++ % 8];

	snprintf(p, sizeof(buf[0]), "/tmp/uring-test.%d.%s", getpid(), name);
	unlink(p);
	rmdir(p);
	return p;
}

void t_create_file(const char *path, const char *content)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	ssize_t len = strlen(content);

	if (fd < 0 || write(fd, content, len) != len || close(fd)) {
		fprintf(stderr, "create %s: %s\n", path, strerror(errno));
		exit(T_EXIT_FAIL);
	}
}

int t_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

void t_create_ring(struct io_uring *ring, unsigned int entries)
{
	int ret = io_uring_queue_init(entries, ring, 0);

	if (ret) {
		fprintf(stderr, "io_uring_queue_init: %s\n", strerror(-ret));
		exit(T_EXIT_FAIL);
	}
}

int t_run(struct io_uring *ring)
{
	struct io_uring_cqe *cqe;
	int ret;

	ret = io_uring_submit(ring);
	if (ret != 1) {
		fprintf(stderr, "io_uring_submit: %d\n", ret);
		exit(T_EXIT_FAIL);
	}
	ret = io_uring_wait_cqe(ring, &cqe);
	if (ret) {
		fprintf(stderr, "io_uring_wait_cqe: %s\n", strerror(-ret));
		exit(T_EXIT_FAIL);
	}
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

scmp_filter_ctx t_filter(uint32_t def_action)
{
	scmp_filter_ctx ctx = seccomp_init(def_action);

	if (!ctx) {
		fprintf(stderr, "seccomp_init failed\n");
		exit(T_EXIT_FAIL);
	}
	return ctx;
}

void t_rule_check(int ret, const char *name)
{
	if (ret) {
		fprintf(stderr, "seccomp_rule_add(%s): %s\n", name, strerror(-ret));
		exit(T_EXIT_FAIL);
	}
}

int t_required(void)
{
	const char *expect = getenv("URING_SECCOMP_EXPECT");

	if (expect && !strcmp(expect, "patched"))
		return 1;
	if (expect && !strcmp(expect, "stock"))
		return 0;
	return -1;
}

int t_opt_in(int ret, const char *flag)
{
	if (ret >= 0) {
		if (t_required() == 0) {
			fprintf(stderr, "URING_SECCOMP_EXPECT=stock, yet %s was accepted\n",
				flag);
			exit(T_EXIT_FAIL);
		}
		return 0;
	}
	if (ret == -EINVAL && !uring_seccomp_supported() && t_required() != 1)
		return 1;
	fprintf(stderr, "loading a filter with %s: %s%s\n", flag, strerror(-ret),
		t_required() == 1 ? " (URING_SECCOMP_EXPECT=patched)" : "");
	exit(T_EXIT_FAIL);
}

int t_load(scmp_filter_ctx ctx)
{
	int ret, stock;

	ret = uring_seccomp_load(ctx, SECCOMP_FILTER_FLAG_URING);
	stock = t_opt_in(ret, "SECCOMP_FILTER_FLAG_URING");
	if (stock)
		ret = uring_seccomp_load(ctx, 0);
	seccomp_release(ctx);
	if (ret) {
		fprintf(stderr, "loading the filter: %s\n", strerror(-ret));
		exit(T_EXIT_FAIL);
	}
	return stock;
}

int t_load_sqe_only(int nr, uint32_t action)
{
	struct sock_filter insns[10];
	struct sock_fprog prog = { .filter = insns };
	unsigned int n = 0, i;

	/*
	 * Every JEQ's false branch is patched below to reach the ALLOW.
	 * libseccomp's architecture tokens are the AUDIT_ARCH_ values.
	 */
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						  offsetof(struct seccomp_data, arch));
	insns[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						  seccomp_arch_native(), 0, 0);
	if (nr != T_ANY_NR) {
		insns[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							  offsetof(struct seccomp_data, nr));
		insns[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							  nr, 0, 0);
	}
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		offsetof(struct seccomp_data, instruction_pointer));
	insns[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 0);
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		offsetof(struct seccomp_data, instruction_pointer) + 4);
	insns[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 0);
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, action);
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	for (i = 0; i < n; i++)
		if (BPF_CLASS(insns[i].code) == BPF_JMP)
			insns[i].jf = n - 1 - (i + 1);
	prog.len = n;
	return t_opt_in(uring_seccomp_load_prog(&prog, SECCOMP_FILTER_FLAG_URING),
			"SECCOMP_FILTER_FLAG_URING");
}

int t_listener(int *port)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t len = sizeof(addr);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);

	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    listen(fd, 8) || getsockname(fd, (struct sockaddr *)&addr, &len)) {
		perror("listener");
		exit(T_EXIT_FAIL);
	}
	*port = ntohs(addr.sin_port);
	return fd;
}

int t_verdict(int stock, int denied, int happened, const char *what)
{
	if (stock) {
		if (happened) {
			printf("BYPASS reproduced on stock kernel: %s\n", what);
			return T_EXIT_BYPASS;
		}
		printf("stock kernel did not show the bypass (%s did not happen)\n", what);
		return T_EXIT_FAIL;
	}
	if (!denied)
		printf("the SQE was not denied\n");
	if (happened)
		printf("denied, yet: %s\n", what);
	return denied && !happened ? T_EXIT_PASS : T_EXIT_FAIL;
}
