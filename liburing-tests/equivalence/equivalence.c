// SPDX-License-Identifier: GPL-2.0
/*
 * profile-equivalence - under each seccomp profile, every case of
 * cases.c has the same outcome as a system call and as its io_uring twin.
 *
 *   profile-equivalence LAUNCHER [[--allow-io-uring] [NAME=]PROFILE.json...]
 *
 * For each profile (and "none": no filter) and each case, a fresh fixture
 * is built and a child runs the case's system call under
 * "LAUNCHER --profile PROFILE -- profile-equivalence --child ..."; then a
 * new fixture and a child that submits the SQE. A profile's column is
 * called NAME, or after its file; --allow-io-uring is passed to the
 * launcher for the profile that follows it. A child that does not run to
 * its end (the launcher refused, say) fails the pair, whatever the other
 * run did; what it printed on stderr is shown. The outcomes compared are
 * the child's result (return value or errno, data read, or its death by a
 * signal) and a snapshot of the fixture afterwards (files, their contents,
 * pipes, sockets, pending connections), so a denied SQE must also have
 * left everything as the denied system call did. Prints TAP, one line a
 * (profile, case) pair, and then the table.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "cases.h"

#define OUTCOME_LEN 512
#define STDERR_LEN 2048
#define MAX_PROFILES 8

struct fixture {
	char dir[64];
	int data, dirfd, pipe[2], pipe2[2], sock[2], accept, client, inet, target;
	int dgram, unix_peer;
	int port;
};

/* One column of the table. */
struct column {
	const char *name;
	const char *path;	/* NULL: no filter */
	int allow_io_uring;
};

/* An expected system-call result that shows the profile at work. */
static const struct expect {
	const char *profile, *name, *res;
} expects[] = {
	{ "none", "openat-creat", "res=fd" },
	{ "none", "mkdirat", "res=0" },
	{ "none", "connect", "res=0" },
	{ "none", "socket-inet", "res=fd" },
	{ "docker-uring", "socket-vsock", "res=-EPERM" },
	{ "docker-uring", "socket-inet", "res=fd" },
	{ "docker-uring", "openat-creat", "res=fd" },
	{ "systemd-service", "socket-netlink", "res=-EAFNOSUPPORT" },
	{ "systemd-service", "socket-vsock", "res=-EAFNOSUPPORT" },
	{ "systemd-service", "socket-unix", "res=fd" },
	{ "systemd-service", "connect", "res=0" },
	{ "strict-nonet", "openat-rdonly", "res=fd" },
	{ "strict-nonet", "openat-creat", "res=-EACCES" },
	{ "strict-nonet", "openat-trunc", "res=-EACCES" },
	{ "strict-nonet", "openat2-rdonly", "res=-ENOSYS" },
	{ "strict-nonet", "mkdirat", "res=-EACCES" },
	{ "strict-nonet", "socket-inet", "res=-EACCES" },
	{ "strict-nonet", "socket-unix", "res=fd" },
	{ "strict-nonet", "connect", "res=-EACCES" },
	{ "strict-nonet", "send", "res=4" },
	{ "strict-nonet", "sendmsg", "res=-EACCES" },
	{ "strict-nonet", "sendto-unix-path", "res=-EACCES" },
	{ "strict-nonet", "sendmsg-unix-path", "res=-EACCES" },
	{ "none", "sendto-unix-path", "res=5" },
	{ "none", "sendmsg-unix-path", "res=5" },
	{ "podman", "futex_wake", "res=-ENOSYS" },
	{ "podman", "openat-creat", "res=fd" },
	{ "podman", "socket-vsock", "res=-EAFNOSUPPORT" },
	{ "podman", "sendto-unix-path", "res=5" },
	{ "docker-default", "socket-vsock", "res=-EPERM" },
	{ "docker-default", "socket-inet", "res=fd" },
	{ "docker-default", "futex_wake", "res=0" },
	{ "docker-default", "connect", "res=0" },
};

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static int tcp_listener(int *port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sin);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof(sin)) || listen(fd, 8) ||
	    getsockname(fd, (struct sockaddr *)&sin, &len))
		die("listener");
	*port = ntohs(sin.sin_port);
	return fd;
}

