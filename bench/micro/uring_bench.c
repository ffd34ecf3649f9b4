// SPDX-License-Identifier: GPL-2.0
/*
 * uring_bench - guest instructions seccomp adds to an SQE and to its
 * system call twin. Run it under QEMU's -icount shift=0 (see
 * bench_icount.h); elsewhere its figures are nanoseconds.
 *
 *   uring_bench micro stock|patched PASS   every configuration the kernel
 *                                          has x every operation
 *   uring_bench growth PASS                opted-in filters of 10, 100 and
 *                                          1000 instructions, stacks of
 *                                          1, 2, 4, 8, on NOP
 *
 * Each configuration runs in a fresh child that loads its filters, then
 * measures the operation on both paths. Output, one line a measurement,
 * read by bench/report.py:
 *   MICRO <config> <op> <path> <pass> <insns per op> <rounds>
 *   GROWTH <mode> <insns> <filters> <path> <pass> <insns per op> <rounds>
 * A measurement whose results were not the expected ones (an SQE that
 * should have been refused and was not, ...) prints a "# uring_bench:"
 * line and makes the exit status 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/seccomp.h>

#include "bench_child.h"
#include "bench_filter.h"
#include "bench_icount.h"
#include "bench_ops.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *const path_names[] = { "syscall", "uring" };

/* The configurations a stock kernel can load, then the patched ones */
static const char *const stock_configs[] = {
	"none", "plain_allow", "plain_bpf",
};
static const char *const patched_configs[] = {
	"none", "plain_allow", "plain_bpf", "uring_allow", "uring_deny",
	"uring_bpf", "uring_ea",
};

/* What one child measures */
struct job {
	const char *config;	/* micro: a bench_config name */
	const char *mode;	/* growth: "fastpath" or "bpf" */
	int insns, filters;	/* growth */
	enum bench_op op;
	int pass;
};

static int load_growth(const struct job *j)
{
	static struct bench_filter filter;
	int nr = bench_op_nr(j->op);

	if (!j->filters)
		return 0;
	bench_filter_build(&filter, j->insns, &nr, 1,
			   strcmp(j->mode, "bpf") ? CONST_ALLOW : ARG_ALLOW);
	return bench_filter_load(&filter, j->filters,
				 SECCOMP_FILTER_FLAG_URING);
}

static void print(const struct job *j, enum bench_path path,
		  const struct bench_result *r)
{
	if (j->config)
		printf("MICRO %s %s %s %d %.2f %u\n", j->config,
		       bench_op_name(j->op), path_names[path], j->pass,
		       r->insns, r->rounds);
	else
		printf("GROWTH %s %d %d %s %d %.2f %u\n", j->mode, j->insns,
		       j->filters, path_names[path], j->pass, r->insns,
		       r->rounds);
}

/* The child: load the filters, measure both paths. Exit status 0 or 1. */
static int child(const struct job *j)
{
	const struct bench_config *cfg = NULL;
	struct bench_result r;
	int nr = bench_op_nr(j->op), ret, failed = 0;
	enum bench_path path;
	bool denied = false;

	ret = bench_ops_prepare(j->op);
	if (!ret && j->config) {
		cfg = bench_config_find(j->config);
		ret = cfg ? bench_config_apply(cfg, &nr, 1) : -EINVAL;
		denied = cfg && cfg->filters && cfg->verdict == CONST_DENY;
	} else if (!ret) {
		ret = load_growth(j);
	}
	if (ret) {
		printf("# uring_bench: %s %s: setup: %s\n",
		       j->config ? j->config : j->mode, bench_op_name(j->op),
		       strerror(-ret));
		return 1;
	}
	for (path = PATH_SYSCALL; path <= PATH_URING; path++) {
		if (!bench_op_has_path(j->op, path))
			continue;
		if (bench_measure(path, j->op, denied, &r)) {
			printf("# uring_bench: the clock does not move\n");
			return 1;
		}
		print(j, path, &r);
		if (r.bad) {
			printf("# uring_bench: %s %s %s: %d of %u results were not %s\n",
			       j->config ? j->config : j->mode,
			       bench_op_name(j->op), path_names[path], r.bad,
			       r.rounds * BENCH_BATCH,
			       denied ? "-EPERM" : "the allowed result");
			failed = 1;
		}
	}
	return failed;
}

static int child_of(void *arg)
{
	return child(arg);
}

/* Run @j in a fresh child; 0 if it measured what it should. */
static int run(const struct job *j)
{
	return bench_in_child(child_of, (void *)j, "uring_bench");
}

static int run_micro(const char *kernel, int pass)
{
	const char *const *configs = patched_configs;
	size_t n = ARRAY_SIZE(patched_configs), c;
	struct job j = { .pass = pass };
	int failed = 0;

	if (!strcmp(kernel, "stock")) {
		configs = stock_configs;
		n = ARRAY_SIZE(stock_configs);
	} else if (strcmp(kernel, "patched")) {
		return 2;
	}
	for (c = 0; c < n; c++) {
		j.config = configs[c];
		for (j.op = 0; j.op < OP_COUNT; j.op++) {
			/* denying io_uring_enter would refuse the submission */
			if (j.op == OP_NOP && !strcmp(j.config, "uring_deny"))
				continue;
			failed |= run(&j);
		}
	}
	return failed;
}

static int run_growth(int pass)
{
	static const int insns[] = { 10, 100, 1000 };
	static const int filters[] = { 1, 2, 4, 8 };
	static const char *const modes[] = { "fastpath", "bpf" };
	struct job j = { .op = OP_NOP, .pass = pass, .mode = "none" };
	size_t m, i, f;
	int failed;

	failed = run(&j);
	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		for (i = 0; i < ARRAY_SIZE(insns); i++) {
			for (f = 0; f < ARRAY_SIZE(filters); f++) {
				j.mode = modes[m];
				j.insns = insns[i];
				j.filters = filters[f];
				failed |= run(&j);
			}
		}
	}
	return failed;
}

static int usage(const char *prog)
{
	fprintf(stderr, "usage: %s micro stock|patched PASS | growth PASS\n",
		prog);
	return 2;
}

int main(int argc, char **argv)
{
	int ret;

	if (argc == 4 && !strcmp(argv[1], "micro")) {
		ret = run_micro(argv[2], atoi(argv[3]));
		return ret == 2 ? usage(argv[0]) : ret;
	}
	if (argc == 3 && !strcmp(argv[1], "growth"))
		return run_growth(atoi(argv[2]));
	return usage(argv[0]);
}
