// SPDX-License-Identifier: GPL-2.0
/*
 * Usage: uring-policy CHECK...
 * Run inside a real runtime's sandbox (crun with Docker's profile,
 * systemd-run with SystemCallFilter=): shows, in TAP, that the sandbox's
 * own seccomp policy judges this process's io_uring SQEs as it judges
 * the system calls they stand for. It first checks that a seccomp filter
 * is in place (Seccomp: 2), then each CHECK:
 *   work                 allowed io_uring work succeeds: a NOP, an AF_UNIX
 *                        socket, a WRITE then a READ of a file in the
 *                        working directory that returns what was written
 *   socket=FAMILY:ERRNO  socket(FAMILY, SOCK_STREAM, 0) is refused with
 *                        ERRNO as a system call and as IORING_OP_SOCKET,
 *                        and no descriptor was made
 *   futex_wait=ERRNO     futex_wait(2) and IORING_OP_FUTEX_WAIT are refused
 *                        with ERRNO (had the SQE run, it would have
 *                        answered EAGAIN: the word does not hold the value)
 *   futex_wake=ERRNO     futex_wake(2) and IORING_OP_FUTEX_WAKE are refused
 *                        with ERRNO, and a thread waiting on the word was
 *                        not woken
 * ERRNO is a name (EPERM, EAFNOSUPPORT, ENOSYS, EACCES). An SQE that ran
 * although its system call is refused is a bypass: "# SKIP BYPASS" when
 * URING_SECCOMP_EXPECT=stock (the unpatched kernel), a failure otherwise.
 * Prints TAP result lines without a plan (the guest suite that runs it
 * numbers them and prints the plan). Exits 0 when every test passed or
 * was a bypass on stock, 1 otherwise.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ring.h"

static struct uring ring;
static bool stock;
static int test_nr, failed;

static __attribute__((format(printf, 2, 3)))
void result(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d ", ok ? "ok" : "not ok", ++test_nr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!ok)
		failed = 1;
}

/*
 * An SQE whose system call is refused: @refused says it was refused with
 * the expected errno, @ran that the operation happened.
 */
static void sqe_result(bool refused, bool ran, const char *what, int res)
{
	if (refused && !ran)
		result(true, "%s refused as an SQE, not done", what);
	else if (ran && stock)
		result(true, "%s refused as an SQE # SKIP BYPASS the SQE ran (res %d)",
		       what, res);
	else
		result(false, "%s refused as an SQE (res %d%s)", what, res,
		       ran ? ", the operation ran" : "");
}

static int errno_by_name(const char *name)
{
	static const struct { const char *name; int nr; } names[] = {
		{ "EPERM", EPERM }, { "EAFNOSUPPORT", EAFNOSUPPORT },
		{ "ENOSYS", ENOSYS }, { "EACCES", EACCES },
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i].name))
			return names[i].nr;
	fprintf(stderr, "uring-policy: unknown errno name %s\n", name);
	exit(2);
}

/* How many descriptors this process has open. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d) {
		perror("/proc/self/fd");
		exit(1);
	}
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1; /* the directory's own */
}

/* The Seccomp: line of /proc/self/status: 2 under a filter. */
static void check_filtered(void)
{
	char line[128];
	int mode = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Seccomp: %d", &mode) == 1)
			break;
	if (f)
		fclose(f);
	result(mode == 2, "a seccomp filter is in place (Seccomp: %d)", mode);
}

static void check_work(void)
{
	static const char data[] = "uring-seccomp real software";
	struct io_uring_sqe sqe;
	char back[sizeof(data)];
	int fd, res;

	ring_prep(&sqe, IORING_OP_NOP, -1);
	res = ring_run(&ring, &sqe);
	result(res == 0, "NOP completes (res %d)", res);

	ring_prep(&sqe, IORING_OP_SOCKET, AF_UNIX);
	sqe.off = SOCK_STREAM;
	res = ring_run(&ring, &sqe);
	result(res >= 0, "AF_UNIX socket through the ring (res %d)", res);
	if (res >= 0)
		close(res);

	fd = open("uring-policy.data", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		perror("uring-policy.data");
		exit(1);
	}
	ring_prep(&sqe, IORING_OP_WRITE, fd);
	sqe.addr = (uintptr_t)data;
	sqe.len = sizeof(data);
	res = ring_run(&ring, &sqe);
	result(res == (int)sizeof(data), "WRITE of %zu bytes (res %d)", sizeof(data), res);
	memset(back, 0, sizeof(back));
	ring_prep(&sqe, IORING_OP_READ, fd);
	sqe.addr = (uintptr_t)back;
	sqe.len = sizeof(back);
	res = ring_run(&ring, &sqe);
	result(res == (int)sizeof(back) && !memcmp(back, data, sizeof(data)),
	       "READ returns what WRITE wrote (res %d)", res);
	close(fd);
	unlink("uring-policy.data");
}

