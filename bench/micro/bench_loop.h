/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measured loops: the same operation as a system call and as an SQE,
 * timed with CLOCK_MONOTONIC.
 */
#ifndef BENCH_LOOP_H
#define BENCH_LOOP_H

enum bench_path { PATH_SYSCALL, PATH_URING };

enum bench_op {
	OP_READ,	/* 1-byte pread64 of /dev/null; IORING_OP_READ */
	OP_OPENAT2,	/* openat2 of a file, then close; IORING_OP_OPENAT2 */
};

/*
 * bench_prepare - open what the loops use; call before loading filters.
 * Returns 0 or -errno.
 */
int bench_prepare(void);

/*
 * bench_loop - repeat @op on @path for at least @min_ms milliseconds.
 * Returns the mean nanoseconds per operation, or a negative value if the
 * operation could not be run at all.
 */
double bench_loop(enum bench_path path, enum bench_op op, int min_ms);
#endif
