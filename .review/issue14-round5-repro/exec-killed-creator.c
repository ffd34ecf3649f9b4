/*
 * Round 5, finding E1: a SQPOLL ring's creator whose execve() fails after
 * io_uring_task_cancel() (here: SIGKILL while de_thread() waits for the SQ
 * thread) exits with current->io_uring == NULL, so io_seccomp_creator_exit()
 * never runs and ctx->sq_last stays NULL. The SQ thread's batch that is
 * still running then judges the SQEs after the creator's PF_EXITING by the
 * SQ thread's own chain only, which lacks the creator's non-TSYNC filter F.
 *
 * F (creator only, URING, no TSYNC, after ring setup): write -> EPERM.
 * B0 (whole process before setup, URING): NSLOW slow filters that look at read's
 * arguments (each READ SQE runs ~24000 BPF insns) and allow all.
 * The batch: N READ(len 0) SQEs + 1 WRITE(pipe, "X"). If 'X' arrives on
 * the pipe, an SQE ran that F refuses.
 *
 * mode "exec": creator execve()s (exec fails: killed in de_thread).
 * mode "noexec": control, creator is just killed (creator_exit runs).
 */
#include "../issue14-round2-repro/common.h"

#define ENTRIES 32768

struct bigring {
	int fd;
	unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	unsigned tail;
};

static int big_init(struct bigring *r, unsigned entries)
{
	struct io_uring_params p;
	size_t sq_len, cq_len;
	char *sq;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_SQPOLL;
	p.sq_thread_idle = 5000;
	r->fd = syscall(__NR_io_uring_setup, entries, &p);
	if (r->fd < 0)
		return -errno;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (cq_len > sq_len)
		sq_len = cq_len;
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  r->fd, IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return -errno;
	r->sqes = mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe),
		       PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
		       IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED)
		return -errno;
	r->sq_tail = (unsigned *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned *)(sq + p.sq_off.array);
	r->cq_head = (unsigned *)(sq + p.cq_off.head);
	r->cq_tail = (unsigned *)(sq + p.cq_off.tail);
	r->cq_mask = (unsigned *)(sq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(sq + p.cq_off.cqes);
	r->tail = *r->sq_tail;
	return 0;
}

static struct io_uring_sqe *big_sqe(struct bigring *r)
{
	unsigned idx = r->tail & *r->sq_mask;
	struct io_uring_sqe *sqe = &r->sqes[idx];

	memset(sqe, 0, sizeof(*sqe));
	r->sq_array[idx] = idx;
	r->tail++;
	return sqe;
}

static void big_publish(struct bigring *r)
{
	__atomic_store_n(r->sq_tail, r->tail, __ATOMIC_RELEASE);
	syscall(__NR_io_uring_enter, r->fd, 0, 0, IORING_ENTER_SQ_WAKEUP, NULL, 0);
}

static unsigned cq_ready(struct bigring *r)
{
	return __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE) - *r->cq_head;
}

static void cq_drain(struct bigring *r)
{
	__atomic_store_n(r->cq_head, __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE),
			 __ATOMIC_RELEASE);
}

static int install(struct sock_filter *insns, unsigned n, unsigned long flags)
{
	struct sock_fprog prog = { .len = n, .filter = insns };

	if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog))
		return -errno;
	return 0;
}

#define SLOW 3990
#define NSLOW 6
static int install_slow(void)
{
	static struct sock_filter f[SLOW + 12];
	unsigned i, n = 0;

	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				offsetof(struct seccomp_data, nr));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_read, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				offsetof(struct seccomp_data, args[2]));
	for (i = 0; i < SLOW; i++)
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						     0x7fff0000 + i, 1, 0);
	/* depends on the argument: the action cache cannot answer */
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x7ffffffe, 0, 1);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EINVAL);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	return install(f, n, SECCOMP_FILTER_FLAG_URING);
}

static int install_deny_write(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_write, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	return install(f, 4, SECCOMP_FILTER_FLAG_URING);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static char buf[64];

struct shared { long batch_ms; int control_res; int err; };
static struct shared *sh;

static void queue_reads(struct bigring *r, int zfd, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct io_uring_sqe *s = big_sqe(r);

		s->opcode = IORING_OP_READ;
		s->fd = zfd;
		s->addr = (unsigned long)buf;
		s->len = 0;
		s->user_data = 1;
	}
}

