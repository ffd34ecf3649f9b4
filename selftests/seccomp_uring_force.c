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
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

#include "../kselftest_harness.h"
#include "uring_expect.h"
#include "uring_filter.h"
#include "uring_raw.h"
#include "uring_sysctl.h"

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

	if (sysctl_lacking(_metadata, FORCE_SYSCTL))
		return;
	ASSERT_EQ(0, read_force()) TH_LOG("already set: not the first run of this boot");
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (drop_sys_admin())
			_exit(2);
		_exit(sysctl_write(FORCE_SYSCTL, "1") == -EPERM ? 0 : 1);
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

	if (sysctl_lacking(_metadata, FORCE_SYSCTL))
		return;
	ASSERT_EQ(0, sysctl_write(FORCE_SYSCTL, "1"));
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
	if (sysctl_lacking(_metadata, FORCE_SYSCTL))
		return;
	ASSERT_EQ(1, read_force()) TH_LOG("set_it_makes_every_filter_judge did not set it");
	EXPECT_EQ(-EPERM, sysctl_write(FORCE_SYSCTL, "0"));
	EXPECT_EQ(-EINVAL, sysctl_write(FORCE_SYSCTL, "2"));
	EXPECT_EQ(0, sysctl_write(FORCE_SYSCTL, "1"));
	EXPECT_EQ(1, read_force());
}

TEST_HARNESS_MAIN
