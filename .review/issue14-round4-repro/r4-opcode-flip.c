/*
 * Round 4: another thread rewrites the shared SQE while the kernel reads
 * it. Filter (URING): mkdirat -> EPERM, everything else allowed, so NOP
 * (io_uring_enter twin) takes the inline fast path and MKDIRAT the judged
 * copy. A flipper thread toggles the opcode byte (NOP <-> MKDIRAT) and the
 * personality (0 <-> a registered one) of every SQE in the ring while the
 * main thread resubmits them. No directory may appear. Prints TAP.
 */
#include "../issue14-round2-repro/common.h"

#define ROUNDS 200000

static volatile int stop;
static struct ring r;
static const char *path = "/tmp/r4-flip-dir";

static void *flipper(void *a)
{
	unsigned long n = 0;

	while (!stop) {
		for (unsigned i = 0; i <= *r.sq_mask; i++) {
			volatile struct io_uring_sqe *s = &r.sqes[i];

			s->opcode = (n & 1) ? IORING_OP_MKDIRAT : IORING_OP_NOP;
			s->personality = (n & 2) ? (long)a : 0;
			n++;
		}
	}
	return NULL;
}

int main(void)
{
	pthread_t t;
	long pers, res[4] = { 0 };
	int i, made = 0;

	printf("TAP version 13\n1..1\n");
	rmdir(path);
	if (ring_init(&r, 0, 0)) {
		printf("not ok 1 - ring\n");
		return 1;
	}
	pers = syscall(__NR_io_uring_register, r.fd, IORING_REGISTER_PERSONALITY, NULL, 0);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || install_deny_mkdirat(0)) {
		printf("not ok 1 - filter\n");
		return 1;
	}
	/* control */
	queue_mkdirat(&r, path, 1);
	ring_submit(&r);
	{
		struct io_uring_cqe c;
		ring_wait_cqe(&r, 1000, &c);
		printf("# control MKDIRAT: %d\n", c.res);
	}
	pthread_create(&t, NULL, flipper, (void *)(pers > 0 ? pers : 0));
	for (i = 0; i < ROUNDS / 8; i++) {
		for (int k = 0; k < 8; k++) {
			unsigned idx = r.sqe_tail & *r.sq_mask;
			volatile struct io_uring_sqe *s = &r.sqes[idx];

			s->fd = AT_FDCWD;
			s->addr = (unsigned long)path;
			s->len = 0700;
			s->rw_flags = 0;
			s->flags = 0;
			s->user_data = 2;
			r.sq_array[idx] = idx;
			r.sqe_tail++;
		}
		ring_submit(&r);
		for (int k = 0; k < 8; k++) {
			struct io_uring_cqe c;

			if (ring_wait_cqe(&r, 2000, &c))
				break;
			if (c.res == 0) res[0]++;
			else if (c.res == -EPERM) res[1]++;
			else if (c.res == -EINVAL) res[2]++;
			else res[3]++;
		}
		if (!access(path, F_OK)) {
			made = 1;
			break;
		}
	}
	stop = 1;
	pthread_join(t, NULL);
	printf("# personality %ld; results: 0:%ld EPERM:%ld EINVAL:%ld other:%ld\n",
	       pers, res[0], res[1], res[2], res[3]);
	printf("%s 1 - opcode/personality flipping never runs the refused MKDIRAT%s\n",
	       made ? "not ok" : "ok", made ? " (BYPASS: directory made)" : "");
	return made;
}
