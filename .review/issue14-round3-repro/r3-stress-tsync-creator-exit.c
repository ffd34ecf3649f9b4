// SPDX-License-Identifier: GPL-2.0
/*
 * Round 3: randomized race between
 *   - a SQPOLL ring's creator thread C exiting (or not),
 *   - thread T attaching "mkdirat -> EPERM" with URING|TSYNC,
 *   - submitter S1 on the SQPOLL ring and S2 on its own plain ring, each
 *     writing one MKDIRAT SQE at a time, numbered by a shared counter.
 * Every SQE whose number was taken after T's seccomp() returned was
 * written after the filter was in place on every live thread and the SQ
 * thread, so it must complete with -EPERM. One that completes with 0 is a
 * bypass. Also watches for the process dying by an unexpected signal.
 */
#include "../issue14-round2-repro/common.h"
#include <stdatomic.h>

#define ITER 150

static atomic_int seq;
static atomic_int mark = 1 << 30;
static atomic_int stop;
static struct ring SQ;
static atomic_int sq_ready;
static atomic_int bypass;
static atomic_int ran_before, refused_after;

static void *creator(void *arg)
{
	long delay = (long)arg;

	if (ring_init(&SQ, IORING_SETUP_SQPOLL, 1000))
		exit(3);
	atomic_store(&sq_ready, 1);
	if (delay >= 0) {
		struct timespec ts = { 0, delay * 100000L };

		nanosleep(&ts, NULL);
		pthread_exit(NULL);
	}
	while (!atomic_load(&stop))
		msleep(1);
	return NULL;
}

static void *tsync(void *arg)
{
	struct timespec ts = { 0, (long)arg * 100000L };

	nanosleep(&ts, NULL);
	if (install_deny_mkdirat(SECCOMP_FILTER_FLAG_TSYNC))
		exit(4);
	atomic_store(&mark, atomic_load(&seq));
	return NULL;
}

static void submit_loop(struct ring *r, const char *tag)
{
	char path[128];
	struct io_uring_cqe cqe;
	int k, n;

	for (n = 0; n < 60 && !atomic_load(&stop); n++) {
		k = atomic_fetch_add(&seq, 1);
		snprintf(path, sizeof(path), "/tmp/r3s/%s-%d-%d", tag, getpid(), k);
		queue_mkdirat(r, path, k);
		if (ring_submit(r) && errno != EBUSY)
			break;
		if (ring_wait_cqe(r, 3000, &cqe))
			break;
		if (cqe.res == 0 && (int)cqe.user_data >= atomic_load(&mark)) {
			printf("# BYPASS %s: SQE %d (mark %d) ran\n", tag,
			       (int)cqe.user_data, atomic_load(&mark));
			atomic_store(&bypass, 1);
		}
		if (cqe.res == 0)
			rmdir(path);
		if (cqe.res == 0 && (int)cqe.user_data < atomic_load(&mark))
			atomic_fetch_add(&ran_before, 1);
		if (cqe.res == -EPERM && (int)cqe.user_data >= atomic_load(&mark))
			atomic_fetch_add(&refused_after, 1);
	}
}

static void *s1(void *arg)
{
	while (!atomic_load(&sq_ready))
		;
	submit_loop(&SQ, "sq");
	return NULL;
}

static void *s2(void *arg)
{
	struct ring r;

	if (ring_init(&r, 0, 0))
		exit(5);
	submit_loop(&r, "pl");
	return NULL;
}

static int one(unsigned int seed)
{
	pthread_t c, t, a, b;
	long cd, td;

	srand(seed);
	cd = (rand() % 3) ? rand() % 40 : -1;
	td = rand() % 40;
	pthread_create(&c, NULL, creator, (void *)cd);
	while (!atomic_load(&sq_ready))
		;
	pthread_create(&a, NULL, s1, NULL);
	pthread_create(&b, NULL, s2, NULL);
	pthread_create(&t, NULL, tsync, (void *)td);
	pthread_join(t, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	atomic_store(&stop, 1);
	if (cd < 0)
		pthread_join(c, NULL);
	if (atomic_load(&bypass))
		return 42;
	/* 1: unfiltered SQEs ran before the mark; 2: refused after it */
	return 100 + (atomic_load(&ran_before) > 0) + 2 * (atomic_load(&refused_after) > 0);
}

int main(void)
{
	int i, status, bad = 0, odd = 0, cov[4] = { 0 };
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	printf("1..1\n");
	mkdir("/tmp/r3s", 0777);
	for (i = 0; i < ITER; i++) {
		pid = fork();
		if (pid == 0) {
			alarm(30);
			_exit(one(i * 7919 + 1));
		}
		waitpid(pid, &status, 0);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 42)
			bad++;
		else if (WIFEXITED(status) && WEXITSTATUS(status) >= 100 &&
			 WEXITSTATUS(status) < 104)
			cov[WEXITSTATUS(status) - 100]++;
		else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			odd++;
			printf("# iteration %d: status %#x\n", i, status);
		}
	}
	printf("# coverage: neither %d, ran-before-only %d, refused-after-only %d, both %d\n",
	       cov[0], cov[1], cov[2], cov[3]);
	printf("%s 1 - %d iterations, %d with a bypass, %d odd\n",
	       bad ? "not ok" : "ok", ITER, bad, odd);
	return bad ? 1 : 0;
}
