// SPDX-License-Identifier: GPL-2.0
/*
 * The side-by-side policies as seccomp filters: one cBPF program over
 * struct seccomp_data and, for openat2's struct open_how, the extension
 * area (struct seccomp_ext), which SQEs and system calls both fill.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>

#include "side_policy.h"
#include "uring_seccomp_ext.h"

#if defined(__x86_64__)
#define NATIVE_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH	AUDIT_ARCH_AARCH64
#else
#error "unsupported architecture"
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PROG_MAX	64
#define DENY		(SECCOMP_RET_ERRNO | EPERM)
#define ALLOW		SECCOMP_RET_ALLOW

/* The low 32 bits of seccomp_data.args[@i] */
#define ARG_LO(i)	(offsetof(struct seccomp_data, args[i]) + SECCOMP_EXT_LO_OFF)

struct prog {
	struct sock_filter insns[PROG_MAX];
	unsigned short len;
};

/*
 * What the benchmark calls once its filter is loaded: POLICY_B lets
 * system calls (not SQEs) make them. Setting up its ring, printing,
 * reading /proc/self/seccomp_cache, closing fds and sleeping between
 * measured loops, exiting.
 */
static const int own_nrs[] = {
	__NR_io_uring_setup, __NR_mmap, __NR_munmap, __NR_brk, __NR_read,
	__NR_write, __NR_close, __NR_fstat, __NR_newfstatat,
	__NR_clock_gettime, __NR_clock_nanosleep, __NR_nanosleep, __NR_exit,
	__NR_exit_group,
};

/* Append @insn; a program that outgrew PROG_MAX keeps counting, see below */
static void put(struct prog *p, struct sock_filter insn)
{
	if (p->len < PROG_MAX)
		p->insns[p->len] = insn;
	p->len++;
}

static void stmt(struct prog *p, __u16 code, __u32 k)
{
	put(p, (struct sock_filter)BPF_STMT(code, k));
}

static void jump(struct prog *p, __u16 code, __u32 k, __u8 jt, __u8 jf)
{
	put(p, (struct sock_filter)BPF_JUMP(code, k, jt, jf));
}

/* A foreign architecture is killed; then A holds the syscall number. */
static void head(struct prog *p)
{
	stmt(p, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	jump(p, BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0);
	stmt(p, BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	stmt(p, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
}

/* "if A == @nr, go on; else skip @skip instructions" */
static void if_nr(struct prog *p, int nr, __u8 skip)
{
	jump(p, BPF_JMP | BPF_JEQ | BPF_K, nr, 0, skip);
}

/*
 * Policy A. socket: args[0] is the family. openat: args[2] the flags.
 * openat2: the flags are in struct open_how, shown in the extension area;
 * a struct that could not be copied is refused.
 */
static void policy_a(struct prog *p)
{
	head(p);
	if_nr(p, __NR_socket, 4);
	stmt(p, BPF_LD | BPF_W | BPF_ABS, ARG_LO(0));
	jump(p, BPF_JMP | BPF_JEQ | BPF_K, AF_VSOCK, 0, 1);
	stmt(p, BPF_RET | BPF_K, DENY);
	stmt(p, BPF_RET | BPF_K, ALLOW);
	if_nr(p, __NR_openat, 4);
	stmt(p, BPF_LD | BPF_W | BPF_ABS, ARG_LO(2));
	jump(p, BPF_JMP | BPF_JSET | BPF_K, O_CREAT, 0, 1);
	stmt(p, BPF_RET | BPF_K, DENY);
	stmt(p, BPF_RET | BPF_K, ALLOW);
	if_nr(p, __NR_openat2, 6);
	put(p, (struct sock_filter)SECCOMP_EXT_LOAD(flags));
	jump(p, BPF_JMP | BPF_JSET | BPF_K, SECCOMP_EXT_UNREADABLE, 2, 0);
	put(p, (struct sock_filter)SECCOMP_EXT_LOAD_LO(struct open_how, flags));
	jump(p, BPF_JMP | BPF_JSET | BPF_K, O_CREAT, 0, 1);
	stmt(p, BPF_RET | BPF_K, DENY);
	stmt(p, BPF_RET | BPF_K, ALLOW);
	stmt(p, BPF_RET | BPF_K, ALLOW);
}

/*
 * Policy B. The twins of READ, WRITE and NOP (pread64, pwrite64,
 * io_uring_enter, see io_uring/opdef.c) are allowed whatever the
 * arguments, so the action cache answers them; own_nrs only when the
 * extension area says a system call made it; anything else is refused.
 */
static void policy_b(struct prog *p)
{
	static const int twins[] = {
		__NR_pread64, __NR_pwrite64, __NR_io_uring_enter,
	};
	size_t i, n = ARRAY_SIZE(own_nrs);

	head(p);
	for (i = 0; i < ARRAY_SIZE(twins); i++) {
		if_nr(p, twins[i], 1);
		stmt(p, BPF_RET | BPF_K, ALLOW);
	}
	/* own_nrs[i] jumps to the origin check after the final refusal */
	for (i = 0; i < n; i++)
		jump(p, BPF_JMP | BPF_JEQ | BPF_K, own_nrs[i], n - i, 0);
	stmt(p, BPF_RET | BPF_K, DENY);
	put(p, (struct sock_filter)SECCOMP_EXT_LOAD(flags));
	jump(p, BPF_JMP | BPF_JSET | BPF_K, SECCOMP_EXT_URING, 0, 1);
	stmt(p, BPF_RET | BPF_K, DENY);
	stmt(p, BPF_RET | BPF_K, ALLOW);
}

int side_policy_seccomp(enum side_policy policy, unsigned int flags)
{
	static struct prog p;
	struct sock_fprog prog;

	p.len = 0;
	if (policy == POLICY_A)
		policy_a(&p);
	else
		policy_b(&p);
	if (p.len > PROG_MAX)
		return -E2BIG;
	prog.len = p.len;
	prog.filter = p.insns;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog))
		return -errno;
	return 0;
}
