// SPDX-License-Identifier: GPL-2.0
/*
 * Round 3, finding R1: a SQPOLL ring set up with IORING_SETUP_ATTACH_WQ
 * shares an SQ thread made earlier by another thread. Once the ring's
 * creator exits, io_seccomp_task() judges the ring by that SQ thread's
 * chain, a copy of the *other* thread's chain taken when the SQ thread
 * was made. So a filter the creator installed BEFORE it set its ring up
 * (what seccomp_filter_rst tells programs to do to keep the ring judged)
 * stops judging the ring when the creator exits, although every user
 * thread of the process has the filter.
 *
 *   M: ring R1 = io_uring_setup(SQPOLL)      (SQ thread S: chain {} )
 *   M: seccomp(URING, deny mkdirat), no TSYNC (M and later threads: {F})
 *   M: start W (inherits F)
 *   W: ring R2 = io_uring_setup(SQPOLL|ATTACH_WQ, wq_fd = R1)
 *      -- W's filter F was installed before R2 was set up --
 *   W: control: MKDIRAT on R2 -> -EPERM
 *   W: start W2 (inherits F); W: pthread_exit()
 *   W2: mkdirat(2) -> EPERM (W2 is filtered); MKDIRAT on R2 -> ?
 *
 * M stays alive and filtered; every user thread has F; only the SQ
 * thread (made before F) lacks it.
 *
 * Prints TAP. "not ok ... BYPASS" = the bug reproduced.
 */
#include "../issue14-round2-repro/common.h"

static struct ring R1, R2;
static char dpath[128];
static pid_t wtid;

static int run_mkdirat(struct ring *r)
{
	struct io_uring_cqe cqe;

	queue_mkdirat(r, dpath, 7);
	if (ring_submit(r) || ring_wait_cqe(r, 5000, &cqe))
		return 1;
	return cqe.res;
}

static void *w2_fn(void *arg)
{
	int i, res;

	for (i = 0; i < 5000 && thread_hashed(wtid); i++)
		msleep(1);
	if (thread_hashed(wtid)) {
		printf("ok 1 - # SKIP W did not exit\n");
		exit(0);
	}
	if (syscall(__NR_mkdirat, AT_FDCWD, dpath, 0700) == 0 || errno != EPERM) {
		printf("ok 1 - # SKIP W2 is not filtered\n");
		exit(0);
	}
	res = run_mkdirat(&R2);
	if (res == 0 || access(dpath, F_OK) == 0) {
		printf("not ok 1 - BYPASS: ATTACH_WQ ring's creator exited; filtered W2's MKDIRAT ran (res %d)\n",
		       res);
		rmdir(dpath);
		exit(42);
	}
	printf("%s 1 - MKDIRAT after creator exit: res %d\n",
	       res == -EPERM ? "ok" : "not ok", res);
	exit(res == -EPERM ? 0 : 1);
}

static void *w_fn(void *arg)
{
	pthread_t w2;
	int ret, res;

	wtid = syscall(SYS_gettid);
	memset(&R2, 0, sizeof(R2));
	{
		struct io_uring_params p;
		size_t sq_len, cq_len;
		char *sq;

		memset(&p, 0, sizeof(p));
		p.flags = IORING_SETUP_SQPOLL | IORING_SETUP_ATTACH_WQ;
		p.wq_fd = R1.fd;
		p.sq_thread_idle = 2000;
		R2.fd = syscall(__NR_io_uring_setup, 8, &p);
		if (R2.fd < 0) {
			printf("ok 1 - # SKIP ATTACH_WQ setup: %s\n", strerror(errno));
			exit(0);
		}
		R2.flags = p.flags;
		sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
		cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
		if (cq_len > sq_len)
			sq_len = cq_len;
		sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_POPULATE, R2.fd, IORING_OFF_SQ_RING);
		R2.sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
			       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
			       R2.fd, IORING_OFF_SQES);
		if (sq == MAP_FAILED || R2.sqes == MAP_FAILED) {
			printf("ok 1 - # SKIP mmap\n");
			exit(0);
		}
		R2.sq_tail = (unsigned int *)(sq + p.sq_off.tail);
		R2.sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
		R2.sq_array = (unsigned int *)(sq + p.sq_off.array);
		R2.cq_head = (unsigned int *)(sq + p.cq_off.head);
		R2.cq_tail = (unsigned int *)(sq + p.cq_off.tail);
		R2.cq_mask = (unsigned int *)(sq + p.cq_off.ring_mask);
		R2.cqes = (struct io_uring_cqe *)(sq + p.cq_off.cqes);
		R2.sqe_tail = *R2.sq_tail;
		printf("# R2 features 0x%x (sq thread shared: ATTACH_WQ)\n", p.features);
	}
	(void)ret;
	res = run_mkdirat(&R2);
	if (res != -EPERM) {
		printf("ok 1 - # SKIP control: creator alive, MKDIRAT res %d\n", res);
		rmdir(dpath);
		exit(0);
	}
	printf("# control: W alive, MKDIRAT on R2 -> %d\n", res);
	pthread_create(&w2, NULL, w2_fn, NULL);
	pthread_exit(NULL);
}

static void test(void)
{
	pthread_t w;
	int ret;

	snprintf(dpath, sizeof(dpath), "/tmp/issue14r3-r1-dir.%d", getpid());
	rmdir(dpath);
	ret = ring_init(&R1, IORING_SETUP_SQPOLL, 2000);
	if (ret) {
		printf("ok 1 - # SKIP SQPOLL ring: %s\n", strerror(-ret));
		exit(0);
	}
	ret = install_deny_mkdirat(0);
	if (ret) {
		printf("not ok 1 - seccomp(URING): %s\n", strerror(-ret));
		exit(1);
	}
	pthread_create(&w, NULL, w_fn, NULL);
	for (;;)
		pause();
}

int main(void)
{
	int status;
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	printf("1..1\n");
	pid = fork();
	if (pid == 0) {
		alarm(30);
		test();
	}
	if (waitpid(pid, &status, 0) < 0)
		return perror("waitpid"), 2;
	if (WIFSIGNALED(status)) {
		printf("not ok 1 - test process died by signal %d\n", WTERMSIG(status));
		return 1;
	}
	return WEXITSTATUS(status);
}
