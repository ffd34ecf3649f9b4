// SPDX-License-Identifier: GPL-2.0
/*
 * What an SQE does beyond its twin's arguments reaches the filter.
 *
 * Each test here is a way an SQE did something its seccomp view hid:
 * a registered file shown as the descriptor with the same number, a
 * file table changed or a file sent or installed by an opcode judged
 * like NOP, RWF_* flags on a read or write judged as pread64/pwrite64,
 * a socket option set through URING_CMD judged as ioctl, the SQ thread
 * of a strict-mode task still running SQEs, flags the kernel adds
 * shown as the caller's. Each denial also checks that the operation
 * did not happen. These tests need SECCOMP_FILTER_FLAG_URING: on a
 * kernel without it they are skipped (or fail, see uring_expect.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <linux/time_types.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "../kselftest_harness.h"
#include "uring_expect.h"
#include "uring_raw.h"

#if defined(__x86_64__)
#define NATIVE_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH	AUDIT_ARCH_AARCH64
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG_LO(i)	offsetof(struct seccomp_data, args[i])
#else
#define ARG_LO(i)	(offsetof(struct seccomp_data, args[i]) + 4)
#endif

#ifndef SECCOMP_URING_FIXED_FILE
#define SECCOMP_URING_FIXED_FILE	0x80000000U
#endif

/*
 * struct rule - "@action for syscall @nr, allow everything else"; with
 * @arg >= 0 only when the low 32 bits of args[@arg], masked with @mask,
 * equal @val (or differ from it, with @differs).
 */
struct rule {
	int nr;
	int arg;
	__u32 mask;
	__u32 val;
	bool differs;
	__u32 action;
};

#define EPERM_ACTION	(SECCOMP_RET_ERRNO | EPERM)

static int sys_seccomp(unsigned int op, unsigned int flags, void *args)
{
	return syscall(__NR_seccomp, op, flags, args);
}

/*
 * load_rule - load @r as a filter that judges SQEs; @flags are added to
 * SECCOMP_FILTER_FLAG_URING. Returns 0 or -errno.
 */
static int load_rule(const struct rule *r, unsigned int flags)
{
	struct sock_filter insns[16];
	struct sock_fprog prog = { .filter = insns };
	unsigned short n = 0;
	bool cond = r->arg >= 0;

#ifdef NATIVE_ARCH
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				offsetof(struct seccomp_data, arch));
	insns[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						  NATIVE_ARCH, 1, 0);
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						  SECCOMP_RET_KILL_PROCESS);
#endif
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				offsetof(struct seccomp_data, nr));
	insns[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						  r->nr, 0, cond ? 4 : 1);
	if (cond) {
		insns[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W |
				BPF_ABS, ARG_LO(r->arg));
		insns[n++] = (struct sock_filter)BPF_STMT(BPF_ALU | BPF_AND |
							  BPF_K, r->mask);
		insns[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ |
				BPF_K, r->val, r->differs ? 1 : 0,
				r->differs ? 0 : 1);
	}
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, r->action);
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						  SECCOMP_RET_ALLOW);
	prog.len = n;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	if (sys_seccomp(SECCOMP_SET_MODE_FILTER,
			flags | SECCOMP_FILTER_FLAG_URING, &prog))
		return -errno;
	return 0;
}

/* as load_rule() for a rule on the syscall number alone */
static int load_nr_rule(int nr, __u32 action)
{
	struct rule r = { .nr = nr, .arg = -1, .action = action };

	return load_rule(&r, 0);
}

/*
 * uring_flag_lacking - in a TEST(): true when the kernel refuses
 * SECCOMP_FILTER_FLAG_URING (the test was then skipped or failed)
 */
static bool uring_flag_lacking(struct __test_metadata *_metadata)
{
	int err = 0;

	/* a kernel that knows the flag faults on the NULL program */
	if (sys_seccomp(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_URING,
			NULL) == -1 && errno != EFAULT)
		err = errno;
	if (err) {
		uring_feature_missing(_metadata, err, EINVAL,
				      "SECCOMP_FILTER_FLAG_URING is refused");
		return true;
	}
	uring_feature_present(_metadata, "SECCOMP_FILTER_FLAG_URING is accepted");
	return false;
}

static const char *tpath(const char *name)
{
	static char buf[256];
	const char *dir = getenv("TMPDIR");

	snprintf(buf, sizeof(buf), "%s/seccomp_uring_views.%d.%s",
		 dir ? dir : "/tmp", getpid(), name);
	return buf;
}

/* a new file holding @content, opened with @flags; its path in @path */
static int content_file(const char *name, const char *content, int flags,
			char *path, size_t len)
{
	int fd;

	snprintf(path, len, "%s", tpath(name));
	unlink(path);
	fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	if (write(fd, content, strlen(content)) != (ssize_t)strlen(content)) {
		close(fd);
		return -1;
	}
	close(fd);
	return open(path, flags);
}

