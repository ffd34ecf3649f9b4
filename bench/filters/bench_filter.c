// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
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

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* The argument check refuses this value of args[0], which no call has. */
#define ARG_REFUSED	0xbad5ecc0u
/* Padding rules name syscall numbers no kernel has. */
#define PAD_NR_BASE	100000
#define DENY		(SECCOMP_RET_ERRNO | EPERM)
#define URING		SECCOMP_FILTER_FLAG_URING
#define EXT		SECCOMP_FILTER_FLAG_EXT_ARGS

/*
 * The configurations of bench/run.sh. "plain_" filters are loaded without
 * SECCOMP_FILTER_FLAG_URING (they never judge SQEs; the stock kernel
 * takes them), "uring_" ones with it.
 */
static const struct bench_config configs[] = {
	{ "none", 0, CONST_ALLOW, 0 },
	{ "plain_allow", 1, CONST_ALLOW, 0 },
	{ "plain_bpf", 1, ARG_ALLOW, 0 },
	{ "uring_allow", 1, CONST_ALLOW, URING },
	{ "uring_deny", 1, CONST_DENY, URING },
	{ "uring_bpf", 1, ARG_ALLOW, URING },
	{ "uring_ea", 1, EA_ALLOW, URING | EXT },
};

static void put(struct bench_filter *f, struct sock_filter insn)
{
	f->insns[f->len++] = insn;
}

static void stmt(struct bench_filter *f, __u16 code, __u32 k)
{
	put(f, (struct sock_filter)BPF_STMT(code, k));
}

static void jump(struct bench_filter *f, __u16 code, __u32 k, __u8 jt,
		 __u8 jf)
{
	put(f, (struct sock_filter)BPF_JUMP(code, k, jt, jf));
}

/* What EA_ALLOW checks for @nr, after the area's flags; ends in a return. */
static void ea_check(struct bench_filter *f, int nr)
{
	if (nr == __NR_openat2) {
		put(f, (struct sock_filter)SECCOMP_EXT_LOAD_LO(struct open_how, flags));
		jump(f, BPF_JMP | BPF_JSET | BPF_K, O_CREAT, 0, 1);
		stmt(f, BPF_RET | BPF_K, DENY);
	} else if (nr == __NR_connect || nr == __NR_bind) {
		/* sa_family is the first half-word (little endian) */
		put(f, (struct sock_filter)SECCOMP_EXT_LOAD_DATA_WORD(0));
		stmt(f, BPF_ALU | BPF_AND | BPF_K, 0xffff);
		jump(f, BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 1, 0);
		stmt(f, BPF_RET | BPF_K, DENY);
	}
	stmt(f, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
}

/* The body of one rule, run when nr matched; ends in a return. */
static void rule_body(struct bench_filter *f, int nr,
		      enum bench_verdict verdict)
{
	switch (verdict) {
	case CONST_ALLOW:
		stmt(f, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
		break;
	case CONST_DENY:
		stmt(f, BPF_RET | BPF_K, DENY);
		break;
	case ARG_ALLOW:
		stmt(f, BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, args[0]));
		jump(f, BPF_JMP | BPF_JEQ | BPF_K, ARG_REFUSED, 0, 1);
		stmt(f, BPF_RET | BPF_K, DENY);
		stmt(f, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
		break;
	case EA_ALLOW:
		put(f, (struct sock_filter)SECCOMP_EXT_LOAD(flags));
		jump(f, BPF_JMP | BPF_JSET | BPF_K, SECCOMP_EXT_UNREADABLE, 0, 1);
		stmt(f, BPF_RET | BPF_K, DENY);
		ea_check(f, nr);
		break;
	}
}

/* The rules for @nrs: "if nr == NR, body", with nr reloaded for each. */
static void rules(struct bench_filter *f, const int *nrs, int n,
		  enum bench_verdict verdict)
{
	struct bench_filter body;
	int i;

	for (i = 0; i < n; i++) {
		body.len = 0;
		rule_body(&body, nrs[i], verdict);
		stmt(f, BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, nr));
		jump(f, BPF_JMP | BPF_JEQ | BPF_K, nrs[i], 0, body.len);
		memcpy(f->insns + f->len, body.insns,
		       body.len * sizeof(body.insns[0]));
		f->len += body.len;
	}
}

void bench_filter_build(struct bench_filter *f, int insns, const int *nrs,
			int n, enum bench_verdict verdict)
{
	static struct bench_filter tail;
	int pad, i;

	tail.len = 0;
	rules(&tail, nrs, n, verdict);
	stmt(&tail, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	/* 3 (arch) + 1 (load nr) + 2 a padding rule + the tail */
	if (insns > BENCH_FILTER_MAX - tail.len)
		insns = BENCH_FILTER_MAX - tail.len;
	pad = insns > 4 + tail.len ? (insns - 4 - tail.len) / 2 : 0;
	f->len = 0;
	stmt(f, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	jump(f, BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0);
	stmt(f, BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	stmt(f, BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (i = 0; i < pad; i++) {
		jump(f, BPF_JMP | BPF_JEQ | BPF_K, PAD_NR_BASE + i, 0, 1);
		stmt(f, BPF_RET | BPF_K, DENY);
	}
	memcpy(f->insns + f->len, tail.insns, tail.len * sizeof(tail.insns[0]));
	f->len += tail.len;
}

int bench_filter_load(const struct bench_filter *f, int count,
		      unsigned int flags)
{
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

const struct bench_config *bench_config_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(configs); i++) {
		if (!strcmp(configs[i].name, name))
			return &configs[i];
	}
	return NULL;
}

int bench_config_apply(const struct bench_config *cfg, const int *nrs, int n)
{
	static struct bench_filter filter;

	if (!cfg->filters)
		return 0;
	bench_filter_build(&filter, BENCH_PROFILE_INSNS, nrs, n, cfg->verdict);
	return bench_filter_load(&filter, cfg->filters, cfg->flags);
}
