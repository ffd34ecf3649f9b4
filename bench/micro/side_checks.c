// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <liburing.h>
#include <linux/seccomp.h>
#include <linux/io_uring/bpf_filter.h>

#include "bench_child.h"
#include "side_checks.h"
#include "side_ops.h"
#include "side_policy.h"

static struct io_uring old_ring, new_ring;

/* Whether a socket(AF_VSOCK) result is that of an unfiltered kernel */
static bool vsock_unfiltered(int res)
{
	return res >= 0 || res == -EAFNOSUPPORT;
}

static bool report(const char *name, bool ok, const char *observed,
		   const char *expected)
{
	printf("CHECK %s %s %s %s\n", name, ok ? "pass" : "fail", observed,
	       expected);
	return ok;
}

/*
 * io_uring's task filters are copied into a ring when it is set up
 * (io_uring_create() -> io_ctx_restriction_clone()): a ring set up before
 * they were registered keeps running what they refuse.
 */
static bool iou_old_ring(void)
{
	char obs[64];
	int old, new;

	if (side_ring_init(&old_ring) || side_policy_uring(POLICY_A) ||
	    side_ring_init(&new_ring))
		return report("iou_old_ring", false, "setup-failed", "-");
	old = side_run_one(&old_ring, SIDE_SOCKET_VSOCK);
	new = side_run_one(&new_ring, SIDE_SOCKET_VSOCK);
	snprintf(obs, sizeof(obs), "old_ring=%d,new_ring=%d", old, new);
	return report("iou_old_ring", vsock_unfiltered(old) && new == -EACCES,
		      obs, "old_ring=unfiltered,new_ring=-EACCES");
}

/*
 * seccomp judges an SQE by its submitter's filters when it is submitted
 * (io_submit_sqes() -> io_seccomp_task()), whenever the ring was set up.
 */
static bool sec_old_ring(void)
{
	char obs[64];
	int old;

	if (side_ring_init(&old_ring) ||
	    side_policy_seccomp(POLICY_A, SECCOMP_FILTER_FLAG_URING |
					  SECCOMP_FILTER_FLAG_EXT_ARGS))
		return report("sec_old_ring", false, "setup-failed", "-");
	old = side_run_one(&old_ring, SIDE_SOCKET_VSOCK);
	snprintf(obs, sizeof(obs), "old_ring=%d", old);
	return report("sec_old_ring", old == -EPERM, obs, "old_ring=-EPERM");
}

/*
 * DENY_REST fills every opcode without a filter with a refusal; a filter
 * registered afterwards for one of them is put in front of it, and the
 * refusal still refuses (__io_uring_run_bpf_filters()): an allow filter
 * for NOP registered after READ's DENY_REST does not let NOP run.
 */
static bool iou_deny_rest_first(void)
{
	char obs[64];
	int nop;

	if (side_uring_filter(IORING_OP_READ, 1, IO_URING_BPF_FILTER_DENY_REST) ||
	    side_uring_filter(IORING_OP_NOP, 1, 0) || side_ring_init(&new_ring))
		return report("iou_deny_rest_first", false, "setup-failed", "-");
	nop = side_run_one(&new_ring, SIDE_NOP);
	snprintf(obs, sizeof(obs), "nop=%d", nop);
	return report("iou_deny_rest_first", nop == -EACCES, obs, "nop=-EACCES");
}

/*
 * How many SQEs of a batch of two (socket(AF_VSOCK), which policy A
 * refuses, then NOP) one io_uring_enter(2) submits on a ring without
 * IORING_SETUP_SUBMIT_ALL, once @load loaded policy A; or -errno.
 */
static int batch_of_two(int (*load)(void))
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	int ret, submitted;

	ret = load();
	if (!ret)
		ret = io_uring_queue_init(4, &ring, 0);
	if (ret)
		return ret;
	side_prep(io_uring_get_sqe(&ring), SIDE_SOCKET_VSOCK);
	side_prep(io_uring_get_sqe(&ring), SIDE_NOP);
	submitted = io_uring_submit(&ring);
	/* reap what ran, so that nothing is left in flight at exit */
	while (submitted > 0 && !io_uring_peek_cqe(&ring, &cqe))
		io_uring_cqe_seen(&ring, cqe);
	return submitted;
}

static int load_uring_a(void)
{
	return side_policy_uring(POLICY_A);
}

static int load_seccomp_a(void)
{
	return side_policy_seccomp(POLICY_A, SECCOMP_FILTER_FLAG_URING |
					     SECCOMP_FILTER_FLAG_EXT_ARGS);
}

/*
 * An SQE io_uring's filters refuse fails in io_submit_sqe() through
 * io_submit_fail_init(), which returns the error: io_submit_sqes() stops
 * there (unless IORING_SETUP_SUBMIT_ALL), the rest of the batch stays in
 * the SQ ring.
 */
static bool iou_refusal_ends_batch(void)
{
	char obs[64];
	int n = batch_of_two(load_uring_a);

	snprintf(obs, sizeof(obs), "submitted=%d", n);
	return report("iou_refusal_ends_batch", n == 1, obs, "submitted=1");
}

/*
 * An SQE seccomp refuses completes with the verdict and the batch goes on
 * (io_submit_judged_req()), as a system call's refusal does not stop the
 * caller either.
 */
static bool sec_refusal_continues_batch(void)
{
	char obs[64];
	int n = batch_of_two(load_seccomp_a);

	snprintf(obs, sizeof(obs), "submitted=%d", n);
	return report("sec_refusal_continues_batch", n == 2, obs,
		      "submitted=2");
}

struct check_arg {
	bool (*check)(void);
};

static int check_of(void *arg)
{
	const struct check_arg *c = arg;

	return !c->check();
}

/* Run @check in a fresh child; 0 if it passed */
static int run(bool (*check)(void))
{
	struct check_arg c = { .check = check };

	return bench_in_child(check_of, &c, NULL);
}

int side_checks(bool stock)
{
	int failed = run(iou_old_ring) | run(iou_deny_rest_first) |
		     run(iou_refusal_ends_batch);

	if (!stock)
		failed |= run(sec_old_ring) | run(sec_refusal_continues_batch);
	return failed;
}
