// SPDX-License-Identifier: GPL-2.0
/*
 * What becomes of a filter's hold on io_uring operations over the life of
 * the tasks involved: a kill verdict on a SQPOLL ring, the ring's creator
 * exiting or calling execve(), and checkpoint/restore reading the
 * filter's flags back.
 *
 * Each test runs its filters in children; the test process itself stays
 * unfiltered so it can check what happened.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/ptrace.h>
#include <linux/seccomp.h>
#include <linux/userfaultfd.h>

#include "../kselftest_harness.h"
#include "uring_expect.h"
#include "uring_filter.h"
#include "uring_paths.h"
#include "uring_raw.h"
#include "uring_stopped.h"

/* SQEs queued behind the one a filter kills */
#define BEHIND	8

static struct io_uring_sqe *prep_mkdir(struct uring *r, const char *path)
{
	struct io_uring_sqe *sqe = uring_sqe(r);

	sqe->opcode = IORING_OP_MKDIRAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)path;
	sqe->len = 0700;
	return sqe;
}

/* Submits a MKDIRAT of @dir on @r; returns its result or the submit error */
static int mkdir_once(struct uring *r, const char *dir)
{
	struct io_uring_cqe cqe;
	int ret;

	prep_mkdir(r, dir);
	ret = uring_submit(r, 0);
	if (ret >= 0)
		ret = uring_cqe(r, &cqe) ?: cqe.res;
	return ret;
}

/*
 * flag_lacking - in a TEST(): true when the kernel refuses
 * SECCOMP_FILTER_FLAG_URING (the test was then skipped, or failed where
 * the harness booted the patched kernel)
 */
static bool flag_lacking(struct __test_metadata *_metadata)
{
	if (!uring_flag_known()) {
		uring_feature_missing(_metadata, errno, EINVAL,
				      "SECCOMP_FILTER_FLAG_URING is refused");
		return true;
	}
	uring_feature_present(_metadata, "SECCOMP_FILTER_FLAG_URING is accepted");
	return false;
}

/*
 * A SQPOLL ring's creator gets a kill verdict for the first of a batch of
 * SQEs: its process dies (by SIGKILL, sent by the SQ thread), and none of
 * the SQEs queued behind the refused one runs, although the filter allows
 * them and the SQ thread is free to go on submitting until the process is
 * gone.
 */
TEST(sqpoll_kill_verdict_stops_every_later_sqe)
{
	const char *dir = tpath("killed_dir");
	const char *files[BEHIND];
	int i, status, created = 0;
	pid_t pid;

	if (flag_lacking(_metadata))
		return;
	for (i = 0; i < BEHIND; i++) {
		char name[32];

		snprintf(name, sizeof(name), "behind%d", i);
		files[i] = tpath(name);
	}
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct uring r;

		if (uring_init(&r, 16, IORING_SETUP_SQPOLL) ||
		    load_nr_action(__NR_mkdirat, SECCOMP_RET_KILL_PROCESS,
				   SECCOMP_FILTER_FLAG_URING))
			_exit(2);
		prep_mkdir(&r, dir);
		for (i = 0; i < BEHIND; i++)
			uring_prep_create(&r, files[i]);
		uring_submit(&r, 0);
		/* the verdict kills this process; it must not get to exit */
		for (i = 0; i < 50; i++)
			usleep(100000);
		_exit(3);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	for (i = 0; i < BEHIND; i++) {
		if (exists(files[i]))
			created++;
		unlink(files[i]);
	}
	/* the SQ thread cannot make its creator take a SIGSYS: SIGKILL */
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		TH_LOG("wait status %#x", status);
	EXPECT_FALSE(exists(dir));
	EXPECT_EQ(0, created)
		TH_LOG("%d of the %d SQEs behind the killed one ran", created,
		       BEHIND);
	rmdir(dir);
}

/* The ring the threads of the tests below share */
static struct uring shared_ring;
static int creator_in_vfork;

/*
 * kill_then_mark - on @r, an SQE the filter kills; then, if the process
 * is still alive a second later, create @mark and exit with 42.
 */
