// SPDX-License-Identifier: GPL-2.0
/*
 * issue 14 round 6: exercise the changed judged path.
 *  - opcodes without a fast twin (SECCOMP_URING_NO_NR) on the self path,
 *    with a chain whose allow bitmap is almost full (URING_CMD, READ_FIXED,
 *    FSYNC+DATASYNC, an unknown opcode);
 *  - URING_CMD setsockopt on a SQE128 ring and on a 64-byte ring;
 *  - a filter reading the extension area (openat2, bind on a fixed file):
 *    ext.flags, reserved, zero_offset as the filter sees them;
 *  - the same on a SQPOLL ring whose creator installed the ext filter
 *    without TSYNC and exited (two chains, the ext one as "also");
 *  - uring_force=1 and fastpath=0 with a plain (non-URING) filter.
 * Build: gcc -static -O2 -Wall -pthread -I$K/usr/include -o r6-views r6-views.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/io_uring.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#define NATIVE_ARCH AUDIT_ARCH_X86_64
static int fails;

struct ring {
	int fd;
	unsigned int flags;
	unsigned int *sq_tail, *sq_mask, *sq_array;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	unsigned int sqe_tail;
};

static int ring_init(struct ring *r, unsigned int flags)
{
	struct io_uring_params p;
	size_t sq_len, cq_len, sqe_sz = (flags & IORING_SETUP_SQE128) ? 128 : 64;
	char *sq;

	memset(&p, 0, sizeof(p));
	memset(r, 0, sizeof(*r));
	p.flags = flags;
	p.sq_thread_idle = 100;
	r->fd = syscall(__NR_io_uring_setup, 8, &p);
	if (r->fd < 0)
		return -errno;
	r->flags = flags;
	sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (cq_len > sq_len)
		sq_len = cq_len;
	sq = mmap(NULL, sq_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  r->fd, IORING_OFF_SQ_RING);
	if (sq == MAP_FAILED)
		return -errno;
	r->sqes = mmap(NULL, p.sq_entries * sqe_sz, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (r->sqes == MAP_FAILED)
		return -errno;
	r->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	r->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	r->sq_array = (unsigned int *)(sq + p.sq_off.array);
	r->cq_head = (unsigned int *)(sq + p.cq_off.head);
	r->cq_tail = (unsigned int *)(sq + p.cq_off.tail);
	r->cq_mask = (unsigned int *)(sq + p.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(sq + p.cq_off.cqes);
	r->sqe_tail = *r->sq_tail;
	return 0;
}

static struct io_uring_sqe *ring_sqe(struct ring *r)
{
	unsigned int idx = r->sqe_tail & *r->sq_mask;
	int big = r->flags & IORING_SETUP_SQE128;
	struct io_uring_sqe *sqe = &r->sqes[big ? idx * 2 : idx];

	/* garbage in the second half, to see it is what the op gets */
	memset(sqe, 0, 64);
	if (big)
		memset((char *)sqe + 64, 0xa5, 64);
	r->sq_array[idx] = idx;
	r->sqe_tail++;
	return sqe;
}

static int ring_submit_wait(struct ring *r, struct io_uring_cqe *out)
{
	unsigned int n = r->sqe_tail - *r->sq_tail;
	unsigned int flags = IORING_ENTER_GETEVENTS, head;
	struct timespec ts = { 0, 1000000 };
	int ms = 3000;

	__atomic_store_n(r->sq_tail, r->sqe_tail, __ATOMIC_RELEASE);
	if (r->flags & IORING_SETUP_SQPOLL)
		flags = IORING_ENTER_SQ_WAKEUP;
	if (syscall(__NR_io_uring_enter, r->fd, n, (r->flags & IORING_SETUP_SQPOLL) ? 0 : 1,
		    flags, NULL, 0) < 0)
		return -errno;
	head = *r->cq_head;
	while (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE)) {
		if (ms-- <= 0)
			return -ETIMEDOUT;
		nanosleep(&ts, NULL);
	}
	*out = r->cqes[head & *r->cq_mask];
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return 0;
}

static void expect(const char *what, int got, int want)
{
	printf("%s %s: res %d, want %d\n", got == want ? "ok  " : "FAIL", what, got, want);
	if (got != want)
		fails++;
}

#define LD(off)		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (off))
#define RET(v)		BPF_STMT(BPF_RET | BPF_K, (v))
#define JEQ(k, t, f)	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (k), (t), (f))
#define ERR(e)		(SECCOMP_RET_ERRNO | (e))
#define SD_NR		offsetof(struct seccomp_data, nr)
#define SD_ARCH		offsetof(struct seccomp_data, arch)
#define SD_ARG(i)	(offsetof(struct seccomp_data, args) + 8 * (i))
#define EXT(f)		(sizeof(struct seccomp_data) + offsetof(struct seccomp_ext, f))

