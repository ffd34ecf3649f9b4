// SPDX-License-Identifier: GPL-2.0
/*
 * Walk an OCI/Docker-format seccomp profile and add its rules to a
 * libseccomp context. Every error names the file and the place in it
 * ("syscalls[3].names[1]"); unknown keys are errors too, so that a typo
 * never silently drops a rule.
 *
 * Two formats: Docker's (moby/profiles) and containers/common's (Podman,
 * /usr/share/containers/seccomp.json). A profile that uses an errno name
 * ("defaultErrno" or a rule's "errno", keys only containers/common knows)
 * is read as containers/common reads it, any other as Docker does; the
 * two differ in the precedence of errno names, minKernel and the native
 * architecture's name.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "profile.h"

#define PROFILE_MAX_BYTES (4 << 20)
#define PLACE_LEN 160
/* Conditions in one rule. */
#define MAX_CONDITIONS 64
#define MAX_ARGS 6

struct walk {
	const char *file;
	char place[PLACE_LEN];
	char *err;
	struct profile *p;
	unsigned int opts;
	uint32_t def_action;
	unsigned int unknown;		/* names left out (walk_name) */
	char unknown_names[PROFILE_ERR_LEN];
};

static const char *const io_uring_calls[] = {
	"io_uring_setup", "io_uring_enter", "io_uring_register", NULL,
};

__attribute__((format(printf, 2, 3)))
static int fail(struct walk *w, const char *fmt, ...)
{
	size_t len;
	va_list ap;

	snprintf(w->err, PROFILE_ERR_LEN, "%s: %s: ", w->file,
		 w->place[0] ? w->place : "top level");
	len = strlen(w->err);
	va_start(ap, fmt);
	vsnprintf(w->err + len, PROFILE_ERR_LEN - len, fmt, ap);
	va_end(ap);
	return -1;
}

/* Append to the current place; returns the length to restore. */
__attribute__((format(printf, 2, 3)))
static size_t enter(struct walk *w, const char *fmt, ...)
{
	size_t len = strlen(w->place);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->place + len, sizeof(w->place) - len, fmt, ap);
	va_end(ap);
	return len;
}

static void leave(struct walk *w, size_t len)
{
	w->place[len] = '\0';
}

/* Fail on any key of @obj not in the NULL-terminated @known. */
static int only_keys(struct walk *w, json_object *obj, const char *const *known)
{
	json_object_object_foreach(obj, key, val) {
		const char *const *k;

		(void)val;
		for (k = known; *k && strcmp(*k, key); k++)
			;
		if (!*k) {
			size_t len = enter(w, "%s%s", w->place[0] ? "." : "", key);
			int ret = fail(w, "unknown key");

			leave(w, len);
			return ret;
		}
	}
	return 0;
}

static json_object *get(json_object *obj, const char *key, json_type type,
			struct walk *w, int *bad)
{
	json_object *val;
	size_t len;

	if (!json_object_object_get_ex(obj, key, &val) || json_object_is_type(val, json_type_null))
		return NULL;
	if (json_object_is_type(val, type))
		return val;
	len = enter(w, "%s%s", w->place[0] ? "." : "", key);
	fail(w, "must be %s", type == json_type_string ? "a string" :
	     type == json_type_array ? "an array" :
	     type == json_type_object ? "an object" : "an integer");
	leave(w, len);
	*bad = 1;
	return NULL;
}

/* A non-negative integer key of @obj, at most @max; @def when absent. */
static int get_uint(struct walk *w, json_object *obj, const char *key,
		    uint64_t max, uint64_t def, uint64_t *out)
{
	int bad = 0;
	json_object *val = get(obj, key, json_type_int, w, &bad);
	size_t len;

	if (bad)
		return -1;
	if (!val) {
		*out = def;
		return 0;
	}
	len = enter(w, "%s%s", w->place[0] ? "." : "", key);
	if (json_object_get_int64(val) < 0)
		return fail(w, "must not be negative");
	*out = json_object_get_uint64(val);
	if (*out > max)
		return fail(w, "%llu is out of range (at most %llu)",
			    (unsigned long long)*out, (unsigned long long)max);
	leave(w, len);
	return 0;
}