static void kill_then_mark(struct uring *r, const char *dir, const char *mark)
{
	struct io_uring_cqe cqe;
	int fd;

	prep_mkdir(r, dir);
	uring_submit(r, 0);
	if (uring_cqe(r, &cqe))
		syscall(__NR_exit_group, 2);
	usleep(1000000);
	fd = open(mark, O_CREAT | O_WRONLY, 0600);
	if (fd >= 0)
		close(fd);
	syscall(__NR_exit_group, 42);
}

static void *submit_while_creator_in_vfork(void *arg)
{
	while (!__atomic_load_n(&creator_in_vfork, __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(300000);
	kill_then_mark(&shared_ring, ((const char **)arg)[0],
		       ((const char **)arg)[1]);
	return NULL;
}

/*
 * The creator of a SQPOLL ring sits in vfork() (a killable sleep, which
 * task work does not interrupt) while another thread submits an SQE its
 * filter kills: the process dies at once, not when the vfork child is
 * done, and the other thread gets nothing more done.
 */
TEST(sqpoll_kill_verdict_reaches_a_creator_in_vfork)
{
	const char *paths[2] = { tpath("vfork_dir"), tpath("vfork_mark") };
	int status;
	pid_t pid;

	if (flag_lacking(_metadata))
		return;
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pthread_t t;

		if (load_nr_action(__NR_mkdirat, SECCOMP_RET_KILL_PROCESS,
				   SECCOMP_FILTER_FLAG_URING) ||
		    uring_init(&shared_ring, 4, IORING_SETUP_SQPOLL) ||
		    pthread_create(&t, NULL, submit_while_creator_in_vfork,
				   paths))
			_exit(2);
		__atomic_store_n(&creator_in_vfork, 1, __ATOMIC_RELEASE);
		if (vfork() == 0) {
			struct timespec ts = { 4, 0 };

			syscall(__NR_nanosleep, &ts, NULL);
			_exit(0);
		}
		for (;;)
			pause();
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		TH_LOG("wait status %#x", status);
	EXPECT_FALSE(exists(paths[1])) TH_LOG("the process ran on after the verdict");
	EXPECT_FALSE(exists(paths[0]));
	unlink(paths[1]);
	rmdir(paths[0]);
}

static void *create_ring_and_exit(void *arg)
{
	if (uring_init(&shared_ring, 4, IORING_SETUP_SQPOLL))
		syscall(__NR_exit_group, 2);
	return NULL;
}

/*
 * The creator thread of a SQPOLL ring has exited, so the SQ thread's own
 * chain judges; it kills an SQE of a process that cannot dump core: the
 * whole process dies, not just the SQ thread.
 */
TEST(sqpoll_kill_verdict_of_the_sq_threads_own_chain_kills_the_process)
{
	const char *dir = tpath("own_dir"), *mark = tpath("own_mark");
	int status;
	pid_t pid;

	if (flag_lacking(_metadata))
		return;
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		pthread_t t;

		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) ||
		    load_nr_action(__NR_mkdirat, SECCOMP_RET_KILL_PROCESS,
				   SECCOMP_FILTER_FLAG_URING) ||
		    pthread_create(&t, NULL, create_ring_and_exit, NULL) ||
		    pthread_join(t, NULL))
			_exit(2);
		kill_then_mark(&shared_ring, dir, mark);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		TH_LOG("wait status %#x", status);
	EXPECT_FALSE(exists(mark)) TH_LOG("the process ran on after the verdict");
	EXPECT_FALSE(exists(dir));
	unlink(mark);
	rmdir(dir);
}

/*
 * The grandchild's side of the tests below: once its parent, the ring's
 * creator, has exited or called execve() (@sync reads EOF), it submits a
 * MKDIRAT the filter refuses on the ring it inherited. The SQ thread died
 * with its process (-EOWNERDEAD) or, if it lives on, the creator's
 * filter still judges the SQE (-EPERM); either way nothing is made.
 * Exits 0 if so, 1 if the directory was made, 2 on a setup error.
 */
