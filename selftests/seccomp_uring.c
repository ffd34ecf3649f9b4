// SPDX-License-Identifier: GPL-2.0
/*
 * seccomp filters that judge io_uring operations (SECCOMP_FILTER_FLAG_URING).
 *
 * Every SQE is seen by the filter as its twin system call. Each denial
 * test also checks that the operation did not happen. On a kernel
 * without the flag the same tests load the filter without it and show
 * the bypass instead: the test is skipped with "BYPASS reproduced" when
 * the operation went through despite the filter, and fails if it did not.
 * Where the harness requires the flag (uring_expect.h), a kernel that
 * refuses it fails every test instead.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>

#include "../kselftest_harness.h"
#include "uring_expect.h"
#include "uring_filter.h"
#include "uring_paths.h"
#include "uring_raw.h"

#ifndef SYS_SECCOMP
#define SYS_SECCOMP	1
#endif

#define URING_FORCE_SYSCTL	"/proc/sys/kernel/seccomp/uring_force"

/* Set by load_uring_filter() when the kernel lacks the flag. */
static int stock;

static int sys_seccomp(unsigned int op, unsigned int flags, void *args)
{
	return syscall(__NR_seccomp, op, flags, args);
}

static int create_file(const char *path, const char *content)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
	ssize_t len = strlen(content);

	if (fd < 0 || write(fd, content, len) != len)
		return -1;
	return close(fd);
}

/*
 * uring_flag_errno - 0 if the kernel knows SECCOMP_FILTER_FLAG_URING,
 * else the errno of the refusal. A kernel that knows every flag faults
 * on the NULL program; one that does not refuses the flag first.
 */
static int uring_flag_errno(void)
{
	if (sys_seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_URING,
			NULL) != -1)
		return 0;
	return errno == EFAULT ? 0 : errno;
}

/*
 * load_uring_prog - as load_insns(), with SECCOMP_FILTER_FLAG_URING.
 * On a kernel without the flag (it refuses the flag alone, with no
 * program) the program is loaded without it and stock is set, so the
 * test shows the bypass instead; unless the flag is required
 * (uring_expect.h): then the refusal is returned. Any other refusal is
 * returned too. A kernel that accepts the flag where a stock kernel is
 * expected gets -EPROTO (the filter is loaded). Either is printed.
 */
static int load_uring_prog(struct sock_filter *insns, unsigned short len,
			   unsigned int flags)
{
	int ret = load_insns(insns, len, flags | SECCOMP_FILTER_FLAG_URING);
	int required = uring_seccomp_required();

	if (ret == -EINVAL && required != 1 && uring_flag_errno() == EINVAL) {
		ret = load_insns(insns, len, flags);
		if (ret >= 0)
			stock = 1;
	} else if (ret < 0) {
		fprintf(stderr, "# loading with SECCOMP_FILTER_FLAG_URING: %s\n",
			strerror(-ret));
	} else if (required == 0) {
		fprintf(stderr, "# %s, yet %s\n", "URING_SECCOMP_EXPECT=stock",
			"SECCOMP_FILTER_FLAG_URING was accepted");
		ret = -EPROTO;
	}
	return ret;
}

/* load_filter - "action for syscall nr, allow everything else" */
static int load_filter(int nr, __u32 action, unsigned int flags)
{
	struct sock_filter insns[NR_FILTER_MAX];

	return load_insns(insns, nr_action_filter(insns, nr, action), flags);
}

/* load_uring_filter - as load_filter(), judging SQEs where supported */
static int load_uring_filter(int nr, __u32 action, unsigned int flags)
{
	struct sock_filter insns[NR_FILTER_MAX];

	return load_uring_prog(insns, nr_action_filter(insns, nr, action),
			       flags);
}

/*
 * denial_checked - the checked result of a denial. On the patched kernel
 * the CQE carries @want and the operation did not happen. On stock the
 * operation must have happened (the bypass), which is reported as a skip.
 * Returns false when the test stops here (skipped or failed on stock).
 */
static bool denial_checked(struct __test_metadata *_metadata, int res,
			   int want, bool happened, const char *what)
{
	if (stock) {
		EXPECT_TRUE(happened) {
			TH_LOG("stock kernel did not show the bypass: %s", what);
			return false;
		}
		SKIP(return false, "BYPASS reproduced on stock kernel: %s", what);
	}
	EXPECT_EQ(want, res);
	EXPECT_FALSE(happened) TH_LOG("denied, yet: %s", what);
	return true;
}