static int add_arch(struct walk *w, json_object *name)
{
	uint32_t arch;
	int ret;

	if (!json_object_is_type(name, json_type_string))
		return fail(w, "must be a string");
	if (profile_arch(json_object_get_string(name), &arch))
		return fail(w, "unknown architecture \"%s\"", json_object_get_string(name));
	ret = seccomp_arch_add(w->p->ctx, arch);
	if (ret && ret != -EEXIST)
		return fail(w, "libseccomp cannot add it: %s", strerror(-ret));
	return 0;
}

static int walk_archmap_entry(struct walk *w, json_object *entry, int *done)
{
	static const char *const map_keys[] = { "architecture", "subArchitectures", NULL };
	int bad = 0;
	json_object *arch, *subs;
	uint32_t token;
	size_t j, len;

	if (!json_object_is_type(entry, json_type_object))
		return fail(w, "must be an object");
	if (only_keys(w, entry, map_keys))
		return -1;
	arch = get(entry, "architecture", json_type_string, w, &bad);
	subs = get(entry, "subArchitectures", json_type_array, w, &bad);
	if (bad)
		return -1;
	if (!arch)
		return fail(w, "has no \"architecture\"");
	len = enter(w, ".architecture");
	if (strncmp(json_object_get_string(arch), "SCMP_ARCH_", 10))
		return fail(w, "unknown architecture \"%s\"", json_object_get_string(arch));
	/*
	 * As Docker and containers/common: only the native architecture's
	 * entry counts (the first), with its sub-architectures; the others
	 * are not looked at (libseccomp may not even know them).
	 */
	if (*done || profile_arch(json_object_get_string(arch), &token) ||
	    token != seccomp_arch_native()) {
		leave(w, len);
		return 0;
	}
	*done = 1;
	if (add_arch(w, arch))
		return -1;
	leave(w, len);
	for (j = 0; subs && j < json_object_array_length(subs); j++) {
		len = enter(w, ".subArchitectures[%zu]", j);
		if (add_arch(w, json_object_array_get_idx(subs, j)))
			return -1;
		leave(w, len);
	}
	return 0;
}

static int walk_arches(struct walk *w, json_object *top)
{
	int bad = 0, done = 0;
	json_object *list = get(top, "architectures", json_type_array, w, &bad);
	json_object *map = get(top, "archMap", json_type_array, w, &bad);
	size_t i, len;

	if (bad)
		return -1;
	if (list && map && json_object_array_length(list) && json_object_array_length(map))
		return fail(w, "both \"architectures\" and \"archMap\" (Docker and containers/common refuse that too)");
	for (i = 0; list && i < json_object_array_length(list); i++) {
		len = enter(w, "architectures[%zu]", i);
		if (add_arch(w, json_object_array_get_idx(list, i)))
			return -1;
		leave(w, len);
	}
	for (i = 0; map && i < json_object_array_length(map); i++) {
		len = enter(w, "archMap[%zu]", i);
		if (walk_archmap_entry(w, json_object_array_get_idx(map, i), &done))
			return -1;
		leave(w, len);
	}
	return 0;
}

static int walk_flags(struct walk *w, json_object *top)
{
	int bad = 0;
	json_object *flags = get(top, "flags", json_type_array, w, &bad);
	size_t i, len;
	uint32_t flag;

	if (bad)
		return -1;
	for (i = 0; flags && i < json_object_array_length(flags); i++) {
		json_object *f = json_object_array_get_idx(flags, i);

		len = enter(w, "flags[%zu]", i);
		if (!json_object_is_type(f, json_type_string))
			return fail(w, "must be a string");
		if (profile_flag(json_object_get_string(f), &flag))
			return fail(w, "unknown or unsupported filter flag \"%s\"",
				    json_object_get_string(f));
		w->p->seccomp_flags |= flag;
		leave(w, len);
	}
	return 0;
}

/*
 * An action name plus its errno: @errno_key (a number), or in
 * containers/common's format @name_key ("ENOSYS"), which wins when both
 * are there, as in containers/common. EPERM when neither is, as in runc.
 */