static void submit_after_creator(struct uring *r, int sync, const char *dir)
{
	char c;
	int ret;

	while (read(sync, &c, 1) > 0)
		;
	/* the SQ thread goes with its process, not at once */
	usleep(200000);
	alarm(10);
	ret = mkdir_once(r, dir);
	fprintf(stderr, "# after the creator: MKDIRAT gave %d (%s), %s\n",
		ret, strerror(-ret), exists(dir) ? "made" : "not made");
	if (exists(dir))
		_exit(1);
	_exit(ret == -EOWNERDEAD || ret == -EPERM ? 0 : 2);
}

/*
 * The creator (a child of the test) sets up a SQPOLL ring, loads a filter
 * that refuses mkdirat, forks the grandchild that submits after it, and
 * then exits (@exec_path NULL) or calls execve(@exec_path). Returns the
 * grandchild's wait status.
 */
static int creator_leaves(struct __test_metadata *_metadata, const char *dir,
			  const char *exec_path)
{
	unsigned int flags = uring_flag_known() ? SECCOMP_FILTER_FLAG_URING : 0;
	int sync[2], status;
	pid_t creator, pid;

	/* the grandchild is reparented here when the creator exits */
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0));
	ASSERT_EQ(0, pipe2(sync, O_CLOEXEC));
	creator = fork();
	ASSERT_LE(0, creator);
	if (creator == 0) {
		struct uring r;

		if (uring_init(&r, 4, IORING_SETUP_SQPOLL) ||
		    load_nr_action(__NR_mkdirat, SECCOMP_RET_ERRNO | EPERM,
				   flags))
			_exit(2);
		pid = fork();
		if (pid < 0)
			_exit(2);
		if (pid == 0) {
			close(sync[1]);
			submit_after_creator(&r, sync[0], dir);
		}
		if (exec_path)
			execl(exec_path, exec_path, "1", (char *)NULL);
		_exit(0);
	}
	close(sync[0]);
	close(sync[1]);
	/* the creator first (it may sleep after execve), then its child */
	ASSERT_EQ(creator, waitpid(creator, &status, 0));
	pid = wait(&status);
	ASSERT_LT(0, pid);
	EXPECT_FALSE(exists(dir));
	rmdir(dir);
	return status;
}

TEST(sqpoll_ring_after_its_creator_process_exits)
{
	int status = creator_leaves(_metadata, tpath("exit_dir"), NULL);

	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("grandchild wait status %#x", status);
}

TEST(sqpoll_ring_after_its_creator_execs)
{
	int status = creator_leaves(_metadata, tpath("exec_dir"), "/bin/sleep");

	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("grandchild wait status %#x", status);
}

/*
 * The first filter that judges SQEs can be attached (by another thread,
 * with TSYNC) while a batch is being submitted: the SQEs the batch has
 * not read yet must be judged by it. The batch is held open on its first
 * SQE, an OPENAT whose path is on a userfaultfd page; the fault handler
 * attaches the filter before it lets the path be copied. The second SQE,
 * a MKDIRAT the filter refuses, must not run.
 */
/* How the child of a mid-batch test ended */
enum mid_batch_exit {
	MB_DONE,		/* the MKDIRAT was refused, the rest ran */
	MB_SETUP = 2,		/* setting up failed */
	MB_SCHEDULE,		/* the batch was not held as planned */
	MB_FILTER,		/* the filter could not be attached */
	MB_ALLOWED,		/* the allowed OPENAT failed */
	MB_RAN,			/* the MKDIRAT read after the filter ran */
};

/*
 * mid_batch_run - run @child(@file, @dir) in a child process and check
 * that it ended MB_DONE and that @dir, the refused MKDIRAT's, was not
 * created
 */