/*
 * The result of a syscall that was not run: what an unknown syscall nr
 * gets. TRAP, TRACE and USER_NOTIF complete an SQE with it.
 */
static int not_run(void)
{
	return syscall(100000) == -1 ? -errno : 0;
}

/*
 * uring_flag_lacking - in a TEST(): true when the kernel refuses
 * SECCOMP_FILTER_FLAG_URING; the test was then marked skipped (or
 * failed, see uring_expect.h) and the caller returns.
 */
static bool uring_flag_lacking(struct __test_metadata *_metadata)
{
	int err = uring_flag_errno();

	if (err) {
		uring_feature_missing(_metadata, err, EINVAL,
				      "SECCOMP_FILTER_FLAG_URING is refused");
		return true;
	}
	uring_feature_present(_metadata, "SECCOMP_FILTER_FLAG_URING is accepted");
	return false;
}

static void prep_openat(struct uring *r, const char *path, int flags)
{
	struct io_uring_sqe *sqe = uring_sqe(r);

	sqe->opcode = IORING_OP_OPENAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)path;
	sqe->open_flags = flags;
	sqe->len = 0600;
}

static struct io_uring_sqe *prep_path_op(struct uring *r, int opcode,
					 const char *path)
{
	struct io_uring_sqe *sqe = uring_sqe(r);

	sqe->opcode = opcode;
	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)path;
	return sqe;
}

TEST(unknown_filter_flag_bits_are_einval)
{
	struct sock_fprog prog = { 0 };

	EXPECT_EQ(-1, sys_seccomp(SECCOMP_SET_MODE_FILTER, 1U << 30, &prog));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, sys_seccomp(SECCOMP_SET_MODE_FILTER,
				  SECCOMP_FILTER_FLAG_URING << 1, &prog));
	EXPECT_EQ(EINVAL, errno);
}

TEST(uring_flag_is_accepted)
{
	if (uring_flag_lacking(_metadata))
		return;
	EXPECT_EQ(0, load_filter(__NR_getppid, SECCOMP_RET_ERRNO | EPERM,
				 SECCOMP_FILTER_FLAG_URING));
	EXPECT_EQ(-1, syscall(__NR_getppid));
	EXPECT_EQ(EPERM, errno);
}

TEST(openat_denied_by_errno)
{
	const char *path = tpath("openat");
	struct uring r;
	int res;

	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_openat, SECCOMP_RET_ERRNO | EPERM, 0));
	EXPECT_EQ(-1, openat(AT_FDCWD, path, O_CREAT | O_WRONLY, 0600));
	EXPECT_EQ(EPERM, errno);
	prep_openat(&r, path, O_CREAT | O_WRONLY);
	res = uring_run(&r);
	denial_checked(_metadata, res, -EPERM, exists(path), "IORING_OP_OPENAT created the file");
}

TEST(openat2_denied_by_errno)
{
	const char *path = tpath("openat2");
	struct open_how how = { .flags = O_CREAT | O_WRONLY, .mode = 0600 };
	struct io_uring_sqe *sqe;
	struct uring r;
	int res;

	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_openat2, SECCOMP_RET_ERRNO | EPERM, 0));
	EXPECT_EQ(-1, syscall(__NR_openat2, AT_FDCWD, path, &how, sizeof(how)));
	EXPECT_EQ(EPERM, errno);
	sqe = prep_path_op(&r, IORING_OP_OPENAT2, path);
	sqe->addr2 = (unsigned long)&how;
	sqe->len = sizeof(how);
	res = uring_run(&r);
	denial_checked(_metadata, res, -EPERM, exists(path), "IORING_OP_OPENAT2 created the file");
}

TEST(errno_value_reaches_the_cqe)
{
	const char *path = tpath("errno");
	struct uring r;
	int res;

	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_mkdirat, SECCOMP_RET_ERRNO | EXDEV, 0));
	prep_path_op(&r, IORING_OP_MKDIRAT, path)->len = 0700;
	res = uring_run(&r);
	denial_checked(_metadata, res, -EXDEV, exists(path),
		       "IORING_OP_MKDIRAT made the directory");
}

