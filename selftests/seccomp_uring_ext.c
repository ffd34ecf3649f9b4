// SPDX-License-Identifier: GPL-2.0
/*
 * Filters that read the extension area (SECCOMP_FILTER_FLAG_EXT_ARGS):
 * the verifier's bounds, the area's header, the size rules for struct
 * open_how and struct clone_args, policies on openat2's resolve flags,
 * clone3's flags and the addresses of connect and bind, through the
 * syscalls and through io_uring, and a race that tries to change the
 * struct between the filter's verdict and the kernel's use of it.
 *
 * Every denial test checks that the operation did not happen. On a
 * kernel without the extension area the tests are skipped, or fail where
 * the harness requires it (uring_expect.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/seccomp.h>

#include "../kselftest_harness.h"
#include "uring_expect.h"
#include "uring_paths.h"
#include "uring_raw.h"
#include "uring_stopped.h"

#if defined(__x86_64__)
#define NATIVE_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH	AUDIT_ARCH_AARCH64
#endif

/* Offsets in the filter's input of the area's fields and of a struct's */
#define EXT(field)	(sizeof(struct seccomp_data) + offsetof(struct seccomp_ext, field))
#define EXT_DATA(type, member)	(EXT(data) + offsetof(type, member))
/* The low 32 bits of a 64-bit field */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LO	0
#else
#define LO	4
#endif

#define FLAGS	(SECCOMP_FILTER_FLAG_EXT_ARGS | SECCOMP_FILTER_FLAG_URING)
/* sizeof() the first published struct open_how */
#define OPEN_HOW_SIZE_VER0	24
#define PROBE_BASE	1000
#define TRIES		10000
/*
 * The race needs the flipper to run while openat2 does. On a loaded host
 * (two emulated CPUs sharing two real ones) it can be starved for a whole
 * run of TRIES, so the tries go on until both outcomes were seen, up to
 * MAX_TRIES.
 */
#define MAX_TRIES	(20 * TRIES)

#define LD(off)	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define RET(v)	BPF_STMT(BPF_RET | BPF_K, (v))

static int load(struct sock_filter *insns, unsigned short len,
		unsigned int flags)
{
	struct sock_fprog prog = { .len = len, .filter = insns };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog))
		return -errno;
	return 0;
}

/*
 * ext_errno - 0 if the kernel has the extension area, else the errno
 * of the refused flag. (This loads an allow-all filter with the flag:
 * each test runs in its own process.)
 */
static int ext_errno(void)
{
	struct sock_filter allow = RET(SECCOMP_RET_ALLOW);

	return -load(&allow, 1, SECCOMP_FILTER_FLAG_EXT_ARGS);
}

/*
 * ext_lacking - in a TEST(): true when the kernel refuses
 * SECCOMP_FILTER_FLAG_EXT_ARGS; the test was then marked skipped (or
 * failed, see uring_expect.h) and the caller returns.
 */
static bool ext_lacking(struct __test_metadata *_metadata)
{
	int err = ext_errno();

	if (err) {
		uring_feature_missing(_metadata, err, EINVAL,
				      "SECCOMP_FILTER_FLAG_EXT_ARGS is refused");
		return true;
	}
	uring_feature_present(_metadata, "SECCOMP_FILTER_FLAG_EXT_ARGS is accepted");
	return false;
}

/*
 * load_probe - a filter that completes syscall @nr with the errno
 * PROBE_BASE + the word at @off of its input, so a test can read the
 * extension area through the syscall's errno. Other syscalls run.
 */
static int load_probe(int nr, unsigned int off)
{
	struct sock_filter insns[] = {
		LD(offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		LD(off),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, PROBE_BASE),
		BPF_STMT(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO),
		BPF_STMT(BPF_RET | BPF_A, 0),
	};

	return load(insns, ARRAY_SIZE(insns), FLAGS);
}

