// SPDX-License-Identifier: GPL-2.0
/* Running one measurement or check in a fresh process: see bench_child.h */
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>

#include "bench_child.h"

int bench_in_child(int (*fn)(void *arg), void *arg, const char *what)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		status = fn(arg);
		fflush(stdout);
		_exit(status);
	}
	if (waitpid(pid, &status, 0) != pid)
		return 1;
	if (what && WIFSIGNALED(status))
		printf("# %s: the child died of signal %d\n", what,
		       WTERMSIG(status));
	return !WIFEXITED(status) || WEXITSTATUS(status);
}