static void fixture_make(struct fixture *f)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_un un = { 0 };
	int port, fd;

	strcpy(f->dir, "/tmp/equivalence.XXXXXX");
	if (!mkdtemp(f->dir))
		die("mkdtemp");
	f->dirfd = open(f->dir, O_DIRECTORY | O_CLOEXEC);
	f->data = openat(f->dirfd, "data", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	fd = openat(f->dirfd, "victim", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (f->dirfd < 0 || f->data < 0 || fd < 0 ||
	    write(f->data, "0123456789abcdef", 16) != 16)
		die("fixture files");
	close(fd);
	if (pipe2(f->pipe, O_CLOEXEC) || pipe2(f->pipe2, O_CLOEXEC) ||
	    write(f->pipe[1], "pipe-data", 9) != 9)
		die("fixture pipes");
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, f->sock) ||
	    write(f->sock[1], "hello", 5) != 5)
		die("fixture socketpair");
	f->accept = tcp_listener(&port);
	sin.sin_port = htons(port);
	f->client = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (f->client < 0 || connect(f->client, (struct sockaddr *)&sin, sizeof(sin)))
		die("fixture pending connection");
	f->target = tcp_listener(&f->port);
	f->inet = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (f->inet < 0)
		die("fixture socket");
	f->dgram = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	f->unix_peer = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	un.sun_family = AF_UNIX;
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/%s", f->dir, FIXTURE_UNIX_PATH);
	if (f->dgram < 0 || f->unix_peer < 0 ||
	    bind(f->unix_peer, (struct sockaddr *)&un, sizeof(un)))
		die("fixture AF_UNIX path");
}

static void fixture_free(struct fixture *f)
{
	const char *names[] = { "data", "victim", "new", "renamed", "sym", "hard",
				FIXTURE_UNIX_PATH };
	int fds[] = { f->data, f->dirfd, f->pipe[0], f->pipe[1], f->pipe2[0],
		      f->pipe2[1], f->sock[0], f->sock[1], f->accept, f->client,
		      f->inet, f->target, f->dgram, f->unix_peer };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlinkat(f->dirfd, names[i], 0);
	unlinkat(f->dirfd, "newdir", AT_REMOVEDIR);
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		close(fds[i]);
	if (rmdir(f->dir))
		die("rmdir fixture (a case left an unknown file)");
}

static void append(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void append(char *out, const char *fmt, ...)
{
	size_t len = strlen(out);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out + len, OUTCOME_LEN - len, fmt, ap);
	va_end(ap);
}

static void append_bytes(char *out, const char *buf, long n)
{
	for (long i = 0; i < n; i++)
		append(out, buf[i] >= 0x21 && buf[i] < 0x7f ? "%c" : "\\x%02x",
		       (unsigned char)buf[i]);
}

static int pending(int listener)
{
	int n = 0, fd;

	while ((fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
		close(fd);
		n++;
	}
	return n;
}

static void drain(char *out, const char *what, int fd, int flags)
{
	char buf[32];
	long n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT | flags);

	if (n < 0 && errno == ENOTSOCK) {
		fcntl(fd, F_SETFL, O_NONBLOCK);
		n = read(fd, buf, sizeof(buf));
	}
	append(out, " %s=", what);
	if (n > 0)
		append_bytes(out, buf, n);
	else
		append(out, n == 0 ? "EOF" : "-");
}