/* A filter that reads the area for @nr (so it is copied) and allows. */
static int load_looker(int nr)
{
	struct sock_filter insns[] = {
		LD(offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
		LD(EXT(flags)),
		RET(SECCOMP_RET_ALLOW),
	};

	return load(insns, ARRAY_SIZE(insns), FLAGS);
}

/* A file to open, made before any filter. */
static const char *existing_file(void)
{
	const char *path = tpath("file");
	int fd = open(path, O_CREAT | O_WRONLY, 0600);

	if (fd >= 0)
		close(fd);
	return path;
}

/* -errno or 0 for openat2(@dfd, @path, @how, @size); closes the fd */
static long sys_openat2_at(int dfd, const char *path, void *how, size_t size)
{
	long ret = syscall(__NR_openat2, dfd, path, how, size);

	if (ret < 0)
		return -errno;
	close(ret);
	return 0;
}

static long sys_openat2(const char *path, void *how, size_t size)
{
	return sys_openat2_at(AT_FDCWD, path, how, size);
}

/* -errno or 0 for clone3(@args, @size); a child made exits at once */
static long sys_clone3(void *args, size_t size)
{
	long ret = syscall(__NR_clone3, args, size);

	if (ret < 0)
		return -errno;
	if (ret == 0)
		_exit(0);
	waitpid(ret, NULL, 0);
	return 0;
}

/* Run @fn(@arg) in a child that loads its own filters; its exit code. */
static int in_child(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg));
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* A two-page buffer whose second page is inaccessible. */
static char *guarded_buffer(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *buf = mmap(NULL, 3 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (buf == MAP_FAILED)
		return NULL;
	mprotect(buf + 2 * page, page, PROT_NONE);
	memset(buf, 0, 2 * page);
	return buf;
}

TEST(loads_into_the_area_need_the_flag)
{
	struct sock_filter insns[] = {
		LD(EXT(flags)),
		RET(SECCOMP_RET_ALLOW),
	};

	if (ext_lacking(_metadata))
		return;
	EXPECT_EQ(-EINVAL, load(insns, ARRAY_SIZE(insns), 0));
	EXPECT_EQ(-EINVAL, load(insns, ARRAY_SIZE(insns),
				SECCOMP_FILTER_FLAG_URING));
	EXPECT_EQ(0, load(insns, ARRAY_SIZE(insns),
			  SECCOMP_FILTER_FLAG_EXT_ARGS));
}

TEST(loads_past_the_area_are_einval)
{
	const unsigned int end = EXT(data) + SECCOMP_EXT_DATA_SIZE;
	struct sock_filter insns[] = {
		LD(end),
		RET(SECCOMP_RET_ALLOW),
	};

	if (ext_lacking(_metadata))
		return;
	/* the ABI: seccomp_data, a 32-byte header, 128 bytes of struct */
	ASSERT_EQ(96, (int)EXT(data));
	ASSERT_EQ(224, (int)end);
	EXPECT_EQ(-EINVAL, load(insns, ARRAY_SIZE(insns), FLAGS));
	insns[0].k = end - 2;
	EXPECT_EQ(-EINVAL, load(insns, ARRAY_SIZE(insns), FLAGS));
	insns[0].k = end - 4;
	EXPECT_EQ(0, load(insns, ARRAY_SIZE(insns), FLAGS));
}

struct size_case {
	const char *name;
	size_t size;		/* the size passed */
	int tail_byte;		/* >= 0: a non-zero byte at this offset */
	int bad_pointer;	/* pass a pointer to an inaccessible page */
	int want_err;		/* the syscall's error, no filter or allowed */
	int want_zero_offset;
	int want_flags;
};

struct size_run {
	const struct size_case *c;
	int nr;
	unsigned int probe_off;	/* 0: no filter; 1: looker; else probe */
};

static void *size_case_struct(const struct size_case *c, char *buf)
{
	long page = sysconf(_SC_PAGESIZE);

	if (c->bad_pointer)
		return buf + 2 * page;
	if (c->tail_byte >= 0)
		buf[c->tail_byte] = 1;
	return buf;
}

/* In a child: -errno of the syscall under the filter @run names. */
static int size_case_run(void *arg)
{
	const struct size_run *run = arg;
	const char *path = existing_file();
	struct open_how *how;
	char *buf = guarded_buffer();
	void *ptr;
	long ret;

	if (!buf)
		return 255;
	ptr = size_case_struct(run->c, buf);
	how = (struct open_how *)buf;
	how->flags = O_RDONLY;
	if (run->nr == __NR_clone3)
		((struct clone_args *)buf)->exit_signal = SIGCHLD;
	if (run->probe_off == 1 && load_looker(run->nr))
		return 254;
	if (run->probe_off > 1 && load_probe(run->nr, run->probe_off))
		return 254;
	if (run->nr == __NR_openat2)
		ret = sys_openat2(path, ptr, run->c->size);
	else
		ret = sys_clone3(ptr, run->c->size);
	/* errnos above 255 do not fit an exit code: report them shifted */
	return ret >= 0 ? 0 : (-ret >= PROBE_BASE ? -ret - PROBE_BASE + 100 : -ret);
}

static void check_size_cases(struct __test_metadata *_metadata, int nr,
			     const struct size_case *cases, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		const struct size_case *c = &cases[i];
		struct size_run plain = { c, nr, 0 }, looked = { c, nr, 1 };
		struct size_run zero = { c, nr, EXT(zero_offset) };
		struct size_run flags = { c, nr, EXT(flags) };
		int err_plain = in_child(size_case_run, &plain);
		int err_looked = in_child(size_case_run, &looked);
		int seen_zero = in_child(size_case_run, &zero) - 100;
		int seen_flags = in_child(size_case_run, &flags) - 100;

		TH_LOG("%s: error %d without a filter, %d with one reading it",
		       c->name, err_plain, err_looked);
		TH_LOG("%s: the filter saw zero_offset %d, flags %#x",
		       c->name, seen_zero, seen_flags);
		EXPECT_EQ(c->want_err, err_plain);
		EXPECT_EQ(c->want_err, err_looked);
		EXPECT_EQ(c->want_zero_offset, seen_zero);
		EXPECT_EQ(c->want_flags, seen_flags);
	}
}

