/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers for the issue-14 round-2 reproducers: a raw io_uring (no
 * liburing), the URING seccomp flag, and a filter that refuses mkdirat
 * with EPERM and allows everything else.
 *
 * Build: gcc -O2 -Wall -pthread -o X X.c
 */
#ifndef ISSUE14R2_COMMON_H
#define ISSUE14R2_COMMON_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/io_uring.h>
#include <linux/seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#pragma GCC diagnostic ignored "-Wunused-function"

#ifndef SECCOMP_FILTER_FLAG_URING
#define SECCOMP_FILTER_FLAG_URING (1UL << 6)
#endif

#if defined(__x86_64__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
#error "add your AUDIT_ARCH here"
#endif

struct ring {
	int fd;
	unsigned int flags;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	unsigned int sqe_tail;
};

static int ring_init(struct ring *r, unsigned int flags, unsigned int idle_ms)
{
	struct io_uring_params p;
	size_t sq_len, cq_len;
	char *sq;

	memset(&p, 0, sizeof(p));
	memset(r, 0, sizeof(*r));
	p.flags = flags;
	p.sq_thread_idle = idle_ms;
	r->fd = syscall(__NR_io_uring_setup, 8, &p);
	if (r->fd < 0)
		return -errno;
	r->flags = flags;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (cq_len > sq_len)
		sq_len = cq_len;
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return -errno;
	r->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		       r->fd, IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED)
		return -errno;
	r->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)(sq + p.sq_off.array);
	r->cq_head = (unsigned int *)(sq + p.cq_off.head);
	r->cq_tail = (unsigned int *)(sq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)(sq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(sq + p.cq_off.cqes);
	r->sqe_tail = *r->sq_tail;
	return 0;
}

static struct io_uring_sqe *ring_sqe(struct ring *r)
{
	unsigned int idx = r->sqe_tail & *r->sq_mask;
	struct io_uring_sqe *sqe = &r->sqes[idx];

	memset(sqe, 0, sizeof(*sqe));
	r->sq_array[idx] = idx;
	r->sqe_tail++;
	return sqe;
}

/* Publish and, for a SQPOLL ring, wake the SQ thread; else submit */
static int ring_submit(struct ring *r)
{
	unsigned int n = r->sqe_tail - *r->sq_tail;
	unsigned int flags = 0;

	__atomic_store_n(r->sq_tail, r->sqe_tail, __ATOMIC_RELEASE);
	if (r->flags & IORING_SETUP_SQPOLL)
		flags |= IORING_ENTER_SQ_WAKEUP;
	if (syscall(__NR_io_uring_enter, r->fd, n, 0, flags, NULL, 0) < 0)
		return -errno;
	return 0;
}

/* Wait up to @ms for a CQE by polling the ring memory; 0 if one came */
static int ring_wait_cqe(struct ring *r, int ms, struct io_uring_cqe *out)
{
	unsigned int head = *r->cq_head;
	struct timespec ts = { 0, 1000000 };

	while (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE)) {
		if (ms-- <= 0)
			return -ETIMEDOUT;
		syscall(SYS_nanosleep, &ts, NULL);
	}
	*out = r->cqes[head & *r->cq_mask];
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return 0;
}

static void queue_mkdirat(struct ring *r, const char *path, __u64 ud)
{
	struct io_uring_sqe *sqe = ring_sqe(r);

	sqe->opcode = IORING_OP_MKDIRAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)path;
	sqe->len = 0700;
	sqe->user_data = ud;
}

/*
 * SECCOMP_RET_ERRNO(EPERM) for mkdirat, allow everything else; loaded
 * with SECCOMP_FILTER_FLAG_URING and @extra_flags (e.g. TSYNC).
 */
static int install_deny_mkdirat(unsigned long extra_flags)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mkdirat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(insns) / sizeof(insns[0]),
		.filter = insns,
	};

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
		    SECCOMP_FILTER_FLAG_URING | extra_flags, &prog))
		return -errno;
	return 0;
}

static void msleep(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	syscall(SYS_nanosleep, &ts, NULL);
}

/* The state letter of thread @tid of this process, or 0 if it is gone */
static char task_state(pid_t tid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* Whether thread @tid is still hashed (not yet reaped) */
static int thread_hashed(pid_t tid)
{
	return syscall(SYS_tgkill, getpid(), tid, 0) == 0 || errno != ESRCH;
}
#endif
