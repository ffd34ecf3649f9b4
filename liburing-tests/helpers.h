/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the liburing + libseccomp tests. Each test is one
 * program; main() returns one of the T_EXIT_* codes below.
 */
#ifndef URING_SECCOMP_TEST_HELPERS_H
#define URING_SECCOMP_TEST_HELPERS_H

#include <liburing.h>
#include <seccomp.h>

enum t_exit {
	T_EXIT_PASS = 0,
	T_EXIT_FAIL = 1,
	T_EXIT_SKIP = 77,
	/* stock kernel only: the operation went through despite the filter */
	T_EXIT_BYPASS = 99,
};

/* A fresh path under /tmp for this process; removed first. */
const char *t_path(const char *name);
/* Create @path holding @content; exits T_EXIT_FAIL on error. */
void t_create_file(const char *path, const char *content);
int t_exists(const char *path);
/* Set up @ring with @entries; exits T_EXIT_FAIL on error. */
void t_create_ring(struct io_uring *ring, unsigned int entries);
/* Submit the one queued SQE and return its CQE's res. */
int t_run(struct io_uring *ring);

/* A libseccomp filter with @def_action; exits T_EXIT_FAIL on error. */
scmp_filter_ctx t_filter(uint32_t def_action);
/* Add a rule or exit T_EXIT_FAIL. */
#define t_rule(ctx, action, name, ...)					\
	t_rule_check(seccomp_rule_add(ctx, action, SCMP_SYS(name), __VA_ARGS__), #name)
void t_rule_check(int ret, const char *name);
/*
 * Load @ctx with SECCOMP_FILTER_FLAG_URING and release it. On a kernel
 * without the flag it is loaded without; returns 1 then (stock), else 0.
 */
int t_load(scmp_filter_ctx ctx);

/* For t_load_sqe_only(): every syscall number. */
#define T_ANY_NR	(-1)
/*
 * Load, with SECCOMP_FILTER_FLAG_URING, a hand-written cBPF filter that
 * returns @action for io_uring operations (instruction_pointer 0) whose
 * nr is @nr (any nr with T_ANY_NR) and allows everything else, syscalls
 * included. Returns 0 or -errno (-EINVAL on a kernel without the flag).
 */
int t_load_sqe_only(int nr, uint32_t action);

/* A TCP listener on 127.0.0.1, non-blocking; *port gets its port. */
int t_listener(int *port);

/*
 * The verdict of a denial test: on the patched kernel the SQE must have
 * been denied (@denied) and the operation must not have happened
 * (@happened); on stock the operation must have happened.
 */
int t_verdict(int stock, int denied, int happened, const char *what);
#endif
