// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "side_cache.h"

#if defined(__x86_64__)
#define ARCH_NAME	"x86_64"
#elif defined(__aarch64__)
#define ARCH_NAME	"aarch64"
#else
#error "unsupported architecture"
#endif

/* The whole file: three tables of a few hundred short lines each */
#define CACHE_MAX	(256 * 1024)

int side_cache_open(void)
{
	int fd = open("/proc/self/seccomp_cache", O_RDONLY);

	return fd < 0 ? -errno : fd;
}

/* Read all of @fd into @buf, NUL-terminated; 0 or -errno */
static int slurp(int fd, char *buf, size_t len)
{
	size_t used = 0;
	ssize_t n;

	while (used < len - 1) {
		n = read(fd, buf + used, len - 1 - used);
		if (n < 0)
			return -errno;
		if (!n)
			break;
		used += n;
	}
	buf[used] = '\0';
	return used == len - 1 ? -EFBIG : 0;
}

/* The word after "@table @nr " at the start of a line of @text, or NULL */
static const char *lookup(const char *text, const char *table, int nr)
{
	char key[64];
	const char *p = text;
	size_t klen;

	klen = snprintf(key, sizeof(key), "%s %d ", table, nr);
	while (p && *p) {
		if (!strncmp(p, key, klen))
			return p + klen;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

int side_cache_describe(int fd, int nr, char *buf, size_t len)
{
	static char text[CACHE_MAX];
	const char *allow, *verdict;
	int ret = slurp(fd, text, sizeof(text));

	if (ret)
		return ret;
	allow = lookup(text, ARCH_NAME "-uring", nr);
	verdict = lookup(text, ARCH_NAME "-uring-const", nr);
	if (allow && !strncmp(allow, "ALLOW", 5))
		snprintf(buf, len, "allow");
	else if (verdict)
		snprintf(buf, len, "const:%.10s", verdict);
	else if (allow)
		snprintf(buf, len, "bpf");
	else
		snprintf(buf, len, "unknown");
	return 0;
}
