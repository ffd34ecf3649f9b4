// SPDX-License-Identifier: GPL-2.0
/*
 * filter_exec - load a benchmark configuration's filter, then exec a
 * command (fio, for bench/run.sh).
 *
 *   filter_exec CONFIG -- CMD [ARGS...]
 *
 * CONFIG is one of bench_filter.c's configurations (none, plain_allow,
 * plain_bpf, uring_allow, uring_deny, uring_bpf, uring_ea): a filter of
 * Docker-default size that allows everything, whose rule for the read
 * syscalls io_uring's read opcodes are judged as (read, pread64, preadv,
 * preadv2) is the configuration's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "bench_filter.h"

static const int read_nrs[] = {
	__NR_read, __NR_pread64, __NR_preadv, __NR_preadv2,
};

int main(int argc, char **argv)
{
	const struct bench_config *cfg;
	int ret;

	if (argc < 4 || strcmp(argv[2], "--")) {
		fprintf(stderr, "usage: %s CONFIG -- CMD [ARGS...]\n", argv[0]);
		return 2;
	}
	cfg = bench_config_find(argv[1]);
	if (!cfg) {
		fprintf(stderr, "%s: no configuration %s\n", argv[0], argv[1]);
		return 2;
	}
	ret = bench_config_apply(cfg, read_nrs,
				 sizeof(read_nrs) / sizeof(read_nrs[0]));
	if (ret) {
		fprintf(stderr, "%s: loading the %s filter: %s\n", argv[0],
			argv[1], strerror(-ret));
		return 1;
	}
	execvp(argv[3], argv + 3);
	fprintf(stderr, "%s: %s: %s\n", argv[0], argv[3], strerror(errno));
	return 127;
}
