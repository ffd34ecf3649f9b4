// SPDX-License-Identifier: GPL-2.0
/*
 * review 8: random filter chains (URING / unflagged, constant and
 * argument verdicts, all actions, verdict-array overflow fillers),
 * each run twice in a fresh child: kernel.seccomp.fastpath=1 and =0.
 * Per op the CQE res and the child's fate must match; for ops whose
 * twin only constant rules judge, the result must also match a model
 * of "run the judging filters".
 * usage: r8-diff SECONDS [forced] [sqpoll]
 */
#include "r7common.h"

#define FASTPATH "/proc/sys/kernel/seccomp/fastpath"
#define MAXF 5
#define MAXR 40
#define NOPS 13

struct rule { int nr; uint32_t ret; int arg; uint16_t jmp; uint32_t k; };
struct fspec { int nrules; struct rule r[MAXR]; uint32_t def; unsigned flags; };
struct chain { int n; struct fspec f[MAXF]; };

struct outcome { int res[NOPS]; int done; int status; int setup; };

static int forced, sqpoll;

static const int protect[] = { __NR_io_uring_enter, __NR_exit_group, __NR_exit,
	__NR_nanosleep, __NR_clock_nanosleep, __NR_seccomp,
	__NR_prctl, __NR_futex, __NR_clock_gettime, __NR_getpid,
	__NR_gettid, __NR_tgkill, __NR_kill, __NR_sched_yield };
