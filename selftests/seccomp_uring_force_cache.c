// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.seccomp.uring_force with the action cache: forced, every filter
 * judges io_uring operations, and the cache must answer for all of them
 * as the filters would. The cache is turned off and on through
 * kernel.seccomp.action_cache (CONFIG_SECCOMP_CACHE_DEBUG).
 *
 * This program SETS kernel.seccomp.uring_force FOR GOOD: run it last,
 * after every other test of the boot (the seccomp selftests Makefile
 * lists it last, after seccomp_uring_force).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "uring_expect.h"
#include "uring_filter.h"
#include "uring_raw.h"
#include "uring_sysctl.h"

#define CACHE_SYSCTL	"/proc/sys/kernel/seccomp/action_cache"

/*
 * Forced, an unflagged filter's constant verdicts come from the action
 * cache as they do for flagged ones, and what every filter allows runs:
 * the same answers with the cache and without it.
 */
TEST(forced_stack_gives_the_same_verdicts_with_and_without_cache)
{
	char path[64], dir[64];
	int cache_on, status;
	pid_t pid;

	if (sysctl_lacking(_metadata, FORCE_SYSCTL) ||
	    sysctl_lacking(_metadata, CACHE_SYSCTL))
		return;
	/* set here if seccomp_uring_force did not run first */
	ASSERT_EQ(0, sysctl_write(FORCE_SYSCTL, "1"));
	ASSERT_EQ(1, read_force());
	snprintf(path, sizeof(path), "/tmp/seccomp_uring_force_cache.%d",
		 getpid());
	snprintf(dir, sizeof(dir), "/tmp/seccomp_uring_force_cache_dir.%d",
		 getpid());
	for (cache_on = 1; cache_on >= 0; cache_on--) {
		if (sysctl_write(CACHE_SYSCTL, cache_on ? "1" : "0"))
			break;
		unlink(path);
		rmdir(dir);
		pid = fork();
		if (pid == 0) {
			struct io_uring_sqe *sqe;
			struct uring r;
			int res, fd;

			if (uring_init(&r, 4, 0) ||
			    load_nr_action(__NR_socket,
					   SECCOMP_RET_ERRNO | 1023, 0) ||
			    load_nr_action(__NR_mkdirat,
					   SECCOMP_RET_ERRNO | 1031,
					   SECCOMP_FILTER_FLAG_URING))
				_exit(2);
			/* the lowest free descriptor, which a socket would take */
			fd = dup(0);
			if (fd < 0)
				_exit(3);
			close(fd);
			sqe = uring_sqe(&r);
			sqe->opcode = IORING_OP_SOCKET;
			sqe->fd = AF_UNIX;
			sqe->off = SOCK_DGRAM;
			res = uring_run(&r);
			if (res != -1023)
				_exit(10);
			/* no socket was made: that descriptor is still free */
			if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
				_exit(13);
			sqe = uring_sqe(&r);
			sqe->opcode = IORING_OP_MKDIRAT;
			sqe->fd = AT_FDCWD;
			sqe->addr = (unsigned long)dir;
			sqe->len = 0700;
			if (uring_run(&r) != -1031)
				_exit(14);
			uring_sqe(&r)->opcode = IORING_OP_NOP;
			if (uring_run(&r) != 0)
				_exit(11);
			uring_prep_create(&r, path);
			res = uring_run(&r);
			_exit(res >= 0 ? 0 : 12);
		}
		EXPECT_LE(0, pid);
		if (pid < 0)
			break;
		EXPECT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
			TH_LOG("action_cache %d: wait status %#x", cache_on, status);
		EXPECT_EQ(0, access(path, F_OK)) TH_LOG("the allowed open did not run");
		EXPECT_NE(0, access(dir, F_OK)) TH_LOG("the refused MKDIRAT ran");
	}
	/* the loop ran to its end: every write and fork above worked */
	EXPECT_EQ(-1, cache_on) TH_LOG("stopped at action_cache %d", cache_on);
	unlink(path);
	rmdir(dir);
	/* the cache back on, whatever happened above */
	EXPECT_EQ(0, sysctl_write(CACHE_SYSCTL, "1"));
}

TEST_HARNESS_MAIN