static int walk_action(struct walk *w, json_object *obj, const char *key,
		       const char *errno_key, const char *name_key, uint32_t *action)
{
	int bad = 0;
	json_object *name = get(obj, key, json_type_string, w, &bad);
	json_object *ename = get(obj, name_key, json_type_string, w, &bad);
	uint64_t errno_ret;
	size_t len;

	if (bad)
		return -1;
	if (!name)
		return fail(w, "has no \"%s\"", key);
	if (get_uint(w, obj, errno_key, 4095, EPERM, &errno_ret))
		return -1;
	if (ename && json_object_get_string_len(ename)) {
		len = enter(w, "%s%s", w->place[0] ? "." : "", name_key);
		if (profile_errno(json_object_get_string(ename), &errno_ret))
			return fail(w, "unknown errno \"%s\"", json_object_get_string(ename));
		if (errno_ret > 4095)
			return fail(w, "%llu is out of range (at most 4095)",
				    (unsigned long long)errno_ret);
		leave(w, len);
	}
	len = enter(w, "%s%s", w->place[0] ? "." : "", key);
	if (!strcmp(json_object_get_string(name), "SCMP_ACT_NOTIFY"))
		return fail(w, "SCMP_ACT_NOTIFY needs a listener, which this launcher does not run");
	if (profile_action(json_object_get_string(name), (int64_t)errno_ret, action))
		return fail(w, "unknown action \"%s\"", json_object_get_string(name));
	leave(w, len);
	return 0;
}

static int walk_arg(struct walk *w, json_object *arg, struct scmp_arg_cmp *cmp)
{
	static const char *const keys[] = { "index", "value", "valueTwo", "op", NULL };
	uint64_t index, value, value_two;
	enum scmp_compare op;
	int bad = 0;
	json_object *name;
	size_t len;

	if (!json_object_is_type(arg, json_type_object))
		return fail(w, "must be an object");
	if (only_keys(w, arg, keys))
		return -1;
	if (!json_object_object_get_ex(arg, "index", NULL))
		return fail(w, "has no \"index\"");
	if (get_uint(w, arg, "index", 5, 0, &index) ||
	    get_uint(w, arg, "value", UINT64_MAX, 0, &value) ||
	    get_uint(w, arg, "valueTwo", UINT64_MAX, 0, &value_two))
		return -1;
	name = get(arg, "op", json_type_string, w, &bad);
	if (bad)
		return -1;
	if (!name)
		return fail(w, "has no \"op\"");
	len = enter(w, ".op");
	if (profile_operator(json_object_get_string(name), &op))
		return fail(w, "unknown operator \"%s\"", json_object_get_string(name));
	leave(w, len);
	/* For SCMP_CMP_MASKED_EQ, value is the mask and valueTwo the datum. */
	*cmp = (struct scmp_arg_cmp){ .arg = (unsigned int)index, .op = op,
				      .datum_a = value, .datum_b = value_two };
	return 0;
}

/*
 * Docker's includes/excludes, judged as Docker and containers/common do
 * for this process: an empty or absent list is no condition; "arches"
 * holds Go architecture names compared with the native one; "caps" with
 * what the command will hold (profile_has_cap); "minKernel" (Docker only)
 * with the running kernel. A rule is left out (*applies = 0) unless every
 * includes list holds (any arch, all caps) and no excludes list does (any
 * arch, any cap).
 */
static int walk_condition(struct walk *w, json_object *rule, const char *key,
			  int include, int *applies)
{
	static const char *const keys[] = { "arches", "caps", "minKernel", NULL };
	int bad = 0;
	json_object *cond = get(rule, key, json_type_object, w, &bad);
	json_object *arches, *caps, *min_kernel;
	size_t len, len2, i, narch, ncap;
	int any_arch = 0, all_caps = 1, any_cap = 0, hit;

	if (bad)
		return -1;
	if (!cond)
		return 0;
	len = enter(w, ".%s", key);
	if (only_keys(w, cond, keys))
		return -1;
	arches = get(cond, "arches", json_type_array, w, &bad);
	caps = get(cond, "caps", json_type_array, w, &bad);
	min_kernel = get(cond, "minKernel", json_type_string, w, &bad);
	if (bad)
		return -1;
	narch = arches ? json_object_array_length(arches) : 0;
	ncap = caps ? json_object_array_length(caps) : 0;
	for (i = 0; i < narch; i++) {
		json_object *a = json_object_array_get_idx(arches, i);
		const char *name;

		len2 = enter(w, ".arches[%zu]", i);
		if (!json_object_is_type(a, json_type_string))
			return fail(w, "must be a string");
		name = json_object_get_string(a);
		if (!strncmp(name, "SCMP_ARCH_", 10))
			return fail(w, "\"%s\": includes and excludes take Go architecture names such as \"amd64\" (Docker and Podman would never match this one)", name);
		hit = profile_arch_condition(name, w->p->podman);
		if (hit < 0)
			return fail(w, "unknown architecture \"%s\"", name);
		any_arch |= hit;
		leave(w, len2);
	}
	for (i = 0; i < ncap; i++) {
		json_object *c = json_object_array_get_idx(caps, i);

		len2 = enter(w, ".caps[%zu]", i);
		hit = json_object_is_type(c, json_type_string) ?
		      profile_has_cap(json_object_get_string(c)) : -1;
		if (hit < 0)
			return fail(w, "unknown capability");
		all_caps &= hit;
		any_cap |= hit;
		leave(w, len2);
	}
	if (min_kernel && json_object_get_string_len(min_kernel)) {
		len2 = enter(w, ".minKernel");
		if (w->p->podman)
			return fail(w, "minKernel is Docker's: containers/common, whose format this file uses (it has errno names), would ignore it");
		hit = profile_kernel_at_least(json_object_get_string(min_kernel));
		if (hit < 0)
			return fail(w, "must be \"MAJOR.MINOR\"");
		if (hit != include)
			*applies = 0;
		leave(w, len2);
	}
	if (include) {
		if ((narch && !any_arch) || (ncap && !all_caps))
			*applies = 0;
	} else if (any_arch || any_cap) {
		*applies = 0;
	}
	leave(w, len);
	return 0;
}

