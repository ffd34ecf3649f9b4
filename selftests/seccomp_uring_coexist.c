// SPDX-License-Identifier: GPL-2.0
/*
 * seccomp beside io_uring's own policies (Linux 7.0 and later): the ring's
 * restrictions (IORING_REGISTER_RESTRICTIONS), checked before prep, then
 * the io_uring cBPF filters (IORING_REGISTER_BPF_FILTER), run after prep,
 * then seccomp, last. A request runs only if every one of them allows it,
 * and each refusal completes it with its own result: -EACCES from
 * io_uring's, the verdict's from seccomp. Every refused operation is
 * checked not to have happened.
 *
 * A kernel without io_uring's filters (6.12) skips every test: there is
 * nothing to coexist with.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/io_uring.h>
#if __has_include("linux/io_uring/bpf_filter.h")
#include <linux/io_uring/bpf_filter.h>
#define HAVE_URING_BPF_FILTER 1
#endif

#include "../kselftest_harness.h"
#include "uring_expect.h"
#include "uring_filter.h"
#include "uring_paths.h"
#include "uring_raw.h"

#ifdef HAVE_URING_BPF_FILTER

/* io_uring's filters: return 0 to refuse (-EACCES), anything else to allow */
static struct sock_filter uring_bpf_deny[] = {
	BPF_STMT(BPF_RET | BPF_K, 0),
};

static struct sock_filter uring_bpf_allow[] = {
	BPF_STMT(BPF_RET | BPF_K, 1),
};

/*
 * uring_bpf_task_filter - give current's io_uring task filters @prog for
 * @opcode: rings made from now on copy them. Returns 0 or -errno.
 */
static int uring_bpf_task_filter(int opcode, struct sock_filter *prog,
				 unsigned int len)
{
	struct io_uring_bpf b;

	memset(&b, 0, sizeof(b));
	b.cmd_type = IO_URING_BPF_CMD_FILTER;
	b.filter.opcode = opcode;
	b.filter.filter_len = len;
	b.filter.filter_ptr = (unsigned long)prog;
	if (syscall(__NR_io_uring_register, -1, IORING_REGISTER_BPF_FILTER,
		    &b, 1) < 0)
		return -errno;
	return 0;
}

/*
 * seccomp_loaded - in a TEST(): @ret is what loading a filter with
 * SECCOMP_FILTER_FLAG_URING returned. A kernel without the flag (stock)
 * refuses it with EINVAL: the test is skipped there, and fails where the
 * harness booted the patched kernel.
 */
static bool seccomp_loaded(struct __test_metadata *_metadata, int ret)
{
	if (ret == -EINVAL) {
		uring_feature_missing(_metadata, EINVAL, EINVAL,
				      "SECCOMP_FILTER_FLAG_URING refused");
		return false;
	}
	EXPECT_EQ(0, ret);
	if (ret)
		return false;
	uring_feature_present(_metadata, "SECCOMP_FILTER_FLAG_URING loads");
	return true;
}

/* seccomp, judging SQEs too: mkdirat and unlinkat refused with EPERM */
static int seccomp_refuse_mkdir_unlink(void)
{
	int ret = load_nr_action(__NR_mkdirat, SECCOMP_RET_ERRNO | EPERM,
				 SECCOMP_FILTER_FLAG_URING);

	return ret ? ret : load_nr_action(__NR_unlinkat,
					  SECCOMP_RET_ERRNO | EPERM,
					  SECCOMP_FILTER_FLAG_URING);
}

static int run_mkdir(struct uring *r, const char *path)
{
	struct io_uring_sqe *sqe = uring_sqe(r);

	sqe->opcode = IORING_OP_MKDIRAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)path;
	sqe->len = 0700;
	return uring_run(r);
}

static int run_unlink(struct uring *r, const char *path)
{
	struct io_uring_sqe *sqe = uring_sqe(r);

	sqe->opcode = IORING_OP_UNLINKAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)path;
	return uring_run(r);
}

static int run_nop(struct uring *r)
{
	uring_sqe(r)->opcode = IORING_OP_NOP;
	return uring_run(r);
}

/* a file to unlink; 0 or -errno */
static int make_file(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY, 0600);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * The io_uring filter refuses MKDIRAT, seccomp refuses it too: the io_uring
 * filter runs first, so its -EACCES is the result. seccomp alone refuses
 * UNLINKAT: its EPERM. Neither operation happened; NOP still runs, and
 * the mkdirat(2) system call gets seccomp's verdict.
 */
