// SPDX-License-Identifier: GPL-2.0
/*
 * Round 3, check of patch 31: kernel.seccomp.uring_force set while a
 * batch is held open. Two processes, each under a filter WITHOUT
 * SECCOMP_FILTER_FLAG_URING that refuses mkdirat with EPERM:
 *
 *   X: plain ring, io_uring_enter() of {OPENAT(path on uffd page), MKDIRAT}
 *   Y: SQPOLL ring (creator alive), the same two SQEs
 *
 * Both batches are held in the OPENAT's getname() on a missing
 * userfaultfd page. The parent then writes 1 to uring_force (one-way:
 * run once per boot, as root), and only then lets the pages be filled.
 * The MKDIRAT of each batch is read after the switch and must be refused
 * (-EPERM). Control: before the switch a MKDIRAT SQE runs (unjudged).
 *
 * Prints TAP, one line per process.
 */
#include "../issue14-round2-repro/common.h"
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>

static int ready_w, go_r;
static int uffd;
static char *page;
static char fpath[128];

static int install_plain_deny_mkdirat(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mkdirat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = insns };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		return -errno;
	return 0;
}

static void *handler(void *arg)
{
	struct pollfd pfd = { .fd = uffd, .events = POLLIN };
	static char src[4096];
	struct uffdio_copy copy = { 0 };
	struct uffd_msg msg;
	char c = 'f';

	if (poll(&pfd, 1, 20000) != 1 ||
	    read(uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		c = 'e';
	if (write(ready_w, &c, 1) != 1 || read(go_r, &c, 1) != 1)
		_exit(3);
	snprintf(src, sizeof(src), "%s", fpath);
	copy.dst = (unsigned long)page;
	copy.src = (unsigned long)src;
	copy.len = 4096;
	if (ioctl(uffd, UFFDIO_COPY, &copy))
		_exit(3);
	return NULL;
}

/* exit codes: 0 refused (good), 42 ran (bypass), 2.. setup problems */
static int child(int sqpoll, const char *tag)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	struct io_uring_cqe cqe;
	struct io_uring_sqe *sqe;
	char d0[128], d1[128];
	struct ring r;
	pthread_t h;
	int i, res[2] = { 1, 1 };

	snprintf(fpath, sizeof(fpath), "/tmp/r3-r2-%s-file", tag);
	snprintf(d0, sizeof(d0), "/tmp/r3-r2-%s-d0", tag);
	snprintf(d1, sizeof(d1), "/tmp/r3-r2-%s-d1", tag);
	rmdir(d0); rmdir(d1); unlink(fpath);
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (uffd < 0 || ioctl(uffd, UFFDIO_API, &api))
		return 2;
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	reg.range.start = (unsigned long)page;
	reg.range.len = 4096;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (page == MAP_FAILED || ioctl(uffd, UFFDIO_REGISTER, &reg))
		return 2;
	if (ring_init(&r, sqpoll ? IORING_SETUP_SQPOLL : 0, 5000))
		return 2;
	if (install_plain_deny_mkdirat())
		return 2;
	/* control: a filter without the URING flag does not judge */
	queue_mkdirat(&r, d0, 1);
	if (ring_submit(&r) || ring_wait_cqe(&r, 5000, &cqe))
		return 4;
	if (cqe.res != 0) {
		printf("# %s: control MKDIRAT res %d (force already set?)\n", tag, cqe.res);
		return 5;
	}
	if (pthread_create(&h, NULL, handler, NULL))
		return 2;
	sqe = ring_sqe(&r);
	sqe->opcode = IORING_OP_OPENAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)page;
	sqe->open_flags = O_CREAT | O_WRONLY;
	sqe->len = 0600;
	sqe->user_data = 0;
	queue_mkdirat(&r, d1, 1);
	if (ring_submit(&r))
		return 6;
	pthread_join(h, NULL);
	for (i = 0; i < 2; i++) {
		if (ring_wait_cqe(&r, 5000, &cqe) || cqe.user_data > 1)
			return 7;
		res[cqe.user_data] = cqe.res;
	}
	printf("# %s: OPENAT res %d, MKDIRAT res %d, dir %s\n", tag, res[0],
	       res[1], access(d1, F_OK) ? "absent" : "CREATED");
	if (res[1] == 0 || access(d1, F_OK) == 0)
		return 42;
	return res[1] == -EPERM ? 0 : 8;
}

int main(void)
{
	int ready[2], go[2], n, i, status;
	const char *tags[2] = { "plain", "sqpoll" };
	pid_t pids[2];
	char c;
	int fd;

	setvbuf(stdout, NULL, _IONBF, 0);
	printf("1..2\n");
	if (pipe(ready) || pipe(go))
		return 1;
	for (i = 0; i < 2; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			ready_w = ready[1];
			go_r = go[0];
			alarm(60);
			_exit(child(i, tags[i]));
		}
	}
	for (n = 0; n < 2; n++) {
		if (read(ready[0], &c, 1) != 1 || c != 'f') {
			printf("# a batch was not held (%c)\n", c);
			break;
		}
	}
	fd = open("/proc/sys/kernel/seccomp/uring_force", O_WRONLY);
	if (fd < 0 || write(fd, "1", 1) != 1)
		printf("# could not set uring_force: %s\n", strerror(errno));
	else
		printf("# uring_force set while %d batches are held\n", n);
	close(fd);
	msleep(200);
	for (i = 0; i < 2; i++)
		if (write(go[1], "g", 1) != 1)
			return 1;
	for (i = 0; i < 2; i++) {
		waitpid(pids[i], &status, 0);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			printf("ok %d - %s: MKDIRAT read after the switch refused\n", i + 1, tags[i]);
		else if (WIFEXITED(status) && WEXITSTATUS(status) == 42)
			printf("not ok %d - %s: BYPASS: MKDIRAT read after the switch ran\n", i + 1, tags[i]);
		else
			printf("not ok %d - %s: inconclusive, status %#x\n", i + 1, tags[i], status);
	}
	return 0;
}
