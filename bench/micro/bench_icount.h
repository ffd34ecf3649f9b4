/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest instructions per operation. Under QEMU's -icount shift=0 guest
 * time advances one nanosecond per guest instruction, so a difference of
 * two CLOCK_MONOTONIC readings in the guest is the number of guest
 * instructions executed between them (interrupts included).
 */
#ifndef BENCH_ICOUNT_H
#define BENCH_ICOUNT_H

#include <stdbool.h>

#include "bench_ops.h"

/* Guest instructions a figure spends on its operations, about */
#define BENCH_BUDGET	18000000

struct bench_result {
	double insns;		/* guest instructions per operation */
	unsigned int rounds;	/* rounds of BENCH_BATCH timed, in all */
	int bad;		/* results that were not the expected ones */
};

/*
 * bench_measure - @op on @path: after a warm-up, the median of 9
 * measurements of R rounds of BENCH_BATCH operations minus R rounds of
 * the same loop with no operation, over R * BENCH_BATCH (R sized so the
 * nine take about BENCH_BUDGET instructions). Background kernel work (a
 * kworker, RCU callbacks) that lands in one of the nine does not move the
 * median. @denied: the filters refuse @op (each result must be -EPERM).
 * Returns 0, or -1 if the clock did not move.
 */
int bench_measure(enum bench_path path, enum bench_op op, bool denied,
		  struct bench_result *res);

/*
 * bench_round_fn - one round of @count operations (0 or BENCH_BATCH) of
 * whatever @arg describes. Returns how many results were not the
 * expected ones.
 */
typedef int (*bench_round_fn)(void *arg, int count);

/*
 * bench_settle_fn - undo, outside the measured loops, what rounds of
 * whatever @arg describes left behind (close the fds they made, say).
 */
typedef void (*bench_settle_fn)(void *arg);

/*
 * bench_measure_round - bench_measure() for any operation: @round, with
 * @arg, runs one round of it; @settle (or NULL) is called after each
 * timed loop, outside it.
 */
int bench_measure_round(bench_round_fn round, bench_settle_fn settle,
			void *arg, struct bench_result *res);
#endif
