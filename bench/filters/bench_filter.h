/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic seccomp filters of a chosen size for the microbenchmarks:
 * an arch check, padding rules for syscalls nobody makes, then the rule
 * for the measured syscall, then "allow everything else".
 */
#ifndef BENCH_FILTER_H
#define BENCH_FILTER_H

#include <linux/filter.h>

#define BENCH_FILTER_MAX	1100

/* What the filter does with the measured syscall. */
enum bench_verdict {
	CONST_ALLOW,	/* allowed whatever the arguments: cacheable */
	ARG_ALLOW,	/* allowed after an argument check: runs BPF */
	CONST_DENY,	/* ERRNO(EPERM) whatever the arguments: cacheable */
	ARG_DENY,	/* ERRNO(EPERM) after an argument check: runs BPF */
	EA_ALLOW,	/* allowed after a check of the struct (openat2's
			 * open_how.flags) in the extension area: runs BPF */
};

struct bench_filter {
	struct sock_filter insns[BENCH_FILTER_MAX];
	unsigned short len;
};

/*
 * bench_filter_build - a filter of about @insns instructions (at least
 * 10) giving @verdict to each of the @n syscalls @nrs. The padding comes
 * before those rules, so a BPF run goes through all of it, except for
 * EA_ALLOW, whose rule comes first (where a profile puts a hot rule).
 */
void bench_filter_build(struct bench_filter *f, int insns, const int *nrs,
			int n, enum bench_verdict verdict);

/*
 * Load @f @count times with SECCOMP_FILTER_FLAG_URING, and with
 * SECCOMP_FILTER_FLAG_EXT_ARGS if @ext; 0 or -errno.
 */
int bench_filter_load(const struct bench_filter *f, int count, int ext);
#endif
