// SPDX-License-Identifier: GPL-2.0
/*
 * prof_loop - the guest side of bench/profile/profile.sh: loads the
 * benchmark configuration CONFIG (see bench/filters/bench_filter.c), then
 * runs ROUNDS rounds of BENCH_BATCH operations OP on PATH (syscall or
 * uring) after a fixed warm-up. Two runs that differ only in ROUNDS
 * differ in the kernel by exactly the difference in rounds, which is what
 * profile.sh attributes to functions.
 *
 *   prof_loop CONFIG nop|getpid|read|openat2|connect syscall|uring ROUNDS
 *
 * Prints "PROF-DONE bad=N" (results that were not the expected ones).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_filter.h"
#include "bench_ops.h"

#define WARMUP_ROUNDS	16

int main(int argc, char **argv)
{
	const struct bench_config *cfg;
	enum bench_path path;
	enum bench_op op;
	int nr, ret, bad = 0;
	long rounds, i;

	if (argc != 5) {
		fprintf(stderr, "usage: %s CONFIG OP syscall|uring ROUNDS\n", argv[0]);
		return 2;
	}
	for (op = 0; op < OP_COUNT; op++)
		if (!strcmp(argv[2], bench_op_name(op)))
			break;
	path = strcmp(argv[3], "uring") ? PATH_SYSCALL : PATH_URING;
	rounds = strtol(argv[4], NULL, 10);
	cfg = bench_config_find(argv[1]);
	if (op == OP_COUNT || !cfg || rounds < 0 ||
	    (strcmp(argv[3], "uring") && strcmp(argv[3], "syscall")) ||
	    !bench_op_has_path(op, path)) {
		fprintf(stderr, "%s: bad arguments\n", argv[0]);
		return 2;
	}
	nr = bench_op_nr(op);
	ret = bench_ops_prepare(op);
	if (!ret)
		ret = bench_config_apply(cfg, &nr, 1);
	if (ret) {
		fprintf(stderr, "%s: setup: %s\n", argv[0], strerror(-ret));
		return 1;
	}
	for (i = 0; i < WARMUP_ROUNDS + rounds; i++)
		bad += bench_round(path, op, BENCH_BATCH,
				   cfg->filters && cfg->verdict == CONST_DENY);
	printf("PROF-DONE bad=%d\n", bad);
	return bad != 0;
}
