// SPDX-License-Identifier: GPL-2.0
/*
 * Finding 1(b): a KILL_PROCESS verdict on a SQPOLL ring whose creator
 * thread is already inside do_exit() (before exit_signals() sets
 * PF_EXITING) is lost: io_seccomp_task() still picks the creator, the
 * verdict queues seccomp_uring_kill_work() on it, and that work then
 * runs inside do_exit() (io_uring_files_cancel() -> io_run_task_work(),
 * or exit_task_work()), where force_sig_seccomp() queues a private
 * SIGSYS on a thread that never dequeues it again. The rest of the
 * process lives on.
 *
 * The natural race (creator calls exit right after publishing the SQE)
 * is made deterministic here with PTRACE_O_TRACEEXIT: the harness holds
 * the creator thread at its PTRACE_EVENT_EXIT stop, which do_exit()
 * reaches before exit_signals().
 *
 * Sequence:
 *   P main thread M: NO_NEW_PRIVS; filter (URING flag): unlinkat -> KILL_PROCESS
 *   P thread C: io_uring_setup(SQPOLL) (C is the creator), then exit(2)s
 *   harness: PTRACE_SEIZE(C, PTRACE_O_TRACEEXIT) before that; C stops at
 *            the exit event
 *   M: queues IORING_OP_UNLINKAT on C's ring, sees -ECANCELED (kill verdict)
 *   harness: PTRACE_DETACH(C): C finishes exiting
 *   M: still alive 1.5 s later -> exit_group(42)
 *
 * Output meaning:
 *   "RESULT: BYPASS ..." (exit 42): the process survived the verdict: the bug.
 *   "RESULT: ok ...": the process was killed, as KILL_PROCESS promises.
 */
#include <sys/ptrace.h>
#include "common.h"

static struct ring sq_ring;
static int p_tid[2], p_go[2], p_stopped[2], p_verdict[2];

static void *c_thread(void *arg)
{
	pid_t tid = syscall(SYS_gettid);
	char c;

	(void)arg;
	if (ring_init(&sq_ring, IORING_SETUP_SQPOLL, 10000))
		syscall(SYS_exit_group, 2);
	if (write(p_tid[1], &tid, sizeof(tid)) != sizeof(tid) ||
	    read(p_go[0], &c, 1) != 1)
		syscall(SYS_exit_group, 2);
	syscall(SYS_exit, 0);	/* stops at PTRACE_EVENT_EXIT */
	return NULL;
}

int main(void)
{
	pid_t pid, tid;
	int status;
	char c = 'x';

	if (pipe(p_tid) || pipe(p_go) || pipe(p_stopped) || pipe(p_verdict))
		return 2;
	pid = fork();
	if (pid == 0) {
		struct io_uring_cqe cqe;
		pthread_t t;
		int ret;

		if ((ret = install_kill_unlinkat(0))) {
			fprintf(stderr, "seccomp: %s\n", strerror(-ret));
			_exit(2);
		}
		pthread_create(&t, NULL, c_thread, NULL);
		if (read(p_stopped[0], &c, 1) != 1)
			_exit(2);
		queue_unlinkat(&sq_ring);
		ring_submit(&sq_ring);
		if (ring_wait_cqe(&sq_ring, 2000, &cqe) || cqe.res != -ECANCELED) {
			say("M: no kill verdict; inconclusive\n");
			_exit(3);
		}
		say("M: UNLINKAT refused with -ECANCELED (kill verdict)\n");
		if (write(p_verdict[1], &c, 1) != 1)
			_exit(2);
		msleep(1500);
		say("M: still alive 1.5 s after the kill verdict\n");
		syscall(SYS_exit_group, 42);
	}
	close(p_tid[1]);
	close(p_go[0]);
	close(p_stopped[0]);
	close(p_verdict[1]);
	if (read(p_tid[0], &tid, sizeof(tid)) != sizeof(tid))
		return 2;
	if (ptrace(PTRACE_SEIZE, tid, 0, PTRACE_O_TRACEEXIT)) {
		perror("PTRACE_SEIZE (needs ptrace of a child's thread)");
		kill(pid, SIGKILL);
		return 2;
	}
	if (write(p_go[1], &c, 1) != 1)
		return 2;
	if (waitpid(tid, &status, __WALL) < 0 ||
	    status >> 8 != (SIGTRAP | (PTRACE_EVENT_EXIT << 8))) {
		fprintf(stderr, "creator did not stop at its exit event\n");
		kill(pid, SIGKILL);
		return 2;
	}
	printf("harness: creator thread %d held at PTRACE_EVENT_EXIT\n", tid);
	fflush(stdout);
	if (write(p_stopped[1], &c, 1) != 1)
		return 2;
	if (read(p_verdict[0], &c, 1) == 1)
		msleep(200);	/* the kill is still pending: C has not run it */
	/* let C finish exiting (fails harmlessly if a fix already killed it) */
	ptrace(PTRACE_DETACH, tid, 0, 0);
	for (;;) {
		pid_t w = waitpid(-1, &status, __WALL);

		if (w < 0)
			return 2;
		if (w != pid)
			continue;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 42) {
			printf("RESULT: BYPASS: the kill verdict was lost in the exiting creator; the process lived on\n");
			return 1;
		}
		if (WIFSIGNALED(status))
			printf("RESULT: ok: the process was killed by signal %d\n",
			       WTERMSIG(status));
		else
			printf("RESULT: inconclusive: exit status %d\n",
			       WEXITSTATUS(status));
		return 0;
	}
}
