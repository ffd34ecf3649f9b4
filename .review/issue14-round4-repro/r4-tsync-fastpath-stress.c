/*
 * Round 4: the inline fast path (current->seccomp.uring_allow) against a
 * TSYNC that replaces the submitter's chain while it submits.
 *
 * Each of N processes: F1 (URING) refuses unlinkat only, so mkdirat is in
 * the allow bitmap io_seccomp_allowed() tests inline. Two submitter threads
 * (own plain rings) submit batches of MKDIRATs (fast path), a third thread
 * forks/exits short-lived children and creates/joins threads (fork copies
 * the pointer, thread exit releases chains), and the main thread, at a
 * random time, installs F2 "mkdirat -> EPERM" with TSYNC|URING. An SQE
 * written after seccomp() returned must be refused. Prints TAP.
 */
#include "../issue14-round2-repro/common.h"

#define NPROC 120
#define BATCH 8

static volatile int installed;
static volatile int stop;
static char base[64];

static int install_deny(int nr, unsigned long flags)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = insns };

	if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
		    SECCOMP_FILTER_FLAG_URING | flags, &prog))
		return -errno;
	return 0;
}

struct sub { int id; long after_bad; long after_ok; long before_ok; long before_eperm; };

static void *submitter(void *arg)
{
	struct sub *s = arg;
	struct ring r;
	char paths[BATCH][96];
	long seq = 0;

	if (ring_init(&r, 0, 0))
		return NULL;
	while (!stop) {
		int inst = __atomic_load_n(&installed, __ATOMIC_ACQUIRE);

		for (int i = 0; i < BATCH; i++) {
			snprintf(paths[i], sizeof(paths[i]), "%s/s%d-%ld", base, s->id, seq++);
			queue_mkdirat(&r, paths[i], inst);
		}
		if (ring_submit(&r))
			break;
		for (int i = 0; i < BATCH; i++) {
			struct io_uring_cqe c;

			if (ring_wait_cqe(&r, 5000, &c))
				return NULL;
			if (c.user_data) {
				if (c.res == 0)
					s->after_bad++;
				else
					s->after_ok++;
			} else {
				if (c.res == 0)
					s->before_ok++;
				else
					s->before_eperm++;
			}
		}
		if (inst)
			break;
	}
	return NULL;
}

static void *nothing(void *a) { return a; }

static void *churn(void *arg)
{
	while (!stop) {
		pthread_t t;
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		if (p > 0)
			waitpid(p, NULL, 0);
		if (!pthread_create(&t, NULL, nothing, NULL))
			pthread_join(t, NULL);
	}
	return arg;
}

static int one(int iter)
{
	struct sub s[2] = { { 0 }, { 1 } };
	pthread_t t[3];

	snprintf(base, sizeof(base), "/tmp/r4s-%d", iter);
	mkdir(base, 0700);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || install_deny(__NR_unlinkat, 0))
		return 2;
	pthread_create(&t[0], NULL, submitter, &s[0]);
	pthread_create(&t[1], NULL, submitter, &s[1]);
	pthread_create(&t[2], NULL, churn, NULL);
	srand(iter * 7919);
	msleep(rand() % 40);
	if (install_deny(__NR_mkdirat, SECCOMP_FILTER_FLAG_TSYNC))
		return 3;
	__atomic_store_n(&installed, 1, __ATOMIC_RELEASE);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	stop = 1;
	pthread_join(t[2], NULL);
	if (s[0].after_bad || s[1].after_bad) {
		printf("# iter %d: %ld+%ld MKDIRATs written after TSYNC ran\n", iter,
		       s[0].after_bad, s[1].after_bad);
		return 1;
	}
	if (!s[0].after_ok || !s[1].after_ok)
		return 4;
	return (s[0].before_ok + s[1].before_ok) ? 0 : 5;
}

int main(void)
{
	int bad = 0, both = 0, other = 0;

	printf("TAP version 13\n1..1\n");
	for (int i = 0; i < NPROC; i++) {
		pid_t p = fork();
		int st;

		if (p == 0)
			_exit(one(i));
		waitpid(p, &st, 0);
		if (!WIFEXITED(st)) {
			printf("# iter %d: status 0x%x\n", i, st);
			other++;
			continue;
		}
		switch (WEXITSTATUS(st)) {
		case 0: both++; break;
		case 1: bad++; break;
		case 5: break;
		default: printf("# iter %d: exit %d\n", i, WEXITSTATUS(st)); other++;
		}
	}
	printf("# %d processes, %d saw MKDIRATs run before and refused after; %d bypassed; %d other\n",
	       NPROC, both, bad, other);
	printf("%s 1 - TSYNC vs inline fast path, fork/thread churn\n", bad || other ? "not ok" : "ok");
	return bad ? 1 : 0;
}
