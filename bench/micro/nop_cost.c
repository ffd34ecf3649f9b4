// SPDX-License-Identifier: GPL-2.0
/*
 * nop_cost - the guest side of scripts/check-nop-cost.sh: guest
 * instructions per IORING_OP_NOP, submitted 32 per io_uring_enter(2),
 * under a filter that allows everything and was loaded without
 * SECCOMP_FILTER_FLAG_URING (it never judges SQEs), measured twice; and
 * once with no filter, for context. Run it as the init's command of a
 * guest under -icount shift=0 (bench_icount.h). Prints
 *   NOP-COST nofilter <insns>
 *   NOP-COST plain_allow <pass 1> <pass 2>
 * and exits 0, or prints "# nop_cost: ..." and exits 1.
 */
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "bench_filter.h"
#include "bench_icount.h"
#include "bench_ops.h"

static int measure(double *insns)
{
	struct bench_result r;

	if (bench_measure(PATH_URING, OP_NOP, false, &r) || r.bad) {
		printf("# nop_cost: the NOP loop failed (%d bad results)\n",
		       r.bad);
		return 1;
	}
	*insns = r.insns;
	return 0;
}

int main(void)
{
	const struct bench_config *cfg = bench_config_find("plain_allow");
	int nr = __NR_io_uring_enter, ret;
	double none, pass[2];

	ret = bench_ops_prepare(OP_NOP);
	if (ret) {
		printf("# nop_cost: io_uring setup: %s\n", strerror(-ret));
		return 1;
	}
	if (measure(&none))
		return 1;
	printf("NOP-COST nofilter %.2f\n", none);
	ret = bench_config_apply(cfg, &nr, 1);
	if (ret) {
		printf("# nop_cost: loading the filter: %s\n", strerror(-ret));
		return 1;
	}
	if (measure(&pass[0]) || measure(&pass[1]))
		return 1;
	printf("NOP-COST plain_allow %.2f %.2f\n", pass[0], pass[1]);
	return 0;
}