TEST(other_operations_still_run)
{
	const char *path = tpath("other");
	struct uring r;

	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_openat, SECCOMP_RET_ERRNO | EPERM, 0));
	prep_path_op(&r, IORING_OP_MKDIRAT, path)->len = 0700;
	EXPECT_EQ(0, uring_run(&r));
	EXPECT_TRUE(exists(path));
	rmdir(path);
}

TEST(unflagged_filter_leaves_io_uring_unchanged)
{
	const char *path = tpath("unflagged");
	struct uring r;
	int res;

	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_filter(__NR_openat, SECCOMP_RET_ERRNO | EPERM, 0));
	EXPECT_EQ(-1, openat(AT_FDCWD, path, O_CREAT | O_WRONLY, 0600));
	prep_openat(&r, path, O_CREAT | O_WRONLY);
	res = uring_run(&r);
	EXPECT_GE(res, 0);
	EXPECT_TRUE(exists(path));
	unlink(path);
}

TEST(invalid_opcode_is_still_einval)
{
	struct io_uring_sqe *sqe;
	struct uring r;

	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_openat, SECCOMP_RET_ERRNO | EPERM, 0));
	sqe = uring_sqe(&r);
	sqe->opcode = 0xff;
	EXPECT_EQ(-EINVAL, uring_run(&r));
}

TEST(ring_internal_ops_are_judged_as_io_uring_enter)
{
	/* deny io_uring_enter(fd, to_submit = 0, ...), the view of a NOP */
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_enter, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct uring r;
	int res;

	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_uring_prog(insns, 6, 0));
	uring_sqe(&r)->opcode = IORING_OP_NOP;
	res = uring_run(&r);
	denial_checked(_metadata, res, -EPERM, res == 0, "NOP ran");
}

TEST(log_action_runs_the_operation)
{
	const char *path = tpath("log");
	struct uring r;

	if (uring_flag_lacking(_metadata))
		return;
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_openat, SECCOMP_RET_LOG, 0));
	prep_openat(&r, path, O_CREAT | O_WRONLY);
	EXPECT_GE(uring_run(&r), 0);
	EXPECT_TRUE(exists(path));
	unlink(path);
}

/* SIGSYS signals received, read after the io_uring_enter(2) */
static int sigsys_count;

static void sigsys_handler(int sig, siginfo_t *info, void *ctx)
{
	__atomic_fetch_add(&sigsys_count, 1, __ATOMIC_RELAXED);
}

/*
 * TRAP fails closed like TRACE: the SQE completes as a syscall that was
 * not run and no SIGSYS is sent, since a handler would take it for the
 * system call it interrupted (io_uring_enter). The syscall twin still
 * traps, to show the handler works.
 */
TEST(trap_action_fails_closed_without_a_signal)
{
	struct sigaction sa = { .sa_sigaction = sigsys_handler,
				.sa_flags = SA_SIGINFO };
	const char *path = tpath("trap");
	struct uring r;
	int res, signals;

	ASSERT_EQ(0, sigaction(SIGSYS, &sa, NULL));
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_openat, SECCOMP_RET_TRAP | 7, 0));
	prep_openat(&r, path, O_CREAT | O_WRONLY);
	res = uring_run(&r);
	signals = __atomic_load_n(&sigsys_count, __ATOMIC_RELAXED);
	if (!denial_checked(_metadata, res, not_run(), exists(path),
			    "IORING_OP_OPENAT created the file"))
		return;
	EXPECT_EQ(0, signals) TH_LOG("SIGSYS sent for an SQE");
	syscall(__NR_openat, AT_FDCWD, path, O_CREAT | O_WRONLY, 0600);
	EXPECT_EQ(1, __atomic_load_n(&sigsys_count, __ATOMIC_RELAXED))
		TH_LOG("the syscall twin did not trap");
	EXPECT_FALSE(exists(path));
}

static void *sleep_forever(void *arg)
{
	for (;;)
		pause();
	return NULL;
}

/*
 * A child with a second thread submits an SQE the filter kills: the
 * whole child must die by SIGSYS (if only the submitting thread died,
 * the sleeping one would keep the child alive until the harness timeout).
 */