TEST(open_how_size_rules)
{
	const int s = SECCOMP_EXT_STRUCT, u = SECCOMP_EXT_UNREADABLE;
	long page = sysconf(_SC_PAGESIZE);
	/* how.flags = O_RDONLY (0): a valid struct is all zero */
	const struct size_case cases[] = {
		{ "smaller than VER0", 16, -1, 0, EINVAL, 0, s },
		{ "VER0", OPEN_HOW_SIZE_VER0, -1, 0, 0, 0, s },
		{ "VER0 with a field set", OPEN_HOW_SIZE_VER0, 20, 0, EINVAL, 21, s },
		/*
		 * the first and last byte of a word (mode: EINVAL without
		 * O_CREAT), and a size of no whole words
		 */
		{ "VER0, first byte of word 1 set", OPEN_HOW_SIZE_VER0, 8, 0, EINVAL, 9, s },
		{ "VER0, last byte of word 1 set", OPEN_HOW_SIZE_VER0, 15, 0, EINVAL, 16, s },
		{ "larger by 3, last byte set", OPEN_HOW_SIZE_VER0 + 3, 26, 0, E2BIG, 27, s },
		{ "larger, zero tail", 64, -1, 0, 0, 0, s },
		{ "larger, non-zero tail", 64, 40, 0, E2BIG, 41, s },
		{ "larger than a page", page + 8, -1, 0, E2BIG, 0, s | u },
		{ "bad pointer", OPEN_HOW_SIZE_VER0, -1, 1, EFAULT, 0, s | u },
	};

	if (ext_lacking(_metadata))
		return;
	check_size_cases(_metadata, __NR_openat2, cases, ARRAY_SIZE(cases));
}

TEST(clone_args_size_rules)
{
	const int s = SECCOMP_EXT_STRUCT, u = SECCOMP_EXT_UNREADABLE;
	long page = sysconf(_SC_PAGESIZE);
	/* exit_signal (offset 32) = SIGCHLD is the one non-zero field */
	const int z = offsetof(struct clone_args, exit_signal) + 1;
	const struct size_case cases[] = {
		{ "smaller than VER0", 32, -1, 0, EINVAL, 0, s },
		{ "VER0, newer fields zero-filled", CLONE_ARGS_SIZE_VER0, -1, 0, 0, z, s },
		{ "VER1", CLONE_ARGS_SIZE_VER1, -1, 0, 0, z, s },
		{ "VER2", CLONE_ARGS_SIZE_VER2, -1, 0, 0, z, s },
		{ "larger, zero tail", 128, -1, 0, 0, z, s },
		{ "larger, non-zero tail", 128, 100, 0, E2BIG, 101, s },
		{ "larger than a page", page + 8, -1, 0, E2BIG, 0, s | u },
		{ "bad pointer", CLONE_ARGS_SIZE_VER0, -1, 1, EFAULT, 0, s | u },
	};

	if (ext_lacking(_metadata))
		return;
	check_size_cases(_metadata, __NR_clone3, cases, ARRAY_SIZE(cases));
}

