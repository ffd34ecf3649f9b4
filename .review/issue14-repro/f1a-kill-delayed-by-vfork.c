// SPDX-License-Identifier: GPL-2.0
/*
 * Finding 1(a): a KILL_PROCESS verdict on a SQPOLL ring does not kill
 * the process while the ring's creator sleeps TASK_KILLABLE (here: vfork
 * parent waiting for its child). The kill is task work queued on the
 * creator with TWA_SIGNAL, which only wakes TASK_INTERRUPTIBLE sleeps;
 * every other thread of the process keeps running, and so do SQEs on
 * its other rings, for as long as the vfork child lives.
 *
 * Sequence (test child process P):
 *   main thread M: NO_NEW_PRIVS; filter (URING flag): unlinkat -> KILL_PROCESS
 *   M: io_uring_setup(SQPOLL) -> M is the ring's creator
 *   M: starts thread W, then vfork(); the vfork child sleeps 4 s, _exit(0)
 *   W: (M now in vfork wait) queues IORING_OP_UNLINKAT on M's ring, wakes
 *      the SQ thread, sees the CQE (-ECANCELED = kill verdict), waits 1 s,
 *      then runs a NOP on a ring of its own and exits the process with 42.
 *
 * Output meaning:
 *   "RESULT: BYPASS ..."  W was still running 1 s after the kill verdict and
 *                         could submit more SQEs (exit code 42): the bug.
 *   "RESULT: ok ..."      P died (SIGSYS/SIGKILL) right after the verdict,
 *                         which is what KILL_PROCESS promises.
 */
#include "common.h"

static struct ring sq_ring;
static volatile int in_vfork;

static void *w_thread(void *arg)
{
	struct io_uring_cqe cqe;
	struct ring own;
	char buf[160];

	(void)arg;
	while (!in_vfork)
		msleep(1);
	msleep(300);		/* M is now asleep in wait_for_vfork_done() */
	queue_unlinkat(&sq_ring);
	ring_submit(&sq_ring);
	if (ring_wait_cqe(&sq_ring, 2000, &cqe)) {
		say("W: no CQE for the UNLINKAT\n");
		syscall(SYS_exit_group, 3);
	}
	snprintf(buf, sizeof(buf), "W: UNLINKAT completed with %d (%s)\n",
		 cqe.res, cqe.res == -ECANCELED ? "kill verdict" : "?");
	say(buf);
	if (cqe.res != -ECANCELED)
		syscall(SYS_exit_group, 3);	/* no kill verdict: inconclusive */
	msleep(1000);
	/* still alive: the process survived the kill verdict */
	if (ring_init(&own, 0, 0) == 0) {
		struct io_uring_sqe *sqe = ring_sqe(&own);

		sqe->opcode = IORING_OP_NOP;
		ring_submit(&own);
		if (ring_wait_cqe(&own, 1000, &cqe) == 0) {
			snprintf(buf, sizeof(buf),
				 "W: 1 s after the verdict a NOP on W's own ring ran: res %d\n",
				 cqe.res);
			say(buf);
		}
	}
	syscall(SYS_exit_group, 42);
	return NULL;
}

int main(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		pthread_t w;
		int ret;

		if ((ret = install_kill_unlinkat(0))) {
			fprintf(stderr, "seccomp: %s\n", strerror(-ret));
			_exit(2);
		}
		if ((ret = ring_init(&sq_ring, IORING_SETUP_SQPOLL, 10000))) {
			fprintf(stderr, "io_uring_setup: %s\n", strerror(-ret));
			_exit(2);
		}
		pthread_create(&w, NULL, w_thread, NULL);
		in_vfork = 1;
		if (vfork() == 0) {
			struct timespec ts = { 4, 0 };

			syscall(SYS_nanosleep, &ts, NULL);
			_exit(0);
		}
		/* M returns here when the vfork child exits, then dies */
		for (;;)
			pause();
	}
	return report(pid, 42,
		      "the process kept running (and submitting SQEs) after a KILL_PROCESS verdict on its SQPOLL ring");
}
