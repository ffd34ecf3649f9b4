/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A filtered child stopped for the test to look at: its filter and flags
 * through ptrace, or its action cache through /proc/PID/seccomp_cache.
 */
#ifndef SECCOMP_URING_STOPPED_H
#define SECCOMP_URING_STOPPED_H

#include <signal.h>
#include <stdbool.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <linux/filter.h>

#include "uring_filter.h"

/**
 * filtered_stopped - a child that loads @insns with @flags and stops
 * @traced: the child asks to be traced by the test (PTRACE_TRACEME) first
 *
 * Returns its pid once it has stopped, or -1 if it did not get there.
 */
static inline pid_t filtered_stopped(struct sock_filter *insns,
				     unsigned short len, unsigned int flags,
				     bool traced)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (traced && ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(2);
		if (load_insns(insns, len, flags) < 0)
			_exit(2);
		raise(SIGSTOP);
		for (;;)
			pause();
	}
	if (pid < 0 || waitpid(pid, &status, WUNTRACED) != pid)
		return -1;
	if (!WIFSTOPPED(status))
		return -1;
	return pid;
}

/* reap - kill and wait for a child of filtered_stopped() */
static inline void reap(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

#endif