static int add_rule(struct walk *w, const char *name, int nr, uint32_t action,
		    unsigned int n, const struct scmp_arg_cmp *cmp)
{
	int ret = seccomp_rule_add_array(w->p->ctx, action, nr, n, cmp);

	if (ret)
		return fail(w, "libseccomp refused the rule for \"%s\": %s", name, strerror(-ret));
	w->p->rules++;
	return 0;
}

/*
 * How many rules @n conditions make: conditions on different arguments
 * are ANDed, several on the same argument ORed, so a0==3, a2==1, a2==2
 * is (a0==3 AND a2==1) OR (a0==3 AND a2==2): the product of the counts.
 */
static unsigned long long rule_product(unsigned int n, const struct scmp_arg_cmp *cmp)
{
	unsigned int count[MAX_ARGS] = { 0 };
	unsigned long long product = 1;

	for (unsigned int i = 0; i < n; i++)
		count[cmp[i].arg]++;
	for (unsigned int a = 0; a < MAX_ARGS; a++)
		product *= count[a] ? count[a] : 1;
	return product;
}

/* Add @name with @n conditions: one rule per combination (rule_product). */
static int add_rules(struct walk *w, const char *name, int nr, uint32_t action,
		     unsigned int n, const struct scmp_arg_cmp *cmp)
{
	const struct scmp_arg_cmp *by_arg[MAX_ARGS][MAX_CONDITIONS];
	unsigned int count[MAX_ARGS] = { 0 }, pick[MAX_ARGS] = { 0 };
	struct scmp_arg_cmp one[MAX_ARGS];
	unsigned int a, m;

	for (unsigned int i = 0; i < n; i++)
		by_arg[cmp[i].arg][count[cmp[i].arg]++] = &cmp[i];
	for (;;) {
		for (a = 0, m = 0; a < MAX_ARGS; a++)
			if (count[a])
				one[m++] = *by_arg[a][pick[a]];
		if (add_rule(w, name, nr, action, m, one))
			return -1;
		/* the next combination, the lowest argument changing fastest */
		for (a = 0; a < MAX_ARGS; a++) {
			if (count[a] && ++pick[a] < count[a])
				break;
			pick[a] = 0;
		}
		if (a == MAX_ARGS)
			return 0;
	}
}

/* Remember a name left out, for the warning profile_load prints. */
static void left_out(struct walk *w, const char *name)
{
	size_t len = strlen(w->unknown_names);

	snprintf(w->unknown_names + len, sizeof(w->unknown_names) - len, "%s%s (%s)",
		 w->unknown++ ? ", " : "", name, w->place);
}

static void warn_left_out(struct walk *w)
{
	const struct scmp_version *v = seccomp_version();

	if (w->unknown)
		fprintf(stderr, "uring-launch: warning: %s: libseccomp %u.%u.%u does not know %u system call%s of allow rules, left out (they get the default action, as with runc): %s\n",
			w->file, v->major, v->minor, v->micro, w->unknown,
			w->unknown == 1 ? "" : "s", w->unknown_names);
}