/* What the case left behind, as a string. */
static void fixture_snapshot(struct fixture *f, char *out)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	struct dirent **ents;
	char buf[32];
	int n, on = 0;
	long x;

	n = scandirat(f->dirfd, ".", &ents, NULL, alphasort);
	append(out, " |");
	for (int i = 0; i < n; i++) {
		struct stat st;

		if (ents[i]->d_name[0] != '.' &&
		    !fstatat(f->dirfd, ents[i]->d_name, &st, AT_SYMLINK_NOFOLLOW))
			append(out, " %s:%c%lld", ents[i]->d_name,
			       S_ISDIR(st.st_mode) ? 'd' : S_ISLNK(st.st_mode) ? 'l' : 'f',
			       (long long)st.st_size);
		free(ents[i]);
	}
	free(ents);
	x = pread(f->data, buf, sizeof(buf), 0);
	append(out, " data=");
	append_bytes(out, buf, x > 0 ? x : 0);
	x = fgetxattr(f->data, "user.k", buf, sizeof(buf));
	append(out, " xattr=");
	append_bytes(out, buf, x > 0 ? x : 0);
	drain(out, "pipe", f->pipe[0], 0);
	drain(out, "tee", f->pipe2[0], 0);
	drain(out, "peer", f->sock[1], 0);
	drain(out, "unix-path", f->unix_peer, 0);
	append(out, " backlog=%d target=%d", pending(f->accept), pending(f->target));
	len = sizeof(sin);
	getsockname(f->inet, (struct sockaddr *)&sin, &len);
	len = sizeof(on);
	getsockopt(f->inet, SOL_SOCKET, SO_ACCEPTCONN, &on, &len);
	len = sizeof(sin);
	append(out, " inet=%s%s%s", sin.sin_port ? "bound" : "unbound",
	       on ? ",listening" : "",
	       getpeername(f->inet, (struct sockaddr *)&sin, &len) ? "" : ",connected");
}

/* In the forked child: the fixture at its fixed numbers, nothing else. */
static void fixture_install(struct fixture *f)
{
	int src[] = { f->data, f->dirfd, f->pipe[0], f->pipe[1], f->pipe2[1],
		      f->sock[0], f->accept, f->inet, f->dgram };
	int high[sizeof(src) / sizeof(src[0])];

	for (size_t i = 0; i < sizeof(src) / sizeof(src[0]); i++) {
		high[i] = fcntl(src[i], F_DUPFD_CLOEXEC, 100);
		if (high[i] < 0)
			_exit(2);
	}
	for (size_t i = 0; i < sizeof(src) / sizeof(src[0]); i++)
		if (dup2(high[i], FD_DATA + (int)i) < 0)
			_exit(2);
	close_range(3, FD_DATA - 1, 0);
	close_range(FD_LAST + 1, ~0U, 0);
}

static void result_string(long res, enum case_result kind, char *out)
{
	if (res < 0)
		append(out, "res=-%s", strerrorname_np((int)-res) ?: "E?");
	else if (kind == RES_FD)
		append(out, "res=fd");
	else
		append(out, "res=%ld", res);
}

/* The child's side: run one case one way and print its outcome. */
static int run_child(const char *name, const char *mode, int port, const char *dir)
{
	struct case_ctx c = { .port = port, .dir = dir };
	const struct eq_case *ec = NULL;
	char out[OUTCOME_LEN] = "";
	long res;

	for (unsigned int i = 0; i < eq_ncases; i++)
		if (!strcmp(eq_cases[i].name, name))
			ec = &eq_cases[i];
	if (!ec)
		return 2;
	ec->setup(&c);
	if (!strcmp(mode, "sqe")) {
		struct io_uring_cqe *cqe;
		struct io_uring ring;
		int r = io_uring_queue_init(8, &ring, 0);

		if (r < 0) {
			append(out, "ring-setup=");
			result_string(r, RES_EXACT, out);
			puts(out);
			return 0;
		}
		ec->prep(io_uring_get_sqe(&ring), &c);
		r = io_uring_submit_and_wait(&ring, 1);
		if (r < 0 || io_uring_peek_cqe(&ring, &cqe)) {
			printf("submit=%d\n", r);
			return 0;
		}
		res = cqe->res;
	} else {
		res = ec->sys(&c);
	}
	result_string(res, ec->result, out);
	if (ec->result == RES_DATA && res > 0) {
		append(out, " read=");
		append_bytes(out, c.buf, res);
	}
	if (c.stx.stx_size)
		append(out, " stx_size=%llu", (unsigned long long)c.stx.stx_size);
	puts(out);
	return 0;
}