/* the first @len bytes of @path, as a string in @buf */
static const char *read_back(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

static int register_files(struct uring *r, const int *fds, unsigned int n)
{
	if (syscall(__NR_io_uring_register, r->fd, IORING_REGISTER_FILES,
		    fds, n))
		return -errno;
	return 0;
}

static void prep_fixed_write(struct uring *r, int index, const char *buf)
{
	struct io_uring_sqe *sqe = uring_sqe(r);

	sqe->opcode = IORING_OP_WRITE;
	sqe->flags = IOSQE_FIXED_FILE;
	sqe->fd = index;
	sqe->addr = (unsigned long)buf;
	sqe->len = strlen(buf);
	sqe->off = 0;
}

/* the lowest free descriptor: what the next open or dup would get */
static int lowest_free_fd(void)
{
	int fd = dup(0);

	if (fd >= 0)
		close(fd);
	return fd;
}

/*
 * A filter that lets pwrite64 write only to descriptor 1 must not let
 * a write to registered file 1 through.
 */
TEST(registered_file_index_is_not_a_descriptor)
{
	struct rule only_fd1 = {
		.nr = __NR_pwrite64, .arg = 0, .mask = ~0U, .val = 1,
		.differs = true, .action = EPERM_ACTION,
	};
	char path[256], buf[16];
	struct uring r;
	int fds[2], res;

	if (uring_flag_lacking(_metadata))
		return;
	fds[0] = -1;
	fds[1] = content_file("fixed", "AAAA", O_WRONLY, path, sizeof(path));
	ASSERT_LE(0, fds[1]);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, register_files(&r, fds, 2));

	ASSERT_EQ(0, load_rule(&only_fd1, 0));
	prep_fixed_write(&r, 1, "BB");
	res = uring_run(&r);
	EXPECT_EQ(-EPERM, res);
	EXPECT_STREQ("AAAA", read_back(path, buf, sizeof(buf)))
		TH_LOG("registered file 1 was written as if it were fd 1");
	uring_exit(&r);
	unlink(path);
}

/*
 * What the view shows instead: the index with SECCOMP_URING_FIXED_FILE,
 * which a rule can allow explicitly.
 */
TEST(registered_file_shows_the_tagged_index)
{
	struct rule only_tag1 = {
		.nr = __NR_pwrite64, .arg = 0, .mask = ~0U,
		.val = SECCOMP_URING_FIXED_FILE | 1, .differs = true,
		.action = EPERM_ACTION,
	};
	char path[256], buf[16];
	struct uring r;
	int fds[2];

	if (uring_flag_lacking(_metadata))
		return;
	fds[0] = -1;
	fds[1] = content_file("tagged", "AAAA", O_WRONLY, path, sizeof(path));
	ASSERT_LE(0, fds[1]);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, register_files(&r, fds, 2));
	ASSERT_EQ(0, load_rule(&only_tag1, 0));
	prep_fixed_write(&r, 1, "BB");
	EXPECT_EQ(2, uring_run(&r));
	EXPECT_STREQ("BBAA", read_back(path, buf, sizeof(buf)));
	uring_exit(&r);
	unlink(path);
}

/* FILES_UPDATE is io_uring_register(IORING_REGISTER_FILES_UPDATE) */
TEST(files_update_is_judged_as_io_uring_register)
{
	char path[256], buf[16];
	struct io_uring_sqe *sqe;
	struct uring r;
	int empty = -1, secret;

	if (uring_flag_lacking(_metadata))
		return;
	secret = content_file("update", "AAAA", O_WRONLY, path, sizeof(path));
	ASSERT_LE(0, secret);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, register_files(&r, &empty, 1));
	ASSERT_EQ(0, load_nr_rule(__NR_io_uring_register, EPERM_ACTION));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_FILES_UPDATE;
	sqe->addr = (unsigned long)&secret;
	sqe->len = 1;
	sqe->off = 0;
	EXPECT_EQ(-EPERM, uring_run(&r));
	/* slot 0 stayed empty: a write through it finds no file */
	prep_fixed_write(&r, 0, "BB");
	EXPECT_EQ(-EBADF, uring_run(&r));
	EXPECT_STREQ("AAAA", read_back(path, buf, sizeof(buf)));
	uring_exit(&r);
	unlink(path);
}

/*
 * Ring-internal opcodes show their opcode in io_uring_enter's last
 * argument: TIMEOUT can be refused while NOP runs.
 */
TEST(ring_internal_opcode_refused_without_refusing_nop)
{
	struct rule no_timeout = {
		.nr = __NR_io_uring_enter, .arg = 5, .mask = ~0U,
		.val = IORING_OP_TIMEOUT, .action = EPERM_ACTION,
	};
	struct __kernel_timespec ts = { .tv_nsec = 1000000 };
	struct io_uring_sqe *sqe;
	struct uring r;

	if (uring_flag_lacking(_metadata))
		return;
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_rule(&no_timeout, 0));
	uring_sqe(&r)->opcode = IORING_OP_NOP;
	EXPECT_EQ(0, uring_run(&r));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_TIMEOUT;
	sqe->addr = (unsigned long)&ts;
	sqe->len = 1;
	/* a timeout that ran would complete with -ETIME */
	EXPECT_EQ(-EPERM, uring_run(&r));
	uring_exit(&r);
}