/*
 * One system call name of a rule, at the current place. Every name is
 * resolved, even in a rule left out by includes/excludes; a rule with the
 * default action changes nothing and is not added. A name libseccomp does
 * not know (newer than it) is left out of an allow rule, with a warning,
 * as runc leaves it out: it then gets the default action. In any other
 * rule it is an error, since leaving it out would let it through.
 * With --allow-io-uring the profile's own rules for io_uring_* are
 * replaced by the launcher's.
 */
static int walk_name(struct walk *w, json_object *name, int applies, uint32_t action,
		     unsigned int n, const struct scmp_arg_cmp *cmp)
{
	const char *s;
	int nr;

	if (!json_object_is_type(name, json_type_string))
		return fail(w, "must be a string");
	s = json_object_get_string(name);
	for (const char *const *io = io_uring_calls; w->opts & PROFILE_ALLOW_IO_URING && *io; io++)
		if (!strcmp(s, *io))
			return 0;
	nr = seccomp_syscall_resolve_name(s);
	if (nr == __NR_SCMP_ERROR) {
		if (action != SCMP_ACT_ALLOW && action != SCMP_ACT_LOG)
			return fail(w, "unknown system call \"%s\"", s);
		if (applies && action != w->def_action)
			left_out(w, s);
		return 0;
	}
	if (!applies || action == w->def_action)
		return 0;
	return add_rules(w, s, nr, action, n, cmp);
}

static int walk_rule(struct walk *w, json_object *rule)
{
	static const char *const keys[] = { "names", "name", "action", "errnoRet",
					    "errno", "args", "comment", "includes",
					    "excludes", NULL };
	struct scmp_arg_cmp cmp[MAX_CONDITIONS];
	int bad = 0, applies = 1;
	json_object *names, *name, *args;
	unsigned long long product;
	unsigned int n = 0;
	uint32_t action;
	size_t i, len;

	if (!json_object_is_type(rule, json_type_object))
		return fail(w, "must be an object");
	if (only_keys(w, rule, keys))
		return -1;
	names = get(rule, "names", json_type_array, w, &bad);
	name = get(rule, "name", json_type_string, w, &bad);
	args = get(rule, "args", json_type_array, w, &bad);
	if (bad)
		return -1;
	if (name && !json_object_get_string_len(name))
		name = NULL;
	if (name && names && json_object_array_length(names))
		return fail(w, "both \"name\" and \"names\" (Docker and containers/common refuse that too)");
	if (!names && !name)
		return fail(w, "has no \"names\"");
	if (walk_action(w, rule, "action", "errnoRet", "errno", &action))
		return -1;
	if (args && json_object_array_length(args) > MAX_CONDITIONS) {
		enter(w, ".args");
		return fail(w, "has more than %d conditions", MAX_CONDITIONS);
	}
	for (i = 0; args && i < json_object_array_length(args); i++) {
		len = enter(w, ".args[%zu]", i);
		if (walk_arg(w, json_object_array_get_idx(args, i), &cmp[n++]))
			return -1;
		leave(w, len);
	}
	product = rule_product(n, cmp);
	if (product > PROFILE_MAX_PRODUCT) {
		enter(w, ".args");
		return fail(w, "ORs on the same argument ANDed across arguments make %llu rules, more than %d",
			    product, PROFILE_MAX_PRODUCT);
	}
	if (walk_condition(w, rule, "includes", 1, &applies) ||
	    walk_condition(w, rule, "excludes", 0, &applies))
		return -1;
	if (name) {
		len = enter(w, ".name");
		if (walk_name(w, name, applies, action, n, cmp))
			return -1;
		leave(w, len);
	}
	for (i = 0; names && i < json_object_array_length(names); i++) {
		len = enter(w, ".names[%zu]", i);
		if (walk_name(w, json_object_array_get_idx(names, i), applies, action, n, cmp))
			return -1;
		leave(w, len);
	}
	return 0;
}

/* Does the profile use containers/common's errno names? */
static int uses_errno_names(json_object *top)
{
	json_object *rules, *rule;

	if (json_object_object_get_ex(top, "defaultErrno", NULL))
		return 1;
	if (!json_object_object_get_ex(top, "syscalls", &rules) ||
	    !json_object_is_type(rules, json_type_array))
		return 0;
	for (size_t i = 0; i < json_object_array_length(rules); i++) {
		rule = json_object_array_get_idx(rules, i);
		if (json_object_is_type(rule, json_type_object) &&
		    json_object_object_get_ex(rule, "errno", NULL))
			return 1;
	}
	return 0;
}