static void mid_batch_run(struct __test_metadata *_metadata,
			  int (*child)(const char *file, const char *dir),
			  const char *file, const char *dir)
{
	static const char * const why[] = {
		[MB_SETUP] = "setting up failed",
		[MB_SCHEDULE] = "the batch was not held as planned",
		[MB_FILTER] = "the filter could not be attached",
		[MB_ALLOWED] = "the allowed OPENAT failed",
		[MB_RAN] = "the MKDIRAT read after the filter came was not refused",
	};
	int status, code;
	pid_t pid;

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(child(file, dir));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("wait status %#x", status);
	code = WEXITSTATUS(status);
	EXPECT_EQ(MB_DONE, code)
		TH_LOG("%s", code < (int)ARRAY_SIZE(why) && why[code] ?
		       why[code] : "unexpected exit code");
	EXPECT_FALSE(exists(dir)) TH_LOG("the refused directory was created");
	unlink(file);
	rmdir(dir);
}

struct mid_batch {
	int uffd;
	char *page;
	const char *path;
	int loaded;
	int copied;
};

static int uffd_wait(int uffd, const char *page)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&pfd, 1, 10000) != 1 ||
	    read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT ||
	    (msg.arg.pagefault.address & ~4095ULL) != (unsigned long)page)
		return -1;
	return 0;
}

static int uffd_fill(int uffd, char *page, const char *content)
{
	static char src[4096];
	struct uffdio_copy copy = { 0 };

	snprintf(src, sizeof(src), "%s", content);
	copy.dst = (unsigned long)page;
	copy.src = (unsigned long)src;
	copy.len = 4096;
	return ioctl(uffd, UFFDIO_COPY, &copy);
}

static void *attach_at_fault(void *arg)
{
	struct mid_batch *mb = arg;

	if (uffd_wait(mb->uffd, mb->page))
		return NULL;
	mb->loaded = load_nr_action(__NR_mkdirat,
				    SECCOMP_RET_ERRNO | EPERM,
				    SECCOMP_FILTER_FLAG_URING |
				    SECCOMP_FILTER_FLAG_TSYNC) == 0;
	mb->copied = uffd_fill(mb->uffd, mb->page, mb->path) == 0;
	return NULL;
}

/* the child of filter_attached_mid_batch; returns its exit code */
static int mid_batch_child(const char *file, const char *dir)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	struct mid_batch mb = { .path = file };
	struct io_uring_cqe cqe[2];
	pthread_t handler;
	struct uring r;
	int i, res[2];

	mb.uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (mb.uffd < 0 || ioctl(mb.uffd, UFFDIO_API, &api))
		return MB_SETUP;
	mb.page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mb.page == MAP_FAILED)
		return MB_SETUP;
	reg.range.start = (unsigned long)mb.page;
	reg.range.len = 4096;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(mb.uffd, UFFDIO_REGISTER, &reg) || uring_init(&r, 4, 0))
		return MB_SETUP;
	/* the path is read from the page, which faults */
	uring_prep_create(&r, mb.page);
	prep_mkdir(&r, dir)->user_data = 1;
	if (pthread_create(&handler, NULL, attach_at_fault, &mb))
		return MB_SETUP;
	/* both SQEs in one io_uring_enter(), so in one batch */
	if (uring_submit(&r, 2) != 2)
		return MB_SCHEDULE;
	pthread_join(handler, NULL);
	if (!mb.loaded || !mb.copied)
		return MB_FILTER;
	for (i = 0; i < 2; i++) {
		if (uring_cqe(&r, &cqe[i]) || cqe[i].user_data > 1)
			return MB_SCHEDULE;
		res[cqe[i].user_data] = cqe[i].res;
	}
	if (res[0] < 0)
		return MB_ALLOWED;
	return res[1] == -EPERM ? MB_DONE : MB_RAN;
}

TEST(filter_attached_mid_batch_judges_the_sqes_not_read_yet)
{
	if (flag_lacking(_metadata))
		return;
	mid_batch_run(_metadata, mid_batch_child, tpath("mid_batch_file"),
		      tpath("mid_batch_dir"));
}

/*
 * The same, when the ring is a SQPOLL ring whose creator thread is reaped
 * while the batch is held: the batch found the creator as its judging task,
 * and a filter attached with TSYNC afterwards reaches every live thread
 * (the SQ thread too) but not the creator. The creator is held in
 * do_exit() after its io_uring context is gone and before it is marked
 * exiting, by an io-wq worker of its own that waits for an inode lock
 * another thread holds on a userfaultfd fault; the SQ thread's batch
 * starts meanwhile and is held on a second fault.
 */