/* MSG_RING's fd-sending form is sendmsg(); its data form is ring-internal */
TEST(msg_ring_send_fd_is_judged_as_sendmsg)
{
	char path[256], buf[16];
	struct io_uring_sqe *sqe;
	struct uring src, dst;
	int empty = -1, secret;

	if (uring_flag_lacking(_metadata))
		return;
	secret = content_file("msg", "AAAA", O_WRONLY, path, sizeof(path));
	ASSERT_LE(0, secret);
	ASSERT_EQ(0, uring_init(&src, 4, 0));
	ASSERT_EQ(0, uring_init(&dst, 4, 0));
	ASSERT_EQ(0, register_files(&src, &secret, 1));
	ASSERT_EQ(0, register_files(&dst, &empty, 1));
	ASSERT_EQ(0, load_nr_rule(__NR_sendmsg, EPERM_ACTION));

	sqe = uring_sqe(&src);
	sqe->opcode = IORING_OP_MSG_RING;
	sqe->fd = dst.fd;
	sqe->addr = IORING_MSG_SEND_FD;
	sqe->addr3 = 0;		/* src's registered file 0 */
	sqe->file_index = 1;	/* into dst's slot 0 */
	EXPECT_EQ(-EPERM, uring_run(&src));
	prep_fixed_write(&dst, 0, "BB");
	EXPECT_EQ(-EBADF, uring_run(&dst))
		TH_LOG("the file reached the other ring");
	EXPECT_STREQ("AAAA", read_back(path, buf, sizeof(buf)));

	/* the data form still runs: it posts a CQE to dst */
	sqe = uring_sqe(&src);
	sqe->opcode = IORING_OP_MSG_RING;
	sqe->fd = dst.fd;
	sqe->addr = IORING_MSG_DATA;
	sqe->off = 0x5eccull;
	EXPECT_EQ(0, uring_run(&src));
	uring_exit(&src);
	uring_exit(&dst);
	unlink(path);
}

/* FIXED_FD_INSTALL is fcntl(F_DUPFD_CLOEXEC), or dup() without CLOEXEC */
TEST(fixed_fd_install_is_judged_as_fcntl_or_dup)
{
	struct io_uring_sqe *sqe;
	struct stat st;
	struct uring r;
	int fd, before;

	if (uring_flag_lacking(_metadata))
		return;
	fd = open("/dev/null", O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, register_files(&r, &fd, 1));
	close(fd);
	before = lowest_free_fd();
	ASSERT_LE(0, before);
	ASSERT_EQ(0, load_nr_rule(__NR_fcntl, EPERM_ACTION));
	ASSERT_EQ(0, load_nr_rule(__NR_dup, SECCOMP_RET_ERRNO | EACCES));

	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_FIXED_FD_INSTALL;
	sqe->flags = IOSQE_FIXED_FILE;
	sqe->fd = 0;
	EXPECT_EQ(-EPERM, uring_run(&r));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_FIXED_FD_INSTALL;
	sqe->flags = IOSQE_FIXED_FILE;
	sqe->fd = 0;
	sqe->install_fd_flags = IORING_FIXED_FD_NO_CLOEXEC;
	EXPECT_EQ(-EACCES, uring_run(&r));
	/* no descriptor was installed: the lowest free one is still free */
	EXPECT_EQ(-1, fstat(before, &st));
	EXPECT_EQ(EBADF, errno);
	uring_exit(&r);
}

/*
 * IORING_OP_WRITE with RWF_NOAPPEND overwrites the head of an O_APPEND
 * file, which pwrite64 cannot: it is judged as pwritev2 with the flags.
 */
TEST(rw_flags_are_judged_as_pwritev2)
{
	struct rule no_noappend = {
		.nr = __NR_pwritev2, .arg = 5, .mask = RWF_NOAPPEND,
		.val = RWF_NOAPPEND, .action = EPERM_ACTION,
	};
	char path[256], buf[16];
	struct io_uring_sqe *sqe;
	struct uring r;
	int fd;

	if (uring_flag_lacking(_metadata))
		return;
	fd = content_file("append", "AAAA", O_WRONLY | O_APPEND, path,
			  sizeof(path));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_rule(&no_noappend, 0));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_WRITE;
	sqe->fd = fd;
	sqe->addr = (unsigned long)"BB";
	sqe->len = 2;
	sqe->off = 0;
	sqe->rw_flags = RWF_NOAPPEND;
	EXPECT_EQ(-EPERM, uring_run(&r));
	EXPECT_STREQ("AAAA", read_back(path, buf, sizeof(buf)))
		TH_LOG("RWF_NOAPPEND overwrote the file's head");

	/* without flags it is still pwrite64, and appends */
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_WRITE;
	sqe->fd = fd;
	sqe->addr = (unsigned long)"CC";
	sqe->len = 2;
	EXPECT_EQ(2, uring_run(&r));
	EXPECT_STREQ("AAAACC", read_back(path, buf, sizeof(buf)));
	uring_exit(&r);
	close(fd);
	unlink(path);
}

