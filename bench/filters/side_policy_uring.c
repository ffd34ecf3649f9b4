// SPDX-License-Identifier: GPL-2.0
/*
 * The side-by-side policies as io_uring task filters (Linux 7.0's
 * IORING_REGISTER_BPF_FILTER): cBPF over struct io_uring_bpf_ctx, one
 * program per opcode. Built against the kernel's exported UAPI headers
 * (bench/build.sh puts them first for this file), which have
 * IORING_REGISTER_BPF_FILTER and every opcode; liburing 2.3's do not.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/io_uring.h>
#include <linux/io_uring/bpf_filter.h>

#include "side_policy.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define FIELD_SIZE(t, m)	sizeof(((t *)0)->m)

/* Where the low 32 bits of a 64-bit field are */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LO_OFF	0
#else
#define LO_OFF	4
#endif

/* A filter returns 0 to refuse the request (-EACCES), anything else to allow */
static struct sock_filter allow_prog[] = {
	BPF_STMT(BPF_RET | BPF_K, 1),
};

static struct sock_filter deny_prog[] = {
	BPF_STMT(BPF_RET | BPF_K, 0),
};

/* SOCKET: refuse AF_VSOCK */
static struct sock_filter socket_prog[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		 offsetof(struct io_uring_bpf_ctx, socket.family)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_VSOCK, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, 0),
	BPF_STMT(BPF_RET | BPF_K, 1),
};

/* OPENAT, OPENAT2: refuse O_CREAT */
static struct sock_filter open_prog[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		 offsetof(struct io_uring_bpf_ctx, open.flags) + LO_OFF),
	BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_CREAT, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, 0),
	BPF_STMT(BPF_RET | BPF_K, 1),
};

/*
 * The size of the opcode's part of io_uring_bpf_ctx that a filter
 * reads; IO_URING_BPF_FILTER_SZ_STRICT makes the kernel refuse the
 * filter if its own differs.
 */
static unsigned int pdu_size(int opcode)
{
	switch (opcode) {
	case IORING_OP_SOCKET:
		return FIELD_SIZE(struct io_uring_bpf_ctx, socket);
	case IORING_OP_OPENAT:
	case IORING_OP_OPENAT2:
		return FIELD_SIZE(struct io_uring_bpf_ctx, open);
	default:
		return 0;
	}
}

/* Register @prog (@len instructions) for @opcode; 0 or -errno */
static int task_filter(int opcode, struct sock_filter *prog, unsigned int len,
		       unsigned int flags)
{
	struct io_uring_bpf b;

	memset(&b, 0, sizeof(b));
	b.cmd_type = IO_URING_BPF_CMD_FILTER;
	b.filter.opcode = opcode;
	b.filter.flags = flags | IO_URING_BPF_FILTER_SZ_STRICT;
	b.filter.filter_len = len;
	b.filter.pdu_size = pdu_size(opcode);
	b.filter.filter_ptr = (unsigned long)prog;
	if (syscall(__NR_io_uring_register, -1, IORING_REGISTER_BPF_FILTER,
		    &b, 1) < 0)
		return -errno;
	return 0;
}

int side_uring_filter(int opcode, int allow, unsigned int flags)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	if (allow)
		return task_filter(opcode, allow_prog, ARRAY_SIZE(allow_prog),
				   flags);
	return task_filter(opcode, deny_prog, ARRAY_SIZE(deny_prog), flags);
}

static int policy_a(void)
{
	int ret = task_filter(IORING_OP_SOCKET, socket_prog,
			      ARRAY_SIZE(socket_prog), 0);

	if (!ret)
		ret = task_filter(IORING_OP_OPENAT, open_prog,
				  ARRAY_SIZE(open_prog), 0);
	if (!ret)
		ret = task_filter(IORING_OP_OPENAT2, open_prog,
				  ARRAY_SIZE(open_prog), 0);
	return ret;
}

/*
 * DENY_REST puts a refusing filter on every opcode that has none yet,
 * and a filter registered later for one of them is chained in front of
 * that refusal, which still refuses (io_register_bpf_filter()): so the
 * flag goes with the last of the allow filters.
 */
static int policy_b(void)
{
	int ret = task_filter(IORING_OP_READ, allow_prog,
			      ARRAY_SIZE(allow_prog), 0);

	if (!ret)
		ret = task_filter(IORING_OP_WRITE, allow_prog,
				  ARRAY_SIZE(allow_prog), 0);
	if (!ret)
		ret = task_filter(IORING_OP_NOP, allow_prog,
				  ARRAY_SIZE(allow_prog),
				  IO_URING_BPF_FILTER_DENY_REST);
	return ret;
}

int side_policy_uring(enum side_policy policy)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	return policy == POLICY_A ? policy_a() : policy_b();
}