/* --allow-io-uring: the three io_uring system calls, unconditionally. */
static int allow_io_uring(struct walk *w)
{
	size_t len = enter(w, "--allow-io-uring");

	for (const char *const *io = io_uring_calls; *io; io++) {
		if (w->def_action == SCMP_ACT_ALLOW)
			break;
		if (add_rule(w, *io, seccomp_syscall_resolve_name(*io), SCMP_ACT_ALLOW, 0, NULL))
			return -1;
	}
	leave(w, len);
	return 0;
}

static int walk_profile(struct walk *w, json_object *top)
{
	static const char *const keys[] = { "defaultAction", "defaultErrnoRet",
					    "defaultErrno", "architectures", "archMap",
					    "syscalls", "flags", "comment", "listenerPath",
					    "listenerMetadata", NULL };
	int bad = 0;
	json_object *rules;
	size_t i, len;

	if (!json_object_is_type(top, json_type_object))
		return fail(w, "a profile must be a JSON object");
	if (only_keys(w, top, keys))
		return -1;
	if (json_object_object_get_ex(top, "listenerPath", NULL) ||
	    json_object_object_get_ex(top, "listenerMetadata", NULL))
		return fail(w, "listenerPath: SCMP_ACT_NOTIFY listeners are not supported");
	w->p->podman = uses_errno_names(top);
	if (walk_action(w, top, "defaultAction", "defaultErrnoRet", "defaultErrno",
			&w->def_action))
		return -1;
	w->p->ctx = seccomp_init(w->def_action);
	if (!w->p->ctx)
		return fail(w, "libseccomp cannot start a filter");
	if (walk_arches(w, top) || walk_flags(w, top))
		return -1;
	rules = get(top, "syscalls", json_type_array, w, &bad);
	if (bad)
		return -1;
	for (i = 0; rules && i < json_object_array_length(rules); i++) {
		len = enter(w, "syscalls[%zu]", i);
		if (walk_rule(w, json_object_array_get_idx(rules, i)))
			return -1;
		leave(w, len);
	}
	return w->opts & PROFILE_ALLOW_IO_URING ? allow_io_uring(w) : 0;
}

