/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The measured operations, each as an SQE and as its system call twin
 * (the syscall the SQE is judged as), one round of BENCH_BATCH at a time.
 */
#ifndef BENCH_OPS_H
#define BENCH_OPS_H

#include <stdbool.h>

/* SQEs submitted per io_uring_enter(2); syscalls per round */
#define BENCH_BATCH	32

enum bench_path { PATH_SYSCALL, PATH_URING };

enum bench_op {
	OP_NOP,		/* IORING_OP_NOP; io_uring_enter(ring, 0, 0, 0,
			 * NULL, 0), which submits nothing: the syscall
			 * NOP is judged as */
	OP_GETPID,	/* getpid(2), syscall only: for reference */
	OP_READ,	/* 4 KiB O_DIRECT read at offset 0 of /dev/nullb0;
			 * IORING_OP_READ and pread64 */
	OP_OPENAT2,	/* openat2 O_RDONLY of a tmpfs file, then close(2) */
	OP_CONNECT,	/* connect of an AF_UNIX stream socket to a bound
			 * socket that does not listen: ECONNREFUSED */
	OP_COUNT,
};

/* bench_op_name - the name in the benchmark's output */
const char *bench_op_name(enum bench_op op);

/* bench_op_nr - the syscall both paths of @op are judged as */
int bench_op_nr(enum bench_op op);

/* bench_op_has_path - whether @op is measured on @path */
bool bench_op_has_path(enum bench_op op, enum bench_path path);

/*
 * bench_ops_prepare - set up the ring and what @op uses (the block
 * device, the file, the sockets); call before loading filters. Returns 0
 * or -errno.
 */
int bench_ops_prepare(enum bench_op op);

/*
 * bench_round - run @count (0 or BENCH_BATCH) @op on @path: for io_uring
 * one io_uring_enter(2) that submits and reaps @count SQEs. Each result
 * must be what @op returns when allowed or, if @denied, -EPERM. Returns
 * how many results were not.
 */
int bench_round(enum bench_path path, enum bench_op op, int count,
		bool denied);
#endif
