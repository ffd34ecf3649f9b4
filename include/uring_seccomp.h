/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * uring_seccomp.h - userspace helpers for seccomp filters that judge
 * io_uring operations (SECCOMP_FILTER_FLAG_URING).
 *
 * include/linux/seccomp.h next to this file is the patched kernel's UAPI
 * header, byte for byte; put this directory first on the include path.
 *
 * Like libseccomp's API: few verbs, errors returned as negative errno.
 *   uring_seccomp_supported()        does the kernel know the flag?
 *   uring_seccomp_load_prog(p, f)    load a cBPF program with flags f
 *   uring_seccomp_load(ctx, f)       load a libseccomp filter with flags f
 *                                    (define URING_SECCOMP_LIBSECCOMP and
 *                                    include <seccomp.h> first)
 */
#ifndef URING_SECCOMP_H
#define URING_SECCOMP_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#ifndef SECCOMP_FILTER_FLAG_URING
#error "include/linux/seccomp.h of uring-seccomp must come first on the include path"
#endif

/**
 * uring_seccomp_supported - whether the kernel accepts SECCOMP_FILTER_FLAG_URING
 *
 * Probes with a NULL program: a kernel that knows every flag fails with
 * EFAULT on the program, one that does not fails with EINVAL first.
 *
 * Returns 1 if supported, 0 if not.
 */
static inline int uring_seccomp_supported(void)
{
	long ret = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
			   SECCOMP_FILTER_FLAG_URING, NULL);

	return ret == -1 && errno == EFAULT;
}

/**
 * uring_seccomp_load_prog - set no_new_privs and load a seccomp program
 * @prog: the cBPF program
 * @flags: SECCOMP_FILTER_FLAG_* (add SECCOMP_FILTER_FLAG_URING to judge SQEs)
 *
 * Returns what seccomp(2) returned (0, or a listener fd with
 * SECCOMP_FILTER_FLAG_NEW_LISTENER), or -errno.
 */
static inline int uring_seccomp_load_prog(const struct sock_fprog *prog,
					  unsigned int flags)
{
	long ret;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	ret = syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, prog);
	return ret < 0 ? -errno : (int)ret;
}

#ifdef URING_SECCOMP_LIBSECCOMP
/**
 * uring_seccomp_load - load a libseccomp filter with extra seccomp flags
 * @ctx: the libseccomp filter
 * @flags: SECCOMP_FILTER_FLAG_* passed to seccomp(2)
 *
 * libseccomp has no attribute for new filter flags, so the filter is
 * exported as BPF into a memfd and loaded with seccomp(2) directly.
 * Needs _GNU_SOURCE (memfd_create).
 *
 * Returns 0 (or a listener fd), or -errno.
 */
static inline int uring_seccomp_load(const scmp_filter_ctx ctx,
				     unsigned int flags)
{
	struct sock_fprog prog;
	char *buf = NULL;
	int fd, ret;
	off_t len;

	fd = memfd_create("uring-seccomp-bpf", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = seccomp_export_bpf(ctx, fd);
	if (!ret) {
		len = lseek(fd, 0, SEEK_END);
		buf = len > 0 ? malloc(len) : NULL;
		if (!buf)
			ret = -ENOMEM;
		else if (pread(fd, buf, len, 0) != len)
			ret = -EIO;
	}
	if (!ret) {
		prog.len = len / sizeof(struct sock_filter);
		prog.filter = (struct sock_filter *)buf;
		ret = uring_seccomp_load_prog(&prog, flags);
	}
	free(buf);
	close(fd);
	return ret;
}
#endif /* URING_SECCOMP_LIBSECCOMP */

#endif /* URING_SECCOMP_H */