TEST(area_describes_the_struct_and_its_origin)
{
	const char *path = existing_file();
	struct open_how how = { .flags = O_RDONLY, .resolve = RESOLVE_NO_SYMLINKS };
	struct uring r;
	struct io_uring_sqe *sqe;
	struct sock_filter insns[] = {
		LD(offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat2, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		/* errno = flags << 8 | arg << 6 | size, if resolve was seen */
		LD(EXT_DATA(struct open_how, resolve) + LO),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, RESOLVE_NO_SYMLINKS, 1, 0),
		RET(SECCOMP_RET_ERRNO | 1),
		LD(EXT(flags)),
		BPF_STMT(BPF_ALU | BPF_LSH | BPF_K, 2),
		BPF_STMT(BPF_MISC | BPF_TAX, 0),
		LD(EXT(arg)),
		BPF_STMT(BPF_ALU | BPF_OR | BPF_X, 0),
		BPF_STMT(BPF_ALU | BPF_LSH | BPF_K, 6),
		BPF_STMT(BPF_MISC | BPF_TAX, 0),
		LD(EXT(size)),
		BPF_STMT(BPF_ALU | BPF_OR | BPF_X, 0),
		BPF_STMT(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO),
		BPF_STMT(BPF_RET | BPF_A, 0),
	};
	int want_sys = (SECCOMP_EXT_STRUCT << 8) | (2 << 6) | 24;
	int want_sqe = ((SECCOMP_EXT_STRUCT | SECCOMP_EXT_URING) << 8) |
		       (2 << 6) | 24;

	if (ext_lacking(_metadata))
		return;
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load(insns, ARRAY_SIZE(insns), FLAGS));
	EXPECT_EQ(-want_sys, sys_openat2(path, &how, sizeof(how)));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_OPENAT2;
	sqe->fd = AT_FDCWD;
	sqe->addr = (uintptr_t)path;
	sqe->addr2 = (uintptr_t)&how;
	sqe->len = sizeof(how);
	EXPECT_EQ(-want_sqe, uring_run(&r));
}

TEST(loads_past_the_copied_bytes_read_zero)
{
	const char *path = existing_file();
	char buf[64] = { 0 };

	if (ext_lacking(_metadata))
		return;
	/* open_how is 24 bytes: offset 60 of the area was not copied */
	memset(buf + 24, 0, sizeof(buf) - 24);
	ASSERT_EQ(0, load_probe(__NR_openat2, EXT(data) + 60));
	EXPECT_EQ(-PROBE_BASE, sys_openat2(path, buf, sizeof(buf)));
	/* and a syscall without a struct shows an all-zero area */
	EXPECT_EQ(0, load_probe(__NR_getppid, EXT(flags)));
	EXPECT_EQ(-1, syscall(__NR_getppid));
	EXPECT_EQ(PROBE_BASE, errno);
}

/*
 * A syscall the action cache has no bit for (a number past the native
 * table, here) shows an all-zero area too, never what lies past struct
 * seccomp_data on the kernel stack: which syscalls a filter may read the
 * area for is known only for native numbers in range. One probe per word
 * of the area, each for a syscall of its own.
 */
#define UNCACHED_NR	2000

/*
 * A filter that completes syscall @nr with the errno PROBE_BASE if the
 * word at @off of its input is 0, else PROBE_BASE + 1 (whatever that word
 * holds); other syscalls run.
 */
