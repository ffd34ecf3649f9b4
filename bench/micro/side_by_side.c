// SPDX-License-Identifier: GPL-2.0
/*
 * side_by_side - guest instructions per SQE under the same policy written
 * twice: as an opted-in seccomp filter (SECCOMP_FILTER_FLAG_URING) and
 * as io_uring task filters (IORING_REGISTER_BPF_FILTER, Linux 7.0). Run
 * it under QEMU's -icount shift=0 (see bench_icount.h).
 *
 *   side_by_side run stock|patched        every configuration the kernel
 *                                         can load x every operation,
 *                                         twice (pass 1 and 2)
 *   side_by_side checks stock|patched     the behaviour checks
 *                                         (side_checks.c)
 *   side_by_side loop CONFIG OP ROUNDS    for bench/profile/profile.sh
 *
 * The configurations (the policies are in bench/filters/side_policy.h):
 *   none        no filter at all
 *   sec_P       policy P as one seccomp filter that judges SQEs
 *   iou_P       policy P as io_uring task filters
 *   iou_P_sys   the same, plus policy P as a seccomp filter that judges
 *               system calls only (not opted in): a sandbox with both
 * Each configuration and operation runs in a fresh child (filters cannot
 * be removed), which makes what the operation uses, loads the filters,
 * then sets up its ring (task filters are copied into rings set up
 * afterwards), then measures; ring setup is outside the measured loop,
 * and so is closing the fds the SQEs made (side_settle()).
 * Output, one line a measurement, read by bench/side_by_side.py:
 *   SIDE <config> <op> <pass> <insns per SQE> <rounds>
 *   CACHE <config> <op> <twin nr> allow|const:0xVERDICT|bpf|unknown
 * (CACHE: what seccomp's action cache says about the op's SQEs, for the
 * configurations whose seccomp filter judges SQEs.) A measurement whose
 * results were not the expected ones (an SQE that should have been
 * refused and was not, ...) prints a "# side_by_side:" line and makes
 * the exit status 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <liburing.h>
#include <linux/seccomp.h>

#include "bench_child.h"
#include "bench_icount.h"
#include "side_cache.h"
#include "side_checks.h"
#include "side_ops.h"
#include "side_policy.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define JUDGES_SQES	(SECCOMP_FILTER_FLAG_URING | SECCOMP_FILTER_FLAG_EXT_ARGS)
#define SYSCALLS_ONLY	SECCOMP_FILTER_FLAG_EXT_ARGS
/* loop: rounds before the counted ones; rounds between closing the fds */
#define LOOP_WARMUP	16
#define LOOP_SETTLE	256

struct side_config {
	const char *name;
	enum side_policy policy;
	unsigned int seccomp_flags;	/* 0: no seccomp filter */
	bool uring;			/* io_uring task filters */
};

static const struct side_config configs[] = {
	{ "none", POLICY_A, 0, false },
	{ "sec_a", POLICY_A, JUDGES_SQES, false },
	{ "iou_a", POLICY_A, 0, true },
	{ "iou_a_sys", POLICY_A, SYSCALLS_ONLY, true },
	{ "sec_b", POLICY_B, JUDGES_SQES, false },
	{ "iou_b", POLICY_B, 0, true },
	{ "iou_b_sys", POLICY_B, SYSCALLS_ONLY, true },
};

static bool judges_sqes(const struct side_config *cfg)
{
	return cfg->seccomp_flags & SECCOMP_FILTER_FLAG_URING;
}

/* Whether @policy refuses @op (see side_policy.h) */
static bool refuses(enum side_policy policy, enum side_op op)
{
	if (policy == POLICY_A)
		return op == SIDE_OPENAT2_CREAT || op == SIDE_SOCKET_VSOCK;
	return op != SIDE_NOP && op != SIDE_READ;
}

