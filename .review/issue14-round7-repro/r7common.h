/* SPDX-License-Identifier: GPL-2.0 */
/* review 7 helpers: raw io_uring rings (SQE128, SQPOLL, big), filters */
#ifndef R7COMMON_H
#define R7COMMON_H
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
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
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#pragma GCC diagnostic ignored "-Wunused-function"

#define NATIVE_ARCH AUDIT_ARCH_X86_64

struct ring {
	int fd;
	unsigned int flags, entries;
	unsigned int *sq_tail, *sq_head, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	unsigned int sqe_tail;
};

static int ring_init(struct ring *r, unsigned int entries, unsigned int flags)
{
	struct io_uring_params p;
	size_t sq_len, cq_len, sqe_sz = (flags & IORING_SETUP_SQE128) ? 128 : 64;
	char *sq;

	memset(&p, 0, sizeof(p));
	memset(r, 0, sizeof(*r));
	p.flags = flags;
	p.sq_thread_idle = 2000;
	r->fd = syscall(__NR_io_uring_setup, entries, &p);
	if (r->fd < 0)
		return -errno;
	r->flags = flags;
	r->entries = p.sq_entries;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (cq_len > sq_len)
		sq_len = cq_len;
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  r->fd, IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return -errno;
	r->sqes = mmap(NULL, p.sq_entries * sqe_sz, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED)
		return -errno;
	r->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	r->sq_head = (unsigned int *)(sq + p.sq_off.head);
	r->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)(sq + p.sq_off.array);
	r->cq_head = (unsigned int *)(sq + p.cq_off.head);
	r->cq_tail = (unsigned int *)(sq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)(sq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(sq + p.cq_off.cqes);
	r->sqe_tail = *r->sq_tail;
	return 0;
}

static struct io_uring_sqe *ring_slot(struct ring *r, unsigned int idx)
{
	int big = r->flags & IORING_SETUP_SQE128;

	return &r->sqes[big ? idx * 2 : idx];
}

static struct io_uring_sqe *ring_sqe(struct ring *r)
{
	unsigned int idx = r->sqe_tail & *r->sq_mask;
	struct io_uring_sqe *sqe = ring_slot(r, idx);

	memset(sqe, 0, (r->flags & IORING_SETUP_SQE128) ? 128 : 64);
	r->sq_array[idx] = idx;
	r->sqe_tail++;
	return sqe;
}

/* publish, submit (or wake SQPOLL); returns io_uring_enter's result */
static int ring_submit(struct ring *r, unsigned int wait_nr)
{
	unsigned int n = r->sqe_tail - *r->sq_tail;
	unsigned int flags = wait_nr ? IORING_ENTER_GETEVENTS : 0;
	int ret;

	__atomic_store_n(r->sq_tail, r->sqe_tail, __ATOMIC_RELEASE);
	if (r->flags & IORING_SETUP_SQPOLL) {
		flags = IORING_ENTER_SQ_WAKEUP;
		n = 0;
		wait_nr = 0;
	}
	ret = syscall(__NR_io_uring_enter, r->fd, n, wait_nr, flags, NULL, 0);
	return ret < 0 ? -errno : ret;
}

/* wait until @n CQEs arrived (or @ms passed); calls @fn on each */
static int ring_reap(struct ring *r, unsigned int n, int ms,
		     void (*fn)(struct io_uring_cqe *, void *), void *arg)
{
	struct timespec ts = { 0, 200000 };
	unsigned int got = 0;

	ms *= 5;
	while (got < n) {
		unsigned int head = *r->cq_head;

		if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE)) {
			if (ms-- <= 0)
				return got;
			/* never block: a batch may post fewer CQEs than asked */
			if (!(r->flags & IORING_SETUP_SQPOLL))
				syscall(__NR_io_uring_enter, r->fd, 0, 0,
					IORING_ENTER_GETEVENTS, NULL, 0);
			nanosleep(&ts, NULL);
			continue;
		}
		fn(&r->cqes[head & *r->cq_mask], arg);
		__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
		got++;
	}
	return got;
}

#define LD(off)		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define RET(v)		BPF_STMT(BPF_RET | BPF_K, (v))
#define JEQ(k, t, f)	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f))
#define JGE(k, t, f)	BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, (k), (t), (f))
#define ERR(e)		(SECCOMP_RET_ERRNO | (e))
#define SD_NR		offsetof(struct seccomp_data, nr)
#define SD_ARCH		offsetof(struct seccomp_data, arch)
#define SD_IP		offsetof(struct seccomp_data, instruction_pointer)
#define SD_ARG(i)	(offsetof(struct seccomp_data, args) + 8 * (i))

static int load_prog(struct sock_filter *f, unsigned short len, unsigned long flags)
{
	struct sock_fprog prog = { .len = len, .filter = f };

	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog))
		return -errno;
	return 0;
}
#define LOAD(f, flags) load_prog(f, sizeof(f) / sizeof(f[0]), flags)

static unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

static uint64_t rng_state = 88172645463325252ULL;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}
#endif
