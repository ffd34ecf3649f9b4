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
 * The kernel the harness booted, from URING_SECCOMP_EXPECT: 1 for
 * "patched" (the series' flags must load), 0 for "stock" (they must be
 * refused), -1 when unset (the kernel's answer decides, as by hand).
 */
int t_required(void);
/*
 * Judge @ret, what loading a filter with the series' flag @flag (its
 * name) returned. Returns 0 if it loaded, 1 if the kernel lacks the
 * flag (stock: -EINVAL, and SECCOMP_FILTER_FLAG_URING unknown). Exits
 * T_EXIT_FAIL, printing the errno, on any other error, on a refusal
 * where t_required() says "patched" and on a load where it says "stock":
 * so on the patched kernel a lost flag fails the test, never skips it.
 */
int t_opt_in(int ret, const char *flag);
/*
 * Load @ctx with SECCOMP_FILTER_FLAG_URING and release it. On a kernel
 * without the flag it is loaded without; returns 1 then (stock), else 0.
 * Exits T_EXIT_FAIL where t_opt_in() does.
 */
int t_load(scmp_filter_ctx ctx);

/* For t_load_sqe_only(): every syscall number. */
#define T_ANY_NR	(-1)
/*
 * Load, with SECCOMP_FILTER_FLAG_URING, a hand-written cBPF filter that
 * returns @action for io_uring operations (instruction_pointer 0) whose
 * nr is @nr (any nr with T_ANY_NR) and allows everything else, syscalls
 * included. Returns 0, or 1 on a kernel without the flag (nothing is
 * loaded); exits T_EXIT_FAIL where t_opt_in() does.
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
