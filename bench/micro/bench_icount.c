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

/* Instructions for @rounds rounds of @count @op; adds bad results to @bad */
static uint64_t timed(enum bench_path path, enum bench_op op, bool denied,
		      int count, unsigned int rounds, int *bad)
{
	uint64_t start = guest_clock();
	unsigned int i;

	for (i = 0; i < rounds; i++)
		*bad += bench_round(path, op, count, denied);
	return guest_clock() - start;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int bench_measure(enum bench_path path, enum bench_op op, bool denied,
		  struct bench_result *res)
{
	double chunk[CHUNKS];
	uint64_t warm, full, empty;
	unsigned int rounds, c;

	res->bad = 0;
	/* first use: page faults, slab and ring setup; also sizes R */
	warm = timed(path, op, denied, BENCH_BATCH, WARMUP_ROUNDS, &res->bad);
	if (!warm)
		return -1;
	rounds = BENCH_BUDGET / CHUNKS / (warm / WARMUP_ROUNDS + 1);
	if (rounds < MIN_ROUNDS)
		rounds = MIN_ROUNDS;
	if (rounds > MAX_ROUNDS)
		rounds = MAX_ROUNDS;
	res->bad = 0;
	for (c = 0; c < CHUNKS; c++) {
		full = timed(path, op, denied, BENCH_BATCH, rounds, &res->bad);
		empty = timed(path, op, denied, 0, rounds, &res->bad);
		chunk[c] = ((double)full - (double)empty) / (rounds * BENCH_BATCH);
	}
	qsort(chunk, CHUNKS, sizeof(chunk[0]), cmp_double);
	res->rounds = rounds * CHUNKS;
	res->insns = chunk[CHUNKS / 2];
	return 0;
}
