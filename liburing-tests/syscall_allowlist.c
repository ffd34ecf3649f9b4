// SPDX-License-Identifier: GPL-2.0
/*
 * A default-deny allowlist written for syscalls lets the permitted SQEs
 * (openat, read as pread64, write as pwrite64, close) through with the
 * right results, and refuses one it does not list (mkdirat).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

static const char *const allowed[] = {
	"read", "write", "close", "openat", "pread64", "pwrite64", "fstat",
	"newfstatat", "lseek", "mmap", "munmap", "brk", "futex", "exit",
	"exit_group", "rt_sigreturn", "io_uring_enter", "getpid",
};

int main(void)
{
	const char *src = t_path("allow_src");
	const char *dst = t_path("allow_dst");
	const char *dir = t_path("allow_dir");
	struct io_uring ring;
	scmp_filter_ctx ctx;
	char buf[16] = "";
	int stock, in, out, res, ok = 1;
	size_t i;

	t_create_file(src, "allowlisted");
	t_create_ring(&ring, 4);
	ctx = t_filter(SCMP_ACT_ERRNO(EPERM));
	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
		int nr = seccomp_syscall_resolve_name(allowed[i]);

		if (nr != __NR_SCMP_ERROR)
			t_rule_check(seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0),
				     allowed[i]);
	}
	stock = t_load(ctx);

	io_uring_prep_openat(io_uring_get_sqe(&ring), AT_FDCWD, src, O_RDONLY, 0);
	in = t_run(&ring);
	io_uring_prep_openat(io_uring_get_sqe(&ring), AT_FDCWD, dst,
			     O_CREAT | O_WRONLY, 0600);
	out = t_run(&ring);
	if (in < 0 || out < 0) {
		printf("allowed openat SQEs failed: %d %d\n", in, out);
		return T_EXIT_FAIL;
	}
	io_uring_prep_read(io_uring_get_sqe(&ring), in, buf, sizeof(buf), 0);
	res = t_run(&ring);
	ok &= res == 11 && !strcmp(buf, "allowlisted");
	io_uring_prep_write(io_uring_get_sqe(&ring), out, buf, 11, 0);
	ok &= t_run(&ring) == 11;
	io_uring_prep_close(io_uring_get_sqe(&ring), out);
	ok &= t_run(&ring) == 0;
	if (!ok) {
		printf("allowed SQEs gave wrong results (read %d: \"%s\")\n", res, buf);
		return T_EXIT_FAIL;
	}
	io_uring_prep_mkdirat(io_uring_get_sqe(&ring), AT_FDCWD, dir, 0700);
	res = t_run(&ring);
	return t_verdict(stock, res == -EPERM, t_exists(dir),
			 "IORING_OP_MKDIRAT, not in the allowlist, made the directory");
}
