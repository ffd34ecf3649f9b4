/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel.seccomp.uring_force, which the force tests set for good, and
 * reading and writing a sysctl file.
 */
#ifndef SECCOMP_URING_SYSCTL_H
#define SECCOMP_URING_SYSCTL_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "uring_expect.h"

#define FORCE_SYSCTL	"/proc/sys/kernel/seccomp/uring_force"

/* write @val to the file @path; 0 or -errno */
static inline int sysctl_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* the first digit of the file @path, or -errno */
static inline int sysctl_read_digit(const char *path)
{
	char buf[8] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	return buf[0] - '0';
}

/* kernel.seccomp.uring_force, or -errno */
static inline int read_force(void)
{
	return sysctl_read_digit(FORCE_SYSCTL);
}

/*
 * sysctl_lacking - in a TEST(): true when there is no sysctl file @path
 * (the test was then skipped, or failed where the harness booted the
 * patched kernel)
 */
static inline bool sysctl_lacking(struct __test_metadata *_metadata,
				  const char *path)
{
	char what[128];

	if (access(path, F_OK)) {
		snprintf(what, sizeof(what), "no %s", path);
		uring_feature_missing(_metadata, errno, ENOENT, what);
		return true;
	}
	snprintf(what, sizeof(what), "there is %s", path);
	uring_feature_present(_metadata, what);
	return false;
}

#endif