static void kill_child(struct __test_metadata *_metadata, __u32 action,
		       int threaded)
{
	const char *path = tpath(threaded ? "killthr" : "killproc");
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		pthread_t thread;
		struct uring r;

		if (threaded && pthread_create(&thread, NULL, sleep_forever, NULL))
			_exit(2);
		if (uring_init(&r, 4, 0) ||
		    load_uring_filter(__NR_openat, action, 0))
			_exit(2);
		prep_openat(&r, path, O_CREAT | O_WRONLY);
		uring_run(&r);
		_exit(stock ? 3 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
		ASSERT_TRUE(exists(path)) TH_LOG("stock kernel did not show the bypass");
		SKIP(return, "BYPASS reproduced on stock kernel: child survived, file created");
	}
	EXPECT_TRUE(WIFSIGNALED(status)) TH_LOG("status %#x", status);
	if (WIFSIGNALED(status))
		EXPECT_EQ(SIGSYS, WTERMSIG(status));
	EXPECT_FALSE(exists(path));
}

TEST(kill_process_action_kills_the_submitter)
{
	kill_child(_metadata, SECCOMP_RET_KILL_PROCESS, 0);
}

/* documented: served as KILL_PROCESS, a thread cannot exit mid-enter */
TEST(kill_thread_action_kills_the_submitter)
{
	kill_child(_metadata, SECCOMP_RET_KILL_THREAD, 1);
}

TEST(trace_action_fails_closed)
{
	const char *path = tpath("trace");
	struct uring r;
	int res;

	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_openat, SECCOMP_RET_TRACE, 0));
	prep_openat(&r, path, O_CREAT | O_WRONLY);
	res = uring_run(&r);
	denial_checked(_metadata, res, not_run(), exists(path),
		       "IORING_OP_OPENAT created the file");
}

TEST(new_listener_combination_and_user_notif_fails_closed)
{
	const char *path = tpath("notif");
	struct uring r;
	int listener, res;

	ASSERT_EQ(0, uring_init(&r, 4, 0));
	listener = load_uring_filter(__NR_openat, SECCOMP_RET_USER_NOTIF,
				     SECCOMP_FILTER_FLAG_NEW_LISTENER);
	ASSERT_GE(listener, 0);
	prep_openat(&r, path, O_CREAT | O_WRONLY);
	res = uring_run(&r);
	denial_checked(_metadata, res, not_run(), exists(path),
		       "IORING_OP_OPENAT created the file");
	close(listener);
}

TEST(stacked_filters_all_judge)
{
	const char *file = tpath("stack_file");
	const char *dir = tpath("stack_dir");
	struct uring r;
	int res1, res2;

	ASSERT_EQ(0, create_file(file, "x"));
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_unlinkat, SECCOMP_RET_ERRNO | EPERM, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_mkdirat, SECCOMP_RET_ERRNO | EACCES, 0));
	prep_path_op(&r, IORING_OP_UNLINKAT, file);
	res1 = uring_run(&r);
	prep_path_op(&r, IORING_OP_MKDIRAT, dir)->len = 0700;
	res2 = uring_run(&r);
	if (stock) {
		ASSERT_TRUE(!exists(file) && exists(dir));
		SKIP(return, "BYPASS reproduced on stock kernel: file unlinked, dir made");
	}
	EXPECT_EQ(-EPERM, res1);
	EXPECT_EQ(-EACCES, res2);
	EXPECT_TRUE(exists(file));
	EXPECT_FALSE(exists(dir));
}

TEST(stacked_filters_lowest_action_wins)
{
	const char *path = tpath("precedence");
	struct uring r;
	int res;

	ASSERT_EQ(0, uring_init(&r, 4, 0));
	/* TRAP is below ERRNO: -ENOSYS, not -EPERM */
	ASSERT_EQ(0, load_uring_filter(__NR_openat, SECCOMP_RET_TRAP, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_openat, SECCOMP_RET_ERRNO | EPERM, 0));
	prep_openat(&r, path, O_CREAT | O_WRONLY);
	res = uring_run(&r);
	denial_checked(_metadata, res, not_run(), exists(path),
		       "IORING_OP_OPENAT created the file");
}

TEST(unflagged_filter_in_stack_is_ignored)
{
	const char *path = tpath("mixed");
	struct uring r;

	if (uring_flag_lacking(_metadata))
		return;
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_filter(__NR_openat, SECCOMP_RET_ERRNO | EPERM, 0));
	ASSERT_EQ(0, load_filter(__NR_getppid, SECCOMP_RET_ERRNO | EPERM,
				 SECCOMP_FILTER_FLAG_URING));
	prep_openat(&r, path, O_CREAT | O_WRONLY);
	EXPECT_GE(uring_run(&r), 0);
	EXPECT_TRUE(exists(path));
	unlink(path);
}

