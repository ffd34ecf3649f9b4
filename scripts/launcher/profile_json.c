// SPDX-License-Identifier: GPL-2.0
/*
 * Walk an OCI/Docker-format seccomp profile and add its rules to a
 * libseccomp context. Every error names the file and the place in it
 * ("syscalls[3].names[1]"); unknown keys are errors too, so that a typo
 * never silently drops a rule.
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
/* Conditions in one rule: distinct arguments are at most 6 anyway. */
#define MAX_CONDITIONS 64

struct walk {
	const char *file;
	char place[PLACE_LEN];
	char *err;
	struct profile *p;
	uint32_t def_action;
	int64_t def_errno;
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

static int walk_arches(struct walk *w, json_object *top)
{
	static const char *const map_keys[] = { "architecture", "subArchitectures", NULL };
	int bad = 0;
	json_object *list = get(top, "architectures", json_type_array, w, &bad);
	json_object *map = get(top, "archMap", json_type_array, w, &bad);
	size_t i, j, len, len2;

	if (bad)
		return -1;
	for (i = 0; list && i < json_object_array_length(list); i++) {
		len = enter(w, "architectures[%zu]", i);
		if (add_arch(w, json_object_array_get_idx(list, i)))
			return -1;
		leave(w, len);
	}
	/* Docker's archMap: each architecture with its sub-architectures. */
	for (i = 0; map && i < json_object_array_length(map); i++) {
		json_object *entry = json_object_array_get_idx(map, i), *arch, *subs;

		len = enter(w, "archMap[%zu]", i);
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
		len2 = enter(w, ".architecture");
		if (add_arch(w, arch))
			return -1;
		leave(w, len2);
		for (j = 0; subs && j < json_object_array_length(subs); j++) {
			len2 = enter(w, ".subArchitectures[%zu]", j);
			if (add_arch(w, json_object_array_get_idx(subs, j)))
				return -1;
			leave(w, len2);
		}
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

/* An action name plus its errnoRet; @errno_def when errnoRet is absent. */
static int walk_action(struct walk *w, json_object *obj, const char *key,
		       const char *errno_key, int64_t errno_def, uint32_t *action)
{
	int bad = 0;
	json_object *name = get(obj, key, json_type_string, w, &bad);
	uint64_t errno_ret;
	size_t len;

	if (bad)
		return -1;
	if (!name)
		return fail(w, "has no \"%s\"", key);
	if (get_uint(w, obj, errno_key, 4095, (uint64_t)errno_def, &errno_ret))
		return -1;
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
 * Docker's includes/excludes, judged for this process: the native
 * architecture, the launcher's effective capabilities, the running kernel.
 * Sets *applies to 0 when the rule is left out.
 */
static int walk_condition(struct walk *w, json_object *rule, const char *key,
			  int include, int *applies)
{
	static const char *const keys[] = { "arches", "caps", "minKernel", NULL };
	int bad = 0;
	json_object *cond = get(rule, key, json_type_object, w, &bad);
	json_object *arches, *caps, *min_kernel;
	size_t len, len2, i;
	int any_arch = 0, all_caps = 1, any_cap = 0, hit;
	uint32_t arch;

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
	for (i = 0; arches && i < json_object_array_length(arches); i++) {
		json_object *a = json_object_array_get_idx(arches, i);

		len2 = enter(w, ".arches[%zu]", i);
		if (!json_object_is_type(a, json_type_string) ||
		    profile_arch(json_object_get_string(a), &arch))
			return fail(w, "unknown architecture");
		any_arch |= arch == seccomp_arch_native();
		leave(w, len2);
	}
	for (i = 0; caps && i < json_object_array_length(caps); i++) {
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
	if (min_kernel) {
		len2 = enter(w, ".minKernel");
		if (!include)
			return fail(w, "only \"includes\" may have minKernel");
		hit = profile_kernel_at_least(json_object_get_string(min_kernel));
		if (hit < 0)
			return fail(w, "must be \"MAJOR.MINOR\"");
		if (!hit)
			*applies = 0;
		leave(w, len2);
	}
	if (include) {
		if ((arches && !any_arch) || (caps && !all_caps))
			*applies = 0;
	} else if ((arches && any_arch) || (caps && any_cap)) {
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
 * Add @name with @n conditions. As runc does, conditions on distinct
 * arguments are ANDed in one rule, and when two name the same argument
 * each becomes a rule of its own (ORed).
 */
static int add_rules(struct walk *w, const char *name, int nr, uint32_t action,
		     unsigned int n, const struct scmp_arg_cmp *cmp)
{
	unsigned int i, j, same = 0;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			same |= cmp[i].arg == cmp[j].arg;
	if (!same)
		return add_rule(w, name, nr, action, n, cmp);
	for (i = 0; i < n; i++)
		if (add_rule(w, name, nr, action, 1, &cmp[i]))
			return -1;
	return 0;
}

/*
 * One system call name of a rule, at the current place. Every name is
 * resolved, so a typo fails even in a rule left out by includes/excludes;
 * a rule with the default action changes nothing and is not added.
 */
static int walk_name(struct walk *w, json_object *name, int applies, uint32_t action,
		     unsigned int n, const struct scmp_arg_cmp *cmp)
{
	int nr;

	if (!json_object_is_type(name, json_type_string))
		return fail(w, "must be a string");
	nr = seccomp_syscall_resolve_name(json_object_get_string(name));
	if (nr == __NR_SCMP_ERROR)
		return fail(w, "unknown system call \"%s\"", json_object_get_string(name));
	if (!applies || action == w->def_action)
		return 0;
	return add_rules(w, json_object_get_string(name), nr, action, n, cmp);
}

static int walk_rule(struct walk *w, json_object *rule)
{
	static const char *const keys[] = { "names", "name", "action", "errnoRet",
					    "args", "comment", "includes",
					    "excludes", NULL };
	struct scmp_arg_cmp cmp[MAX_CONDITIONS];
	int bad = 0, applies = 1;
	json_object *names, *name, *args;
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
	if (!names && !name)
		return fail(w, "has no \"names\"");
	/* An ERRNO rule without errnoRet returns EPERM, as with runc. */
	if (walk_action(w, rule, "action", "errnoRet", EPERM, &action))
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

static int walk_profile(struct walk *w, json_object *top)
{
	static const char *const keys[] = { "defaultAction", "defaultErrnoRet",
					    "architectures", "archMap", "syscalls",
					    "flags", "comment", NULL };
	int bad = 0;
	json_object *rules;
	size_t i, len;

	if (!json_object_is_type(top, json_type_object))
		return fail(w, "a profile must be a JSON object");
	if (json_object_object_get_ex(top, "listenerPath", NULL))
		return fail(w, "listenerPath: SCMP_ACT_NOTIFY listeners are not supported");
	if (only_keys(w, top, keys))
		return -1;
	if (walk_action(w, top, "defaultAction", "defaultErrnoRet", EPERM, &w->def_action))
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
	return 0;
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

/* Parse @buf; on a syntax error name the line and column. */
static json_object *parse(struct walk *w, const char *buf, size_t size)
{
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error jerr;
	size_t end, i, line = 1, col = 1;
	json_object *top;

	if (!tok) {
		fail(w, "out of memory");
		return NULL;
	}
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
	if (!top) {
		for (i = 0; i < end && i < size; i++) {
			col = buf[i] == '\n' ? 1 : col + 1;
			line += buf[i] == '\n';
		}
		snprintf(w->err, PROFILE_ERR_LEN, "%s:%zu:%zu: malformed JSON: %s",
			 w->file, line, col, json_tokener_error_desc(jerr));
	}
	json_tokener_free(tok);
	return top;
}

int profile_load(const char *path, struct profile *p, char err[PROFILE_ERR_LEN])
{
	struct walk w = { .file = path, .err = err, .p = p };
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
	return ret;
}

void profile_free(struct profile *p)
{
	if (p->ctx)
		seccomp_release(p->ctx);
	p->ctx = NULL;
}
