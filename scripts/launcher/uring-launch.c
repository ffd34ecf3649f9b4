// SPDX-License-Identifier: GPL-2.0
/*
 * uring-launch - run a command under an OCI/Docker-format seccomp profile
 * that also judges the command's io_uring operations.
 *
 *   uring-launch [--check] [--allow-io-uring] --profile FILE.json -- CMD [ARGS...]
 *
 * The profile is parsed and built into one filter in memory; only then is
 * no_new_privs set and the filter loaded, once, with
 * SECCOMP_FILTER_FLAG_URING (plus the profile's "flags"), and CMD executed.
 * A bad profile is reported with its file and place and nothing is loaded.
 * --check stops after building and prints the filter's size.
 * --allow-io-uring allows io_uring_setup, io_uring_enter and
 * io_uring_register whatever the profile says about them (Docker's and
 * Podman's defaults refuse them): CMD can then submit SQEs, and the
 * profile's rules judge each SQE as its twin system call.
 *
 * Exit status: CMD's, or 2 for a bad command line or profile, 3 when the
 * kernel refuses the filter, 127 when CMD cannot be executed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#define URING_SECCOMP_LIBSECCOMP
#include "uring_seccomp.h"

enum {
	EXIT_USAGE = 2,
	EXIT_LOAD = 3,
	EXIT_EXEC = 127,
};

static void usage(FILE *to)
{
	fprintf(to, "usage: uring-launch [--check] [--allow-io-uring] --profile FILE.json -- CMD [ARGS...]\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "profile", required_argument, NULL, 'p' },
		{ "check", no_argument, NULL, 'c' },
		{ "allow-io-uring", no_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char err[PROFILE_ERR_LEN];
	const char *path = NULL;
	struct profile p;
	unsigned int opts = 0;
	int opt, check = 0, ret;

	while ((opt = getopt_long(argc, argv, "+p:ch", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			path = optarg;
			break;
		case 'c':
			check = 1;
			break;
		case 'u':
			opts |= PROFILE_ALLOW_IO_URING;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (!path || (!check && optind >= argc)) {
		fprintf(stderr, "uring-launch: %s\n",
			path ? "no command given" : "--profile is required");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (profile_load(path, opts, &p, err)) {
		fprintf(stderr, "uring-launch: %s\n", err);
		return EXIT_USAGE;
	}
	if (check) {
		printf("%s: %s format, %u rules, %s\n", path,
		       p.podman ? "containers/common" : "Docker", p.rules,
		       uring_seccomp_supported() ? "io_uring judged" :
		       "this kernel has no SECCOMP_FILTER_FLAG_URING");
		profile_free(&p);
		return 0;
	}
	if (!uring_seccomp_supported()) {
		fprintf(stderr, "uring-launch: this kernel has no SECCOMP_FILTER_FLAG_URING: "
			"io_uring would bypass the profile, so nothing is run\n");
		profile_free(&p);
		return EXIT_LOAD;
	}
	ret = uring_seccomp_load(p.ctx, SECCOMP_FILTER_FLAG_URING | p.seccomp_flags);
	profile_free(&p);
	if (ret < 0) {
		fprintf(stderr, "uring-launch: %s: the kernel refused the filter: %s\n",
			path, strerror(-ret));
		return EXIT_LOAD;
	}
	execvp(argv[optind], argv + optind);
	fprintf(stderr, "uring-launch: %s: %s\n", argv[optind], strerror(errno));
	return EXIT_EXEC;
}