TEST(sqpoll_judged_by_creator_filter_installed_later)
{
	const char *path = tpath("sqpoll");
	struct uring r;
	int res;

	ASSERT_EQ(0, uring_init(&r, 4, IORING_SETUP_SQPOLL));
	/* "set up, then sandbox": the SQ thread exists before the filter */
	ASSERT_EQ(0, load_uring_filter(__NR_openat, SECCOMP_RET_ERRNO | EPERM, 0));
	prep_openat(&r, path, O_CREAT | O_WRONLY);
	res = uring_run(&r);
	denial_checked(_metadata, res, -EPERM, exists(path),
		       "SQPOLL IORING_OP_OPENAT created the file");
}

TEST(iosqe_async_request_is_judged)
{
	const char *path = tpath("async");
	struct uring r;
	int res;

	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_openat, SECCOMP_RET_ERRNO | EPERM, 0));
	prep_openat(&r, path, O_CREAT | O_WRONLY);
	r.sqes[(r.sqe_tail - 1) & *r.sq_mask].flags |= IOSQE_ASYNC;
	res = uring_run(&r);
	denial_checked(_metadata, res, -EPERM, exists(path),
		       "async IORING_OP_OPENAT created the file");
}

TEST(denied_sqe_fails_its_whole_link_chain)
{
	const char *head = tpath("link_head");
	const char *path = tpath("link_open");
	const char *dir = tpath("link_dir");
	struct io_uring_cqe cqe;
	int res[3] = { 1, 1, 1 };
	struct io_uring_sqe *sqe;
	struct uring r;
	int i;

	ASSERT_EQ(0, uring_init(&r, 8, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_openat, SECCOMP_RET_ERRNO | EPERM, 0));
	sqe = prep_path_op(&r, IORING_OP_MKDIRAT, head);
	sqe->len = 0700;
	sqe->flags = IOSQE_IO_LINK;
	sqe->user_data = 0;
	prep_openat(&r, path, O_CREAT | O_WRONLY);
	r.sqes[(r.sqe_tail - 1) & *r.sq_mask].flags = IOSQE_IO_LINK;
	r.sqes[(r.sqe_tail - 1) & *r.sq_mask].user_data = 1;
	sqe = prep_path_op(&r, IORING_OP_MKDIRAT, dir);
	sqe->len = 0700;
	sqe->user_data = 2;
	ASSERT_EQ(3, uring_submit(&r, 3));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, uring_cqe(&r, &cqe));
		ASSERT_LT(cqe.user_data, 3ULL);
		res[cqe.user_data] = cqe.res;
	}
	if (stock) {
		ASSERT_TRUE(exists(head) && exists(path) && exists(dir));
		SKIP(return, "BYPASS reproduced on stock kernel: whole chain ran");
	}
	/* a submission-time failure: nothing of the chain runs */
	EXPECT_EQ(-ECANCELED, res[0]);
	EXPECT_EQ(-EPERM, res[1]);
	EXPECT_EQ(-ECANCELED, res[2]);
	EXPECT_FALSE(exists(head));
	EXPECT_FALSE(exists(path));
	EXPECT_FALSE(exists(dir));
}

