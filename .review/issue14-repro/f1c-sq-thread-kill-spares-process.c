// SPDX-License-Identifier: GPL-2.0
/*
 * Finding 1(c): once a SQPOLL ring's creator thread has exited, its SQEs
 * are judged by the SQ thread's own chain, and a kill verdict is served
 * by seccomp_uring_kill(current == SQ thread): mode DEAD and a forced
 * SIGSYS on the SQ thread. An io thread (PF_USER_WORKER) does not call
 * do_group_exit() in get_signal(); only do_coredump()'s zap_threads()
 * would kill the rest of the process, and a non-dumpable process (or a
 * kernel without CONFIG_COREDUMP) never gets there. So the SQ thread
 * exits and the process survives its KILL_PROCESS verdict.
 *
 * Sequence:
 *   M: NO_NEW_PRIVS; PR_SET_DUMPABLE 0; filter (URING flag): unlinkat -> KILL_PROCESS
 *   thread C: io_uring_setup(SQPOLL) (SQ thread inherits the filter), C exits
 *   M: pthread_join(C); queue IORING_OP_UNLINKAT; wait for its CQE
 *      (-ECANCELED = kill verdict); still alive 1 s later -> exit 42
 *
 * Output meaning:
 *   "RESULT: BYPASS ..." (exit 42): only the SQ thread died: the bug.
 *   "RESULT: ok ...": the process was killed.
 */
#include "common.h"

static struct ring sq_ring;

static void *c_thread(void *arg)
{
	(void)arg;
	if (ring_init(&sq_ring, IORING_SETUP_SQPOLL, 10000))
		syscall(SYS_exit_group, 2);
	return NULL;		/* the creator thread exits */
}

int main(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct io_uring_cqe cqe;
		pthread_t t;
		int ret;

		if ((ret = install_kill_unlinkat(0))) {
			fprintf(stderr, "seccomp: %s\n", strerror(-ret));
			_exit(2);
		}
		prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
		pthread_create(&t, NULL, c_thread, NULL);
		pthread_join(t, NULL);
		msleep(100);	/* C is released: io_seccomp_task() = SQ thread */
		queue_unlinkat(&sq_ring);
		ring_submit(&sq_ring);
		if (ring_wait_cqe(&sq_ring, 2000, &cqe) || cqe.res != -ECANCELED) {
			say("M: no kill verdict; inconclusive\n");
			_exit(3);
		}
		say("M: UNLINKAT refused with -ECANCELED (kill verdict)\n");
		msleep(1000);
		say("M: still alive 1 s after the kill verdict\n");
		syscall(SYS_exit_group, 42);
	}
	return report(pid, 42,
		      "a kill verdict given by the SQ thread's own chain killed only the SQ thread");
}
