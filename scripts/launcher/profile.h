/* SPDX-License-Identifier: GPL-2.0 */
/*
 * profile.h - turn an OCI/Docker-format seccomp profile (JSON) into a
 * libseccomp filter.
 *
 * The whole profile is parsed and every rule added to an in-memory
 * libseccomp context before anything is loaded, so a bad profile never
 * leaves a filter loaded half-way: the caller loads the result with one
 * seccomp(2) call, or nothing.
 */
#ifndef URING_LAUNCH_PROFILE_H
#define URING_LAUNCH_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <seccomp.h>

/* Room for "FILE:PLACE: what is wrong". */
#define PROFILE_ERR_LEN 512

/* Conditions one rule may expand to (the product of its per-argument ORs). */
#define PROFILE_MAX_PRODUCT 64

/* profile_load options */
#define PROFILE_ALLOW_IO_URING 0x1	/* allow io_uring_setup/enter/register */

struct profile {
	scmp_filter_ctx ctx;	/* the filter, not loaded */
	uint32_t seccomp_flags;	/* SECCOMP_FILTER_FLAG_* the profile asks for */
	unsigned int rules;	/* libseccomp rules added */
	int podman;		/* read as containers/common's format */
};

/*
 * profile_load - parse the profile at @path into @p.
 * @opts: PROFILE_* options
 * @err gets a message naming the file and the place in it on failure.
 * Names libseccomp does not know in allow rules are reported on stderr.
 *
 * Returns 0, or -1 with @err set; nothing is left allocated then.
 */
int profile_load(const char *path, unsigned int opts, struct profile *p,
		 char err[PROFILE_ERR_LEN]);
void profile_free(struct profile *p);

/*
 * The names a profile uses, resolved. Each returns 0 and fills its out
 * parameter, or -1 for a name it does not know.
 */
int profile_action(const char *name, int64_t errno_ret, uint32_t *action);
int profile_operator(const char *name, enum scmp_compare *op);
int profile_arch(const char *name, uint32_t *arch);
int profile_flag(const char *name, uint32_t *flag);
/*
 * Will the command hold capability @name (CAP_*) after uring-launch
 * executes it? -1: unknown name.
 */
int profile_has_cap(const char *name);
/* Is the running kernel at least @version ("MAJOR.MINOR")? -1: malformed. */
int profile_kernel_at_least(const char *version);
/*
 * Does the includes/excludes architecture name @name match the native
 * architecture, as Docker (@podman 0) or containers/common (1) compare?
 * -1: a name neither runtime uses.
 */
int profile_arch_condition(const char *name, int podman);
/* An errno name ("ENOSYS") or decimal string; -1: unknown. */
int profile_errno(const char *name, uint64_t *value);

#endif
