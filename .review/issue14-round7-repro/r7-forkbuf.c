// SPDX-License-Identifier: GPL-2.0
/*
 * review 7, registered buffers after fork: READ_FIXED and WRITE_FIXED
 * (now prepped from the shared SQE, shown without one) and SEND_ZC with
 * IORING_RECVSEND_FIXED_BUF (copy path, the flag read from the copy) must
 * be refused in a child that inherited the ring; a plain SEND_ZC must run.
 * A thread flips SEND_ZC's ioprio FIXED_BUF bit while the child submits:
 * data from the parent's pinned page must never reach the socket.
 *
 * usage: r7-forkbuf SECONDS
 */
#include "r7common.h"
#include <netinet/in.h>
#include <arpa/inet.h>

static struct ring R;
static char *regbuf;
static int sv[2], filefd;
static volatile int stop_flip;
static int fails;

static int load_filter(void)
{
	struct sock_filter f[] = {
		LD(SD_ARCH), JEQ(NATIVE_ARCH, 1, 0), RET(SECCOMP_RET_KILL_PROCESS),
		LD(SD_ARG(5)), JEQ(0xdead, 0, 1), RET(ERR(1111)),
		RET(SECCOMP_RET_ALLOW),
	};
	return LOAD(f, SECCOMP_FILTER_FLAG_URING);
}

static struct io_uring_cqe last;
static void keep(struct io_uring_cqe *c, void *a)
{
	if (c->flags & IORING_CQE_F_NOTIF)
		return;
	last = *c;
}

static int one(struct io_uring_sqe *tmpl)
{
	struct io_uring_sqe *sqe = ring_sqe(&R);

	*sqe = *tmpl;
	ring_submit(&R, 0);
	last.res = -99999;
	ring_reap(&R, 1, 2000, keep, NULL);
	/* reap a notification, if any */
	ring_reap(&R, 1, 20, keep, NULL);
	return last.res;
}

static void expect(const char *what, int got, int want)
{
	printf("%s %s: res %d want %d\n", got == want ? "ok  " : "FAIL", what, got, want);
	if (got != want)
		fails++;
}

static void *flipper(void *arg)
{
	unsigned int k = 0;

	while (!stop_flip) {
		for (unsigned int i = 0; i < R.entries; i++) {
			volatile struct io_uring_sqe *s = ring_slot(&R, i);

			s->ioprio = (k & 1) ? IORING_RECVSEND_FIXED_BUF : 0;
		}
		k++;
	}
	return NULL;
}

static int leaked;
static unsigned long long zc_ok, zc_perm, zc_other;
static void on_zc(struct io_uring_cqe *c, void *a)
{
	if (c->flags & IORING_CQE_F_NOTIF)
		return;
	if (c->res >= 0)
		zc_ok++;
	else if (c->res == -EPERM)
		zc_perm++;
	else
		zc_other++;
}

