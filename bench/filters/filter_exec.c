// SPDX-License-Identifier: GPL-2.0
/*
 * filter_exec - load a benchmark filter with SECCOMP_FILTER_FLAG_URING,
 * then exec a command (fio, for bench/run.sh).
 *
 *   filter_exec fastpath|bpf [INSNS] -- CMD [ARGS...]
 *
 * The filter has about INSNS instructions (default 300, the size of
 * Docker's default profile once compiled) and allows everything; the
 * read syscalls io_uring's read opcodes are judged as (read, pread64,
 * preadv, preadv2) are allowed unconditionally with "fastpath", so the
 * action cache answers them, and after an argument check with "bpf", so
 * every read runs the whole filter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "bench_filter.h"

static const int read_nrs[] = {
	__NR_read, __NR_pread64, __NR_preadv, __NR_preadv2,
};

static int usage(const char *prog)
{
	fprintf(stderr, "usage: %s fastpath|bpf [INSNS] -- CMD [ARGS...]\n",
		prog);
	return 2;
}

int main(int argc, char **argv)
{
	static struct bench_filter filter;
	enum bench_verdict verdict;
	int insns = 300, cmd = 2, ret;
	char *end;

	if (argc < 4)
		return usage(argv[0]);
	if (!strcmp(argv[1], "fastpath"))
		verdict = CONST_ALLOW;
	else if (!strcmp(argv[1], "bpf"))
		verdict = ARG_ALLOW;
	else
		return usage(argv[0]);
	if (strcmp(argv[cmd], "--")) {
		insns = strtol(argv[cmd], &end, 10);
		if (*end || insns < 10 || insns > BENCH_FILTER_MAX - 50) {
			fprintf(stderr, "%s: bad instruction count %s\n",
				argv[0], argv[cmd]);
			return 2;
		}
		cmd++;
	}
	if (cmd >= argc - 1 || strcmp(argv[cmd], "--"))
		return usage(argv[0]);
	cmd++;

	bench_filter_build(&filter, insns, read_nrs,
			   sizeof(read_nrs) / sizeof(read_nrs[0]), verdict);
	ret = bench_filter_load(&filter, 1, 0);
	if (ret) {
		fprintf(stderr, "%s: loading the filter: %s\n", argv[0],
			strerror(-ret));
		return 1;
	}
	execvp(argv[cmd], argv + cmd);
	fprintf(stderr, "%s: %s: %s\n", argv[0], argv[cmd], strerror(errno));
	return 127;
}
