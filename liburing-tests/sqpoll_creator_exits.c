// SPDX-License-Identifier: GPL-2.0
/*
 * A SQPOLL ring's SQEs are judged by the filters of the task that made
 * it. Here the creator, sandboxed (openat refused), hands the ring to a
 * child and exits while the child keeps using it. The documented result:
 * the SQ thread, one of the creator's threads, is gone with it, so the
 * child's SQEs are never consumed (io_uring_enter says -EOWNERDEAD, no
 * CQE comes) or, judged after the creator released its filters, fail
 * with -ECANCELED. Either way the refused openat never runs, and nothing
 * crashes (the host fails the run on any kernel splat).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "helpers.h"

int main(void)
{
	const char *path = t_path("sqpoll_exit");
	struct io_uring_params p = { .flags = IORING_SETUP_SQPOLL,
				     .sq_thread_idle = 50 };
	struct io_uring ring;
	scmp_filter_ctx ctx;
	int go[2], status, res, i, stock;
	pid_t creator, user;

	/* the user outlives its parent, the creator: collect it here */
	if (pipe(go) || prctl(PR_SET_CHILD_SUBREAPER, 1))
		return T_EXIT_FAIL;
	creator = fork();
	if (creator == 0) {
		if (io_uring_queue_init_params(8, &ring, &p))
			_exit(T_EXIT_SKIP);
		ctx = t_filter(SCMP_ACT_ALLOW);
		t_rule(ctx, SCMP_ACT_ERRNO(EPERM), openat, 0);
		stock = t_load(ctx);
		user = fork();
		if (user == 0) {
			struct __kernel_timespec ts = { .tv_sec = 1 };
			struct io_uring_cqe *cqe;
			char c;

			close(go[1]);
			alarm(20);
			/* wait until the creator is gone */
			if (read(go[0], &c, 1) != 0)
				_exit(T_EXIT_FAIL);
			usleep(200000);
			for (i = 0; i < 3; i++) {
				io_uring_prep_openat(io_uring_get_sqe(&ring),
						     AT_FDCWD, path,
						     O_CREAT | O_WRONLY, 0600);
				res = io_uring_submit(&ring);
				if (res >= 0)
					res = io_uring_wait_cqe_timeout(&ring, &cqe,
									&ts);
				if (res == 0) {
					res = cqe->res;
					io_uring_cqe_seen(&ring, cqe);
				}
				printf("after the creator exited: %d (%s)\n", res,
				       res == -ETIME ? "no CQE: not consumed" :
				       res < 0 ? strerror(-res) : "ran");
			}
			if (t_exists(path))
				_exit(stock ? T_EXIT_BYPASS : T_EXIT_FAIL);
			_exit(T_EXIT_PASS);
		}
		close(go[0]);
		/* exiting closes the write end: the user goes on */
		_exit(user > 0 ? 0 : T_EXIT_FAIL);
	}
	close(go[1]);
	close(go[0]);
	if (waitpid(creator, &status, 0) != creator || !WIFEXITED(status))
		return T_EXIT_FAIL;
	if (WEXITSTATUS(status))
		return WEXITSTATUS(status);
	user = waitpid(-1, &status, 0);
	if (user < 0 || !WIFEXITED(status)) {
		printf("the ring's user died\n");
		return T_EXIT_FAIL;
	}
	return WEXITSTATUS(status);
}