struct reaped {
	int uffd;
	char *page[2];
	int file;
	struct uring sq, plain;
	pid_t creator;
	int ready, err;
};

/* the state letter of thread @tid of this process, or 0 if it is gone */
static char thread_state(pid_t tid)
{
	char path[64], buf[256], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* whether an io-wq worker of this process sleeps uninterruptibly */
static bool worker_blocked(void)
{
	char path[64], comm[32];
	bool found = false;
	struct dirent *e;
	DIR *d = opendir("/proc/self/task");

	while (d && !found && (e = readdir(d))) {
		pid_t tid = atoi(e->d_name);
		ssize_t n;
		int fd;

		snprintf(path, sizeof(path), "/proc/self/task/%d/comm", tid);
		fd = tid > 0 ? open(path, O_RDONLY) : -1;
		if (fd < 0)
			continue;
		n = read(fd, comm, sizeof(comm) - 1);
		close(fd);
		comm[n > 0 ? n : 0] = 0;
		found = !strncmp(comm, "iou-wrk", 7) && thread_state(tid) == 'D';
	}
	if (d)
		closedir(d);
	return found;
}

static void *hold_inode_lock(void *arg)
{
	struct reaped *rp = arg;

	/* faults on page[0] with the file's inode lock held */
	if (write(rp->file, rp->page[0], 4096) < 0)
		rp->err = errno;
	return NULL;
}

static void *create_rings_and_exit(void *arg)
{
	static char buf[4096];
	struct reaped *rp = arg;
	struct io_uring_sqe *sqe;
	int i;

	rp->creator = syscall(__NR_gettid);
	rp->err = -uring_init(&rp->sq, 4, IORING_SETUP_SQPOLL);
	if (!rp->err)
		rp->err = -uring_init(&rp->plain, 4, 0);
	if (!rp->err) {
		sqe = uring_sqe(&rp->plain);
		sqe->opcode = IORING_OP_WRITE;
		sqe->flags = IOSQE_ASYNC;
		sqe->fd = rp->file;
		sqe->addr = (unsigned long)buf;
		sqe->len = sizeof(buf);
		if (uring_submit(&rp->plain, 0) != 1)
			rp->err = EIO;
	}
	for (i = 0; !rp->err && i < 5000 && !worker_blocked(); i++)
		usleep(1000);
	if (!rp->err && !worker_blocked())
		rp->err = ETIMEDOUT;
	__atomic_store_n(&rp->ready, 1, __ATOMIC_RELEASE);
	/* held in do_exit() until the worker's write gets the lock */
	pthread_exit(NULL);
}

/* the child of the test; returns its exit code */
static int reaped_creator_child(const char *file, const char *dir)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	struct reaped rp = { 0 };
	struct io_uring_cqe cqe;
	pthread_t holder, creator;
	int i, mkdir_res = 1;
	char *pages;

	rp.uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	pages = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (rp.uffd < 0 || ioctl(rp.uffd, UFFDIO_API, &api) ||
	    pages == MAP_FAILED)
		return MB_SETUP;
	rp.page[0] = pages;
	rp.page[1] = pages + 4096;
	reg.range.start = (unsigned long)pages;
	reg.range.len = 2 * 4096;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	rp.file = open(tpath("reaped_file"), O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (ioctl(rp.uffd, UFFDIO_REGISTER, &reg) || rp.file < 0 ||
	    pthread_create(&holder, NULL, hold_inode_lock, &rp) ||
	    uffd_wait(rp.uffd, rp.page[0]) ||
	    pthread_create(&creator, NULL, create_rings_and_exit, &rp))
		return MB_SETUP;
	while (!__atomic_load_n(&rp.ready, __ATOMIC_ACQUIRE))
		usleep(1000);
	for (i = 0; !rp.err && i < 5000 && thread_state(rp.creator) != 'D'; i++)
		usleep(1000);
	if (rp.err || thread_state(rp.creator) != 'D')
		return MB_SCHEDULE;
	/* a batch that finds the creator, held on the OPENAT's path */
	uring_prep_create(&rp.sq, rp.page[1]);
	prep_mkdir(&rp.sq, dir)->user_data = 1;
	if (uring_submit(&rp.sq, 0) != 2 || uffd_wait(rp.uffd, rp.page[1]))
		return MB_SCHEDULE;
	/* the creator leaves and is reaped */
	if (uffd_fill(rp.uffd, rp.page[0], ""))
		return MB_SCHEDULE;
	pthread_join(holder, NULL);
	for (i = 0; i < 5000 && thread_state(rp.creator); i++)
		usleep(1000);
	if (thread_state(rp.creator))
		return MB_SCHEDULE;
	if (load_nr_action(__NR_mkdirat, SECCOMP_RET_ERRNO | EPERM,
			   SECCOMP_FILTER_FLAG_URING | SECCOMP_FILTER_FLAG_TSYNC))
		return MB_FILTER;
	if (uffd_fill(rp.uffd, rp.page[1], file))
		return MB_SCHEDULE;
	for (i = 0; i < 2; i++) {
		if (uring_cqe(&rp.sq, &cqe))
			return MB_SCHEDULE;
		if (cqe.user_data == 1)
			mkdir_res = cqe.res;
	}
	return mkdir_res == -EPERM ? MB_DONE : MB_RAN;
}

TEST(filter_attached_while_a_reaped_creators_batch_is_held)
{
	if (flag_lacking(_metadata))
		return;
	mid_batch_run(_metadata, reaped_creator_child, tpath("reaped_opened"),
		      tpath("reaped_dir"));
}

/*
 * creator_exits_then_refused - the two tests below: in a child, @setup
 * (if any), then @creator in a thread that sets up a SQPOLL ring, must see
 * a MKDIRAT refused by its filters (*@creator_ret is -EPERM) and exits.
 * A MKDIRAT of @dir on @ring from the child's main thread, after that,
 * must be refused too, and the directory must not be made.
 */
static void creator_exits_then_refused(struct __test_metadata *_metadata,
				       int (*setup)(void *arg),
				       void *(*creator)(void *arg), void *arg,
				       const int *creator_ret,
				       struct uring *ring, const char *dir)
{
	pthread_t thread;
	int status, ret;
	pid_t pid;

	rmdir(dir);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		alarm(20);
		if ((setup && setup(arg)) ||
		    pthread_create(&thread, NULL, creator, arg) ||
		    pthread_join(thread, NULL))
			_exit(2);
		if (*creator_ret != -EPERM) {
			fprintf(stderr, "# while its creator lives: %d\n",
				*creator_ret);
			_exit(3);
		}
		/* the creator has exited: pthread_join() returned */
		ret = mkdir_once(ring, dir);
		fprintf(stderr, "# after its creator exited: %d\n", ret);
		_exit(ret == -EPERM ? 0 : 4);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("wait status %#x", status);
	EXPECT_FALSE(exists(dir)) TH_LOG("the SQ thread made the directory");
	rmdir(dir);
}

/*
 * The thread that makes a SQPOLL ring attached (IORING_SETUP_ATTACH_WQ) to
 * another ring's SQ thread has a filter that SQ thread lacks: its process
 * installed it, without TSYNC, after the first ring was set up. Once that
 * creator thread exits, the ring's SQEs are judged by its SQ thread's own
 * filters, so the ring must not share the older SQ thread: a MKDIRAT the
 * filter refuses is refused after the creator exited too, and the
 * directory is not made.
 */
struct attached_ring {
	struct uring first, ring;
	const char *dir;
	int ret;
};

static int first_ring_then_filter(void *arg)
{
	struct attached_ring *a = arg;

	return uring_init(&a->first, 4, IORING_SETUP_SQPOLL) ||
	       load_nr_action(__NR_mkdirat, SECCOMP_RET_ERRNO | EPERM,
			      SECCOMP_FILTER_FLAG_URING);
}

static void *attach_refuse_and_exit(void *arg)
{
	struct attached_ring *a = arg;

	a->ret = uring_init_wq(&a->ring, 4, IORING_SETUP_SQPOLL |
			       IORING_SETUP_ATTACH_WQ, a->first.fd);
	/* judged by this thread's filters while it lives */
	if (!a->ret)
		a->ret = mkdir_once(&a->ring, a->dir);
	return NULL;
}

TEST(attached_sqpoll_ring_keeps_its_creators_filters)
{
	struct attached_ring a = { .dir = tpath("attached_dir") };

	if (flag_lacking(_metadata))
		return;
	creator_exits_then_refused(_metadata, first_ring_then_filter,
				   attach_refuse_and_exit, &a, &a.ret, &a.ring,
				   a.dir);
}

/*
 * The thread that set up a SQPOLL ring loads a filter after it, without
 * TSYNC, so the ring's SQ thread (made with a copy of its filters when
 * the ring was set up) lacks it; then that thread exits. The ring is
 * judged by the filters its creator had when it exited too: a MKDIRAT the
 * filter refuses, submitted by a thread without filters, is refused, and
 * the directory is not made.
 */
struct late_filter {
	struct uring ring;
	const char *dir;
	int ret;
};

static void *ring_then_filter_then_exit(void *arg)
{
	struct late_filter *lf = arg;

	lf->ret = uring_init(&lf->ring, 4, IORING_SETUP_SQPOLL);
	if (!lf->ret)
		lf->ret = load_nr_action(__NR_mkdirat,
					 SECCOMP_RET_ERRNO | EPERM,
					 SECCOMP_FILTER_FLAG_URING);
	/* judged by this thread's filters while it lives */
	if (!lf->ret)
		lf->ret = mkdir_once(&lf->ring, lf->dir);
	return NULL;
}

TEST(sqpoll_ring_keeps_the_filter_its_creator_loaded_after_it)
{
	struct late_filter lf = { .dir = tpath("late_filter_dir") };

	if (flag_lacking(_metadata))
		return;
	creator_exits_then_refused(_metadata, NULL, ring_then_filter_then_exit,
				   &lf, &lf.ret, &lf.ring, lf.dir);
}

/*
 * Checkpoint/restore reads a filter and its flags with ptrace and loads
 * them again: a filter restored that way still judges SQEs.
 */
TEST(restored_filter_keeps_judging_sqes)
{
	struct sock_filter insns[NR_FILTER_MAX], got[NR_FILTER_MAX];
	unsigned int flags = SECCOMP_FILTER_FLAG_URING;
	struct seccomp_metadata md = { .filter_off = 0 };
	const char *dir = tpath("restored_dir");
	unsigned short len;
	int status;
	long n;
	pid_t pid;

	if (flag_lacking(_metadata))
		return;
	len = nr_action_filter(insns, __NR_mkdirat, SECCOMP_RET_ERRNO | EACCES);
	pid = filtered_stopped(insns, len, flags, true);
	ASSERT_LT(0, pid) TH_LOG("the filtered child did not stop");
	n = ptrace(PTRACE_SECCOMP_GET_METADATA, pid, sizeof(md), &md);
	EXPECT_EQ((long)sizeof(md), n) TH_LOG("GET_METADATA: %s", strerror(errno));
	n = ptrace(PTRACE_SECCOMP_GET_FILTER, pid, 0, got);
	EXPECT_EQ(len, n) TH_LOG("GET_FILTER: %s", strerror(errno));
	reap(pid);
	EXPECT_EQ(flags, md.flags & flags)
		TH_LOG("metadata flags %#llx", (unsigned long long)md.flags);
	if (n != len)
		return;

	/* restore: the filter as read back, with the flags read back */
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct uring r;
		int res;

		if (uring_init(&r, 4, 0) || load_insns(got, len, md.flags) < 0)
			_exit(2);
		prep_mkdir(&r, dir);
		res = uring_run(&r);
		_exit(res == -EACCES ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("restored filter: wait status %#x", status);
	EXPECT_FALSE(exists(dir)) TH_LOG("the restored filter let MKDIRAT run");
	rmdir(dir);
}

TEST_HARNESS_MAIN