static const int filler[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

static const struct { int op; int nr; const char *name; } ops[NOPS] = {
	{ IORING_OP_NOP, __NR_io_uring_enter, "NOP" },
	{ IORING_OP_OPENAT, __NR_openat, "OPENAT" },
	{ IORING_OP_OPENAT, __NR_openat, "OPENAT_CREAT" },
	{ IORING_OP_MKDIRAT, __NR_mkdirat, "MKDIRAT" },
	{ IORING_OP_UNLINKAT, __NR_unlinkat, "UNLINKAT" },
	{ IORING_OP_STATX, __NR_statx, "STATX" },
	{ IORING_OP_READ, __NR_pread64, "READ" },
	{ IORING_OP_WRITE, __NR_pwrite64, "WRITE" },
	{ IORING_OP_FSYNC, __NR_fsync, "FSYNC" },
	{ IORING_OP_SOCKET, __NR_socket, "SOCKET" },
	{ IORING_OP_CONNECT, __NR_connect, "CONNECT" },
	{ IORING_OP_FADVISE, __NR_fadvise64, "FADVISE" },
	{ IORING_OP_MADVISE, __NR_madvise, "MADVISE" },
};
static const int tnrs[] = { __NR_io_uring_enter, __NR_openat, __NR_mkdirat,
	__NR_unlinkat, __NR_statx, __NR_pread64, __NR_pwrite64, __NR_fsync,
	__NR_socket, __NR_connect, __NR_fadvise64, __NR_madvise };

static uint32_t rand_action(void)
{
	switch (rnd() % 12) {
	case 0: case 1: case 2: return SECCOMP_RET_ALLOW | (rnd() % 3 ? 0 : rnd() & 0xffff);
	case 3: case 4: case 5: return SECCOMP_RET_ERRNO | (1000 + rnd() % 40);
	case 6: return SECCOMP_RET_TRAP | (rnd() & 0xff);
	case 7: return SECCOMP_RET_LOG;
	case 8: return SECCOMP_RET_TRACE | 5;
	case 9: return SECCOMP_RET_USER_NOTIF;
	case 10: return rnd() % 2 ? SECCOMP_RET_KILL_THREAD : SECCOMP_RET_KILL_PROCESS;
	default: return SECCOMP_RET_ERRNO | (1000 + rnd() % 4);
	}
}

static void gen_chain(struct chain *c)
{
	int i, j;

	memset(c, 0, sizeof(*c));
	c->n = 1 + rnd() % MAXF;
	for (i = 0; i < c->n; i++) {
		struct fspec *f = &c->f[i];

		f->flags = rnd() % 3 ? SECCOMP_FILTER_FLAG_URING : 0;
		if (rnd() % 8 == 0)
			f->flags |= SECCOMP_FILTER_FLAG_LOG;
		f->def = rnd() % 3 ? SECCOMP_RET_ALLOW : rand_action();
		if (rnd() % 3 == 0) {
			/* overflow the verdict array with distinct constants */
			int base = 2000 + (rnd() % 50) * 20;
			for (j = 0; j < (int)(sizeof(filler) / sizeof(filler[0])); j++) {
				struct rule *r = &f->r[f->nrules++];
				r->nr = filler[j];
				r->arg = -1;
				r->ret = SECCOMP_RET_ERRNO | (base + j);
			}
		}
		int nr = rnd() % 6;
		for (j = 0; j < nr && f->nrules < MAXR; j++) {
			struct rule *r = &f->r[f->nrules++];
			r->nr = tnrs[rnd() % (sizeof(tnrs) / sizeof(tnrs[0]))];
			if (r->nr == __NR_io_uring_enter) {
				/* the syscall must stay allowed: only args-dependent on ip */
				r->arg = -2;
				r->ret = rand_action();
				continue;
			}
			r->ret = rand_action();
			r->arg = rnd() % 3 == 0 ? (int)(rnd() % 3) : -1;
			r->jmp = rnd() % 2 ? BPF_JEQ : BPF_JSET;
			r->k = rnd() % 2 ? (uint32_t)O_CREAT : (uint32_t)-1;
		}
	}
}

static int build(const struct fspec *f, struct sock_filter *p)
{
	int n = 0, i;

	p[n++] = (struct sock_filter)LD(SD_ARCH);
	p[n++] = (struct sock_filter)JEQ(NATIVE_ARCH, 1, 0);
	p[n++] = (struct sock_filter)RET(SECCOMP_RET_KILL_PROCESS);
	p[n++] = (struct sock_filter)LD(SD_NR);
	for (i = 0; i < (int)(sizeof(protect) / sizeof(protect[0])); i++) {
		if (protect[i] == __NR_io_uring_enter)
			continue;
		p[n++] = (struct sock_filter)JEQ(protect[i], 0, 1);
		p[n++] = (struct sock_filter)RET(SECCOMP_RET_ALLOW);
	}
	for (i = 0; i < f->nrules; i++) {
		const struct rule *r = &f->r[i];
		p[n++] = (struct sock_filter)LD(SD_NR);
		if (r->arg == -1) {
			p[n++] = (struct sock_filter)JEQ(r->nr, 0, 1);
		} else if (r->arg == -2) {
			/* io_uring_enter: only when ip == 0 (an SQE) */
			p[n++] = (struct sock_filter)JEQ(r->nr, 0, 3);
			p[n++] = (struct sock_filter)LD(SD_IP);
			p[n++] = (struct sock_filter)JEQ(0, 0, 1);
		} else {
			p[n++] = (struct sock_filter)JEQ(r->nr, 0, 3);
			p[n++] = (struct sock_filter)LD(SD_ARG(r->arg));
			p[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | r->jmp | BPF_K, r->k, 0, 1);
		}
		p[n++] = (struct sock_filter)RET(r->ret);
	}
	/* io_uring_enter as a syscall: allowed (after the rules, for ip == 0 ones) */
	p[n++] = (struct sock_filter)LD(SD_NR);
	p[n++] = (struct sock_filter)JEQ(__NR_io_uring_enter, 0, 1);
	p[n++] = (struct sock_filter)RET(SECCOMP_RET_ALLOW);
	p[n++] = (struct sock_filter)RET(f->def);
	return n;
}

static char *scratch;

static void prep(struct ring *r, int i)
{
	struct io_uring_sqe *s = ring_sqe(r);

	s->opcode = ops[i].op;
	s->fd = -1;
	s->user_data = i + 1;
	switch (ops[i].op) {
	case IORING_OP_OPENAT: case IORING_OP_MKDIRAT: case IORING_OP_UNLINKAT:
	case IORING_OP_STATX:
		s->fd = AT_FDCWD;
		s->addr = (uint64_t)scratch;
		if (ops[i].op == IORING_OP_STATX)
			s->off = (uint64_t)(scratch + 1024);
		if (!strcmp(ops[i].name, "OPENAT_CREAT"))
			s->open_flags = O_CREAT | O_WRONLY;
		break;
	case IORING_OP_READ: case IORING_OP_WRITE:
		s->addr = (uint64_t)(scratch + 2048);
		s->len = 16;
		break;
	case IORING_OP_SOCKET:
		s->fd = 12345;	/* bad domain */
		break;
	case IORING_OP_CONNECT:
		s->addr = (uint64_t)(scratch + 3000);
		s->off = 16;
		break;
	case IORING_OP_MADVISE:
		s->addr = 0; s->len = 0;
		break;
	}
}

static void child(const struct chain *c, struct outcome *o)
{
	struct sock_filter prog[300];
	struct ring r;
	int i;

	alarm(20);
	scratch = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	strcpy(scratch, "/nonexistent/r8");
	if (ring_init(&r, 8, sqpoll ? IORING_SETUP_SQPOLL : 0))
		_exit(2);
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	for (i = 0; i < c->n; i++) {
		int n = build(&c->f[i], prog);
		if (load_prog(prog, n, c->f[i].flags)) {
			o->setup = -errno - 1000;
			_exit(3);
		}
	}
	o->setup = 1;
	for (i = 0; i < NOPS; i++) {
		int got = 0;
		prep(&r, i);
		ring_submit(&r, 1);
		for (int t = 0; t < 4000 && !got; t++) {
			unsigned head = *r.cq_head;
			if (head != __atomic_load_n(r.cq_tail, __ATOMIC_ACQUIRE)) {
				o->res[i] = r.cqes[head & *r.cq_mask].res;
				__atomic_store_n(r.cq_head, head + 1, __ATOMIC_RELEASE);
				got = 1;
				break;
			}
			if (sqpoll) {
				struct timespec ts = { 0, 500000 };
				nanosleep(&ts, NULL);
			} else {
				syscall(__NR_io_uring_enter, r.fd, 0, 1, IORING_ENTER_GETEVENTS, NULL, 0);
			}
		}
		if (!got)
			o->res[i] = 99999;
		o->done = i + 1;
	}
	_exit(0);
}

static void wsys(const char *p, int v)
{
	FILE *f = fopen(p, "w");
	if (!f) { perror(p); exit(1); }
	fprintf(f, "%d\n", v);
	fclose(f);
}

static void run(const struct chain *c, int fp, struct outcome *o)
{
	pid_t pid;

	memset(o, 0, sizeof(*o));
	wsys(FASTPATH, fp);
	pid = fork();
	if (pid == 0)
		child(c, o);
	waitpid(pid, &o->status, 0);
}

/* model: the action the judging filters give op i, or 0 if args decide */
static int model(const struct chain *c, int i, uint32_t *out)
{
	uint32_t best = SECCOMP_RET_ALLOW;
	int fi, j;

	for (fi = c->n - 1; fi >= 0; fi--) {
		const struct fspec *f = &c->f[fi];
		uint32_t ret = f->def;
		if (!forced && !(f->flags & SECCOMP_FILTER_FLAG_URING))
			continue;
		if (ops[i].nr == __NR_io_uring_enter)
			ret = SECCOMP_RET_ALLOW;
		for (j = 0; j < f->nrules; j++) {
			if (f->r[j].nr != ops[i].nr)
				continue;
			if (f->r[j].arg >= 0)
				return 0;
			ret = f->r[j].ret;
			break;
		}
		if ((int32_t)(ret & SECCOMP_RET_ACTION_FULL) < (int32_t)(best & SECCOMP_RET_ACTION_FULL))
			best = ret;
	}
	*out = best;
	return 1;
}

static void dump(const struct chain *c)
{
	for (int i = 0; i < c->n; i++) {
		printf("  filter %d flags %#x def %#x:", i, c->f[i].flags, c->f[i].def);
		for (int j = 0; j < c->f[i].nrules; j++)
			if (c->f[i].r[j].nr > 28)
				printf(" [nr %d arg %d ret %#x]", c->f[i].r[j].nr, c->f[i].r[j].arg, c->f[i].r[j].ret);
		printf(c->f[i].nrules >= 17 ? " +fillers\n" : "\n");
	}
}

int main(int argc, char **argv)
{
	int secs = argc > 1 ? atoi(argv[1]) : 30;
	struct outcome *on, *off, *base;
	static struct chain c;
	unsigned long long end;
	int iter = 0, bad = 0, modeled = 0, cached_paths = 0, i;

	if (argc > 1 && !strcmp(argv[1], "dump")) {
		/* one URING filter of 16 distinct constants on nrs 0..16, ALLOW else */
		pid_t pid;
		char cmd[128];
		memset(&c, 0, sizeof(c));
		c.n = 1;
		c.f[0].flags = SECCOMP_FILTER_FLAG_URING;
		c.f[0].def = SECCOMP_RET_ALLOW;
		for (i = 0; i < 17; i++) {
			c.f[0].r[i].nr = filler[i];
			c.f[0].r[i].arg = -1;
			c.f[0].r[i].ret = SECCOMP_RET_ERRNO | (2000 + i);
		}
		c.f[0].nrules = 17;
		pid = fork();
		if (pid == 0) {
			struct sock_filter prog[300];
			int n = build(&c.f[0], prog);
			if (load_prog(prog, n, c.f[0].flags))
				_exit(3);
			struct timespec ts = { 2, 0 };
			nanosleep(&ts, NULL);
			_exit(0);
		}
		sleep(1);
		snprintf(cmd, sizeof(cmd), "grep -E ' (0|17|257|426|16) ' /proc/%d/seccomp_cache; grep -c uring-const /proc/%d/seccomp_cache", pid, pid);
		system(cmd);
		waitpid(pid, NULL, 0);
		return 0;
	}
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "forced")) forced = 1;
		if (!strcmp(argv[i], "sqpoll")) sqpoll = 1;
	}
	rng_state ^= (uint64_t)time(NULL) * 2654435761u;
	printf("R8-DIFF seed %llu forced %d sqpoll %d\n", (unsigned long long)rng_state, forced, sqpoll);
	on = mmap(NULL, 3 * sizeof(*on), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	off = on + 1; base = on + 2;
	/* baseline: no filters */
	c.n = 0;
	run(&c, 1, base);
	for (i = 0; i < NOPS; i++)
		printf("  base %s: %d\n", ops[i].name, base->res[i]);
	end = now_ms() + secs * 1000ULL;
	while (now_ms() < end) {
		int diff = 0;
		gen_chain(&c);
		run(&c, 1, on);
		run(&c, 0, off);
		iter++;
		if (on->status != off->status || on->done != off->done || on->setup != off->setup)
			diff = 1;
		for (i = 0; i < on->done && i < off->done; i++)
			if (on->res[i] != off->res[i])
				diff = 1;
		/* the model */
		for (i = 0; i < NOPS && on->setup == 1; i++) {
			uint32_t v;
			int want, kill = 0;
			if (!model(&c, i, &v))
				break;	/* later ops may not be reached as the model says */
			switch (v & SECCOMP_RET_ACTION_FULL) {
			case SECCOMP_RET_ALLOW: case SECCOMP_RET_LOG: want = base->res[i]; break;
			case SECCOMP_RET_ERRNO: want = -(int)(v & 0xffff); break;
			case SECCOMP_RET_TRAP: case SECCOMP_RET_TRACE: case SECCOMP_RET_USER_NOTIF:
				want = -ENOSYS; break;
			default: kill = 1; want = 0;
			}
			modeled++;
			if (kill) {
				if (on->done > i + 1 || (on->done == i + 1 && on->res[i] != -ECANCELED && on->res[i] != 0 && on->res[i] != 99999)) {
					printf("MODEL kill op %s: done %d res %d\n", ops[i].name, on->done, on->res[i]);
					diff = 2;
				}
				break;
			}
			if (on->done <= i || on->res[i] != want) {
				printf("MODEL op %s: want %d got %d (done %d)\n", ops[i].name, want, on->res[i], on->done);
				diff = 2;
			}
		}
		if (diff) {
			bad++;
			printf("DIFF iter %d (%d): on st %#x done %d setup %d / off st %#x done %d setup %d\n",
			       iter, diff, on->status, on->done, on->setup, off->status, off->done, off->setup);
			for (i = 0; i < NOPS; i++)
				printf("  %s: on %d off %d\n", ops[i].name, on->res[i], off->res[i]);
			dump(&c);
			if (bad > 10) break;
		}
		cached_paths += on->done;
	}
	wsys(FASTPATH, 1);
	printf("R8-DIFF %s: %d chains, %d ops judged, %d modeled, %d bad\n",
	       bad ? "FAIL" : "PASS", iter, cached_paths, modeled, bad);
	return bad != 0;
}
