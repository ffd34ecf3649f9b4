/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic seccomp filters of a chosen size for the benchmarks: an arch
 * check, padding rules for syscalls nobody makes, then the rule for the
 * measured syscalls, then "allow everything else". The padding comes
 * before the rules, so a run of the filter goes through all of it.
 */
#ifndef BENCH_FILTER_H
#define BENCH_FILTER_H

#include <linux/filter.h>

#define BENCH_FILTER_MAX	1100
/* The size of Docker's default profile once compiled, roughly */
#define BENCH_PROFILE_INSNS	300

/* What the filter does with the measured syscalls. */
enum bench_verdict {
	CONST_ALLOW,	/* allowed whatever the arguments: the cache answers */
	ARG_ALLOW,	/* allowed after a check of args[0] that every
			 * call passes: runs BPF */
	CONST_DENY,	/* ERRNO(EPERM) whatever the arguments: the cache answers */
	EA_ALLOW,	/* allowed after a check of the extension area: runs
			 * BPF. openat2: open_how.flags has no O_CREAT;
			 * connect, bind: the address is AF_UNIX; any other
			 * syscall: the area's flags have no UNREADABLE. */
};

struct bench_filter {
	struct sock_filter insns[BENCH_FILTER_MAX];
	unsigned short len;
};

/* A named benchmark configuration: which filter, loaded how. */
struct bench_config {
	const char *name;
	int filters;		/* 0: no filter */
	enum bench_verdict verdict;
	unsigned int flags;	/* seccomp(2) filter flags */
};

/*
 * bench_filter_build - a filter of about @insns instructions (at least
 * 10) giving @verdict to each of the @n syscalls @nrs.
 */
void bench_filter_build(struct bench_filter *f, int insns, const int *nrs,
			int n, enum bench_verdict verdict);

/*
 * bench_filter_load - set no_new_privs and load @f @count times with the
 * seccomp(2) filter @flags. Returns 0 or -errno.
 */
int bench_filter_load(const struct bench_filter *f, int count,
		      unsigned int flags);

/*
 * bench_config_find - the configuration called @name (see bench_filter.c
 * for the list), or NULL.
 */
const struct bench_config *bench_config_find(const char *name);

/*
 * bench_config_apply - load @cfg's filter, of BENCH_PROFILE_INSNS
 * instructions, for the @n syscalls @nrs. Returns 0 or -errno.
 */
int bench_config_apply(const struct bench_config *cfg, const int *nrs, int n);
#endif
