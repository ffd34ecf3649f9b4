/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading the small filters of the seccomp io_uring selftests:
 * "this action for one syscall, allow the rest", with or without
 * SECCOMP_FILTER_FLAG_URING.
 */
#ifndef SECCOMP_URING_FILTER_H
#define SECCOMP_URING_FILTER_H

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#if defined(__x86_64__)
#define URING_FILTER_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define URING_FILTER_ARCH	AUDIT_ARCH_AARCH64
#endif

/* The instructions of the longest filter nr_action_filter() makes */
#define NR_FILTER_MAX	8

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/**
 * nr_action_filter - "@action for syscall @nr, allow the rest"
 * @insns: room for NR_FILTER_MAX instructions
 * @nr: the syscall (or twin) number
 * @action: its SECCOMP_RET_* value
 *
 * A foreign architecture kills the process. Returns the length.
 */
static inline unsigned short nr_action_filter(struct sock_filter *insns,
					      int nr, __u32 action)
{
	struct sock_filter prog[] = {
#ifdef URING_FILTER_ARCH
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, URING_FILTER_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
#endif
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, action),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	memcpy(insns, prog, sizeof(prog));
	return ARRAY_SIZE(prog);
}

/**
 * load_insns - set no_new_privs and load a cBPF program with @flags
 *
 * Returns what seccomp(2) returned, or -errno.
 */
static inline int load_insns(struct sock_filter *insns, unsigned short len,
			     unsigned int flags)
{
	struct sock_fprog prog = { .len = len, .filter = insns };
	long ret;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	ret = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	return ret < 0 ? -errno : (int)ret;
}

/* load_insns() of nr_action_filter(@nr, @action) */
static inline int load_nr_action(int nr, __u32 action, unsigned int flags)
{
	struct sock_filter insns[NR_FILTER_MAX];

	return load_insns(insns, nr_action_filter(insns, nr, action), flags);
}

/*
 * uring_flag_known - whether the kernel knows SECCOMP_FILTER_FLAG_URING.
 * One that knows every flag faults on the NULL program; one that does
 * not refuses the flag first, with EINVAL.
 */
static inline int uring_flag_known(void)
{
	return syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
		       SECCOMP_FILTER_FLAG_URING, NULL) == -1 && errno == EFAULT;
}
#endif