static int load_zero_probe(int nr, unsigned int off)
{
	struct sock_filter insns[] = {
		LD(offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		LD(off),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
		RET(SECCOMP_RET_ERRNO | PROBE_BASE),
		RET(SECCOMP_RET_ERRNO | (PROBE_BASE + 1)),
	};

	return load(insns, ARRAY_SIZE(insns), FLAGS);
}

TEST(uncached_syscalls_show_an_all_zero_area)
{
	unsigned int i, words = sizeof(struct seccomp_ext) / 4;

	if (ext_lacking(_metadata))
		return;
	for (i = 0; i < words; i++)
		ASSERT_EQ(0, load_zero_probe(UNCACHED_NR + i,
					     sizeof(struct seccomp_data) + 4 * i));
	for (i = 0; i < words; i++) {
		errno = 0;
		EXPECT_EQ(-1, syscall(UNCACHED_NR + i));
		EXPECT_EQ(PROBE_BASE, errno)
			TH_LOG("word %u of the area is not zero", i);
	}
}

/* openat2 is allowed only with RESOLVE_BENEATH. */
static int load_require_beneath(void)
{
	struct sock_filter insns[] = {
		LD(offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat2, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		LD(EXT_DATA(struct open_how, resolve) + LO),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, RESOLVE_BENEATH, 0, 1),
		RET(SECCOMP_RET_ALLOW),
		RET(SECCOMP_RET_ERRNO | EPERM),
	};

	return load(insns, ARRAY_SIZE(insns), FLAGS);
}

static void prep_openat2(struct uring *r, int dfd, const char *path,
			 struct open_how *how)
{
	struct io_uring_sqe *sqe = uring_sqe(r);

	sqe->opcode = IORING_OP_OPENAT2;
	sqe->fd = dfd;
	sqe->addr = (uintptr_t)path;
	sqe->addr2 = (uintptr_t)how;
	sqe->len = sizeof(*how);
}

TEST(openat2_needs_resolve_beneath)
{
	const char *denied = tpath("denied"), *allowed = tpath("allowed");
	struct open_how how = { .flags = O_CREAT | O_WRONLY, .mode = 0600 };
	const char *name = strrchr(allowed, '/') + 1;
	struct uring r;
	int tmp, res;

	if (ext_lacking(_metadata))
		return;
	tmp = open("/tmp", O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, tmp);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_require_beneath());

	EXPECT_EQ(-EPERM, sys_openat2(denied, &how, sizeof(how)));
	EXPECT_FALSE(exists(denied));
	prep_openat2(&r, AT_FDCWD, denied, &how);
	EXPECT_EQ(-EPERM, uring_run(&r));
	EXPECT_FALSE(exists(denied));

	/* with RESOLVE_BENEATH, relative to /tmp */
	how.resolve = RESOLVE_BENEATH;
	EXPECT_EQ(0, sys_openat2_at(tmp, name, &how, sizeof(how)));
	EXPECT_TRUE(exists(allowed));
	unlink(allowed);
	prep_openat2(&r, tmp, name, &how);
	res = uring_run(&r);
	EXPECT_LE(0, res);
	EXPECT_TRUE(exists(allowed));
	close(res);
	close(tmp);
}

/*
 * OPENAT2's extension area shows open_how.flags as the caller gave them,
 * without the O_LARGEFILE the kernel adds, on both paths: a filter that
 * allows exactly O_RDONLY | O_CLOEXEC, with the struct shown, lets both
 * opens run (and refuses a struct it is not shown, or other flags).
 */
TEST(openat2_area_shows_the_callers_flags)
{
	struct sock_filter insns[] = {
		LD(offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat2, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		LD(EXT(flags)),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, SECCOMP_EXT_STRUCT, 0, 3),
		LD(EXT_DATA(struct open_how, flags) + LO),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, O_RDONLY | O_CLOEXEC, 0, 1),
		RET(SECCOMP_RET_ALLOW),
		RET(SECCOMP_RET_ERRNO | EPERM),
	};
	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC };
	const char *path = existing_file();
	struct uring r;
	long res;

	if (ext_lacking(_metadata))
		return;
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load(insns, ARRAY_SIZE(insns), FLAGS));
	res = sys_openat2(path, &how, sizeof(how));
	EXPECT_EQ(0, res) TH_LOG("the system call: %s", strerror(-res));
	prep_openat2(&r, AT_FDCWD, path, &how);
	res = uring_run(&r);
	EXPECT_LE(0, res) TH_LOG("OPENAT2: %s", strerror(-res));
	if (res >= 0)
		close(res);
	/* and the filter does refuse other flags */
	how.flags = O_RDONLY;
	EXPECT_EQ(-EPERM, sys_openat2(path, &how, sizeof(how)));
	prep_openat2(&r, AT_FDCWD, path, &how);
	EXPECT_EQ(-EPERM, uring_run(&r));
	uring_exit(&r);
}

/*
 * Checkpoint/restore reads a filter's flags back with ptrace:
 * PTRACE_SECCOMP_GET_METADATA reports SECCOMP_FILTER_FLAG_EXT_ARGS, so a
 * restored filter keeps its loads past struct seccomp_data (which the
 * kernel refuses without the flag). The test process is the tracer and
 * must stay unfiltered (seccomp_get_metadata() refuses a filtered one),
 * so the flag is probed without loading anything.
 */