TEST(uring_bpf_filter_refuses_before_seccomp)
{
	const char *dir = tpath("dir"), *file = tpath("file");
	struct uring r;

	ASSERT_EQ(0, make_file(file));
	ASSERT_EQ(0, prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	ASSERT_EQ(0, uring_bpf_task_filter(IORING_OP_MKDIRAT, uring_bpf_deny,
					   ARRAY_SIZE(uring_bpf_deny)));
	if (!seccomp_loaded(_metadata, seccomp_refuse_mkdir_unlink()))
		return;
	ASSERT_EQ(0, uring_init(&r, 8, 0));

	EXPECT_EQ(-EACCES, run_mkdir(&r, dir));
	EXPECT_FALSE(exists(dir));
	EXPECT_EQ(-EPERM, run_unlink(&r, file));
	EXPECT_TRUE(exists(file));
	EXPECT_EQ(0, run_nop(&r));
	EXPECT_EQ(-1, syscall(__NR_mkdirat, AT_FDCWD, dir, 0700));
	EXPECT_EQ(EPERM, errno);
	EXPECT_FALSE(exists(dir));
	uring_exit(&r);
	unlink(file);
}

/*
 * The io_uring filter allows UNLINKAT: seccomp still judges it, and its
 * refusal is the result. With both allowing MKDIRAT, it runs.
 */
TEST(seccomp_judges_what_the_uring_bpf_filter_allows)
{
	const char *dir = tpath("dir"), *file = tpath("file");
	struct uring r;

	ASSERT_EQ(0, make_file(file));
	ASSERT_EQ(0, prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	ASSERT_EQ(0, uring_bpf_task_filter(IORING_OP_UNLINKAT, uring_bpf_allow,
					   ARRAY_SIZE(uring_bpf_allow)));
	ASSERT_EQ(0, uring_bpf_task_filter(IORING_OP_MKDIRAT, uring_bpf_allow,
					   ARRAY_SIZE(uring_bpf_allow)));
	if (!seccomp_loaded(_metadata,
			    load_nr_action(__NR_unlinkat,
					   SECCOMP_RET_ERRNO | EPERM,
					   SECCOMP_FILTER_FLAG_URING)))
		return;
	ASSERT_EQ(0, uring_init(&r, 8, 0));

	EXPECT_EQ(-EPERM, run_unlink(&r, file));
	EXPECT_TRUE(exists(file));
	EXPECT_EQ(0, run_mkdir(&r, dir));
	EXPECT_TRUE(exists(dir));
	uring_exit(&r);
	rmdir(dir);
	unlink(file);
}

/*
 * The ring's restrictions allow NOP and UNLINKAT only: MKDIRAT is refused
 * by them (-EACCES) before prep, and seccomp never sees it; UNLINKAT, which
 * they allow, is refused by seccomp (EPERM).
 */
TEST(restrictions_refuse_before_seccomp)
{
	struct io_uring_restriction res[2];
	const char *dir = tpath("dir"), *file = tpath("file");
	struct uring r;

	ASSERT_EQ(0, make_file(file));
	if (!seccomp_loaded(_metadata, seccomp_refuse_mkdir_unlink()))
		return;
	ASSERT_EQ(0, uring_init(&r, 8, IORING_SETUP_R_DISABLED));
	memset(res, 0, sizeof(res));
	res[0].opcode = IORING_RESTRICTION_SQE_OP;
	res[0].sqe_op = IORING_OP_NOP;
	res[1].opcode = IORING_RESTRICTION_SQE_OP;
	res[1].sqe_op = IORING_OP_UNLINKAT;
	ASSERT_EQ(0, syscall(__NR_io_uring_register, r.fd,
			     IORING_REGISTER_RESTRICTIONS, res, 2));
	ASSERT_EQ(0, syscall(__NR_io_uring_register, r.fd,
			     IORING_REGISTER_ENABLE_RINGS, NULL, 0));

	EXPECT_EQ(-EACCES, run_mkdir(&r, dir));
	EXPECT_FALSE(exists(dir));
	EXPECT_EQ(-EPERM, run_unlink(&r, file));
	EXPECT_TRUE(exists(file));
	EXPECT_EQ(0, run_nop(&r));
	uring_exit(&r);
	unlink(file);
}

#else

TEST(uring_bpf_filters)
{
	SKIP(return, "this kernel's headers have no IORING_REGISTER_BPF_FILTER (before 7.0)");
}

#endif

TEST_HARNESS_MAIN