/* Read @fd to its end into @buf (NUL-terminated, cut at @len - 1). */
static void read_all(int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;
	char sink[256];

	while ((n = read(fd, got < len - 1 ? buf + got : sink,
			 got < len - 1 ? len - 1 - got : sizeof(sink))) > 0)
		got += got < len - 1 ? (size_t)n : 0;
	buf[got] = '\0';
	close(fd);
}

/*
 * Run @name one way under @col; its outcome into @out, what it printed on
 * stderr into @err. Returns 0 if the child ran to its end (or was killed
 * by a signal, as a profile may do), -1 if it exited with a failure.
 */
static int run_case(const char *launcher, const char *self, const struct column *col,
		    const char *name, const char *mode, char *out, char *err)
{
	struct fixture f;
	char buf[OUTCOME_LEN], port[16];
	int pfd[2], efd[2], status;
	pid_t pid;

	out[0] = '\0';
	fixture_make(&f);
	if (pipe2(pfd, O_CLOEXEC) || pipe2(efd, O_CLOEXEC))
		die("pipe");
	snprintf(port, sizeof(port), "%d", f.port);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		dup2(pfd[1], 1);
		dup2(efd[1], 2);
		fixture_install(&f);
		if (col->path) {
			const char *args[12];
			int n = 0;

			args[n++] = launcher;
			args[n++] = "--profile";
			args[n++] = col->path;
			if (col->allow_io_uring)
				args[n++] = "--allow-io-uring";
			args[n++] = "--";
			args[n++] = self;
			args[n++] = "--child";
			args[n++] = name;
			args[n++] = mode;
			args[n++] = port;
			args[n++] = f.dir;
			args[n] = NULL;
			execv(launcher, (char *const *)args);
		} else {
			execl(self, self, "--child", name, mode, port, f.dir, (char *)NULL);
		}
		_exit(127);
	}
	close(pfd[1]);
	close(efd[1]);
	read_all(pfd[0], buf, sizeof(buf));
	buf[strcspn(buf, "\n")] = '\0';
	read_all(efd[0], err, STDERR_LEN);
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		append(out, "killed by %s", sigabbrev_np(WTERMSIG(status)) ?: "signal");
	else if (WEXITSTATUS(status))
		append(out, "exit %d %s", WEXITSTATUS(status), buf);
	else
		append(out, "%s", buf);
	fixture_snapshot(&f, out);
	fixture_free(&f);
	return !WIFSIGNALED(status) && WEXITSTATUS(status) ? -1 : 0;
}

/* @text as TAP comment lines. */
static void comment(const char *what, const char *text)
{
	const char *nl;

	for (; *text; text = *nl ? nl + 1 : nl) {
		nl = strchrnul(text, '\n');
		printf("# %s: %.*s\n", what, (int)(nl - text), text);
	}
}

static const char *expected(const char *profile, const char *name)
{
	for (size_t i = 0; i < sizeof(expects) / sizeof(expects[0]); i++)
		if (!strcmp(expects[i].profile, profile) && !strcmp(expects[i].name, name))
			return expects[i].res;
	return NULL;
}

/* The verdict word of an outcome, for the table. */
static void verdict(const char *outcome, char *v, size_t len)
{
	size_t n = strcspn(outcome, " |");

	snprintf(v, len, "%.*s", (int)n, outcome);
	if (!strncmp(v, "res=", 4))
		memmove(v, v + 4, strlen(v + 4) + 1);
}

