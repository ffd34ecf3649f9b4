// SPDX-License-Identifier: GPL-2.0
/*
 * Round 3, finding R4 (low, behaviour change): patch 32 sets the JUDGED
 * bit of every SQPOLL creator at do_exit(), also in processes without any
 * seccomp filter. The SQEs the in-flight batch reads after that go through
 * io_init_req_judged() -> io_seccomp_check(), which calls the opcode's
 * seccomp_nr hook BEFORE seccomp_uring_check() looks at the mode. For
 * URING_CMD that hook pins the file at judge time, so a URING_CMD linked
 * after the SOCKET that creates its registered file fails with -EBADF in a
 * process that never used seccomp. (Patch 32's message: "nothing changes
 * for a process that did not opt in".)
 *
 * No seccomp anywhere. Batch on a SQPOLL ring made by thread C:
 *   SQE0 OPENAT(path on a missing userfaultfd page)   -> holds the batch
 *   SQE1 SOCKET(AF_INET, DGRAM) into registered slot 0, IOSQE_IO_LINK
 *   SQE2 URING_CMD SIOCINQ on registered file 0
 * Control (C stays alive): SQE2 res 0. Test: C pthread_exit()s while the
 * batch is held (it sets JUDGED, then blocks for the ring lock), then the
 * page is filled: SQE2 res -EBADF.
 */
#include "../issue14-round2-repro/common.h"
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

static struct ring R;
static volatile int c_go, c_ready;
static pid_t c_tid;

static void *creator(void *arg)
{
	int fds[1] = { -1 };

	c_tid = syscall(SYS_gettid);
	if (ring_init(&R, IORING_SETUP_SQPOLL, 3000))
		exit(3);
	if (syscall(__NR_io_uring_register, R.fd, IORING_REGISTER_FILES, fds, 1))
		exit(3);
	c_ready = 1;
	while (!c_go)
		msleep(1);
	if ((long)arg)
		pthread_exit(NULL);
	for (;;)
		pause();
}

static int run(int exit_creator)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	struct uffdio_copy copy = { 0 };
	struct pollfd pfd;
	struct uffd_msg msg;
	static char src[4096];
	struct io_uring_sqe *sqe;
	struct io_uring_cqe cqe;
	int uffd, i, res[3] = { 1, 1, 1 };
	pthread_t c;
	char *page;

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
	pthread_create(&c, NULL, creator, (void *)(long)exit_creator);
	while (!c_ready)
		msleep(1);

	sqe = ring_sqe(&R);
	sqe->opcode = IORING_OP_OPENAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)page;
	sqe->open_flags = O_RDONLY;
	sqe->user_data = 0;
	sqe = ring_sqe(&R);
	sqe->opcode = IORING_OP_SOCKET;
	sqe->fd = AF_INET;
	sqe->off = SOCK_DGRAM;
	sqe->file_index = 1;		/* slot 0 */
	sqe->flags = IOSQE_IO_LINK;
	sqe->user_data = 1;
	sqe = ring_sqe(&R);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = 0;
	sqe->flags = IOSQE_FIXED_FILE;
	sqe->cmd_op = SOCKET_URING_OP_SIOCINQ;
	sqe->user_data = 2;
	if (ring_submit(&R))
		return 4;

	pfd.fd = uffd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 10000) != 1 || read(uffd, &msg, sizeof(msg)) != sizeof(msg))
		return 5;
	c_go = 1;
	if (exit_creator) {
		/* C sets JUDGED in do_exit(), then waits for the ring lock */
		for (i = 0; i < 5000 && task_state(c_tid) != 'D'; i++)
			msleep(1);
		printf("# creator state '%c'\n", task_state(c_tid) ?: '-');
	} else {
		msleep(100);
	}
	snprintf(src, sizeof(src), "/");
	copy.dst = (unsigned long)page;
	copy.src = (unsigned long)src;
	copy.len = 4096;
	if (ioctl(uffd, UFFDIO_COPY, &copy))
		return 6;
	for (i = 0; i < 3; i++) {
		if (ring_wait_cqe(&R, 5000, &cqe) || cqe.user_data > 2)
			return 7;
		res[cqe.user_data] = cqe.res;
	}
	printf("# creator %s: OPENAT %d, SOCKET %d, URING_CMD(SIOCINQ) %d\n",
	       exit_creator ? "exited mid-batch" : "alive", res[0], res[1], res[2]);
	return res[2] == 0 ? 0 : (res[2] == -EBADF ? 10 : 11);
}

int main(void)
{
	int i, status[2];
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	printf("1..2\n");
	for (i = 0; i < 2; i++) {
		pid = fork();
		if (pid == 0) {
			alarm(30);
			_exit(run(i));
		}
		waitpid(pid, &status[i], 0);
	}
	printf("%s 1 - control (creator alive): status %#x\n",
	       status[0] == 0 ? "ok" : "not ok", status[0]);
	printf("%s 2 - creator exited mid-batch, no seccomp: status %#x%s\n",
	       status[1] == 0 ? "ok" : "not ok", status[1],
	       WIFEXITED(status[1]) && WEXITSTATUS(status[1]) == 10 ?
	       " (URING_CMD got -EBADF: behaviour change without seccomp)" : "");
	return 0;
}
