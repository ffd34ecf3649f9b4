// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "bench_icount.h"

#define WARMUP_ROUNDS	4
#define MIN_ROUNDS	2
#define MAX_ROUNDS	100000
/* Measurements per figure, which is their median */
#define CHUNKS		9

/* CLOCK_MONOTONIC in ns: guest instructions under -icount shift=0 */
static uint64_t guest_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* What one figure measures */
struct loop {
	bench_round_fn round;
	bench_settle_fn settle;
	void *arg;
};

/*
 * Instructions for @rounds rounds of @count; adds bad results to @bad.
 * Then, untimed, the settle function.
 */
static uint64_t timed(const struct loop *l, int count, unsigned int rounds,
		      int *bad)
{
	uint64_t start = guest_clock(), end;
	unsigned int i;

	for (i = 0; i < rounds; i++)
		*bad += l->round(l->arg, count);
	end = guest_clock();
	if (l->settle)
		l->settle(l->arg);
	return end - start;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int bench_measure_round(bench_round_fn round, bench_settle_fn settle,
			void *arg, struct bench_result *res)
{
	const struct loop l = { .round = round, .settle = settle, .arg = arg };
	double chunk[CHUNKS];
	uint64_t warm, full, empty;
	unsigned int rounds, c;

	res->bad = 0;
	/* first use: page faults, slab and ring setup; also sizes R */
	warm = timed(&l, BENCH_BATCH, WARMUP_ROUNDS, &res->bad);
	if (!warm)
		return -1;
	rounds = BENCH_BUDGET / CHUNKS / (warm / WARMUP_ROUNDS + 1);
	if (rounds < MIN_ROUNDS)
		rounds = MIN_ROUNDS;
	if (rounds > MAX_ROUNDS)
		rounds = MAX_ROUNDS;
	res->bad = 0;
	for (c = 0; c < CHUNKS; c++) {
		full = timed(&l, BENCH_BATCH, rounds, &res->bad);
		empty = timed(&l, 0, rounds, &res->bad);
		chunk[c] = ((double)full - (double)empty) / (rounds * BENCH_BATCH);
	}
	qsort(chunk, CHUNKS, sizeof(chunk[0]), cmp_double);
	res->rounds = rounds * CHUNKS;
	res->insns = chunk[CHUNKS / 2];
	return 0;
}

/* What bench_measure() measures: bench_ops.h's @op on @path */
struct op_round {
	enum bench_path path;
	enum bench_op op;
	bool denied;
};

static int op_round(void *arg, int count)
{
	const struct op_round *o = arg;

	return bench_round(o->path, o->op, count, o->denied);
}

int bench_measure(enum bench_path path, enum bench_op op, bool denied,
		  struct bench_result *res)
{
	struct op_round o = { .path = path, .op = op, .denied = denied };

	return bench_measure_round(op_round, NULL, &o, res);
}