static int load(struct sock_filter *f, unsigned short len, unsigned long flags)
{
	struct sock_fprog prog = { .len = len, .filter = f };

	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog))
		return -errno;
	return 0;
}

/* ioctl -> 1001, pread64 -> 1002, fdatasync -> 1003,
 * setsockopt(SOL_SOCKET, SO_RCVBUF) -> 1004, all else allowed */
static int load_a(unsigned long flags)
{
	struct sock_filter f[] = {
		LD(SD_ARCH),
		JEQ(NATIVE_ARCH, 1, 0),
		RET(SECCOMP_RET_KILL_PROCESS),
		LD(SD_NR),
		JEQ(__NR_ioctl, 0, 1), RET(ERR(1001)),
		JEQ(__NR_pread64, 0, 1), RET(ERR(1002)),
		JEQ(__NR_fdatasync, 0, 1), RET(ERR(1003)),
		JEQ(__NR_setsockopt, 0, 5),
		LD(SD_ARG(1)), JEQ(SOL_SOCKET, 0, 3),
		LD(SD_ARG(2)), JEQ(SO_RCVBUF, 0, 1),
		RET(ERR(1004)),
		RET(SECCOMP_RET_ALLOW),
	};
	return load(f, sizeof(f) / sizeof(f[0]), flags);
}

/*
 * EXT filter. openat2: reserved/zero_offset checks, then O_CREAT in
 * how.flags -> 2000 + ext.flags. bind -> 2100 + ext.flags.
 */
static int load_b(unsigned long flags)
{
	struct sock_filter f[] = {
		LD(SD_ARCH),
		JEQ(NATIVE_ARCH, 1, 0),
		RET(SECCOMP_RET_KILL_PROCESS),
		LD(SD_NR),
		JEQ(__NR_openat2, 2, 0),
		JEQ(__NR_bind, 14, 0),
		RET(SECCOMP_RET_ALLOW),
		/* openat2 */
		LD(EXT(reserved[0])), JEQ(0, 1, 0), RET(ERR(3000)),
		LD(EXT(reserved[3])), JEQ(0, 1, 0), RET(ERR(3003)),
		LD(EXT(data[0])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_CREAT, 0, 4),
		LD(EXT(flags)),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 2000),
		BPF_STMT(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO),
		BPF_STMT(BPF_RET | BPF_A, 0),
		RET(SECCOMP_RET_ALLOW),
		/* bind */
		LD(EXT(flags)),
		BPF_STMT(BPF_ALU | BPF_ADD | BPF_K, 2100),
		BPF_STMT(BPF_ALU | BPF_OR | BPF_K, SECCOMP_RET_ERRNO),
		BPF_STMT(BPF_RET | BPF_A, 0),
	};
	return load(f, sizeof(f) / sizeof(f[0]), flags);
}

static char tmpf[64];