TEST(metadata_reports_ext_args)
{
	struct sock_filter insns[] = {
		LD(EXT(flags)),
		RET(SECCOMP_RET_ALLOW),
	};
	struct seccomp_metadata md = { .filter_off = 0 };
	long n;
	pid_t pid;

	/* a kernel that knows the flags faults on the NULL program */
	if (!syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, FLAGS, NULL) ||
	    errno != EFAULT) {
		uring_feature_missing(_metadata, errno, EINVAL,
				      "SECCOMP_FILTER_FLAG_EXT_ARGS is refused");
		return;
	}
	uring_feature_present(_metadata, "SECCOMP_FILTER_FLAG_EXT_ARGS is accepted");
	pid = filtered_stopped(insns, ARRAY_SIZE(insns), FLAGS, true);
	ASSERT_LT(0, pid) TH_LOG("the filtered child did not stop");
	n = ptrace(PTRACE_SECCOMP_GET_METADATA, pid, sizeof(md), &md);
	reap(pid);
	ASSERT_EQ((long)sizeof(md), n) TH_LOG("GET_METADATA: %s", strerror(errno));
	EXPECT_EQ(FLAGS, md.flags & FLAGS)
		TH_LOG("metadata flags %#llx", (unsigned long long)md.flags);
	EXPECT_EQ(-EINVAL, load(insns, ARRAY_SIZE(insns),
				md.flags & ~SECCOMP_FILTER_FLAG_EXT_ARGS));
}

TEST(unknown_trailing_fields_are_refused_with_zero_offset)
{
	const char *path = existing_file();
	char buf[64] = { 0 };
	struct sock_filter insns[] = {
		LD(offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat2, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		/* refuse whatever sets a byte past the struct it knows */
		LD(EXT(zero_offset)),
		BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, sizeof(struct open_how), 0, 1),
		RET(SECCOMP_RET_ERRNO | EPERM),
		RET(SECCOMP_RET_ALLOW),
	};

	if (ext_lacking(_metadata))
		return;
	ASSERT_EQ(0, load(insns, ARRAY_SIZE(insns), FLAGS));
	EXPECT_EQ(0, sys_openat2(path, buf, sizeof(buf)));
	/* the filter refuses it before the kernel would say E2BIG */
	buf[50] = 1;
	EXPECT_EQ(-EPERM, sys_openat2(path, buf, sizeof(buf)));
}

TEST(clone3_newuser_refused_ordinary_child_runs)
{
	struct clone_args args = { .exit_signal = SIGCHLD };
	struct sock_filter insns[] = {
		LD(offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		LD(EXT_DATA(struct clone_args, flags) + LO),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_NEWUSER, 0, 1),
		RET(SECCOMP_RET_ERRNO | EPERM),
		RET(SECCOMP_RET_ALLOW),
	};
	int status;
	long pid;

	if (ext_lacking(_metadata))
		return;
	ASSERT_EQ(0, load(insns, ARRAY_SIZE(insns), FLAGS));
	args.flags = CLONE_NEWUSER;
	pid = syscall(__NR_clone3, &args, sizeof(args));
	if (pid == 0)
		_exit(42);
	EXPECT_EQ(-1, pid);
	EXPECT_EQ(EPERM, errno);
	/* no child was made */
	EXPECT_EQ(-1, waitpid(-1, &status, WNOHANG));
	EXPECT_EQ(ECHILD, errno);

	args.flags = 0;
	pid = syscall(__NR_clone3, &args, sizeof(args));
	if (pid == 0)
		_exit(7);
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(7, WEXITSTATUS(status));
}

/* A TCP listener on @addr (network order), any port; *port gets it. */
static int listener(in_addr_t addr, int *port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = addr };
	socklen_t len = sizeof(sin);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sin, len) ||
	    listen(fd, 8) || getsockname(fd, (struct sockaddr *)&sin, &len))
		return -1;
	*port = ntohs(sin.sin_port);
	return fd;
}

/* Whether @lfd has a connection waiting; takes it. */
static int accepted(int lfd)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static struct sockaddr_in inet_addr_port(const char *ip, int port)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = inet_addr(ip),
	};

	return sin;
}

/* connect(2) or IORING_OP_CONNECT of a new TCP socket to @sin */
static int do_connect(struct uring *r, const struct sockaddr_in *sin)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0), ret;
	struct io_uring_sqe *sqe;

	if (fd < 0)
		return -errno;
	if (!r) {
		ret = connect(fd, (const struct sockaddr *)sin, sizeof(*sin));
		ret = ret ? -errno : 0;
	} else {
		sqe = uring_sqe(r);
		sqe->opcode = IORING_OP_CONNECT;
		sqe->fd = fd;
		sqe->addr = (uintptr_t)sin;
		sqe->off = sizeof(*sin);
		ret = uring_run(r);
	}
	close(fd);
	return ret;
}

