// SPDX-License-Identifier: GPL-2.0
/*
 * Threads keep submitting IORING_OP_OPENAT(O_CREAT) SQEs on their own
 * rings while the main thread installs, with SECCOMP_FILTER_FLAG_TSYNC, a
 * filter that refuses openat. No SQE a thread submitted after it saw the
 * install return may be judged by the old filters: each must complete
 * with -EPERM and create nothing. The counts are printed.
 *
 * The install waits until every thread has submitted BEFORE SQEs, and
 * each thread goes on until it has submitted AFTER SQEs after it saw
 * the install, so both phases happen however the threads are scheduled.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#define URING_SECCOMP_LIBSECCOMP
#include "uring_seccomp.h"

#define THREADS		4
#define BEFORE		16
#define AFTER		200

static int installed;
/* threads that have submitted BEFORE SQEs under the old filters */
static int ready;

struct worker {
	int id;
	int after, refused_after, created_after, before;
};

static void *submit_loop(void *arg)
{
	struct worker *w = arg;
	struct io_uring ring;
	char path[96];
	int i, seen, res;

	t_create_ring(&ring, 4);
	for (i = 0; w->after < AFTER; i++) {
		snprintf(path, sizeof(path), "/tmp/uring-tsync.%d.%d.%d", getpid(),
			 w->id, i);
		unlink(path);
		/* read before the SQE is even prepared */
		seen = __atomic_load_n(&installed, __ATOMIC_ACQUIRE);
		io_uring_prep_openat(io_uring_get_sqe(&ring), AT_FDCWD, path,
				     O_CREAT | O_WRONLY, 0600);
		res = t_run(&ring);
		if (res >= 0)
			close(res);
		if (!seen) {
			if (++w->before == BEFORE)
				__atomic_add_fetch(&ready, 1, __ATOMIC_RELEASE);
			continue;
		}
		w->after++;
		w->refused_after += res == -EPERM;
		w->created_after += t_exists(path);
	}
	io_uring_queue_exit(&ring);
	return NULL;
}

int main(void)
{
	struct worker w[THREADS] = { { 0 } };
	pthread_t threads[THREADS];
	unsigned int flags = SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_URING;
	int i, ret, stock, after = 0, refused = 0, created = 0, before = 0;
	scmp_filter_ctx ctx;

	for (i = 0; i < THREADS; i++) {
		w[i].id = i;
		if (pthread_create(&threads[i], NULL, submit_loop, &w[i]))
			return T_EXIT_FAIL;
	}
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < THREADS)
		usleep(1000);
	ctx = t_filter(SCMP_ACT_ALLOW);
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), openat, 0);
	ret = uring_seccomp_load(ctx, flags);
	stock = t_opt_in(ret, "SECCOMP_FILTER_FLAG_URING");
	if (stock)
		ret = uring_seccomp_load(ctx, SECCOMP_FILTER_FLAG_TSYNC);
	seccomp_release(ctx);
	/* on failure too: the threads stop AFTER SQEs after seeing it */
	__atomic_store_n(&installed, 1, __ATOMIC_RELEASE);
	for (i = 0; i < THREADS; i++) {
		pthread_join(threads[i], NULL);
		before += w[i].before;
		after += w[i].after;
		refused += w[i].refused_after;
		created += w[i].created_after;
	}
	if (ret) {
		printf("loading the filter with TSYNC: %s\n", strerror(-ret));
		return T_EXIT_FAIL;
	}
	printf("%d SQEs before the install, %d after: %d refused, %d created a file\n",
	       before, after, refused, created);
	if (before < THREADS * BEFORE || after != THREADS * AFTER) {
		printf("expected at least %d SQEs before the install and %d after\n",
		       THREADS * BEFORE, THREADS * AFTER);
		return T_EXIT_FAIL;
	}
	return t_verdict(stock, refused == after, created > 0,
			 "an SQE submitted after the TSYNC install created its file");
}