/* The errno @cfg refuses @op with, or 0 if it allows it */
static int refusal(const struct side_config *cfg, enum side_op op)
{
	if ((!cfg->seccomp_flags && !cfg->uring) || !refuses(cfg->policy, op))
		return 0;
	/* io_uring's filters refuse with EACCES, the seccomp policies EPERM */
	return judges_sqes(cfg) ? EPERM : EACCES;
}

/*
 * io_uring's first: the seccomp filter of policy B refuses
 * io_uring_register(2) and prctl(2).
 */
static int load(const struct side_config *cfg)
{
	int ret = 0;

	if (cfg->uring)
		ret = side_policy_uring(cfg->policy);
	if (!ret && cfg->seccomp_flags)
		ret = side_policy_seccomp(cfg->policy, cfg->seccomp_flags);
	return ret;
}

/* What the action cache says about @op's SQEs: "CACHE ..." */
static int print_cache(const struct side_config *cfg, enum side_op op,
		       int cache_fd)
{
	char desc[32];
	int ret = side_cache_describe(cache_fd, side_op_nr(op), desc,
				      sizeof(desc));

	if (ret)
		return ret;
	printf("CACHE %s %s %d %s\n", cfg->name, side_op_name(op),
	       side_op_nr(op), desc);
	return 0;
}

/* Say why @cfg's @op could not be measured (@err: -errno); returns 1 */
static int fail(const struct side_config *cfg, enum side_op op,
		const char *what, int err)
{
	printf("# side_by_side: %s %s: %s: %s\n", cfg->name, side_op_name(op),
	       what, strerror(-err));
	return 1;
}

/*
 * Make what @op uses, load @cfg's filters, set up @ring; with @cache,
 * print what the action cache says about @op. 0, or 1 (said why).
 */
static int setup(const struct side_config *cfg, enum side_op op,
		 struct io_uring *ring, bool cache)
{
	int ret, cache_fd = -1;

	ret = side_op_prepare(op);
	if (ret)
		return fail(cfg, op, "setup", ret);
	if (cache) {
		cache_fd = side_cache_open();
		if (cache_fd < 0)
			return fail(cfg, op, "/proc/self/seccomp_cache", cache_fd);
	}
	ret = load(cfg);
	if (ret)
		return fail(cfg, op, "loading the filters", ret);
	ret = side_ring_init(ring);
	if (ret)
		return fail(cfg, op, "ring setup", ret);
	if (cache_fd >= 0) {
		ret = print_cache(cfg, op, cache_fd);
		if (ret)
			return fail(cfg, op, "reading the action cache", ret);
	}
	return 0;
}

/* The child: set up, measure. Exit status 0 or 1. */
static int child(const struct side_config *cfg, enum side_op op, int pass)
{
	static struct io_uring ring;
	struct side_round round = {
		.ring = &ring, .op = op, .refused = refusal(cfg, op),
	};
	struct bench_result r;

	if (setup(cfg, op, &ring, judges_sqes(cfg)))
		return 1;
	if (bench_measure_round(side_round, side_settle, &round, &r)) {
		printf("# side_by_side: the clock does not move\n");
		return 1;
	}
	printf("SIDE %s %s %d %.2f %u\n", cfg->name, side_op_name(op), pass,
	       r.insns, r.rounds);
	if (r.bad) {
		printf("# side_by_side: %s %s: %d of %u results were not %s%s\n",
		       cfg->name, side_op_name(op), r.bad,
		       r.rounds * BENCH_BATCH,
		       round.refused ? "-" : "the allowed result",
		       round.refused ? strerrorname_np(round.refused) : "");
		return 1;
	}
	return 0;
}

struct run_args {
	const struct side_config *cfg;
	enum side_op op;
	int pass;
};

static int child_of(void *arg)
{
	const struct run_args *a = arg;

	return child(a->cfg, a->op, a->pass);
}

