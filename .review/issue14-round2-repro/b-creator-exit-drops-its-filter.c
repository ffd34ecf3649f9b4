// SPDX-License-Identifier: GPL-2.0
/*
 * Finding B: once the creator thread of a SQPOLL ring has exited, the
 * ring's SQEs are judged by the SQ thread's own chain only
 * (io_seccomp_task()). Filters the creator installed after setting the
 * ring up, without TSYNC, are dropped, although every thread that can
 * still write the ring inherited them.
 *
 * The common single-threaded pattern: set the ring up, install the filter
 * (no TSYNC: there is only one user thread), start the worker threads
 * (they inherit the filter), and let the main thread pthread_exit().
 *
 * RESULT: BYPASS  a filtered worker's MKDIRAT ran after the creator exited
 * RESULT: ok      it was refused with -EPERM
 */
#include "common.h"

static struct ring R;
static pid_t leader;
static char dpath[128];

static int run_mkdirat(void)
{
	struct io_uring_cqe cqe;

	queue_mkdirat(&R, dpath, 7);
	if (ring_submit(&R) || ring_wait_cqe(&R, 5000, &cqe))
		return 1;
	return cqe.res;
}

static void *worker(void *arg)
{
	int i, res;

	/* wait until the creator (the group leader) is a zombie */
	for (i = 0; i < 5000 && task_state(leader) != 'Z'; i++)
		msleep(1);
	if (task_state(leader) != 'Z') {
		printf("RESULT: ok (inconclusive: leader state '%c')\n",
		       task_state(leader) ?: '-');
		exit(0);
	}
	if (syscall(__NR_mkdirat, AT_FDCWD, dpath, 0700) == 0 || errno != EPERM) {
		printf("RESULT: ok (inconclusive: this thread is not filtered)\n");
		exit(0);
	}
	res = run_mkdirat();
	if (res == 0 || access(dpath, F_OK) == 0) {
		printf("RESULT: BYPASS: the creator exited; a filtered thread's MKDIRAT ran on its SQPOLL ring (res %d)\n",
		       res);
		rmdir(dpath);
		exit(42);
	}
	printf("RESULT: %s (MKDIRAT res %d)\n",
	       res == -EPERM ? "ok: refused with -EPERM" : "ok (inconclusive)",
	       res);
	exit(0);
}

static void test(void)
{
	pthread_t w;
	int ret, res;

	leader = getpid();
	snprintf(dpath, sizeof(dpath), "/tmp/issue14r2-b-dir.%d", getpid());
	rmdir(dpath);
	ret = ring_init(&R, IORING_SETUP_SQPOLL, 2000);
	if (ret) {
		printf("RESULT: ok (SKIP: SQPOLL ring: %s)\n", strerror(-ret));
		exit(0);
	}
	/* single user thread: no TSYNC */
	ret = install_deny_mkdirat(0);
	if (ret) {
		printf("RESULT: ok (SKIP: seccomp(URING): %s)\n", strerror(-ret));
		exit(0);
	}
	/* control: while the creator lives, the ring is judged */
	res = run_mkdirat();
	if (res != -EPERM) {
		printf("RESULT: ok (inconclusive: creator alive, MKDIRAT res %d)\n",
		       res);
		rmdir(dpath);
		exit(0);
	}
	pthread_create(&w, NULL, worker, NULL);
	pthread_exit(NULL);
}

int main(void)
{
	int status;
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		alarm(30);
		test();
	}
	if (waitpid(pid, &status, 0) < 0)
		return perror("waitpid"), 2;
	if (WIFSIGNALED(status))
		printf("RESULT: ok (inconclusive: test process died by signal %d)\n",
		       WTERMSIG(status));
	return 0;
}