static int child(int secs)
{
	struct io_uring_sqe t;
	char rb[64];
	int r;
	unsigned long long end;
	pthread_t th;

	/* the child's copy of the buffer still says OLD */
	printf("child sees its copy: %.16s\n", regbuf);

	memset(&t, 0, sizeof(t));
	t.opcode = IORING_OP_WRITE_FIXED;
	t.fd = filefd;
	t.addr = (unsigned long)regbuf;
	t.len = 16;
	t.off = 0;
	t.buf_index = 0;
	expect("child WRITE_FIXED", one(&t), -EPERM);

	memset(&t, 0, sizeof(t));
	t.opcode = IORING_OP_READ_FIXED;
	t.fd = filefd;
	t.addr = (unsigned long)regbuf;
	t.len = 16;
	t.off = 0;
	expect("child READ_FIXED", one(&t), -EPERM);

	memset(&t, 0, sizeof(t));
	t.opcode = IORING_OP_SEND_ZC;
	t.fd = sv[0];
	t.addr = (unsigned long)regbuf;
	t.len = 16;
	t.ioprio = IORING_RECVSEND_FIXED_BUF;
	expect("child SEND_ZC FIXED_BUF", one(&t), -EPERM);

	t.ioprio = 0;
	expect("child SEND_ZC plain", one(&t), 16);
	r = recv(sv[1], rb, sizeof(rb), MSG_DONTWAIT);
	printf("     plain SEND_ZC sent: %.*s\n", r > 0 ? r : 0, rb);

	/* the race */
	pthread_create(&th, NULL, flipper, NULL);
	end = now_ms() + secs * 1000ULL;
	while (now_ms() < end) {
		for (int i = 0; i < 16; i++) {
			struct io_uring_sqe *sqe = ring_sqe(&R);

			sqe->opcode = IORING_OP_SEND_ZC;
			sqe->fd = sv[0];
			sqe->addr = (unsigned long)regbuf;
			sqe->len = 16;
			sqe->user_data = i;
		}
		ring_submit(&R, 0);
		ring_reap(&R, 16, 2000, on_zc, NULL);
		ring_reap(&R, 1 << 20, 0, on_zc, NULL);
		while ((r = recv(sv[1], rb, sizeof(rb), MSG_DONTWAIT)) > 0) {
			if (memmem(rb, r, "SECRET", 6)) {
				if (!leaked++)
					printf("BYPASS: parent's pinned page sent: %.*s\n", r, rb);
			}
		}
	}
	stop_flip = 1;
	pthread_join(th, NULL);
	printf("race: SEND_ZC ran %llu refused %llu other %llu, leaked %d\n",
	       zc_ok, zc_perm, zc_other, leaked);
	return fails || leaked;
}

int main(int argc, char **argv)
{
	int secs = argc > 1 ? atoi(argv[1]) : 10, st;
	struct iovec iov;
	struct io_uring_sqe t;
	pid_t p;

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("== r7-forkbuf %ds\n", secs);
	regbuf = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	strcpy(regbuf, "PARENT-OLD......");
	mkdir("/tmp/fb", 0755);
	filefd = open("/tmp/fb/f", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(filefd, "CHILD-FILE-DATA.", 16);
	{
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000001) };
		socklen_t l = sizeof(a);

		sv[1] = socket(AF_INET, SOCK_DGRAM, 0);
		bind(sv[1], (struct sockaddr *)&a, sizeof(a));
		getsockname(sv[1], (struct sockaddr *)&a, &l);
		sv[0] = socket(AF_INET, SOCK_DGRAM, 0);
		if (connect(sv[0], (struct sockaddr *)&a, sizeof(a)))
			printf("connect %s\n", strerror(errno));
	}
	if (ring_init(&R, 32, 0))
		return 2;
	iov.iov_base = regbuf;
	iov.iov_len = 4096;
	if (syscall(__NR_io_uring_register, R.fd, IORING_REGISTER_BUFFERS, &iov, 1)) {
		printf("register buffers %s\n", strerror(errno));
		return 2;
	}
	if (load_filter()) {
		printf("filter\n");
		return 2;
	}
	/* the parent may use its own buffers */
	memset(&t, 0, sizeof(t));
	t.opcode = IORING_OP_WRITE_FIXED;
	t.fd = filefd;
	t.addr = (unsigned long)regbuf;
	t.len = 16;
	t.off = 100;
	expect("parent WRITE_FIXED", one(&t), 16);

	p = fork();
	if (p == 0) {
		usleep(200000);
		_exit(child(secs));
	}
	strcpy(regbuf, "PARENT-SECRET...");
	waitpid(p, &st, 0);
	printf("child exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	if (strncmp(regbuf, "PARENT-SECRET", 13)) {
		printf("BYPASS: parent's buffer overwritten: %.16s\n", regbuf);
		fails++;
	}
	{
		char fb[32] = { 0 };

		pread(filefd, fb, 16, 0);
		if (strstr(fb, "SECRET")) {
			printf("BYPASS: parent's pinned page written to the file\n");
			fails++;
		}
	}
	st = WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	printf("%s\n", fails || st ? "R7-FORKBUF FAIL" : "R7-FORKBUF ok");
	return fails || st;
}
