// SPDX-License-Identifier: GPL-2.0
/*
 * A denied SQE inside a long link chain. A chain of 16 linked writes to
 * one file, one of them replaced by an fsync the filter refuses (first,
 * middle, last; soft links and hard links). The denial is a submission
 * failure, so no link of the chain runs: the refused SQE completes with
 * -EPERM, the 15 others with -ECANCELED, and the file stays empty. An
 * unlinked write after the chain still runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "helpers.h"

#define CHAIN 16

/* Submit the chain with the fsync at @denied; 0 if everything held. */
static int run_chain(struct io_uring *ring, int fd, int denied, unsigned int link,
		     int stock, int *ran)
{
	int res[CHAIN + 1], cancelled = 0, refused = 0, others = 0, i;
	static const char bytes[] = "abcdefghijklmnopq";
	struct io_uring_sqe *sqe_after;
	struct io_uring_cqe *cqe;

	if (ftruncate(fd, 0))
		return -1;
	for (i = 0; i < CHAIN; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

		if (i == denied)
			io_uring_prep_fsync(sqe, fd, 0);
		else
			io_uring_prep_write(sqe, fd, &bytes[i], 1, i);
		if (i < CHAIN - 1)
			sqe->flags |= link;
		sqe->user_data = i;
	}
	/* after the chain, not linked to it */
	sqe_after = io_uring_get_sqe(ring);
	io_uring_prep_write(sqe_after, fd, "Z", 1, CHAIN);
	sqe_after->user_data = CHAIN;
	if (io_uring_submit_and_wait(ring, CHAIN + 1) < 0)
		return -1;
	for (i = 0; i <= CHAIN; i++) {
		if (io_uring_wait_cqe(ring, &cqe))
			return -1;
		res[cqe->user_data] = cqe->res;
		io_uring_cqe_seen(ring, cqe);
	}
	for (i = 0; i < CHAIN; i++) {
		if (i == denied)
			refused += res[i] == -EPERM;
		else if (res[i] == -ECANCELED)
			cancelled++;
		else
			others++;
	}
	*ran = 0;
	for (i = 0; i < CHAIN; i++) {
		char c;

		if (pread(fd, &c, 1, i) == 1 && c == bytes[i])
			(*ran)++;
	}
	printf("%s link, refused SQE at %2d: refused %d, -ECANCELED %d, other %d, "
	       "chain writes that ran %d, unlinked write %d\n",
	       link == IOSQE_IO_HARDLINK ? "hard" : "soft", denied, refused, cancelled,
	       others, *ran, res[CHAIN]);
	if (stock)
		return 0;
	return refused == 1 && cancelled == CHAIN - 1 && *ran == 0 && res[CHAIN] == 1 ? 0 : 1;
}

int main(void)
{
	static const unsigned int links[] = { IOSQE_IO_LINK, IOSQE_IO_HARDLINK };
	static const int positions[] = { 0, CHAIN / 2, CHAIN - 1 };
	const char *path = t_path("link_chain_long");
	int fd, stock, failed = 0, ran_total = 0, ran;
	struct io_uring ring;
	scmp_filter_ctx ctx;

	fd = open(path, O_RDWR | O_CREAT, 0600);
	if (fd < 0)
		return T_EXIT_FAIL;
	t_create_ring(&ring, 2 * CHAIN);
	ctx = t_filter(SCMP_ACT_ALLOW);
	t_rule(ctx, SCMP_ACT_ERRNO(EPERM), fsync, 0);
	stock = t_load(ctx);
	for (unsigned int l = 0; l < 2; l++) {
		for (unsigned int p = 0; p < 3; p++) {
			int r = run_chain(&ring, fd, positions[p], links[l], stock, &ran);

			if (r < 0)
				return T_EXIT_FAIL;
			failed += r;
			ran_total += ran;
		}
	}
	close(fd);
	unlink(path);
	if (stock)
		return t_verdict(stock, 0, ran_total > 0, "linked writes around a refused fsync");
	return failed ? T_EXIT_FAIL : T_EXIT_PASS;
}