static void run_common(const char *tag, struct ring *r, int sock, int do_nofast)
{
	struct io_uring_cqe cqe;
	struct io_uring_sqe *s;
	static char buf[4096] __attribute__((aligned(4096)));
	char what[128];
	int fd = open(tmpf, O_RDWR | O_CREAT, 0600);
	int devnull = open("/dev/null", O_RDWR);

	if (do_nofast) {
		s = ring_sqe(r);
		s->opcode = IORING_OP_URING_CMD;
		s->fd = devnull;
		s->cmd_op = 0x1234;
		snprintf(what, sizeof(what), "%s URING_CMD ioctl on /dev/null", tag);
		expect(what, ring_submit_wait(r, &cqe) ?: cqe.res, -1001);

		s = ring_sqe(r);
		s->opcode = IORING_OP_FSYNC;
		s->fd = fd;
		s->fsync_flags = IORING_FSYNC_DATASYNC;
		snprintf(what, sizeof(what), "%s FSYNC DATASYNC", tag);
		expect(what, ring_submit_wait(r, &cqe) ?: cqe.res, -1003);

		s = ring_sqe(r);
		s->opcode = IORING_OP_FSYNC;
		s->fd = fd;
		snprintf(what, sizeof(what), "%s FSYNC", tag);
		expect(what, ring_submit_wait(r, &cqe) ?: cqe.res, 0);

		s = ring_sqe(r);
		s->opcode = 0xf0;
		snprintf(what, sizeof(what), "%s opcode 0xf0", tag);
		expect(what, ring_submit_wait(r, &cqe) ?: cqe.res, -EINVAL);

		s = ring_sqe(r);
		s->opcode = IORING_OP_READ;
		s->fd = fd;
		s->addr = (unsigned long)buf;
		s->len = 16;
		s->off = 0;
		snprintf(what, sizeof(what), "%s READ at 0 (pread64)", tag);
		expect(what, ring_submit_wait(r, &cqe) ?: cqe.res, -1002);

		s = ring_sqe(r);
		s->opcode = IORING_OP_NOP;
		snprintf(what, sizeof(what), "%s NOP", tag);
		expect(what, ring_submit_wait(r, &cqe) ?: cqe.res, 0);

		if (sock >= 0) {
			int val = 65536;

			s = ring_sqe(r);
			s->opcode = IORING_OP_URING_CMD;
			s->fd = sock;
			s->cmd_op = SOCKET_URING_OP_SETSOCKOPT;
			s->level = SOL_SOCKET;
			s->optname = SO_RCVBUF;
			s->optval = (unsigned long)&val;
			s->optlen = sizeof(val);
			snprintf(what, sizeof(what), "%s URING_CMD setsockopt SO_RCVBUF", tag);
			expect(what, ring_submit_wait(r, &cqe) ?: cqe.res, -1004);

			s = ring_sqe(r);
			s->opcode = IORING_OP_URING_CMD;
			s->fd = sock;
			s->cmd_op = SOCKET_URING_OP_SETSOCKOPT;
			s->level = SOL_SOCKET;
			s->optname = SO_SNDBUF;
			s->optval = (unsigned long)&val;
			s->optlen = sizeof(val);
			snprintf(what, sizeof(what), "%s URING_CMD setsockopt SO_SNDBUF", tag);
			expect(what, ring_submit_wait(r, &cqe) ?: cqe.res, 0);
		}
	}
	close(fd);
	close(devnull);
}

static void run_ext(const char *tag, struct ring *r, int want_creat, int want_bind_fixed)
{
	struct io_uring_cqe cqe;
	struct io_uring_sqe *s;
	static struct open_how how;
	static struct sockaddr_in sin;
	char what[128];
	int sk, ret;

	memset(&how, 0, sizeof(how));
	how.flags = O_RDWR | O_CREAT;
	how.mode = 0600;
	s = ring_sqe(r);
	s->opcode = IORING_OP_OPENAT2;
	s->fd = AT_FDCWD;
	s->addr = (unsigned long)tmpf;
	s->len = sizeof(how);
	s->addr2 = (unsigned long)&how;
	snprintf(what, sizeof(what), "%s OPENAT2 O_CREAT (ext)", tag);
	expect(what, ring_submit_wait(r, &cqe) ?: cqe.res, want_creat);

	how.flags = O_RDONLY;
	how.mode = 0;
	s = ring_sqe(r);
	s->opcode = IORING_OP_OPENAT2;
	s->fd = AT_FDCWD;
	s->addr = (unsigned long)tmpf;
	s->len = sizeof(how);
	s->addr2 = (unsigned long)&how;
	snprintf(what, sizeof(what), "%s OPENAT2 O_RDONLY (ext)", tag);
	ret = ring_submit_wait(r, &cqe) ?: cqe.res;
	if (ret >= 0)
		close(ret), ret = 0;
	expect(what, ret, 0);

	if (want_bind_fixed) {
		sk = socket(AF_INET, SOCK_STREAM, 0);
		ret = syscall(__NR_io_uring_register, r->fd, IORING_REGISTER_FILES, &sk, 1);
		if (ret) {
			printf("skip bind: register files %d\n", -errno);
			return;
		}
		memset(&sin, 0, sizeof(sin));
		sin.sin_family = AF_INET;
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		s = ring_sqe(r);
		s->opcode = IORING_OP_BIND;
		s->fd = 0;
		s->flags = IOSQE_FIXED_FILE;
		s->addr = (unsigned long)&sin;
		s->addr2 = sizeof(sin);
		snprintf(what, sizeof(what), "%s BIND fixed (ext flags)", tag);
		expect(what, ring_submit_wait(r, &cqe) ?: cqe.res, want_bind_fixed);

		s = ring_sqe(r);
		s->opcode = IORING_OP_BIND;
		s->fd = sk;
		s->addr = (unsigned long)&sin;
		s->addr2 = sizeof(sin);
		snprintf(what, sizeof(what), "%s BIND plain (ext flags)", tag);
		expect(what, ring_submit_wait(r, &cqe) ?: cqe.res, -2103);
		close(sk);
	}
}