/* connect is refused to 127.0.0.1:@port and to 127.0.0.2 */
static int load_connect_filter(int port)
{
	struct sock_filter insns[] = {
		LD(offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_connect, 1, 0),
		RET(SECCOMP_RET_ALLOW),
		/* family and port share the first word */
		LD(EXT_DATA(struct sockaddr_in, sin_family)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
			 AF_INET | (uint32_t)htons(port) << 16, 0, 1),
		RET(SECCOMP_RET_ERRNO | EACCES),
		LD(EXT_DATA(struct sockaddr_in, sin_addr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, inet_addr("127.0.0.2"), 0, 1),
		RET(SECCOMP_RET_ERRNO | EACCES),
		RET(SECCOMP_RET_ALLOW),
	};

	return load(insns, ARRAY_SIZE(insns), FLAGS);
}

TEST(connect_to_a_refused_port_or_address)
{
	int lo_denied, lo_allowed, any, p_denied, p_allowed, p_any, path;
	struct sockaddr_in sin;
	struct uring r;

	if (ext_lacking(_metadata))
		return;
	lo_denied = listener(htonl(INADDR_LOOPBACK), &p_denied);
	lo_allowed = listener(htonl(INADDR_LOOPBACK), &p_allowed);
	any = listener(htonl(INADDR_ANY), &p_any);
	ASSERT_LE(0, lo_denied);
	ASSERT_LE(0, lo_allowed);
	ASSERT_LE(0, any);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_connect_filter(p_denied));
	for (path = 0; path < 2; path++) {
		struct uring *ring = path ? &r : NULL;

		TH_LOG("through %s", path ? "IORING_OP_CONNECT" : "connect(2)");
		sin = inet_addr_port("127.0.0.1", p_denied);
		EXPECT_EQ(-EACCES, do_connect(ring, &sin));
		EXPECT_FALSE(accepted(lo_denied));
		sin = inet_addr_port("127.0.0.1", p_allowed);
		EXPECT_EQ(0, do_connect(ring, &sin));
		EXPECT_TRUE(accepted(lo_allowed));
		sin = inet_addr_port("127.0.0.2", p_any);
		EXPECT_EQ(-EACCES, do_connect(ring, &sin));
		EXPECT_FALSE(accepted(any));
		sin = inet_addr_port("127.0.0.1", p_any);
		EXPECT_EQ(0, do_connect(ring, &sin));
		EXPECT_TRUE(accepted(any));
	}
}

/* bind(2) or IORING_OP_BIND of a new AF_UNIX socket to @sun */
static int do_bind(struct uring *r, const struct sockaddr_un *sun)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0), ret;
	struct io_uring_sqe *sqe;

	if (fd < 0)
		return -errno;
	if (!r) {
		ret = bind(fd, (const struct sockaddr *)sun, sizeof(*sun));
		ret = ret ? -errno : 0;
	} else {
		sqe = uring_sqe(r);
		sqe->opcode = IORING_OP_BIND;
		sqe->fd = fd;
		sqe->addr = (uintptr_t)sun;
		sqe->addr2 = sizeof(*sun);
		ret = uring_run(r);
	}
	close(fd);
	return ret;
}

/* bind is refused to AF_UNIX paths under "/tmp/deny-" (12 bytes, 3 words) */
static int load_bind_filter(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	uint32_t word[3];

	memcpy(sun.sun_path, "/tmp/deny-", 10);
	memcpy(word, &sun, sizeof(word));
	{
		struct sock_filter insns[] = {
			LD(offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_bind, 1, 0),
			RET(SECCOMP_RET_ALLOW),
			LD(EXT(data)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, word[0], 0, 5),
			LD(EXT(data) + 4),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, word[1], 0, 3),
			LD(EXT(data) + 8),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, word[2], 0, 1),
			RET(SECCOMP_RET_ERRNO | EPERM),
			RET(SECCOMP_RET_ALLOW),
		};

		return load(insns, ARRAY_SIZE(insns), FLAGS);
	}
}

TEST(bind_to_a_refused_unix_path)
{
	struct sockaddr_un denied = { .sun_family = AF_UNIX };
	struct sockaddr_un allowed = { .sun_family = AF_UNIX };
	struct uring r;
	int path;

	if (ext_lacking(_metadata))
		return;
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_bind_filter());
	for (path = 0; path < 2; path++) {
		struct uring *ring = path ? &r : NULL;

		snprintf(denied.sun_path, sizeof(denied.sun_path),
			 "/tmp/deny-%d.%d", getpid(), path);
		snprintf(allowed.sun_path, sizeof(allowed.sun_path),
			 "/tmp/allow-%d.%d", getpid(), path);
		unlink(denied.sun_path);
		unlink(allowed.sun_path);
		TH_LOG("through %s", path ? "IORING_OP_BIND" : "bind(2)");
		EXPECT_EQ(-EPERM, do_bind(ring, &denied));
		EXPECT_FALSE(exists(denied.sun_path));
		EXPECT_EQ(0, do_bind(ring, &allowed));
		EXPECT_TRUE(exists(allowed.sun_path));
		unlink(allowed.sun_path);
	}
}

