// SPDX-License-Identifier: GPL-2.0
/*
 * The names an OCI seccomp profile uses (actions, operators,
 * architectures, filter flags, capabilities) and what they mean here.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <linux/securebits.h>
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
	/* runc accepts it (and always synchronises threads anyway). */
	else if (!strcmp(name, "SECCOMP_FILTER_FLAG_TSYNC"))
		*flag = SECCOMP_FILTER_FLAG_TSYNC;
	else
		return -1;
	return 0;
}

/*
 * Docker and containers/common judge "caps" against the container's
 * bounding set: the capabilities its processes can hold. Here that is what
 * the command will hold once uring-launch executes it: for root (without
 * SECBIT_NOROOT) every capability of the bounding or the inheritable set,
 * for anyone else the ambient set.
 */
int profile_has_cap(const char *name)
{
	cap_flag_value_t inh = CAP_CLEAR;
	cap_value_t cap;
	cap_t caps;
	int bits;

	if (strncmp(name, "CAP_", 4) || cap_from_name(name, &cap))
		return -1;
	bits = prctl(PR_GET_SECUREBITS);
	if (geteuid() || (bits > 0 && (bits & SECBIT_NOROOT)))
		return cap_get_ambient(cap) == 1;
	if (cap_get_bound(cap) == 1)
		return 1;
	caps = cap_get_proc();
	if (!caps)
		return 0;
	cap_get_flag(caps, cap, CAP_INHERITABLE, &inh);
	cap_free(caps);
	return inh == CAP_SET;
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

/*
 * The names includes/excludes "arches" may hold: what Docker
 * (moby/profiles, from Go's GOARCH) and containers/common (libseccomp's
 * own names) call the native architecture, and Go's GOARCH names. A rule
 * matches when a name equals the native name of the runtime whose file it
 * is, exactly as those runtimes compare.
 */
static const struct arch_name {
	uint32_t arch;
	const char *docker, *podman;
} arch_names[] = {
	{ SCMP_ARCH_X86_64, "amd64", "amd64" },
	{ SCMP_ARCH_X86, "x86", "x86" },
	{ SCMP_ARCH_X32, NULL, "x32" },
	{ SCMP_ARCH_AARCH64, "arm64", "arm64" },
	{ SCMP_ARCH_ARM, "arm", "arm" },
	{ SCMP_ARCH_MIPS, NULL, "mips" },
	{ SCMP_ARCH_MIPS64, "mips64", "mips64" },
	{ SCMP_ARCH_MIPS64N32, "mips64n32", "mips64n32" },
	{ SCMP_ARCH_MIPSEL, "mipsel", "mipsel" },
	{ SCMP_ARCH_MIPSEL64, "mipsel64", "mipsel64" },
	/* sic: Docker's table spells it so */
	{ SCMP_ARCH_MIPSEL64N32, "mips3l64n32", "mipsel64n32" },
	{ SCMP_ARCH_PPC, "ppc", "ppc" },
	{ SCMP_ARCH_PPC64, "ppc64", "ppc64" },
	{ SCMP_ARCH_PPC64LE, "ppc64le", "ppc64le" },
	{ SCMP_ARCH_S390, "s390", "s390" },
	{ SCMP_ARCH_S390X, "s390x", "s390x" },
	{ SCMP_ARCH_PARISC, NULL, "parisc" },
	{ SCMP_ARCH_PARISC64, NULL, "parisc64" },
	{ SCMP_ARCH_RISCV64, "riscv64", "riscv64" },
};

/* Names no native architecture is called but a profile may use. */
static const char *const other_arch_names[] = {
	"386", "loong64", "loongarch64", "mipsle", "mips64le", "mips64p32",
	"mips64p32le", NULL,
};

int profile_arch_condition(const char *name, int podman)
{
	const char *native = NULL;
	int known = 0;

	for (size_t i = 0; i < sizeof(arch_names) / sizeof(arch_names[0]); i++) {
		const struct arch_name *a = &arch_names[i];

		known |= (a->docker && !strcmp(a->docker, name)) ||
			 (a->podman && !strcmp(a->podman, name));
		if (a->arch == seccomp_arch_native())
			native = podman ? a->podman : a->docker;
	}
	for (size_t i = 0; other_arch_names[i]; i++)
		known |= !strcmp(other_arch_names[i], name);
	if (!known)
		return -1;
	return native && !strcmp(native, name);
}

/* "ENOSYS" (or "38", as containers/common also takes) -> 38. */
int profile_errno(const char *name, uint64_t *value)
{
	static const struct {
		const char *alias;
		int value;
	} aliases[] = {
		{ "EWOULDBLOCK", EWOULDBLOCK },
		{ "EDEADLOCK", EDEADLOCK },
		{ "ENOTSUP", ENOTSUP },
	};
	char *end;

	if (name[0] >= '0' && name[0] <= '9') {
		errno = 0;
		*value = strtoull(name, &end, 10);
		return *end || errno ? -1 : 0;
	}
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (!strcmp(name, aliases[i].alias)) {
			*value = (uint64_t)aliases[i].value;
			return 0;
		}
	}
	for (int e = 1; e < 4096; e++) {
		const char *n = strerrorname_np(e);

		if (n && !strcmp(n, name)) {
			*value = (uint64_t)e;
			return 0;
		}
	}
	return -1;
}