static void queue_write(struct bigring *r, int fd)
{
	struct io_uring_sqe *s = big_sqe(r);

	s->opcode = IORING_OP_WRITE;
	s->fd = fd;
	s->addr = (unsigned long)"X";
	s->len = 1;
	s->off = -1;
	s->user_data = 2;
}

/* the child X; reports to @rep (a pipe to the parent), never returns */
static void child(int wfd, int rep, int do_exec, long *batch_ms_io)
{
	struct bigring r;
	int zfd = open("/dev/zero", O_RDONLY);
	unsigned n = ENTRIES - 1;
	long t0, ms;
	int ret;

	int k;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		_exit(1);
	for (k = 0; k < NSLOW; k++)
		if (install_slow())
			break;
	if (k < NSLOW) {
		dprintf(rep, "E slow filter %d\n", errno);
		_exit(1);
	}
	ret = big_init(&r, ENTRIES);
	if (ret) {
		dprintf(rep, "E setup %d\n", ret);
		_exit(1);
	}
	/* calibrate: one full batch, judged by B0 only */
	t0 = now_ms();
	queue_reads(&r, zfd, n);
	big_publish(&r);
	while (cq_ready(&r) < n)
		msleep(1);
	ms = now_ms() - t0;
	cq_drain(&r);

	if (install_deny_write()) {	/* F: this thread only, no TSYNC */
		dprintf(rep, "E F %d\n", errno);
		_exit(1);
	}
	/* control: F refuses the WRITE while the creator lives */
	queue_write(&r, wfd);
	big_publish(&r);
	while (cq_ready(&r) < 1)
		msleep(1);
	sh->batch_ms = ms;
	sh->control_res = r.cqes[*r.cq_head & *r.cq_mask].res;
	cq_drain(&r);
	/* F blocks write(2) for this thread: report through the child P */

	queue_reads(&r, zfd, n - 1);
	queue_write(&r, wfd);
	big_publish(&r);
	while (cq_ready(&r) < 1)	/* the SQ thread is in the batch */
		;
	if (fork() == 0) {
		/* P, the killer */
		msleep(ms / 4 > 5 ? ms / 4 : 5);
		kill(getppid(), SIGKILL);
		_exit(0);
	}
	if (do_exec) {
		char *argv[] = { "/proc/self/exe", "--never", NULL };

		execve("/proc/self/exe", argv, environ);
	}
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	int round, bypass = 0, tries = 6, t;

	if (argc > 1 && !strcmp(argv[1], "--never")) {
		/* exec won the race: the batch ended before the kill */
		return 0;
	}
	sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	printf("TAP version 13\n1..2\n");
	fflush(stdout);
	for (t = 0; t < 2; t++) {
		int do_exec = (t == 0);

		bypass = 0;
		for (round = 0; round < tries; round++) {
			int p[2], st, got = 0;
			char c;
			pid_t pid;

			if (pipe(p))
				return 1;
			pid = fork();
			if (pid == 0) {
				close(p[0]);
				child(p[1], 2, do_exec, NULL);
			}
			close(p[1]);
			waitpid(pid, &st, 0);
			/* let the SQ thread finish; it holds the write end */
			msleep(200);
			fcntl(p[0], F_SETFL, O_NONBLOCK);
			if (read(p[0], &c, 1) == 1 && c == 'X')
				got = 1;
			bypass += got;
			printf("# %s round %d: child status %#x, batch %ld ms, control WRITE res %d, X %s\n",
			       do_exec ? "exec" : "noexec", round, st,
			       sh->batch_ms, sh->control_res,
			       got ? "SEEN" : "not seen");
			fflush(stdout);
			close(p[0]);
		}
		printf("%s %d - %s: WRITE refused by the creator's filter ran %d/%d times\n",
		       bypass ? "not ok" : "ok", t + 1,
		       do_exec ? "creator killed in a failed execve" :
				 "creator killed (control)", bypass, tries);
		fflush(stdout);
	}
	return 0;
}
