/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Skip or fail when the kernel lacks a feature of these tests.
 *
 * A kernel without a filter flag these tests use (SECCOMP_FILTER_FLAG_URING,
 * ...) refuses it with EINVAL, and the tests skip (or show the bypass
 * instead). That is right when they are run by hand on any kernel, but
 * a harness that booted a kernel with the features knows better: there
 * a refused flag means a feature was lost, and a skip would hide it.
 * Such a harness says which kernel it booted in URING_SECCOMP_EXPECT:
 * "patched" (a refused flag fails the test, with the errno) or "stock"
 * (an accepted flag fails the test).
 */
#ifndef SECCOMP_URING_EXPECT_H
#define SECCOMP_URING_EXPECT_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/**
 * uring_seccomp_required - whether the features must be there
 *
 * Returns 1 for URING_SECCOMP_EXPECT=patched, 0 for "stock", -1 when
 * it is unset (or anything else): the kernel's answer decides.
 */
static inline int uring_seccomp_required(void)
{
	const char *expect = getenv("URING_SECCOMP_EXPECT");

	if (expect && !strcmp(expect, "patched"))
		return 1;
	if (expect && !strcmp(expect, "stock"))
		return 0;
	return -1;
}

/**
 * uring_feature_missing - in a TEST(): the kernel refused a feature
 * @_metadata: the test's metadata
 * @err: the errno of the refusal
 * @lacked: the errno of a kernel without the feature (EINVAL for an
 *          unknown flag, ENOENT for a missing sysctl)
 * @what: what was refused
 *
 * Marks the test skipped when @err is @lacked and the features are not
 * required; fails it otherwise. Either way the caller returns next.
 */
static inline void uring_feature_missing(struct __test_metadata *_metadata,
					 int err, int lacked, const char *what)
{
	ASSERT_EQ(lacked, err)
		TH_LOG("%s: %s", what, strerror(err));
	ASSERT_NE(1, uring_seccomp_required())
		TH_LOG("URING_SECCOMP_EXPECT=patched, yet %s: %s",
		       what, strerror(err));
	SKIP(return, "%s: %s (stock kernel)", what, strerror(err));
}

/**
 * uring_feature_present - in a TEST(): the kernel has a feature
 * @_metadata: the test's metadata
 * @what: what the kernel showed it has
 *
 * Fails the test when the harness booted a stock kernel.
 */
static inline void uring_feature_present(struct __test_metadata *_metadata,
					 const char *what)
{
	ASSERT_NE(0, uring_seccomp_required())
		TH_LOG("URING_SECCOMP_EXPECT=stock, yet %s", what);
}

#endif