/*
 * A read with integrity metadata (Linux 6.14 and later: PI attributes, a
 * second buffer that preadv2 has not) has no twin: refused even when the
 * filters allow preadv2 whatever its arguments, where READV is allowed by
 * number before prep.
 */
TEST(pi_metadata_has_no_twin)
{
#ifdef IORING_RW_ATTR_FLAG_PI
	char path[256], buf[8] = "XXXX", meta[8] = "";
	struct iovec iov = { .iov_base = buf, .iov_len = 4 };
	struct io_uring_attr_pi pi = {
		.len = sizeof(meta), .addr = (unsigned long)meta,
	};
	struct io_uring_sqe *sqe;
	struct uring r;
	int fd;

	if (uring_flag_lacking(_metadata))
		return;
	fd = content_file("pi", "AAAA", O_RDONLY, path, sizeof(path));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_nr_rule(__NR_getppid, EPERM_ACTION));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_READV;
	sqe->fd = fd;
	sqe->addr = (unsigned long)&iov;
	sqe->len = 1;
	sqe->attr_ptr = (unsigned long)&pi;
	sqe->attr_type_mask = IORING_RW_ATTR_FLAG_PI;
	EXPECT_EQ(-EPERM, uring_run(&r));
	EXPECT_EQ(0, memcmp(buf, "XXXX", 4)) TH_LOG("the read happened");

	/* without the metadata the same read runs */
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_READV;
	sqe->fd = fd;
	sqe->addr = (unsigned long)&iov;
	sqe->len = 1;
	EXPECT_EQ(4, uring_run(&r));
	EXPECT_EQ(0, memcmp(buf, "AAAA", 4));
	uring_exit(&r);
	close(fd);
	unlink(path);
#else
	SKIP(return, "no IORING_RW_ATTR_FLAG_PI in this kernel's headers (before 6.14)");
#endif
}

static int sndbuf(int fd)
{
	int val = -1;
	socklen_t len = sizeof(val);

	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &val, &len))
		return -errno;
	return val;
}

static void prep_sockopt(struct uring *r, int fd, __u32 op, int *val)
{
	struct io_uring_sqe *sqe = uring_sqe(r);

	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = op;
	sqe->level = SOL_SOCKET;
	sqe->optname = SO_SNDBUF;
	sqe->optval = (unsigned long)val;
	sqe->optlen = sizeof(*val);
}

/* SOCKET_URING_OP_SETSOCKOPT is setsockopt(), whatever ioctl allows */
TEST(socket_command_setsockopt_is_judged_as_setsockopt)
{
	struct rule no_sndbuf = {
		.nr = __NR_setsockopt, .arg = 2, .mask = ~0U,
		.val = SO_SNDBUF, .action = EPERM_ACTION,
	};
	struct uring r;
	int fd, before, val = 4096;

	if (uring_flag_lacking(_metadata))
		return;
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	ASSERT_LE(0, fd);
	before = sndbuf(fd);
	ASSERT_LT(0, before);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_rule(&no_sndbuf, 0));
	prep_sockopt(&r, fd, SOCKET_URING_OP_SETSOCKOPT, &val);
	EXPECT_EQ(-EPERM, uring_run(&r));
	EXPECT_EQ(before, sndbuf(fd)) TH_LOG("SO_SNDBUF was changed");
	uring_exit(&r);
	close(fd);
}

/* and GETSOCKOPT is getsockopt(), with the option it names */
TEST(socket_command_getsockopt_is_judged_as_getsockopt)
{
	struct rule no_sndbuf = {
		.nr = __NR_getsockopt, .arg = 2, .mask = ~0U,
		.val = SO_SNDBUF, .action = EPERM_ACTION,
	};
	struct uring r;
	int fd, val = -1;

	if (uring_flag_lacking(_metadata))
		return;
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_rule(&no_sndbuf, 0));
	prep_sockopt(&r, fd, SOCKET_URING_OP_GETSOCKOPT, &val);
	EXPECT_EQ(-EPERM, uring_run(&r));
	EXPECT_EQ(-1, val) TH_LOG("the option was read");
	uring_exit(&r);
	close(fd);
}

/*
 * FSYNC with IORING_FSYNC_DATASYNC is fdatasync, also when the action
 * cache knows fsync is always allowed.
 */
TEST(fdatasync_is_judged_as_fdatasync)
{
	struct io_uring_sqe *sqe;
	char path[256];
	struct uring r;
	int fd;

	if (uring_flag_lacking(_metadata))
		return;
	fd = content_file("sync", "AAAA", O_WRONLY, path, sizeof(path));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_nr_rule(__NR_fdatasync, EPERM_ACTION));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_FSYNC;
	sqe->fd = fd;
	sqe->fsync_flags = IORING_FSYNC_DATASYNC;
	EXPECT_EQ(-EPERM, uring_run(&r));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_FSYNC;
	sqe->fd = fd;
	EXPECT_EQ(0, uring_run(&r));
	uring_exit(&r);
	close(fd);
	unlink(path);
}

/*
 * A task that switches to strict mode with a SQPOLL ring: the SQ thread
 * must not run its SQEs any more. The child spins on the CQ ring (no
 * system call) and reports the result through a pipe.
 */
