// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stddef.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>

#include "bench_filter.h"
#include "uring_seccomp_ext.h"

#if defined(__x86_64__)
#define NATIVE_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH	AUDIT_ARCH_AARCH64
#else
#error "unsupported architecture"
#endif

/* Arguments below this bound pass the argument check. */
#define ARG_BOUND	(1u << 20)
/* Padding rules name syscall numbers no kernel has. */
#define PAD_NR_BASE	100000

static void stmt(struct bench_filter *f, __u16 code, __u32 k)
{
	struct sock_filter insn = BPF_STMT(code, k);

	f->insns[f->len++] = insn;
}

static void jump(struct bench_filter *f, __u16 code, __u32 k, __u8 jt,
		 __u8 jf)
{
	struct sock_filter insn = BPF_JUMP(code, k, jt, jf);

	f->insns[f->len++] = insn;
}

/* One rule: @verdict for syscall @nr; expects nr in A, leaves it there. */
static void rule(struct bench_filter *f, int nr, enum bench_verdict verdict)
{
	const __u32 deny = SECCOMP_RET_ERRNO | EPERM;

	switch (verdict) {
	case CONST_ALLOW:
	case CONST_DENY:
		jump(f, BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1);
		stmt(f, BPF_RET | BPF_K,
		     verdict == CONST_ALLOW ? SECCOMP_RET_ALLOW : deny);
		break;
	case ARG_ALLOW:
	case ARG_DENY:
		jump(f, BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 4);
		stmt(f, BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, args[0]));
		jump(f, BPF_JMP | BPF_JGE | BPF_K, ARG_BOUND, 0, 1);
		stmt(f, BPF_RET | BPF_K,
		     verdict == ARG_ALLOW ? deny : SECCOMP_RET_ALLOW);
		stmt(f, BPF_RET | BPF_K,
		     verdict == ARG_ALLOW ? SECCOMP_RET_ALLOW : deny);
		break;
	case EA_ALLOW:
		jump(f, BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 3);
		f->insns[f->len++] = (struct sock_filter)
			SECCOMP_EXT_LOAD_LO(struct open_how, flags);
		jump(f, BPF_JMP | BPF_JSET | BPF_K, O_CREAT, 0, 1);
		stmt(f, BPF_RET | BPF_K, deny);
		stmt(f, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
		break;
	}
}

/* The rules for @nrs; A holds nr on entry, which each rule reloads. */
static void rules(struct bench_filter *f, const int *nrs, int n,
		  enum bench_verdict verdict)
{
	int i;

	for (i = 0; i < n; i++) {
		stmt(f, BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, nr));
		rule(f, nrs[i], verdict);
	}
}

void bench_filter_build(struct bench_filter *f, int insns, const int *nrs,
			int n, enum bench_verdict verdict)
{
	const __u32 deny = SECCOMP_RET_ERRNO | EPERM;
	int pad, i;

	if (insns > BENCH_FILTER_MAX - 10 * n)
		insns = BENCH_FILTER_MAX - 10 * n;
	/* 3 (arch) + 1 (load nr) + 6 a rule + 1 (default) */
	pad = insns > 4 + 6 * n ? (insns - 4 - 6 * n) / 2 : 0;
	f->len = 0;
	stmt(f, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	jump(f, BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0);
	stmt(f, BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	/* a struct check goes first, as a profile puts its hot rules */
	if (verdict == EA_ALLOW)
		rules(f, nrs, n, verdict);
	stmt(f, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (i = 0; i < pad; i++) {
		jump(f, BPF_JMP | BPF_JEQ | BPF_K, PAD_NR_BASE + i, 0, 1);
		stmt(f, BPF_RET | BPF_K, deny);
	}
	if (verdict != EA_ALLOW)
		rules(f, nrs, n, verdict);
	stmt(f, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
}

int bench_filter_load(const struct bench_filter *f, int count, int ext)
{
	unsigned int flags = SECCOMP_FILTER_FLAG_URING |
			     (ext ? SECCOMP_FILTER_FLAG_EXT_ARGS : 0);
	struct sock_fprog prog = {
		.len = f->len,
		.filter = (struct sock_filter *)f->insns,
	};
	int i;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	for (i = 0; i < count; i++) {
		if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags,
			    &prog))
			return -errno;
	}
	return 0;
}
