// SPDX-License-Identifier: GPL-2.0
/*
 * launch-probe - the launcher suite's helper.
 *
 *   launch-probe drop CAP[,CAP...] -- CMD [ARGS...]
 *	drop the capabilities from every set (bounding, inheritable,
 *	permitted, effective, ambient) and execute CMD: CMD, and anything
 *	it executes, runs without them, even as root.
 *   launch-probe call NAME[:A0,A1,...] ...
 *	make each system call with the given arguments (numbers, missing
 *	ones 0) and print "NAME=ok" or "NAME=-ERRNO", one a line.
 *
 * The suite runs "launch-probe call" under uring-launch, so that each
 * line shows what the profile answered for that call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <seccomp.h>
#include <sys/capability.h>
#include <sys/prctl.h>

static int drop(char *list, char **cmd)
{
	cap_value_t caps[64];
	int n = 0;
	cap_t now;

	for (char *name = strtok(list, ","); name; name = strtok(NULL, ",")) {
		if (n == 64 || cap_from_name(name, &caps[n])) {
			fprintf(stderr, "launch-probe: unknown capability %s\n", name);
			return 2;
		}
		if (prctl(PR_CAPBSET_DROP, caps[n], 0, 0, 0)) {
			perror("launch-probe: PR_CAPBSET_DROP");
			return 2;
		}
		n++;
	}
	now = cap_get_proc();
	if (!now || cap_set_flag(now, CAP_INHERITABLE, n, caps, CAP_CLEAR) ||
	    cap_set_flag(now, CAP_PERMITTED, n, caps, CAP_CLEAR) ||
	    cap_set_flag(now, CAP_EFFECTIVE, n, caps, CAP_CLEAR) || cap_set_proc(now) ||
	    cap_reset_ambient()) {
		perror("launch-probe: dropping capabilities");
		return 2;
	}
	cap_free(now);
	execvp(cmd[0], cmd);
	perror(cmd[0]);
	return 127;
}

static int call(const char *spec)
{
	char name[64], *args, *end;
	long a[6] = { 0 }, ret;
	int nr, i = 0;

	snprintf(name, sizeof(name), "%s", spec);
	args = strchr(name, ':');
	if (args)
		*args++ = '\0';
	while (args && *args && i < 6) {
		a[i++] = strtol(args, &end, 0);
		args = *end == ',' ? end + 1 : end;
	}
	nr = seccomp_syscall_resolve_name(name);
	if (nr < 0) {
		fprintf(stderr, "launch-probe: unknown system call %s\n", name);
		return 2;
	}
	ret = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (ret < 0)
		printf("%s=-%s\n", name, strerrorname_np(errno) ?: "E?");
	else
		printf("%s=ok\n", name);
	return 0;
}

int main(int argc, char **argv)
{
	int ret = 0;

	if (argc >= 5 && !strcmp(argv[1], "drop") && !strcmp(argv[3], "--"))
		return drop(argv[2], argv + 4);
	if (argc >= 3 && !strcmp(argv[1], "call")) {
		for (int i = 2; i < argc && !ret; i++)
			ret = call(argv[i]);
		return ret;
	}
	fprintf(stderr, "usage: launch-probe drop CAP[,CAP...] -- CMD [ARGS...]\n"
			"       launch-probe call NAME[:A0,A1,...] ...\n");
	return 2;
}