static void check_socket(const char *arg)
{
	char what[64], *colon;
	struct io_uring_sqe sqe;
	int family, err, fds, res;

	family = atoi(arg);
	colon = strchr(arg, ':');
	if (!colon) {
		fprintf(stderr, "uring-policy: want socket=FAMILY:ERRNO\n");
		exit(2);
	}
	err = errno_by_name(colon + 1);
	snprintf(what, sizeof(what), "socket(%d, SOCK_STREAM, 0) (%s)", family, colon + 1);

	res = socket(family, SOCK_STREAM, 0);
	result(res == -1 && errno == err, "%s refused as a system call (%s)", what,
	       res == -1 ? strerror(errno) : "made a socket");
	if (res >= 0)
		close(res);

	fds = open_fds();
	ring_prep(&sqe, IORING_OP_SOCKET, family);
	sqe.off = SOCK_STREAM;
	res = ring_run(&ring, &sqe);
	/* anything but the profile's errno came from the socket layer */
	sqe_result(res == -err && open_fds() == fds, res >= 0 || res != -err, what, res);
	if (res >= 0)
		close(res);
}

static uint32_t futex_word;
static int waiter_woken, waiter_tid;

static void *futex_waiter(void *unused)
{
	(void)unused;
	__atomic_store_n(&waiter_tid, gettid(), __ATOMIC_RELEASE);
	/* every wake counts, also one that leaves the word 0 (the SQE's) */
	while (!__atomic_load_n(&futex_word, __ATOMIC_ACQUIRE))
		if (!syscall(__NR_futex, &futex_word, FUTEX_WAIT, 0, NULL, NULL, 0) &&
		    !__atomic_load_n(&futex_word, __ATOMIC_ACQUIRE))
			__atomic_store_n(&waiter_woken, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Whether thread @tid of this process sleeps (state S in its stat). */
static bool sleeping(pid_t tid)
{
	char path[64], buf[256], *p;
	FILE *f;
	bool s = false;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')))
		s = p[2] == 'S';
	fclose(f);
	return s;
}

static void check_futex(bool wake, const char *arg)
{
	const char *name = wake ? "futex_wake" : "futex_wait";
	struct timespec pause = { 0, 200 * 1000 * 1000 };
	struct io_uring_sqe sqe;
	pthread_t waiter;
	int err = errno_by_name(arg), res, i;
	long ret;

	futex_word = 0;
	waiter_woken = 0;
	waiter_tid = 0;
	if (wake) {
		ret = syscall(__NR_futex_wake, &futex_word, 1, FUTEX_BITSET_MATCH_ANY,
			      FUTEX2_SIZE_U32);
	} else {
		/* the word is 0, not 1: had it run, EAGAIN */
		ret = syscall(__NR_futex_wait, &futex_word, 1, FUTEX_BITSET_MATCH_ANY,
			      FUTEX2_SIZE_U32, NULL, CLOCK_MONOTONIC);
	}
	result(ret == -1 && errno == err, "%s refused as a system call with %s (%s)",
	       name, arg, ret == -1 ? strerror(errno) : "it ran");

	if (wake) {
		if (pthread_create(&waiter, NULL, futex_waiter, NULL)) {
			fprintf(stderr, "uring-policy: pthread_create failed\n");
			exit(1);
		}
		/* until the waiter sleeps (in its FUTEX_WAIT, the only sleep) */
		for (i = 0; i < 250; i++) {
			nanosleep(&(struct timespec){ 0, 20 * 1000 * 1000 }, NULL);
			if (sleeping(__atomic_load_n(&waiter_tid, __ATOMIC_ACQUIRE)))
				break;
		}
	}
	ring_prep(&sqe, wake ? IORING_OP_FUTEX_WAKE : IORING_OP_FUTEX_WAIT,
		  FUTEX2_SIZE_U32);
	sqe.addr = (uintptr_t)&futex_word;
	sqe.addr2 = 1; /* wake: how many; wait: the value expected */
	sqe.addr3 = FUTEX_BITSET_MATCH_ANY;
	res = ring_run(&ring, &sqe);
	if (wake) {
		nanosleep(&pause, NULL);
		sqe_result(res == -err && !__atomic_load_n(&waiter_woken, __ATOMIC_ACQUIRE),
			   res != -err || __atomic_load_n(&waiter_woken, __ATOMIC_ACQUIRE),
			   "futex_wake (a waiter)", res);
		__atomic_store_n(&futex_word, 1, __ATOMIC_RELEASE);
		syscall(__NR_futex, &futex_word, FUTEX_WAKE, 1, NULL, NULL, 0);
		pthread_join(waiter, NULL);
	} else {
		sqe_result(res == -err, res != -err, "futex_wait", res);
	}
}

int main(int argc, char **argv)
{
	const char *expect = getenv("URING_SECCOMP_EXPECT");
	int i, res;

	setvbuf(stdout, NULL, _IOLBF, 0);
	stock = expect && !strcmp(expect, "stock");
	if (argc < 2) {
		fprintf(stderr, "usage: %s work|socket=FAMILY:ERRNO|futex_wait=ERRNO|futex_wake=ERRNO...\n",
			argv[0]);
		return 2;
	}
	res = uring_init(&ring, 8, 0);
	if (res < 0) {
		printf("Bail out! io_uring_setup: %s\n", strerror(-res));
		return 1;
	}
	check_filtered();
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "work"))
			check_work();
		else if (!strncmp(argv[i], "socket=", 7))
			check_socket(argv[i] + 7);
		else if (!strncmp(argv[i], "futex_wait=", 11))
			check_futex(false, argv[i] + 11);
		else if (!strncmp(argv[i], "futex_wake=", 11))
			check_futex(true, argv[i] + 11);
		else {
			fprintf(stderr, "uring-policy: unknown check %s\n", argv[i]);
			return 2;
		}
	}
	return failed;
}
