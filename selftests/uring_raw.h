/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A minimal io_uring for the seccomp selftests: raw syscalls, one
 * submission at a time, no liburing (selftests build without it).
 */
#ifndef SECCOMP_URING_RAW_H
#define SECCOMP_URING_RAW_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/io_uring.h>

struct uring {
	int fd;
	unsigned int flags;
	unsigned int *sq_head, *sq_tail, *sq_mask, *sq_array, *sq_flags;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	unsigned int sqe_tail;
};

/**
 * uring_init_wq - set up a ring of @entries with IORING_SETUP_* @flags
 * @r: the ring to fill in
 * @entries: SQ size
 * @flags: setup flags (e.g. IORING_SETUP_SQPOLL)
 * @wq_fd: the ring to share the async backend (and SQ thread) of, with
 *	IORING_SETUP_ATTACH_WQ in @flags; ignored otherwise
 *
 * Returns 0 or -errno.
 */
static inline int uring_init_wq(struct uring *r, unsigned int entries,
				unsigned int flags, int wq_fd)
{
	struct io_uring_params p;
	size_t sq_len, cq_len;
	char *sq, *cq;

	memset(&p, 0, sizeof(p));
	memset(r, 0, sizeof(*r));
	p.flags = flags;
	p.sq_thread_idle = 1000;
	if (flags & IORING_SETUP_ATTACH_WQ)
		p.wq_fd = wq_fd;
	r->fd = syscall(__NR_io_uring_setup, entries, &p);
	if (r->fd < 0)
		return -errno;
	r->flags = flags;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (cq_len > sq_len)
		sq_len = cq_len;
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  r->fd, IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return -errno;
	cq = sq; /* IORING_FEAT_SINGLE_MMAP, every kernel this runs on has it */
	r->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		       r->fd, IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED)
		return -errno;
	r->sq_head = (unsigned int *)(sq + p.sq_off.head);
	r->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)(sq + p.sq_off.array);
	r->sq_flags = (unsigned int *)(sq + p.sq_off.flags);
	r->cq_head = (unsigned int *)(cq + p.cq_off.head);
	r->cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	r->sqe_tail = *r->sq_tail;
	return 0;
}

/* uring_init_wq() of a ring with its own async backend */
static inline int uring_init(struct uring *r, unsigned int entries,
			     unsigned int flags)
{
	return uring_init_wq(r, entries, flags, -1);
}

/**
 * uring_sqe - take the next free SQE, zeroed
 * @r: the ring
 *
 * Returns the SQE; it is queued by the next uring_submit().
 */
static inline struct io_uring_sqe *uring_sqe(struct uring *r)
{
	unsigned int idx = r->sqe_tail & *r->sq_mask;
	struct io_uring_sqe *sqe = &r->sqes[idx];

	memset(sqe, 0, sizeof(*sqe));
	r->sq_array[idx] = idx;
	r->sqe_tail++;
	return sqe;
}

/**
 * uring_prep_create - queue an OPENAT that creates @path (O_CREAT, 0600)
 * for writing
 *
 * Returns the SQE.
 */
static inline struct io_uring_sqe *uring_prep_create(struct uring *r,
						     const char *path)
{
	struct io_uring_sqe *sqe = uring_sqe(r);

	sqe->opcode = IORING_OP_OPENAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)path;
	sqe->open_flags = O_CREAT | O_WRONLY;
	sqe->len = 0600;
	return sqe;
}

/**
 * uring_submit - publish the queued SQEs and wait for @wait completions
 * @r: the ring
 * @wait: completions to wait for
 *
 * Returns what io_uring_enter(2) returned (the number submitted), or
 * -errno. With SQPOLL the SQ thread is woken and the count is the
 * number published.
 */
static inline int uring_submit(struct uring *r, unsigned int wait)
{
	unsigned int n = r->sqe_tail - *r->sq_tail;
	unsigned int flags = wait ? IORING_ENTER_GETEVENTS : 0;
	long ret;

	__atomic_store_n(r->sq_tail, r->sqe_tail, __ATOMIC_RELEASE);
	if (r->flags & IORING_SETUP_SQPOLL)
		flags |= IORING_ENTER_SQ_WAKEUP;
	ret = syscall(__NR_io_uring_enter, r->fd, n, wait, flags, NULL, 0);
	if (ret < 0)
		return -errno;
	return r->flags & IORING_SETUP_SQPOLL ? (int)n : (int)ret;
}

/**
 * uring_cqe - pop one completion, waiting for it if needed
 * @r: the ring
 * @cqe: filled with the completion
 *
 * Returns 0 or -errno.
 */
static inline int uring_cqe(struct uring *r, struct io_uring_cqe *cqe)
{
	unsigned int head = *r->cq_head;

	while (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE)) {
		if (syscall(__NR_io_uring_enter, r->fd, 0, 1,
			    IORING_ENTER_GETEVENTS, NULL, 0) < 0 &&
		    errno != EINTR)
			return -errno;
	}
	*cqe = r->cqes[head & *r->cq_mask];
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return 0;
}

/**
 * uring_run - submit the one SQE queued on @r and return its result
 * @r: the ring, with exactly one SQE queued
 *
 * Returns the CQE's res, or -errno if submission itself failed.
 */
static inline int uring_run(struct uring *r)
{
	struct io_uring_cqe cqe;
	int ret = uring_submit(r, 1);

	if (ret < 0)
		return ret;
	/*
	 * A zero-copy send posts its buffer notification as a second CQE
	 * (IORING_CQE_F_NOTIF), on 7.3 even when the send failed: it is not
	 * the result, and may come before or after it.
	 */
	do {
		ret = uring_cqe(r, &cqe);
	} while (!ret && (cqe.flags & IORING_CQE_F_NOTIF));
	return ret < 0 ? ret : cqe.res;
}

static inline void uring_exit(struct uring *r)
{
	close(r->fd);
}
#endif