/* The race: another thread flips how->resolve while openat2 runs. */
struct flipper {
	struct open_how *how;
	int stop;
};

static void *flip(void *arg)
{
	struct flipper *f = arg;

	unsigned int seed = 1, hold, i;
	__u64 resolve = 0;

	while (!__atomic_load_n(&f->stop, __ATOMIC_RELAXED)) {
		resolve ^= RESOLVE_BENEATH;
		__atomic_store_n(&f->how->resolve, resolve, __ATOMIC_RELAXED);
		/*
		 * Hold each value for a random, short time (RESOLVE_BENEATH
		 * shorter), so that many flips land between any two reads
		 * the kernel might make of the struct. On a kernel that
		 * reads it again after the filter (no one copy), about one
		 * try in ten opens the file.
		 */
		hold = rand_r(&seed) % (resolve ? 30 : 300);
		for (i = 0; i < hold; i++)
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
	}
	return NULL;
}

/*
 * race_openat2 - @TRIES openat2 of "../victim" from a subdirectory (more,
 * up to @MAX_TRIES, until both refusals were seen), as syscalls or SQEs,
 * under load_require_beneath(), while the flipper runs.
 * Without RESOLVE_BENEATH the filter refuses (EPERM); with it the kernel
 * refuses to leave the directory (EXDEV). An open that succeeds ran
 * without RESOLVE_BENEATH after the filter saw it set: the count of
 * those must be 0.
 */
static void race_openat2(struct __test_metadata *_metadata, bool uring)
{
	const char *dir = tpath("dir"), *victim = tpath("victim");
	static struct open_how how = { .flags = O_RDONLY };
	struct flipper f = { .how = &how };
	char sub[160];
	int dfd, i, res, eperm = 0, exdev = 0, opened = 0, other = 0;
	pthread_t thread;
	struct uring r;

	if (ext_lacking(_metadata))
		return;
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	ASSERT_EQ(0, mkdir(dir, 0700));
	ASSERT_EQ(0, mkdir(sub, 0700));
	close(open(victim, O_CREAT | O_WRONLY, 0600));
	snprintf(sub, sizeof(sub), "../../%s", strrchr(victim, '/') + 1);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dfd);
	dfd = openat(dfd, "sub", O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dfd);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_require_beneath());
	ASSERT_EQ(0, pthread_create(&thread, NULL, flip, &f));
	for (i = 0; i < TRIES || (i < MAX_TRIES && (!eperm || !exdev)); i++) {
		if (i >= TRIES)
			sched_yield();
		if (uring) {
			prep_openat2(&r, dfd, sub, &how);
			res = uring_run(&r);
		} else {
			res = syscall(__NR_openat2, dfd, sub, &how, sizeof(how));
			res = res < 0 ? -errno : res;
		}
		if (res >= 0) {
			opened++;
			close(res);
		} else if (res == -EPERM) {
			eperm++;
		} else if (res == -EXDEV) {
			exdev++;
		} else {
			other++;
		}
	}
	__atomic_store_n(&f.stop, 1, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	TH_LOG("%s: %d tries: %d refused by the filter, %d by RESOLVE_BENEATH",
	       uring ? "IORING_OP_OPENAT2" : "openat2(2)", i, eperm, exdev);
	TH_LOG("%d other errors, %d denied operations happened", other, opened);
	printf("# race %s: %d denied operations happened in %d tries\n",
	       uring ? "io_uring" : "syscall", opened, i);
	EXPECT_EQ(0, opened);
	EXPECT_EQ(0, other);
	/* the flips reached the kernel both ways, or the race proves nothing */
	EXPECT_LT(0, eperm);
	EXPECT_LT(0, exdev);
}

TEST(race_cannot_change_the_struct_after_the_verdict_syscall)
{
	race_openat2(_metadata, false);
}

TEST(race_cannot_change_the_struct_after_the_verdict_uring)
{
	race_openat2(_metadata, true);
}

TEST_HARNESS_MAIN