TEST(strict_mode_refuses_sqpoll_sqes)
{
	char path[256];
	int pipefd[2], res = 1, status, i;
	pid_t pid;

	if (uring_flag_lacking(_metadata))
		return;
	snprintf(path, sizeof(path), "%s", tpath("strict"));
	unlink(path);
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct uring r;
		unsigned int head;

		if (uring_init(&r, 4, IORING_SETUP_SQPOLL))
			_exit(2);
		uring_sqe(&r)->opcode = IORING_OP_NOP;
		if (uring_run(&r))
			_exit(3);
		/* queue the open, then publish it only in strict mode */
		uring_prep_create(&r, path);
		head = *r.cq_head;
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT))
			_exit(4);
		__atomic_store_n(r.sq_tail, r.sqe_tail, __ATOMIC_RELEASE);
		while (head == __atomic_load_n(r.cq_tail, __ATOMIC_ACQUIRE))
			;
		res = r.cqes[head & *r.cq_mask].res;
		if (write(pipefd[1], &res, sizeof(res)) != sizeof(res))
			syscall(__NR_exit, 5);
		syscall(__NR_exit, 0);
	}
	close(pipefd[1]);
	/* the SQ thread is awake for a second after the NOP: 20 s is ample */
	for (i = 0; i < 200 && waitpid(pid, &status, WNOHANG) == 0; i++)
		usleep(100000);
	if (i == 200) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	ASSERT_EQ((ssize_t)sizeof(res), read(pipefd[0], &res, sizeof(res)))
		TH_LOG("the child reported nothing (status %#x)", status);
	EXPECT_EQ(-EPERM, res);
	EXPECT_NE(0, access(path, F_OK)) TH_LOG("the SQ thread created the file");
	close(pipefd[0]);
	unlink(path);
}

/* sends show the flags the caller gave, not the MSG_NOSIGNAL prep adds */
TEST(send_flags_are_shown_as_given)
{
	struct rule flags_zero = {
		.nr = __NR_sendto, .arg = 3, .mask = ~0U, .val = 0,
		.differs = true, .action = EPERM_ACTION,
	};
	struct io_uring_sqe *sqe;
	struct uring r;
	char buf[8];
	int sv[2];

	if (uring_flag_lacking(_metadata))
		return;
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_rule(&flags_zero, 0));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_SEND;
	sqe->fd = sv[0];
	sqe->addr = (unsigned long)"hi";
	sqe->len = 2;
	EXPECT_EQ(2, uring_run(&r));
	/* the caller's own MSG_NOSIGNAL is shown and refused */
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_SEND;
	sqe->fd = sv[0];
	sqe->addr = (unsigned long)"yo";
	sqe->len = 2;
	sqe->msg_flags = MSG_NOSIGNAL;
	EXPECT_EQ(-EPERM, uring_run(&r));
	EXPECT_EQ(2, recv(sv[1], buf, sizeof(buf), MSG_DONTWAIT))
		TH_LOG("only the first send may arrive");
	uring_exit(&r);
	close(sv[0]);
	close(sv[1]);
}

/*
 * The path pointer shown is the one prep used. Prep's getname() faults on
 * a userfaultfd page; while it waits, the fault handler points the shared
 * SQE at an allowed path, then lets getname() copy the refused one. A
 * view that reads the SQE again shows the allowed pointer.
 */
struct uffd_swap {
	int uffd;
	char *page;
	const char *path;
	struct io_uring_sqe *sqe;
	const char *allowed;
	int faults;
};

