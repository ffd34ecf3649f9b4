// SPDX-License-Identifier: GPL-2.0
/*
 * A filter written with include/uring_seccomp_ext.h reads open_how in the
 * extension area: openat2 is refused unless it asks for RESOLVE_BENEATH
 * or sets fields the filter does not know, through the syscall and
 * through IORING_OP_OPENAT2 alike; a refused open creates nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

#include "helpers.h"
#include "uring_seccomp.h"
#include "uring_seccomp_ext.h"

/* The layout the helpers compute is the kernel's UAPI one. */
_Static_assert(SECCOMP_EXT_OFF(flags) == 64, "area after seccomp_data");
_Static_assert(SECCOMP_EXT_OFF(data) == 96, "32-byte header");
_Static_assert(SECCOMP_EXT_DATA_OFF(struct open_how, resolve) == 112,
	       "open_how.resolve");

static int load_beneath_filter(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat2, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* fields past the struct this filter knows: refuse */
		SECCOMP_EXT_LOAD(zero_offset),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, sizeof(struct open_how), 3, 0),
		SECCOMP_EXT_LOAD_LO(struct open_how, resolve),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, RESOLVE_BENEATH, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	};
	struct sock_fprog prog = {
		.len = sizeof(insns) / sizeof(insns[0]), .filter = insns,
	};

	return uring_seccomp_load_prog(&prog, SECCOMP_FILTER_FLAG_URING |
				       SECCOMP_FILTER_FLAG_EXT_ARGS);
}

static int openat2_sqe(struct io_uring *ring, int dfd, const char *path,
		       struct open_how *how)
{
	io_uring_prep_openat2(io_uring_get_sqe(ring), dfd, path, how);
	return t_run(ring);
}

int main(void)
{
	const char *denied = t_path("ext_denied"), *allowed = t_path("ext_allowed");
	struct open_how how = { .flags = O_CREAT | O_WRONLY, .mode = 0600 };
	const char *name = strrchr(allowed, '/') + 1;
	struct { struct open_how how; char tail[8]; } big = { .how = how };
	struct io_uring ring;
	int tmp, ret;

	tmp = open("/tmp", O_RDONLY | O_DIRECTORY);
	t_create_ring(&ring, 4);
	if (tmp < 0)
		return T_EXIT_FAIL;
	ret = load_beneath_filter();
	if (t_opt_in(ret, "SECCOMP_FILTER_FLAG_EXT_ARGS")) {
		printf("no extension area (stock kernel)\n");
		return T_EXIT_SKIP;
	}

	if (syscall(__NR_openat2, AT_FDCWD, denied, &how, sizeof(how)) != -1 ||
	    errno != EPERM || openat2_sqe(&ring, AT_FDCWD, denied, &how) != -EPERM ||
	    t_exists(denied)) {
		printf("openat2 without RESOLVE_BENEATH was not refused\n");
		return T_EXIT_FAIL;
	}
	how.resolve = RESOLVE_BENEATH;
	ret = openat2_sqe(&ring, tmp, name, &how);
	if (ret < 0 || !t_exists(allowed)) {
		printf("IORING_OP_OPENAT2 with RESOLVE_BENEATH: %d\n", ret);
		return T_EXIT_FAIL;
	}
	close(ret);
	/* an unknown field set past open_how: the filter refuses it */
	big.how.resolve = RESOLVE_BENEATH;
	big.tail[3] = 1;
	if (syscall(__NR_openat2, tmp, name, &big, sizeof(big)) != -1 ||
	    errno != EPERM) {
		printf("openat2 with an unknown field was not refused: %s\n",
		       strerror(errno));
		return T_EXIT_FAIL;
	}
	return T_EXIT_PASS;
}