static int child_plain(void)
{
	struct ring r;
	int sk = socket(AF_INET, SOCK_DGRAM, 0);

	if (load_a(SECCOMP_FILTER_FLAG_URING) || load_b(SECCOMP_FILTER_FLAG_URING | SECCOMP_FILTER_FLAG_EXT_ARGS)) {
		printf("FAIL load\n");
		return 1;
	}
	if (ring_init(&r, 0)) { printf("FAIL ring\n"); return 1; }
	run_common("plain", &r, sk, 1);
	run_ext("plain", &r, -2003, -2111);
	if (ring_init(&r, IORING_SETUP_SQE128)) { printf("FAIL ring128\n"); return 1; }
	run_common("sqe128", &r, sk, 1);
	run_ext("sqe128", &r, -2003, -2111);
	/* READ_FIXED: registered buffer */
	{
		static char b[4096] __attribute__((aligned(4096)));
		struct iovec iov = { b, sizeof(b) };
		struct io_uring_cqe cqe;
		struct io_uring_sqe *s;
		int fd = open(tmpf, O_RDWR);

		if (syscall(__NR_io_uring_register, r.fd, IORING_REGISTER_BUFFERS, &iov, 1))
			printf("skip READ_FIXED: %d\n", -errno);
		else {
			s = ring_sqe(&r);
			s->opcode = IORING_OP_READ_FIXED;
			s->fd = fd;
			s->addr = (unsigned long)b;
			s->len = 16;
			s->buf_index = 0;
			expect("sqe128 READ_FIXED (pread64)", ring_submit_wait(&r, &cqe) ?: cqe.res, -1002);
		}
	}
	return fails ? 1 : 0;
}

static struct ring sq_ring;
static void *creator(void *arg)
{
	int ret = ring_init(&sq_ring, IORING_SETUP_SQPOLL);

	if (ret) {
		printf("FAIL sqpoll ring %d\n", ret);
		return NULL;
	}
	/* no TSYNC: the SQ thread lacks it */
	if (load_b(SECCOMP_FILTER_FLAG_URING | SECCOMP_FILTER_FLAG_EXT_ARGS))
		printf("FAIL load_b in creator\n");
	return NULL;
}

static int child_sqpoll(void)
{
	pthread_t t;

	if (load_a(SECCOMP_FILTER_FLAG_URING)) {
		printf("FAIL load\n");
		return 1;
	}
	pthread_create(&t, NULL, creator, NULL);
	pthread_join(t, NULL);
	usleep(100000);
	run_common("sqpoll-exited-creator", &sq_ring, socket(AF_INET, SOCK_DGRAM, 0), 1);
	run_ext("sqpoll-exited-creator", &sq_ring, -2003, -2111);
	return fails ? 1 : 0;
}

/* plain filter (no URING flag), judged only because of uring_force */
static int child_force(const char *tag)
{
	struct ring r;
	int sk = socket(AF_INET, SOCK_DGRAM, 0);

	if (load_a(0)) {
		printf("FAIL load\n");
		return 1;
	}
	if (ring_init(&r, 0)) { printf("FAIL ring\n"); return 1; }
	run_common(tag, &r, sk, 1);
	return fails ? 1 : 0;
}

static void wsys(const char *p, const char *v)
{
	int fd = open(p, O_WRONLY);

	if (fd < 0 || write(fd, v, strlen(v)) < 0)
		printf("sysctl %s=%s: %m\n", p, v);
	if (fd >= 0)
		close(fd);
}

static int run_child(int (*fn)(void))
{
	int st;
	pid_t p = fork();

	if (!p)
		exit(fn());
	waitpid(p, &st, 0);
	printf("child status 0x%x\n", st);
	return st != 0;
}

static int f1(void) { return child_force("force"); }
static int f2(void) { return child_force("force-nofastpath"); }

int main(void)
{
	int bad = 0;

	snprintf(tmpf, sizeof(tmpf), "/tmp/r6.%d", getpid());
	close(open(tmpf, O_RDWR | O_CREAT, 0600));
	bad |= run_child(child_plain);
	bad |= run_child(child_sqpoll);
	wsys("/proc/sys/kernel/seccomp/uring_force", "1");
	bad |= run_child(f1);
	wsys("/proc/sys/kernel/seccomp/fastpath", "0");
	bad |= run_child(f2);
	wsys("/proc/sys/kernel/seccomp/fastpath", "1");
	printf("R6 %s\n", bad ? "FAILED" : "PASSED");
	return 0;
}