TEST(forked_child_inherits_the_verdict)
{
	const char *path = tpath("fork");
	int status;
	pid_t pid;

	ASSERT_EQ(0, load_uring_filter(__NR_openat, SECCOMP_RET_ERRNO | EPERM, 0));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct uring r;

		if (uring_init(&r, 4, 0))
			_exit(2);
		prep_openat(&r, path, O_CREAT | O_WRONLY);
		_exit(uring_run(&r) == -EPERM ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	if (stock) {
		ASSERT_TRUE(exists(path));
		SKIP(return, "BYPASS reproduced on stock kernel: child created the file");
	}
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_FALSE(exists(path));
}

struct tsync_thread {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int filtered;
	const char *path;
	int res;
};

static void *tsync_thread_fn(void *arg)
{
	struct tsync_thread *t = arg;
	struct uring r;

	t->res = 1;
	if (uring_init(&r, 4, 0))
		return NULL;
	pthread_mutex_lock(&t->lock);
	while (!t->filtered)
		pthread_cond_wait(&t->cond, &t->lock);
	pthread_mutex_unlock(&t->lock);
	prep_openat(&r, t->path, O_CREAT | O_WRONLY);
	t->res = uring_run(&r);
	return NULL;
}

TEST(tsync_filter_judges_other_threads)
{
	struct tsync_thread t = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
		.path = tpath("tsync"),
	};
	pthread_t thread;

	ASSERT_EQ(0, pthread_create(&thread, NULL, tsync_thread_fn, &t));
	ASSERT_EQ(0, load_uring_filter(__NR_openat, SECCOMP_RET_ERRNO | EPERM,
				       SECCOMP_FILTER_FLAG_TSYNC));
	pthread_mutex_lock(&t.lock);
	t.filtered = 1;
	pthread_cond_signal(&t.cond);
	pthread_mutex_unlock(&t.lock);
	ASSERT_EQ(0, pthread_join(thread, NULL));
	denial_checked(_metadata, t.res, -EPERM, exists(t.path),
		       "other thread's SQE created the file");
}

TEST(read_is_judged_as_pread64)
{
	const char *path = tpath("read");
	char buf[8] = "";
	struct io_uring_sqe *sqe;
	struct uring r;
	int fd, res;

	ASSERT_EQ(0, create_file(path, "secret"));
	fd = open(path, O_RDONLY);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_pread64, SECCOMP_RET_ERRNO | EPERM, 0));
	EXPECT_EQ(-1, pread(fd, buf, sizeof(buf), 0));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_READ;
	sqe->fd = fd;
	sqe->addr = (unsigned long)buf;
	sqe->len = sizeof(buf);
	res = uring_run(&r);
	denial_checked(_metadata, res, -EPERM, buf[0] != 0, "IORING_OP_READ read the file");
	/* read(2) is a different syscall and stays allowed */
	EXPECT_EQ(6, read(fd, buf, sizeof(buf)));
}

TEST(write_is_judged_as_pwrite64)
{
	const char *path = tpath("write");
	struct io_uring_sqe *sqe;
	struct stat st;
	struct uring r;
	int fd, res;

	fd = open(path, O_CREAT | O_WRONLY, 0600);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_uring_filter(__NR_pwrite64, SECCOMP_RET_ERRNO | EPERM, 0));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_WRITE;
	sqe->fd = fd;
	sqe->addr = (unsigned long)"data";
	sqe->len = 4;
	res = uring_run(&r);
	ASSERT_EQ(0, fstat(fd, &st));
	denial_checked(_metadata, res, -EPERM, st.st_size != 0, "IORING_OP_WRITE wrote the file");
}

/* openat(): allow unless flags & O_CREAT, judged on the flags prep kept */
static int load_no_create_filter(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[2])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_CREAT, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};

	return load_uring_prog(insns, 6, 0);
}

TEST(argument_filter_sees_the_open_flags)
{
	const char *existing = tpath("args_existing");
	const char *created = tpath("args_created");
	char buf[8] = "";
	struct uring r;
	int fd, res;

	ASSERT_EQ(0, create_file(existing, "hello"));
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_no_create_filter());
	prep_openat(&r, existing, O_RDONLY);
	fd = uring_run(&r);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(5, read(fd, buf, sizeof(buf)));
	EXPECT_STREQ("hello", buf);
	prep_openat(&r, created, O_CREAT | O_RDWR);
	res = uring_run(&r);
	denial_checked(_metadata, res, -EPERM, exists(created),
		       "O_CREAT through the ring created the file");
}

TEST(kill_verdict_refuses_the_rest_of_the_batch)
{
	const char *dir = tpath("batch_dir");
	int status;
	pid_t pid;

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct uring r;

		if (uring_init(&r, 4, 0) ||
		    load_uring_filter(__NR_openat, SECCOMP_RET_KILL_PROCESS, 0))
			_exit(2);
		prep_openat(&r, tpath("batch_file"), O_RDONLY);
		prep_path_op(&r, IORING_OP_MKDIRAT, dir)->len = 0700;
		uring_submit(&r, 2);
		_exit(stock ? 3 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
		ASSERT_TRUE(exists(dir));
		SKIP(return, "BYPASS reproduced on stock kernel: batch ran");
	}
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_FALSE(exists(dir));
}

TEST_HARNESS_MAIN