/* Run child(@cfg, @op, @pass) in a fresh process; 0 if it succeeded */
static int run(const struct side_config *cfg, enum side_op op, int pass)
{
	struct run_args a = { .cfg = cfg, .op = op, .pass = pass };
	char what[128];

	snprintf(what, sizeof(what), "side_by_side: %s %s", cfg->name,
		 side_op_name(op));
	return bench_in_child(child_of, &a, what);
}

/*
 * Every configuration the kernel can load (a stock kernel has io_uring's
 * filters but not SECCOMP_FILTER_FLAG_EXT_ARGS) x every op, each measured
 * in two fresh children one after the other (pass 1 and 2). One after the
 * other, not in two runs of the program: a refused OPENAT2 costs one of
 * a few values per SQE depending on the allocator's state, which the
 * children of one run share and the next run may not (see
 * bench/side_by_side.py); the two passes check that a figure is what the
 * same state gives again.
 */
static int run_all(bool stock)
{
	enum side_op op;
	int failed = 0, pass;
	size_t c;

	for (c = 0; c < ARRAY_SIZE(configs); c++) {
		if (stock && configs[c].seccomp_flags)
			continue;
		for (op = 0; op < SIDE_OP_COUNT; op++)
			for (pass = 1; pass <= 2; pass++)
				failed |= run(&configs[c], op, pass);
	}
	return failed;
}

/*
 * The guest side of bench/profile/profile.sh's "side" path: the setup of
 * a measurement of @config and @op, then LOOP_WARMUP + @rounds rounds, the
 * fds they make closed every LOOP_SETTLE rounds. Prints "PROF-DONE
 * bad=N". Two runs that differ only in @rounds differ by those rounds
 * (and the closes of their fds).
 */
static int loop(const char *config, const char *opname, long rounds)
{
	static struct io_uring ring;
	const struct side_config *cfg = NULL;
	struct side_round round = { .ring = &ring };
	int bad = 0;
	size_t c;
	long i;

	for (c = 0; c < ARRAY_SIZE(configs); c++)
		if (!strcmp(configs[c].name, config))
			cfg = &configs[c];
	for (round.op = 0; round.op < SIDE_OP_COUNT; round.op++)
		if (!strcmp(side_op_name(round.op), opname))
			break;
	if (!cfg || round.op == SIDE_OP_COUNT || rounds < 0)
		return 2;
	round.refused = refusal(cfg, round.op);
	if (setup(cfg, round.op, &ring, false))
		return 1;
	for (i = 0; i < LOOP_WARMUP + rounds; i++) {
		bad += side_round(&round, BENCH_BATCH);
		if (i % LOOP_SETTLE == LOOP_SETTLE - 1)
			side_settle(&round);
	}
	side_settle(&round);
	printf("PROF-DONE bad=%d\n", bad);
	return bad != 0;
}

static int usage(const char *prog)
{
	fprintf(stderr, "usage: %s run|checks stock|patched | loop CONFIG OP ROUNDS\n",
		prog);
	return 2;
}

/* Room for the fds side_round() keeps open, and a few more */
static void raise_nofile(void)
{
	struct rlimit rl = { SIDE_KEEP_MAX + 64, SIDE_KEEP_MAX + 64 };

	if (setrlimit(RLIMIT_NOFILE, &rl))
		printf("# side_by_side: RLIMIT_NOFILE stays as it is: %s\n",
		       strerror(errno));
}

int main(int argc, char **argv)
{
	bool stock;

	raise_nofile();
	if (argc == 5 && !strcmp(argv[1], "loop")) {
		int ret = loop(argv[2], argv[3], strtol(argv[4], NULL, 10));

		return ret == 2 ? usage(argv[0]) : ret;
	}
	if (argc < 3 || (strcmp(argv[2], "stock") && strcmp(argv[2], "patched")))
		return usage(argv[0]);
	stock = !strcmp(argv[2], "stock");
	if (argc == 3 && !strcmp(argv[1], "run"))
		return run_all(stock);
	if (argc == 3 && !strcmp(argv[1], "checks"))
		return side_checks(stock);
	return usage(argv[0]);
}
