// SPDX-License-Identifier: GPL-2.0
/*
 * nop_cost - the guest side of scripts/check-nop-cost.sh: guest
 * instructions per IORING_OP_NOP, submitted 32 per io_uring_enter(2),
 * under a filter that allows everything and was loaded without
 * SECCOMP_FILTER_FLAG_URING (it never judges SQEs), measured twice; and
 * once with no filter, for context. Then, where the kernel has
 * SECCOMP_FILTER_FLAG_URING, NOP and a 4 KiB IORING_OP_READ of
 * /dev/nullb0 under a second allow-all filter that was loaded with it:
 * the READ, whose twin prep chooses (pread64, read or preadv2), should
 * cost what NOP does over no filter, both answered by the allow bitmap.
 * Run it as the init's command of a guest under -icount shift=0
 * (bench_icount.h). Prints
 *   NOP-COST nofilter <insns>
 *   NOP-COST read_nofilter <insns>
 *   NOP-COST plain_allow <pass 1> <pass 2>
 *   NOP-COST uring_allow <NOP insns> <READ insns>    (or "unsupported")
 * and exits 0, or prints "# nop_cost: ..." and exits 1.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "bench_filter.h"
#include "bench_icount.h"
#include "bench_ops.h"

static int measure(enum bench_op op, double *insns)
{
	struct bench_result r;

	if (bench_measure(PATH_URING, op, false, &r) || r.bad) {
		printf("# nop_cost: the %s loop failed (%d bad results)\n",
		       bench_op_name(op), r.bad);
		return 1;
	}
	*insns = r.insns;
	return 0;
}

/* Under the opted-in allow-all filter too; 1 if it could not be loaded */
static int measure_uring_allow(void)
{
	const struct bench_config *cfg = bench_config_find("uring_allow");
	int nrs[] = { __NR_io_uring_enter, __NR_pread64 }, ret;
	double nop, read;

	ret = bench_config_apply(cfg, nrs, 2);
	if (ret == -EINVAL) {
		printf("NOP-COST uring_allow unsupported\n");
		return 0;
	}
	if (ret) {
		printf("# nop_cost: loading the filter: %s\n", strerror(-ret));
		return 1;
	}
	if (measure(OP_NOP, &nop) || measure(OP_READ, &read))
		return 1;
	printf("NOP-COST uring_allow %.2f %.2f\n", nop, read);
	return 0;
}

int main(void)
{
	const struct bench_config *cfg = bench_config_find("plain_allow");
	int nr = __NR_io_uring_enter, ret;
	double none, read, pass[2];

	/* the ring, and the block device the READs read */
	ret = bench_ops_prepare(OP_READ);
	if (ret) {
		printf("# nop_cost: io_uring setup: %s\n", strerror(-ret));
		return 1;
	}
	if (measure(OP_NOP, &none))
		return 1;
	printf("NOP-COST nofilter %.2f\n", none);
	if (measure(OP_READ, &read))
		return 1;
	printf("NOP-COST read_nofilter %.2f\n", read);
	ret = bench_config_apply(cfg, &nr, 1);
	if (ret) {
		printf("# nop_cost: loading the filter: %s\n", strerror(-ret));
		return 1;
	}
	if (measure(OP_NOP, &pass[0]) || measure(OP_NOP, &pass[1]))
		return 1;
	printf("NOP-COST plain_allow %.2f %.2f\n", pass[0], pass[1]);
	return measure_uring_allow();
}
