/*
 * Round 4: kernel.seccomp.fastpath toggled (seccomp_uring_update_all walks
 * every task and rewrites uring_allow) while filtered threads submit on
 * plain and SQPOLL rings, fork and create threads; then uring_force=1 while
 * they submit an op only a non-URING filter refuses. Needs root; sets
 * uring_force (one-way), so run it last. Prints TAP.
 */
#include "../issue14-round2-repro/common.h"

static volatile int *shared;	/* [0] stop, [1] forced, [2] bad, [3] refused, [4] ran, [5] forced_ok, [6] forced_bad */
static char base[64];
static int nosq, noflip;

static int install(int nr, unsigned long flags)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = insns };

	if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog))
		return -errno;
	return 0;
}

static int wsys(const char *f, const char *v)
{
	int fd = open(f, O_WRONLY), ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, v, strlen(v)) < 0 ? -errno : 0;
	close(fd);
	return ret;
}

static void *submitter(void *arg)
{
	long id = (long)arg;
	struct ring r;
	char p[8][96];
	long seq = 0;

	if (ring_init(&r, id == 2 && !nosq ? IORING_SETUP_SQPOLL : 0, 1000))
		return NULL;
	while (!shared[0]) {
		int forced = __atomic_load_n(&shared[1], __ATOMIC_ACQUIRE);

		for (int i = 0; i < 8; i++) {
			struct io_uring_sqe *s;

			snprintf(p[i], sizeof(p[i]), "%s/t%ld-%ld", base, id, seq++);
			if (i & 1) {
				queue_mkdirat(&r, p[i], 1);	/* refused by the URING filter */
			} else if (i == 2) {
				s = ring_sqe(&r);		/* symlinkat: refused once forced */
				s->opcode = IORING_OP_SYMLINKAT;
				s->fd = AT_FDCWD;
				s->addr = (unsigned long)"/";
				s->addr2 = (unsigned long)p[i];
				s->user_data = forced ? 3 : 2;
			} else {
				s = ring_sqe(&r);
				s->opcode = IORING_OP_NOP;
				s->user_data = 0;
			}
		}
		if (ring_submit(&r))
			break;
		for (int i = 0; i < 8; i++) {
			struct io_uring_cqe c;

			if (ring_wait_cqe(&r, 5000, &c)) {
				__atomic_fetch_add(&shared[2], 1000, __ATOMIC_RELAXED);
				return NULL;
			}
			if (c.user_data == 1) {
				if (c.res == 0)
					__atomic_fetch_add(&shared[2], 1, __ATOMIC_RELAXED);
				else
					__atomic_fetch_add(&shared[3], 1, __ATOMIC_RELAXED);
			} else if (c.user_data == 0 && c.res == 0) {
				__atomic_fetch_add(&shared[4], 1, __ATOMIC_RELAXED);
			} else if (c.user_data == 3) {
				__atomic_fetch_add(&shared[c.res == -EPERM ? 5 : 6], 1, __ATOMIC_RELAXED);
			}
		}
	}
	return NULL;
}

static void *nothing(void *a) { return a; }

static void *churn(void *arg)
{
	while (!shared[0]) {
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

int main(int argc, char **argv)
{
	pid_t child;
	int st, n;

	nosq = argc > 1 && strstr(argv[1], "nosq");
	noflip = argc > 1 && strstr(argv[1], "noflip");
	printf("TAP version 13\n1..2\n");
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	snprintf(base, sizeof(base), "/tmp/r4f");
	mkdir(base, 0700);
	child = fork();
	if (child == 0) {
		pthread_t t[4];

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    install(__NR_symlinkat, 0) ||
		    install(__NR_mkdirat, SECCOMP_FILTER_FLAG_URING))
			_exit(2);
		for (long i = 0; i < 3; i++)
			pthread_create(&t[i], NULL, submitter, (void *)i);
		pthread_create(&t[3], NULL, churn, NULL);
		for (int i = 0; i < 4; i++)
			pthread_join(t[i], NULL);
		_exit(0);
	}
	msleep(200);
	for (n = 0; n < 400; n++) {
		if (noflip) {
			msleep(5);
			continue;
		}
		if (wsys("/proc/sys/kernel/seccomp/fastpath", (n & 1) ? "1" : "0")) {
			printf("# fastpath write: %s\n", strerror(errno));
			break;
		}
		msleep(5);
	}
	wsys("/proc/sys/kernel/seccomp/fastpath", "1");
	msleep(200);
	printf("# %d fastpath flips; MKDIRAT ran %d, refused %d; NOP ran %d\n",
	       n, shared[2], shared[3], shared[4]);
	printf("%s 1 - fastpath sysctl toggled under submitters\n",
	       shared[2] || !shared[3] || n < 400 ? "not ok" : "ok");
	if (wsys("/proc/sys/kernel/seccomp/uring_force", "1"))
		printf("# uring_force write failed\n");
	__atomic_store_n(&shared[1], 1, __ATOMIC_RELEASE);
	msleep(1500);
	shared[0] = 1;
	waitpid(child, &st, 0);
	printf("# after force: SYMLINKAT refused %d, ran %d; child status 0x%x\n",
	       shared[5], shared[6], st);
	printf("%s 2 - uring_force=1 under submitters (SQPOLL included)\n",
	       shared[6] || !shared[5] ? "not ok" : "ok");
	return 0;
}
