// SPDX-License-Identifier: GPL-2.0
/*
 * The names an OCI seccomp profile uses (actions, operators,
 * architectures, filter flags, capabilities) and what they mean here.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/utsname.h>
#include <linux/seccomp.h>

#include "profile.h"

int profile_action(const char *name, int64_t errno_ret, uint32_t *action)
{
	if (!strcmp(name, "SCMP_ACT_ALLOW"))
		*action = SCMP_ACT_ALLOW;
	else if (!strcmp(name, "SCMP_ACT_LOG"))
		*action = SCMP_ACT_LOG;
	else if (!strcmp(name, "SCMP_ACT_ERRNO"))
		*action = SCMP_ACT_ERRNO((uint16_t)errno_ret);
	else if (!strcmp(name, "SCMP_ACT_TRAP"))
		*action = SCMP_ACT_TRAP;
	else if (!strcmp(name, "SCMP_ACT_TRACE"))
		*action = SCMP_ACT_TRACE((uint16_t)errno_ret);
	/* As in runc: SCMP_ACT_KILL is the thread-killing action. */
	else if (!strcmp(name, "SCMP_ACT_KILL") ||
		 !strcmp(name, "SCMP_ACT_KILL_THREAD"))
		*action = SCMP_ACT_KILL_THREAD;
	else if (!strcmp(name, "SCMP_ACT_KILL_PROCESS"))
		*action = SCMP_ACT_KILL_PROCESS;
	else
		return -1;
	return 0;
}

int profile_operator(const char *name, enum scmp_compare *op)
{
	static const struct {
		const char *name;
		enum scmp_compare op;
	} ops[] = {
		{ "SCMP_CMP_NE", SCMP_CMP_NE },
		{ "SCMP_CMP_LT", SCMP_CMP_LT },
		{ "SCMP_CMP_LE", SCMP_CMP_LE },
		{ "SCMP_CMP_EQ", SCMP_CMP_EQ },
		{ "SCMP_CMP_GE", SCMP_CMP_GE },
		{ "SCMP_CMP_GT", SCMP_CMP_GT },
		{ "SCMP_CMP_MASKED_EQ", SCMP_CMP_MASKED_EQ },
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (!strcmp(name, ops[i].name)) {
			*op = ops[i].op;
			return 0;
		}
	}
	return -1;
}

/* "SCMP_ARCH_X86_64" -> libseccomp's "x86_64". */
int profile_arch(const char *name, uint32_t *arch)
{
	static const char prefix[] = "SCMP_ARCH_";
	char lower[32];
	size_t i, n;

	if (strncmp(name, prefix, sizeof(prefix) - 1))
		return -1;
	name += sizeof(prefix) - 1;
	n = strlen(name);
	if (!n || n >= sizeof(lower))
		return -1;
	for (i = 0; i <= n; i++)
		lower[i] = (char)tolower((unsigned char)name[i]);
	*arch = seccomp_arch_resolve_name(lower);
	return *arch ? 0 : -1;
}

int profile_flag(const char *name, uint32_t *flag)
{
	if (!strcmp(name, "SECCOMP_FILTER_FLAG_LOG"))
		*flag = SECCOMP_FILTER_FLAG_LOG;
	else if (!strcmp(name, "SECCOMP_FILTER_FLAG_SPEC_ALLOW"))
		*flag = SECCOMP_FILTER_FLAG_SPEC_ALLOW;
	else
		return -1;
	return 0;
}

int profile_has_cap(const char *name)
{
	cap_flag_value_t set = CAP_CLEAR;
	cap_value_t cap;
	cap_t caps;

	if (strncmp(name, "CAP_", 4) || cap_from_name(name, &cap))
		return -1;
	caps = cap_get_proc();
	if (!caps)
		return 0;
	cap_get_flag(caps, cap, CAP_EFFECTIVE, &set);
	cap_free(caps);
	return set == CAP_SET;
}

int profile_kernel_at_least(const char *version)
{
	unsigned int want_major, want_minor, major, minor;
	struct utsname u;
	char end;

	if (sscanf(version, "%u.%u%c", &want_major, &want_minor, &end) != 2)
		return -1;
	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return 0;
	return major > want_major ||
	       (major == want_major && minor >= want_minor);
}