int main(int argc, char **argv)
{
	static char table[MAX_PROFILES + 1][64][24];
	char sys_out[OUTCOME_LEN], sqe_out[OUTCOME_LEN], self[4096];
	char sys_err[STDERR_LEN], sqe_err[STDERR_LEN];
	struct column cols[MAX_PROFILES + 1] = { { .name = "none" } };
	int ncol = 1, test = 0, failed = 0, allow = 0;
	const char *launcher;

	if (argc == 6 && !strcmp(argv[1], "--child"))
		return run_child(argv[2], argv[3], atoi(argv[4]), argv[5]);
	if (argc < 2 || eq_ncases > 64)
		goto usage;
	if (!realpath("/proc/self/exe", self))
		die("realpath");
	launcher = argv[1];
	for (int i = 2; i < argc; i++) {
		char *eq = strchr(argv[i], '='), *base, *dot;

		if (!strcmp(argv[i], "--allow-io-uring")) {
			allow = 1;
			continue;
		}
		if (ncol > MAX_PROFILES)
			goto usage;
		cols[ncol].allow_io_uring = allow;
		allow = 0;
		if (eq) {
			*eq = '\0';
			cols[ncol].name = argv[i];
			cols[ncol++].path = eq + 1;
			continue;
		}
		cols[ncol].path = argv[i];
		base = strdup(strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i]);
		if (!base)
			die("strdup");
		dot = strstr(base, ".json");
		if (dot)
			*dot = '\0';
		cols[ncol++].name = base;
	}
	signal(SIGPIPE, SIG_IGN);
	printf("TAP version 13\n1..%u\n", ncol * eq_ncases);
	for (int p = 0; p < ncol; p++) {
		const char *pname = cols[p].name;

		if (cols[p].path)
			printf("# column %s: %s%s\n", pname, cols[p].path,
			       cols[p].allow_io_uring ? " with --allow-io-uring" : "");
		for (unsigned int i = 0; i < eq_ncases; i++) {
			const struct eq_case *ec = &eq_cases[i];
			const char *want = expected(pname, ec->name);
			int same, as_expected, ran;

			ran = !run_case(launcher, self, &cols[p], ec->name, "syscall", sys_out, sys_err);
			ran &= !run_case(launcher, self, &cols[p], ec->name, "sqe", sqe_out, sqe_err);
			same = !strcmp(sys_out, sqe_out);
			as_expected = !want || !strncmp(sys_out, want, strlen(want));
			if (!same || !as_expected || !ran) {
				printf("# syscall: %s\n# sqe:     %s\n", sys_out, sqe_out);
				if (!as_expected)
					printf("# the system call should give %s\n", want);
				if (!ran)
					printf("# a run did not reach its end (the launcher failed?)\n");
				failed++;
			}
			if (!same || !as_expected || !ran || i == 0) {
				comment("syscall stderr", sys_err);
				comment("sqe stderr", sqe_err);
			}
			verdict(sys_out, table[p][i], sizeof(table[p][i]));
			printf("%s %d %s/%s: %s %s\n",
			       same && as_expected && ran ? "ok" : "not ok",
			       ++test, pname, ec->name, same ? "same:" : "DIFFERENT:", sys_out);
		}
	}
	printf("# %u cases x %d profiles = %u pairs, %d failed\n", eq_ncases, ncol,
	       eq_ncases * ncol, failed);
	printf("# %-17s %-10s", "case", "twin");
	for (int p = 0; p < ncol; p++)
		printf(" %-16s", cols[p].name);
	printf("\n");
	for (unsigned int i = 0; i < eq_ncases; i++) {
		printf("# %-17s %-10.10s", eq_cases[i].name, eq_cases[i].syscall);
		for (int p = 0; p < ncol; p++)
			printf(" %-16s", table[p][i]);
		printf("\n");
	}
	return failed ? 1 : 0;
usage:
	fprintf(stderr, "usage: %s LAUNCHER [[--allow-io-uring] [NAME=]PROFILE.json...] (at most %d)\n",
		argv[0], MAX_PROFILES);
	return 2;
}
