// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.seccomp.uring_force: once set, every seccomp filter judges
 * io_uring operations, as if loaded with SECCOMP_FILTER_FLAG_URING. It
 * needs CAP_SYS_ADMIN and cannot be cleared until reboot.
 *
 * This program SETS THE SYSCTL FOR GOOD: run it last, after every other
 * test of the boot (the seccomp selftests Makefile lists it last).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "../kselftest_harness.h"
#include "uring_expect.h"
#include "uring_filter.h"
#include "uring_raw.h"

#define FORCE_SYSCTL	"/proc/sys/kernel/seccomp/uring_force"
#define FASTPATH_SYSCTL	"/proc/sys/kernel/seccomp/fastpath"

static int write_file(const char *path, const char *val)
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

/* the sysctl's value, or -errno */
static int read_force(void)
{
	char buf[8] = "";
	int fd = open(FORCE_SYSCTL, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	return buf[0] - '0';
}

/*
 * sysctl_lacking - in a TEST(): true when there is no uring_force sysctl
 * (the test was then skipped, or failed where the harness booted the
 * patched kernel)
 */
static bool sysctl_lacking(struct __test_metadata *_metadata)
{
	if (access(FORCE_SYSCTL, F_OK)) {
		uring_feature_missing(_metadata, errno, ENOENT,
				      "no " FORCE_SYSCTL);
		return true;
	}
	uring_feature_present(_metadata, "there is " FORCE_SYSCTL);
	return false;
}

/* drop CAP_SYS_ADMIN from every set of the calling thread; 0 or -errno */
static int drop_sys_admin(void)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(__NR_capget, &hdr, data))
		return -errno;
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].permitted &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	data[CAP_TO_INDEX(CAP_SYS_ADMIN)].inheritable &= ~CAP_TO_MASK(CAP_SYS_ADMIN);
	if (syscall(__NR_capset, &hdr, data))
		return -errno;
	return 0;
}

/* uid 0 without CAP_SYS_ADMIN may not turn it on */
TEST(setting_needs_cap_sys_admin)
{
	int status;
	pid_t pid;

	if (sysctl_lacking(_metadata))
		return;
	ASSERT_EQ(0, read_force()) TH_LOG("already set: not the first run of this boot");
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (drop_sys_admin())
			_exit(2);
		_exit(write_file(FORCE_SYSCTL, "1") == -EPERM ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("without CAP_SYS_ADMIN: wait status %#x", status);
	EXPECT_EQ(0, read_force());
}

/* set, a filter loaded without SECCOMP_FILTER_FLAG_URING judges SQEs */
TEST(set_it_makes_every_filter_judge)
{
	char path[64];
	int status;
	pid_t pid;

	if (sysctl_lacking(_metadata))
		return;
	ASSERT_EQ(0, write_file(FORCE_SYSCTL, "1"));
	ASSERT_EQ(1, read_force());
	snprintf(path, sizeof(path), "/tmp/seccomp_uring_force.%d", getpid());
	unlink(path);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct uring r;

		if (uring_init(&r, 4, 0) ||
		    load_nr_action(__NR_openat, SECCOMP_RET_ERRNO | EACCES, 0))
			_exit(2);
		uring_prep_create(&r, path);
		_exit(uring_run(&r) == -EACCES ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("wait status %#x", status);
	EXPECT_NE(0, access(path, F_OK)) TH_LOG("the file was created");
	unlink(path);
}

/* once set it stays set: clearing it would silently unenforce filters */
TEST(it_cannot_be_cleared)
{
	if (sysctl_lacking(_metadata))
		return;
	ASSERT_EQ(1, read_force()) TH_LOG("set_it_makes_every_filter_judge did not set it");
	EXPECT_EQ(-EPERM, write_file(FORCE_SYSCTL, "0"));
	EXPECT_EQ(-EINVAL, write_file(FORCE_SYSCTL, "2"));
	EXPECT_EQ(0, write_file(FORCE_SYSCTL, "1"));
	EXPECT_EQ(1, read_force());
}

/*
 * Forced, an unflagged filter's constant verdicts come from the action
 * cache as they do for flagged ones, and what every filter allows runs:
 * the same answers with the cache and without it.
 */
TEST(forced_stack_gives_the_same_verdicts_with_and_without_cache)
{
	char path[64];
	int fastpath, status;
	pid_t pid;

	if (sysctl_lacking(_metadata))
		return;
	ASSERT_EQ(1, read_force());
	snprintf(path, sizeof(path), "/tmp/seccomp_uring_force.%d", getpid());
	for (fastpath = 1; fastpath >= 0; fastpath--) {
		ASSERT_EQ(0, write_file(FASTPATH_SYSCTL, fastpath ? "1" : "0"));
		unlink(path);
		pid = fork();
		ASSERT_LE(0, pid);
		if (pid == 0) {
			struct io_uring_sqe *sqe;
			struct uring r;
			int res;

			if (uring_init(&r, 4, 0) ||
			    load_nr_action(__NR_socket,
					   SECCOMP_RET_ERRNO | 1023, 0) ||
			    load_nr_action(__NR_mkdirat,
					   SECCOMP_RET_ERRNO | 1031,
					   SECCOMP_FILTER_FLAG_URING))
				_exit(2);
			sqe = uring_sqe(&r);
			sqe->opcode = IORING_OP_SOCKET;
			sqe->fd = AF_UNIX;
			sqe->off = SOCK_DGRAM;
			res = uring_run(&r);
			if (res != -1023)
				_exit(10);
			uring_sqe(&r)->opcode = IORING_OP_NOP;
			if (uring_run(&r) != 0)
				_exit(11);
			uring_prep_create(&r, path);
			res = uring_run(&r);
			_exit(res >= 0 ? 0 : 12);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
			TH_LOG("fastpath %d: wait status %#x", fastpath, status);
		EXPECT_EQ(0, access(path, F_OK)) TH_LOG("the allowed open did not run");
	}
	unlink(path);
	EXPECT_EQ(0, write_file(FASTPATH_SYSCTL, "1"));
}

TEST_HARNESS_MAIN
