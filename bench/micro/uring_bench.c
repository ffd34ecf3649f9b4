// SPDX-License-Identifier: GPL-2.0
/*
 * uring_bench - what seccomp adds to a system call and to an SQE.
 *
 *   uring_bench micro REPS    the cases of bench/results/micro.csv
 *   uring_bench growth REPS   the cost curve of bench/results/growth.csv
 *
 * Every measurement runs in a fresh child that loads its filters (with
 * SECCOMP_FILTER_FLAG_URING) and then times the same operation on the
 * same syscall number on both paths: pread64 against IORING_OP_READ, or
 * openat2 against IORING_OP_OPENAT2. Configurations are interleaved
 * within each repetition; repetition 0 is a warm-up the report drops.
 * Output, one line a measurement:
 *   MICRO <path> <case> <rep> <ns>
 *   GROWTH <path> <mode> <insns> <filters> <rep> <ns>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "bench_filter.h"
#include "bench_loop.h"

#define MIN_MS		40
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* The size of Docker's default profile once compiled, roughly */
#define PROFILE_INSNS	300

static const char *const path_names[] = { "syscall", "uring" };

/* One configuration: @filters copies of a filter, or none if 0. */
struct config {
	enum bench_op op;
	enum bench_verdict verdict;
	int insns;
	int filters;
};

struct micro_case {
	const char *name;
	struct config cfg;
};

static const struct micro_case micro_cases[] = {
	{ "none", { OP_READ, CONST_ALLOW, 0, 0 } },
	{ "allow_bitmap", { OP_READ, CONST_ALLOW, PROFILE_INSNS, 1 } },
	{ "bpf_allow", { OP_READ, ARG_ALLOW, PROFILE_INSNS, 1 } },
	{ "const_deny", { OP_READ, CONST_DENY, PROFILE_INSNS, 1 } },
	{ "bpf_deny", { OP_READ, ARG_DENY, PROFILE_INSNS, 1 } },
	{ "plain_openat2", { OP_OPENAT2, CONST_ALLOW, PROFILE_INSNS, 1 } },
	{ "ea_openat2", { OP_OPENAT2, EA_ALLOW, PROFILE_INSNS, 1 } },
};

/*
 * measure - run @cfg on @path in a child. Returns ns per operation, or a
 * negative value on failure (reported on stderr).
 */
static double measure(const struct config *cfg, enum bench_path path)
{
	static struct bench_filter filter;
	int fds[2], status, nr, ret;
	double ns = -1;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(fds[0]);
		ret = bench_prepare();
		nr = cfg->op == OP_READ ? __NR_pread64 : __NR_openat2;
		if (!ret && cfg->filters) {
			bench_filter_build(&filter, cfg->insns, &nr, 1,
					   cfg->verdict);
			ret = bench_filter_load(&filter, cfg->filters,
						cfg->verdict == EA_ALLOW);
		}
		if (ret) {
			fprintf(stderr, "uring_bench: setup: %s\n", strerror(-ret));
			_exit(1);
		}
		ns = bench_loop(path, cfg->op, MIN_MS);
		if (write(fds[1], &ns, sizeof(ns)) != sizeof(ns))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &ns, sizeof(ns)) != sizeof(ns))
		ns = -1;
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		ns = -1;
	return ns;
}

static int run_micro(int reps)
{
	const struct micro_case *c;
	int rep, path, failed = 0;
	double ns;

	for (rep = 0; rep <= reps; rep++) {
		for (c = micro_cases; c < micro_cases + ARRAY_SIZE(micro_cases); c++) {
			for (path = PATH_SYSCALL; path <= PATH_URING; path++) {
				ns = measure(&c->cfg, path);
				failed |= ns < 0;
				printf("MICRO %s %s %d %.1f\n", path_names[path],
				       c->name, rep, ns);
			}
		}
		fflush(stdout);
	}
	return failed;
}

static int run_growth(int reps)
{
	static const int insns[] = { 10, 100, 1000 };
	static const int filters[] = { 1, 2, 4, 8 };
	static const struct { const char *name; enum bench_verdict v; } modes[] = {
		{ "fastpath", CONST_ALLOW }, { "bpf", ARG_ALLOW },
	};
	struct config cfg = { .op = OP_READ };
	int rep, path, m, i, f, failed = 0;
	double ns;

	for (rep = 0; rep <= reps; rep++) {
		for (path = PATH_SYSCALL; path <= PATH_URING; path++) {
			cfg.filters = 0;
			ns = measure(&cfg, path);
			failed |= ns < 0;
			printf("GROWTH %s none 0 0 %d %.1f\n", path_names[path],
			       rep, ns);
			for (m = 0; m < 2; m++) {
				for (i = 0; i < 3; i++) {
					for (f = 0; f < 4; f++) {
						cfg.verdict = modes[m].v;
						cfg.insns = insns[i];
						cfg.filters = filters[f];
						ns = measure(&cfg, path);
						failed |= ns < 0;
						printf("GROWTH %s %s %d %d %d %.1f\n",
						       path_names[path],
						       modes[m].name, insns[i],
						       filters[f], rep, ns);
					}
				}
			}
		}
		fflush(stdout);
	}
	return failed;
}

int main(int argc, char **argv)
{
	int reps = argc > 2 ? atoi(argv[2]) : 0;

	if (argc != 3 || reps < 1) {
		fprintf(stderr, "usage: %s micro|growth REPS\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "micro"))
		return run_micro(reps);
	if (!strcmp(argv[1], "growth"))
		return run_growth(reps);
	fprintf(stderr, "%s: unknown benchmark %s\n", argv[0], argv[1]);
	return 2;
}
