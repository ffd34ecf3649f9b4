/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What seccomp's action cache says about the SQEs of one twin system
 * call, from /proc/self/seccomp_cache (CONFIG_SECCOMP_CACHE_DEBUG, read
 * as root): whether the benchmark measured the path it means to measure.
 */
#ifndef SIDE_CACHE_H
#define SIDE_CACHE_H

#include <stddef.h>

/*
 * side_cache_open - open /proc/self/seccomp_cache: before loading the
 * filters, which may refuse openat. Returns the fd or -errno.
 */
int side_cache_open(void);

/*
 * side_cache_describe - read @fd (from side_cache_open(), read once) and
 * put in @buf what it says about SQEs judged as @nr: "allow" (the allow
 * bitmap answers), "const:0xVERDICT" (a constant verdict answers, no
 * filter runs), "bpf" (the filters run) or "unknown" (no line for @nr).
 * Returns 0 or -errno.
 */
int side_cache_describe(int fd, int nr, char *buf, size_t len);
#endif
