/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scratch paths of the seccomp io_uring selftests: each test process has
 * its own, under /tmp, named after the program, its pid and the name the
 * test gives.
 */
#ifndef SECCOMP_URING_PATHS_H
#define SECCOMP_URING_PATHS_H

#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/stat.h>

/* how many tpath() results can be in use at once */
#define TPATH_SLOTS	16

/**
 * tpath - a fresh path for this test process, removed first
 * @name: what the test calls it
 *
 * Returns "/tmp/PROGRAM.PID.NAME", in one of TPATH_SLOTS static buffers.
 */
static inline const char *tpath(const char *name)
{
	static char buf[TPATH_SLOTS][128];
	static unsigned int next;
	char *p = buf[next++ % TPATH_SLOTS];

	snprintf(p, sizeof(buf[0]), "/tmp/%s.%d.%s",
		 program_invocation_short_name, getpid(), name);
	unlink(p);
	rmdir(p);
	return p;
}

/* whether anything, a dangling symlink included, is at @path */
static inline int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}
#endif