static char *read_file(struct walk *w, size_t *size)
{
	FILE *f = fopen(w->file, "r");
	char *buf;

	if (!f) {
		fail(w, "cannot open: %s", strerror(errno));
		return NULL;
	}
	buf = malloc(PROFILE_MAX_BYTES + 1);
	*size = buf ? fread(buf, 1, PROFILE_MAX_BYTES + 1, f) : 0;
	if (!buf || ferror(f) || *size > PROFILE_MAX_BYTES) {
		fail(w, buf && !ferror(f) ? "larger than 4 MiB" : "cannot read: %s",
		     strerror(errno));
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Line and column of @buf[@end]. */
static void position(const char *buf, size_t end, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < end; i++) {
		*col = buf[i] == '\n' ? 1 : *col + 1;
		*line += buf[i] == '\n';
	}
}

__attribute__((format(printf, 4, 5)))
static void fail_at(struct walk *w, const char *buf, size_t at, const char *fmt, ...)
{
	size_t line, col, len;
	va_list ap;

	position(buf, at, &line, &col);
	snprintf(w->err, PROFILE_ERR_LEN, "%s:%zu:%zu: malformed JSON: ", w->file, line, col);
	len = strlen(w->err);
	va_start(ap, fmt);
	vsnprintf(w->err + len, PROFILE_ERR_LEN - len, fmt, ap);
	va_end(ap);
}

/* The keys of one open object: where each starts, in @buf. */
struct keys {
	size_t n, cap;
	size_t *at;
	char **name;
};

/* The string literal at @buf[@at], decoded (json-c unescapes it). */
static char *decode_key(const char *buf, size_t at, size_t end)
{
	char *lit = strndup(buf + at, end - at);
	json_object *s = lit ? json_tokener_parse(lit) : NULL;
	char *name = s ? strdup(json_object_get_string(s)) : NULL;

	json_object_put(s);
	free(lit);
	return name;
}

/*
 * json-c keeps the last of two equal keys; Docker's and Podman's Go
 * decoders do too. A profile with one is refused instead: its author
 * meant one of the two. @buf is already known to be valid JSON.
 */
static int check_duplicate_keys(struct walk *w, const char *buf, size_t size)
{
	struct keys stack[JSON_TOKENER_DEFAULT_DEPTH + 1];
	int depth = -1, object[JSON_TOKENER_DEFAULT_DEPTH + 1], ret = 0;
	int want_key = 0;
	size_t i, end, k;

	for (i = 0; i < size && !ret; i++) {
		switch (buf[i]) {
		case '{':
		case '[':
			if (depth + 1 > JSON_TOKENER_DEFAULT_DEPTH)
				break;
			stack[++depth] = (struct keys){ 0 };
			object[depth] = buf[i] == '{';
			want_key = object[depth];
			break;
		case '}':
		case ']':
			for (k = 0; depth >= 0 && k < stack[depth].n; k++)
				free(stack[depth].name[k]);
			if (depth >= 0) {
				free(stack[depth].name);
				free(stack[depth].at);
				depth--;
			}
			want_key = 0;
			break;
		case ',':
			want_key = depth >= 0 && object[depth];
			break;
		case '"':
			for (end = i + 1; end < size && buf[end] != '"'; end++)
				end += buf[end] == '\\';
			if (want_key && depth >= 0) {
				struct keys *o = &stack[depth];
				char *name = decode_key(buf, i, end + 1);

				for (k = 0; name && k < o->n && strcmp(o->name[k], name); k++)
					;
				if (!name) {
					fail_at(w, buf, i, "out of memory");
					ret = -1;
				} else if (k < o->n) {
					size_t line, col;

					position(buf, o->at[k], &line, &col);
					fail_at(w, buf, i, "duplicate key \"%s\" (first at %zu:%zu)",
						name, line, col);
					free(name);
					ret = -1;
				} else {
					if (o->n == o->cap) {
						o->cap = o->cap ? 2 * o->cap : 8;
						o->at = realloc(o->at, o->cap * sizeof(*o->at));
						o->name = realloc(o->name, o->cap * sizeof(*o->name));
						if (!o->at || !o->name)
							abort();
					}
					o->at[o->n] = i;
					o->name[o->n++] = name;
				}
				want_key = 0;
			}
			i = end;
			break;
		}
	}
	for (; depth >= 0; depth--) {
		for (k = 0; k < stack[depth].n; k++)
			free(stack[depth].name[k]);
		free(stack[depth].name);
		free(stack[depth].at);
	}
	return ret;
}

/*
 * Parse @buf as strict JSON (no comments, trailing commas, single quotes
 * or bad UTF-8, one value, no duplicate keys); on an error name the line
 * and column.
 */
static json_object *parse(struct walk *w, const char *buf, size_t size)
{
	struct json_tokener *tok = json_tokener_new_ex(JSON_TOKENER_DEFAULT_DEPTH);
	enum json_tokener_error jerr;
	json_object *top;
	size_t end;

	if (!tok) {
		fail(w, "out of memory");
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_ALLOW_TRAILING_CHARS |
				    JSON_TOKENER_VALIDATE_UTF8);
	top = json_tokener_parse_ex(tok, buf, (int)size);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (!top && jerr == json_tokener_continue)
		jerr = json_tokener_error_parse_eof;
	while (top && end < size && strchr(" \t\r\n", buf[end]))
		end++;
	if (top && end < size) {
		json_object_put(top);
		top = NULL;
		jerr = json_tokener_error_parse_unexpected;
	}
	if (!top)
		fail_at(w, buf, end < size ? end : size, "%s", json_tokener_error_desc(jerr));
	else if (check_duplicate_keys(w, buf, size)) {
		json_object_put(top);
		top = NULL;
	}
	json_tokener_free(tok);
	return top;
}

int profile_load(const char *path, unsigned int opts, struct profile *p,
		 char err[PROFILE_ERR_LEN])
{
	struct walk w = { .file = path, .err = err, .p = p, .opts = opts };
	json_object *top;
	size_t size;
	char *buf;
	int ret = -1;

	*p = (struct profile){ 0 };
	buf = read_file(&w, &size);
	if (!buf)
		return -1;
	top = parse(&w, buf, size);
	free(buf);
	if (top) {
		ret = walk_profile(&w, top);
		json_object_put(top);
	}
	if (ret)
		profile_free(p);
	else
		warn_left_out(&w);
	return ret;
}

void profile_free(struct profile *p)
{
	if (p->ctx)
		seccomp_release(p->ctx);
	p->ctx = NULL;
}