static void *uffd_swap_handler(void *arg)
{
	struct uffd_swap *sw = arg;
	struct pollfd pfd = { .fd = sw->uffd, .events = POLLIN };
	static char src[4096];
	struct uffdio_copy copy;
	struct uffd_msg msg;

	if (poll(&pfd, 1, 20000) != 1 ||
	    read(sw->uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		return NULL;
	__atomic_store_n(&sw->sqe->addr, (unsigned long)sw->allowed,
			 __ATOMIC_SEQ_CST);
	snprintf(src, sizeof(src), "%s", sw->path);
	copy.dst = (unsigned long)sw->page;
	copy.src = (unsigned long)src;
	copy.len = 4096;
	copy.mode = 0;
	copy.copy = 0;
	if (!ioctl(sw->uffd, UFFDIO_COPY, &copy))
		sw->faults++;
	return NULL;
}

TEST(path_pointer_is_the_one_prep_used)
{
	static const char allowed[] = "/dev/null";
	struct rule only_allowed = {
		.nr = __NR_openat, .arg = 1, .mask = ~0U,
		.val = (__u32)(unsigned long)allowed, .differs = true,
		.action = EPERM_ACTION,
	};
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	struct uffd_swap sw = { 0 };
	struct io_uring_sqe *sqe;
	char path[256];
	pthread_t handler;
	struct uring r;
	int res;

	if (uring_flag_lacking(_metadata))
		return;
	snprintf(path, sizeof(path), "%s", tpath("uffd"));
	unlink(path);
	sw.uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	ASSERT_LE(0, sw.uffd) TH_LOG("userfaultfd: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(sw.uffd, UFFDIO_API, &api));
	sw.page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sw.page);
	reg.range.start = (unsigned long)sw.page;
	reg.range.len = 4096;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	ASSERT_EQ(0, ioctl(sw.uffd, UFFDIO_REGISTER, &reg));
	sw.path = path;
	sw.allowed = allowed;

	ASSERT_EQ(0, uring_init(&r, 4, 0));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_OPENAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (unsigned long)sw.page;
	sqe->open_flags = O_CREAT | O_WRONLY;
	sqe->len = 0600;
	sw.sqe = sqe;
	ASSERT_EQ(0, pthread_create(&handler, NULL, uffd_swap_handler, &sw));
	ASSERT_EQ(0, load_rule(&only_allowed, 0));
	res = uring_run(&r);
	pthread_join(handler, NULL);
	ASSERT_EQ(1, sw.faults) TH_LOG("prep did not fault on the path");
	EXPECT_EQ(-EPERM, res);
	EXPECT_NE(0, access(path, F_OK))
		TH_LOG("the refused path was opened: the view showed the other");
	if (res >= 0)
		close(res);
	uring_exit(&r);
	unlink(path);
}

/* an SQE with a registered personality runs with other credentials */
TEST(personality_is_refused)
{
	char path[256];
	struct uring r;
	int id, res;

	if (uring_flag_lacking(_metadata))
		return;
	snprintf(path, sizeof(path), "%s", tpath("personality"));
	unlink(path);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	id = syscall(__NR_io_uring_register, r.fd,
		     IORING_REGISTER_PERSONALITY, NULL, 0);
	ASSERT_LT(0, id);
	ASSERT_EQ(0, load_nr_rule(__NR_getppid, EPERM_ACTION));
	uring_prep_create(&r, path)->personality = id;
	res = uring_run(&r);
	EXPECT_EQ(-EPERM, res);
	EXPECT_NE(0, access(path, F_OK)) TH_LOG("the file was created");
	if (res >= 0)
		close(res);
	/* without the personality the same open runs */
	uring_prep_create(&r, path);
	res = uring_run(&r);
	EXPECT_LE(0, res);
	if (res >= 0)
		close(res);
	uring_exit(&r);
	unlink(path);
}

/*
 * A SQPOLL ring set up as root, then setresuid() to nobody: the SQ thread
 * would still open files as root, in a directory only root may write.
 */
TEST(sqpoll_ring_of_a_creator_that_dropped_root_is_refused)
{
	char dir[256], path[300];
	int pipefd[2], res = 1, status;
	pid_t pid;

	if (uring_flag_lacking(_metadata))
		return;
	if (geteuid() != 0)
		SKIP(return, "needs root to drop it");
	snprintf(dir, sizeof(dir), "%s", tpath("rootdir"));
	snprintf(path, sizeof(path), "%s/file", dir);
	unlink(path);
	rmdir(dir);
	ASSERT_EQ(0, mkdir(dir, 0700));
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct uring r;

		if (uring_init(&r, 4, IORING_SETUP_SQPOLL))
			_exit(2);
		if (setresuid(65534, 65534, 65534))
			_exit(3);
		if (load_nr_rule(__NR_getppid, EPERM_ACTION))
			_exit(4);
		uring_prep_create(&r, path);
		res = uring_run(&r);
		if (write(pipefd[1], &res, sizeof(res)) != sizeof(res))
			_exit(5);
		_exit(0);
	}
	close(pipefd[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ((ssize_t)sizeof(res), read(pipefd[0], &res, sizeof(res)))
		TH_LOG("the child failed to set up (status %#x)", status);
	EXPECT_EQ(-EPERM, res);
	EXPECT_NE(0, access(path, F_OK))
		TH_LOG("the SQ thread created the file as root");
	close(pipefd[0]);
	unlink(path);
	rmdir(dir);
}

/*
 * As root, a filter, then a SQPOLL ring; then setresuid() to nobody and a
 * second SQPOLL ring attached to the first one's SQ thread
 * (IORING_SETUP_ATTACH_WQ), which has the same filters. The second ring's
 * own credentials are nobody's, but the SQ thread issues linked requests
 * from its task work as root: an open linked after a NOP would create a
 * file in a directory only root may write.
 */
TEST(sqpoll_ring_attached_to_a_root_sq_thread_is_refused)
{
	char dir[256], path[300];
	int pipefd[2], res[2] = { 1, 1 }, status;
	pid_t pid;

	if (uring_flag_lacking(_metadata))
		return;
	if (geteuid() != 0)
		SKIP(return, "needs root to drop it");
	snprintf(dir, sizeof(dir), "%s", tpath("rootdir-attached"));
	snprintf(path, sizeof(path), "%s/file", dir);
	unlink(path);
	rmdir(dir);
	ASSERT_EQ(0, mkdir(dir, 0700));
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct io_uring_sqe *nop;
		struct io_uring_cqe cqe;
		struct uring root, r;
		int i;

		if (load_nr_rule(__NR_getppid, EPERM_ACTION))
			_exit(4);
		if (uring_init(&root, 4, IORING_SETUP_SQPOLL))
			_exit(2);
		if (setresuid(65534, 65534, 65534))
			_exit(3);
		if (uring_init_wq(&r, 4, IORING_SETUP_SQPOLL |
				  IORING_SETUP_ATTACH_WQ, root.fd))
			_exit(5);
		nop = uring_sqe(&r);
		nop->opcode = IORING_OP_NOP;
		nop->flags = IOSQE_IO_LINK;
		uring_prep_create(&r, path)->user_data = 1;
		if (uring_submit(&r, 0) != 2)
			_exit(6);
		for (i = 0; i < 2; i++) {
			if (uring_cqe(&r, &cqe))
				_exit(7);
			res[cqe.user_data] = cqe.res;
		}
		if (write(pipefd[1], res, sizeof(res)) != sizeof(res))
			_exit(8);
		_exit(0);
	}
	close(pipefd[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ((ssize_t)sizeof(res), read(pipefd[0], res, sizeof(res)))
		TH_LOG("the child failed to set up (status %#x)", status);
	EXPECT_EQ(-EPERM, res[0]) TH_LOG("the NOP was not refused");
	EXPECT_GT(0, res[1]) TH_LOG("the open returned %d", res[1]);
	EXPECT_NE(0, access(path, F_OK))
		TH_LOG("the SQ thread created the file as root");
	close(pipefd[0]);
	unlink(path);
	rmdir(dir);
}

static void prep_read_fixed(struct uring *r, int fd, char *buf, __u32 len)
{
	struct io_uring_sqe *sqe = uring_sqe(r);

	sqe->opcode = IORING_OP_READ_FIXED;
	sqe->fd = fd;
	sqe->addr = (unsigned long)buf;
	sqe->len = len;
	sqe->off = 0;
	sqe->buf_index = 0;
}

/*
 * A registered buffer is the pinned memory of the process that set the
 * ring up: a child that inherits the ring and reads into "its" buffer
 * would write the parent's memory. Under a judging filter the child is
 * refused; the parent, under the same filter, is not.
 */
TEST(registered_buffer_of_another_process_is_refused)
{
	static char buf[4096];
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	int fd, pipefd[2], res = 1, status;
	char path[256];
	struct uring r;
	pid_t pid;

	if (uring_flag_lacking(_metadata))
		return;
	memcpy(buf, "AAAA", 4);
	fd = content_file("fixedbuf", "BBBB", O_RDONLY, path, sizeof(path));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, syscall(__NR_io_uring_register, r.fd,
			     IORING_REGISTER_BUFFERS, &iov, 1));
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (load_nr_rule(__NR_getppid, EPERM_ACTION))
			_exit(2);
		prep_read_fixed(&r, fd, buf, 4);
		res = uring_run(&r);
		if (write(pipefd[1], &res, sizeof(res)) != sizeof(res))
			_exit(3);
		_exit(0);
	}
	close(pipefd[1]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ((ssize_t)sizeof(res), read(pipefd[0], &res, sizeof(res)))
		TH_LOG("the child failed to set up (status %#x)", status);
	close(pipefd[0]);
	EXPECT_EQ(-EPERM, res);
	EXPECT_EQ(0, memcmp(buf, "AAAA", 4))
		TH_LOG("the child wrote the parent's buffer: %.4s", buf);
	/* the child moved the shared SQ tail */
	r.sqe_tail = *r.sq_tail;
	ASSERT_EQ(0, load_nr_rule(__NR_getppid, EPERM_ACTION));
	prep_read_fixed(&r, fd, buf, 4);
	EXPECT_EQ(4, uring_run(&r));
	EXPECT_EQ(0, memcmp(buf, "BBBB", 4));
	uring_exit(&r);
	close(fd);
	unlink(path);
}

/*
 * READV with buffer selection reads into one provided buffer; prep
 * replaces the count of iovecs (1) with that iovec's length. The view
 * still shows one iovec: a rule that allows preadv2 of one iovec only
 * lets it through, and the data lands in the provided buffer.
 */
TEST(readv_with_buffer_select_shows_one_iovec)
{
	struct rule rule = {
		.nr = __NR_preadv2, .arg = 2, .mask = ~0U, .val = 1,
		.differs = true, .action = EPERM_ACTION,
	};
	static char pbuf[64];
	struct iovec iov = { .iov_base = NULL, .iov_len = sizeof(pbuf) };
	struct io_uring_sqe *sqe;
	char path[256];
	struct uring r;
	int fd, res;

	if (uring_flag_lacking(_metadata))
		return;
	fd = content_file("bufselect", "BBBB", O_RDONLY, path, sizeof(path));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_PROVIDE_BUFFERS;
	sqe->fd = 1;			/* one buffer */
	sqe->addr = (unsigned long)pbuf;
	sqe->len = sizeof(pbuf);
	sqe->buf_group = 7;
	sqe->off = 0;			/* its id */
	ASSERT_EQ(0, uring_run(&r));
	ASSERT_EQ(0, load_rule(&rule, 0));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_READV;
	sqe->flags = IOSQE_BUFFER_SELECT;
	sqe->fd = fd;
	sqe->addr = (unsigned long)&iov;
	sqe->len = 1;
	sqe->off = 0;
	sqe->buf_group = 7;
	res = uring_run(&r);
	EXPECT_EQ(4, res);
	EXPECT_EQ(0, memcmp(pbuf, "BBBB", 4));
	uring_exit(&r);
	close(fd);
	unlink(path);
}

static void *sqpoll_ring_thread(void *arg)
{
	return (void *)(long)uring_init(arg, 4, IORING_SETUP_SQPOLL);
}

/* a SQPOLL ring set up by a thread that has exited since */
static int sqpoll_ring_of_an_exited_thread(struct uring *r)
{
	pthread_t creator;
	void *ret;

	if (pthread_create(&creator, NULL, sqpoll_ring_thread, r) ||
	    pthread_join(creator, &ret))
		return -1;
	return (int)(long)ret;
}

/*
 * The thread that set up a SQPOLL ring exits, unfiltered; then the
 * process installs a filter with TSYNC, which reaches every live thread,
 * the SQ thread among them, but not the exited creator. The filter
 * judges the ring's SQEs: an open it refuses does not happen.
 */
TEST(sqpoll_ring_of_an_exited_thread_is_judged_by_tsync_filters)
{
	struct rule rule = { .nr = __NR_openat, .arg = -1,
			     .action = EPERM_ACTION };
	char path[256];
	struct uring r;
	int res;

	if (uring_flag_lacking(_metadata))
		return;
	snprintf(path, sizeof(path), "%s", tpath("exited-creator"));
	unlink(path);
	ASSERT_EQ(0, sqpoll_ring_of_an_exited_thread(&r));
	ASSERT_EQ(0, load_rule(&rule, SECCOMP_FILTER_FLAG_TSYNC));
	uring_prep_create(&r, path);
	res = uring_run(&r);
	EXPECT_EQ(-EPERM, res);
	EXPECT_NE(0, access(path, F_OK)) TH_LOG("the file was created");
	uring_exit(&r);
	unlink(path);
}

/*
 * Under a filter that does not judge io_uring, a SQPOLL ring keeps
 * working after the thread that set it up exits, as without seccomp.
 */
TEST(sqpoll_ring_outlives_its_creator_thread)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = 1, .filter = &allow };
	struct uring r;

	ASSERT_EQ(0, prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	ASSERT_EQ(0, sys_seccomp(SECCOMP_SET_MODE_FILTER, 0, &prog));
	ASSERT_EQ(0, sqpoll_ring_of_an_exited_thread(&r));
	uring_sqe(&r)->opcode = IORING_OP_NOP;
	EXPECT_EQ(0, uring_run(&r));
	uring_exit(&r);
}

/* an offset of -1 reads at the file position, as read(2): judged as read */
TEST(read_at_the_file_position_is_judged_as_read)
{
	char path[256], buf[8] = { 0 };
	struct io_uring_sqe *sqe;
	struct uring r;
	int fd;

	if (uring_flag_lacking(_metadata))
		return;
	fd = content_file("pos", "AAAA", O_RDONLY, path, sizeof(path));
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, load_nr_rule(__NR_read, EPERM_ACTION));
	sqe = uring_sqe(&r);
	sqe->opcode = IORING_OP_READ;
	sqe->fd = fd;
	sqe->addr = (unsigned long)buf;
	sqe->len = 4;
	sqe->off = -1ULL;
	EXPECT_EQ(-EPERM, uring_run(&r));
	EXPECT_EQ(0, buf[0]) TH_LOG("the file was read");
	/* the position did not move: pread64 at 0 is still allowed */
	EXPECT_EQ(0, lseek(fd, 0, SEEK_CUR));
	uring_exit(&r);
	close(fd);
	unlink(path);
}

/* an open into a registered slot shows the slot after openat's arguments */
TEST(open_into_a_registered_slot_shows_file_index)
{
	struct rule no_slot = {
		.nr = __NR_openat, .arg = 4, .mask = ~0U, .val = 0,
		.differs = true, .action = EPERM_ACTION,
	};
	char path[256];
	struct uring r;
	int empty = -1, res;

	if (uring_flag_lacking(_metadata))
		return;
	snprintf(path, sizeof(path), "%s", tpath("slot"));
	unlink(path);
	ASSERT_EQ(0, uring_init(&r, 4, 0));
	ASSERT_EQ(0, register_files(&r, &empty, 1));
	ASSERT_EQ(0, load_rule(&no_slot, 0));
	uring_prep_create(&r, path)->file_index = 1;
	EXPECT_EQ(-EPERM, uring_run(&r));
	EXPECT_NE(0, access(path, F_OK)) TH_LOG("the file was created");
	/* an open that makes a descriptor still runs */
	uring_prep_create(&r, path);
	res = uring_run(&r);
	EXPECT_LE(0, res);
	if (res >= 0)
		close(res);
	uring_exit(&r);
	unlink(path);
}

TEST_HARNESS_MAIN
