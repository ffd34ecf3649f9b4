// SPDX-License-Identifier: GPL-2.0
/*
 * A seeded, bounded random-SQE fuzzer. Each filter set runs in its own
 * child, which submits FUZZ_SQES random SQEs (valid and invalid opcodes,
 * random IOSQE_* flags and fields, link chains, registered files and
 * buffers), without waiting for any of them, and reaps what completes.
 *
 * A quarter of the SQEs are well-formed operations on the fuzzer's
 * files, socket and eventfd (plausible_sqe()), the rest random.
 *
 * Oracles: no child may die (a kernel splat fails the run on the host),
 * and every request still pending at the end is cancelled and reaped
 * (nothing is left for the ring's teardown). Under "deny_all", a filter
 * that refuses every io_uring operation with ERRNO(1234), nothing may
 * run:
 *  - no CQE carries a result >= 0 (zero-copy notifications aside), and
 *    there is exactly one CQE per SQE submitted: IOSQE_CQE_SKIP_SUCCESS
 *    is never set there, so an operation that ran cannot hide;
 *  - what the SQEs aim at is untouched: the buffer every pointer points
 *    into, the files and names of the fuzz directory (half the names
 *    exist, as files), the entries of / and /tmp, the socket's queues,
 *    the eventfd's count and the process's open descriptors.
 * Usage: fuzz_sqe [SEED]; the seed is printed, so a failure can be
 * replayed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "helpers.h"
#include "uring_seccomp.h"

#define FUZZ_SQES	30000	/* per filter set; four sets */
#define BATCH		16
#define SCRATCH		4096
#define DENY_ERRNO	1234
#define NAME_LEN	32	/* scratch holds one path every NAME_LEN bytes */
#define NAMES		(SCRATCH / NAME_LEN)
#define LISTING		16384
#define SOCK_DATA	"fuzzdata"
#define EVENT_COUNT	5

enum fuzz_set { ALLOW_ALL, DENY_LIST, DENY_ALL, STACKED, NR_SETS };

static const char *const set_names[] = {
	"allow_all", "deny_list", "deny_all", "stacked",
};

static char *scratch;		/* every pointer an SQE gets points here */
static char *scratch_copy;	/* what scratch holds before each batch */
static char fuzz_dir[20];	/* "/tmp/fuzz." and a set name */
static int fds[4], peer;	/* peer: the other end of the socket fds[2] */
static unsigned long long rng;

static unsigned int rnd(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return rng >> 33;
}

/* Returns 1 on a kernel without the flag (stock), else 0. */
static int load_set(enum fuzz_set set)
{
	scmp_filter_ctx ctx;

	if (set == DENY_ALL)
		return t_load_sqe_only(T_ANY_NR, SECCOMP_RET_ERRNO | DENY_ERRNO);
	ctx = t_filter(SCMP_ACT_ALLOW);
	if (set == DENY_LIST || set == STACKED) {
		t_rule(ctx, SCMP_ACT_ERRNO(EPERM), openat, 0);
		t_rule(ctx, SCMP_ACT_ERRNO(EPERM), unlinkat, 0);
		t_rule(ctx, SCMP_ACT_ERRNO(EPERM), connect, 0);
		t_rule(ctx, SCMP_ACT_ERRNO(EPERM), pwrite64, 1,
		       SCMP_A0(SCMP_CMP_GT, 2));
	}
	if (t_load(ctx))
		return 1;
	if (set == STACKED)
		return t_load_sqe_only(T_ANY_NR, SECCOMP_RET_ERRNO | DENY_ERRNO);
	return 0;
}

/*
 * One random SQE, on fields of the kinds the opcodes read; IOSQE_* flags
 * outside @flag_mask are never set.
 */
static void random_sqe(struct io_uring_sqe *sqe, unsigned char flag_mask)
{
	static const unsigned char flag_bits[] = {
		IOSQE_FIXED_FILE, IOSQE_IO_DRAIN, IOSQE_IO_LINK,
		IOSQE_IO_HARDLINK, IOSQE_ASYNC, IOSQE_BUFFER_SELECT,
		IOSQE_CQE_SKIP_SUCCESS,
	};
	unsigned int i;

	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = rnd() % (IORING_OP_LAST + 10);
	for (i = 0; i < sizeof(flag_bits); i++)
		if (rnd() % 8 == 0)
			sqe->flags |= flag_bits[i] & flag_mask;
	switch (rnd() % 4) {
	case 0:
		sqe->fd = -1;
		break;
	case 1:
		sqe->fd = rnd() % 4;	/* a registered index, or /dev/null */
		break;
	default:
		sqe->fd = fds[rnd() % 4];
		break;
	}
	if (rnd() % 2)
		sqe->addr = (unsigned long)(scratch + rnd() % (SCRATCH - 256));
	else
		sqe->addr = rnd() % 64;
	if (rnd() % 2)
		sqe->addr2 = (unsigned long)(scratch + rnd() % (SCRATCH - 256));
	else
		sqe->off = rnd() % 4096;
	sqe->len = rnd() % 3 ? rnd() % 64 : rnd();
	sqe->rw_flags = rnd() % 4 ? 0 : rnd();
	sqe->buf_index = rnd() % 4 ? 0 : rnd() % 4;
	/* the opcode, for reports */
	sqe->user_data = (unsigned long long)rnd() << 8 | sqe->opcode;
}

/* The path of name @i of scratch; even ones exist (make_fuzz_dir()). */
static const char *name_at(unsigned int i)
{
	return scratch + (i % NAMES) * NAME_LEN;
}

/*
 * One well-formed SQE that would change what the fuzzer aims at if it
 * ran: random SQEs are nearly all refused by prep, so without these an
 * oracle that looks for operations that ran would see almost nothing.
 */
static void plausible_sqe(struct io_uring_sqe *sqe)
{
	unsigned int even = rnd() % NAMES & ~1U, odd = even | 1;
	char *buf = scratch + rnd() % (SCRATCH - 64);
	int dfd = rnd() % 2 ? AT_FDCWD : fds[1];

	switch (rnd() % 12) {
	case 0:
		io_uring_prep_nop(sqe);
		break;
	case 1:
		io_uring_prep_openat(sqe, dfd, name_at(odd), O_CREAT | O_WRONLY, 0600);
		break;
	case 2:
		io_uring_prep_openat(sqe, dfd, name_at(even), O_WRONLY | O_TRUNC, 0);
		break;
	case 3:
		io_uring_prep_mkdirat(sqe, dfd, name_at(odd), 0700);
		break;
	case 4:
		io_uring_prep_unlinkat(sqe, dfd, name_at(even), 0);
		break;
	case 5:
		io_uring_prep_renameat(sqe, dfd, name_at(even), dfd, name_at(odd), 0);
		break;
	case 6:
		io_uring_prep_linkat(sqe, dfd, name_at(even), dfd, name_at(odd), 0);
		break;
	case 7:
		io_uring_prep_symlinkat(sqe, name_at(even), dfd, name_at(odd));
		break;
	case 8:
		io_uring_prep_read(sqe, fds[2 + rnd() % 2], buf, 8, 0);
		break;
	case 9:
		io_uring_prep_write(sqe, fds[2 + rnd() % 2], buf, 8, 0);
		break;
	case 10:
		io_uring_prep_send(sqe, fds[2], buf, 8, 0);
		break;
	default:
		io_uring_prep_socket(sqe, AF_UNIX, SOCK_STREAM, 0, 0);
		break;
	}
	sqe->user_data = (unsigned long long)rnd() << 8 | sqe->opcode;
}

/* Fill scratch with paths in the fuzz directory so a created file lands there. */
static void fill_scratch(void)
{
	int i;

	for (i = 0; i < NAMES; i++)
		snprintf(scratch + i * NAME_LEN, NAME_LEN, "%s/f%05d", fuzz_dir, i);
	memcpy(scratch_copy, scratch, SCRATCH);
}

/*
 * The fuzz directory, fresh: the even names of scratch exist as files
 * holding their own name, the odd ones do not. Returns 0 or -1.
 */
static int make_fuzz_dir(enum fuzz_set set)
{
	char path[2 * NAME_LEN];
	int i, fd;

	snprintf(fuzz_dir, sizeof(fuzz_dir), "/tmp/fuzz.%s", set_names[set]);
	for (i = 0; i < NAMES; i++) {
		snprintf(path, sizeof(path), "%s/f%05d", fuzz_dir, i);
		if (unlink(path) && errno != ENOENT && errno != ENOTDIR)
			rmdir(path);
	}
	rmdir(fuzz_dir);
	if (mkdir(fuzz_dir, 0700) || chdir(fuzz_dir))
		return -1;
	for (i = 0; i < NAMES; i += 2) {
		snprintf(path, sizeof(path), "%s/f%05d", fuzz_dir, i);
		fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0600);
		if (fd < 0 || write(fd, path, strlen(path)) < 0 || close(fd))
			return -1;
	}
	return 0;
}

/* The names in @dir, in readdir order, into @buf. */
static void list_dir(const char *dir, char *buf)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t len = 0;

	buf[0] = 0;
	while (d && (e = readdir(d)))
		len += snprintf(buf + len, len < LISTING ? LISTING - len : 0,
				"%s/", e->d_name);
	if (d)
		closedir(d);
}

/* What the SQEs aim at; under deny_all it must not change. */
struct targets {
	char listing[3][LISTING];	/* the fuzz directory, / and /tmp */
	struct stat st[NAMES];		/* the even names: files */
	int sock_in, sock_out;		/* bytes queued to fds[2] and to peer */
	int open_fds;
};

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

static void snapshot(struct targets *t)
{
	const char *dirs[3] = { fuzz_dir, "/", "/tmp" };
	char path[2 * NAME_LEN];
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < 3; i++)
		list_dir(dirs[i], t->listing[i]);
	for (i = 0; i < NAMES; i += 2) {
		snprintf(path, sizeof(path), "%s/f%05d", fuzz_dir, i);
		lstat(path, &t->st[i]);
	}
	if (ioctl(fds[2], FIONREAD, &t->sock_in) || ioctl(peer, FIONREAD, &t->sock_out))
		t->sock_in = t->sock_out = -1;
	t->open_fds = count_fds();
}

/* Compare with the snapshot @before; prints to @out what changed. */
static int untouched(const struct targets *before, int out)
{
	static const char *const what[3] = { "the fuzz directory", "/", "/tmp" };
	static struct targets after;
	char path[2 * NAME_LEN], buf[2 * NAME_LEN];
	int i, fd, bad = 0;
	uint64_t count = 0;
	ssize_t len;

	snapshot(&after);
	for (i = 0; i < 3; i++)
		if (strcmp(before->listing[i], after.listing[i])) {
			dprintf(out, "deny_all: the entries of %s changed: %.200s\n",
				what[i], after.listing[i]);
			bad++;
		}
	for (i = 0; i < NAMES; i += 2) {
		snprintf(path, sizeof(path), "%s/f%05d", fuzz_dir, i);
		fd = open(path, O_RDONLY);
		len = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
		if (fd >= 0)
			close(fd);
		if (len != (ssize_t)strlen(path) || memcmp(buf, path, len) ||
		    after.st[i].st_ino != before->st[i].st_ino ||
		    after.st[i].st_mode != before->st[i].st_mode ||
		    after.st[i].st_nlink != before->st[i].st_nlink ||
		    after.st[i].st_mtim.tv_nsec != before->st[i].st_mtim.tv_nsec ||
		    after.st[i].st_mtim.tv_sec != before->st[i].st_mtim.tv_sec) {
			if (bad++ < 5)
				dprintf(out, "deny_all: %s was changed\n", path);
		}
	}
	if (after.sock_in != before->sock_in || after.sock_out != before->sock_out) {
		dprintf(out, "deny_all: socket queues changed: %d bytes in (was %d), %d out (was %d)\n",
			after.sock_in, before->sock_in, after.sock_out, before->sock_out);
		bad++;
	}
	if (after.open_fds != before->open_fds) {
		dprintf(out, "deny_all: %d open descriptors, %d before\n",
			after.open_fds, before->open_fds);
		bad++;
	}
	if (read(fds[3], &count, sizeof(count)) != sizeof(count) ||
	    count != EVENT_COUNT) {
		dprintf(out, "deny_all: the eventfd count is %llu, not %d\n",
			(unsigned long long)count, EVENT_COUNT);
		bad++;
	}
	return bad;
}

/*
 * Count a CQE: returns 1 if it is one an SQE posted, 0 for a zero-copy
 * send's notification. Under deny_all a result >= 0 is an operation
 * that ran although refused: *ran counts those, the first are printed.
 */
static int count_cqe(enum fuzz_set set, struct io_uring_cqe *cqe, int *ran, int out)
{
	/*
	 * A zero-copy send's notification CQE (res 0) says its buffer is
	 * free again; it comes even when the send itself was refused at
	 * submission.
	 */
	if (cqe->flags & IORING_CQE_F_NOTIF)
		return 0;
	if (set == DENY_ALL && cqe->res >= 0 && (*ran)++ < 5)
		dprintf(out, "deny_all: opcode %u completed %d\n",
			(unsigned int)(cqe->user_data & 0xff), cqe->res);
	return 1;
}

/*
 * Submit what is still queued, then cancel every pending request and
 * reap the CQEs, until a cancellation finds nothing and no CQE comes.
 * Adds to *cqes and *cancelled. Returns 0, or -1 if cancelling failed.
 */
static int reap_all(enum fuzz_set set, struct io_uring *ring, int *cqes,
		    int *cancelled, int *ran, int out)
{
	struct io_uring_sync_cancel_reg reg = {
		.flags = IORING_ASYNC_CANCEL_ANY | IORING_ASYNC_CANCEL_ALL,
		.timeout = { .tv_sec = 1 },
	};
	struct __kernel_timespec ts = { .tv_nsec = 200000000L };
	struct io_uring_cqe *cqe;
	int ret, round, reaped;

	while (io_uring_sq_ready(ring))
		if (io_uring_submit(ring) <= 0)
			break;
	/* requests waiting behind a drain or a link are issued late */
	for (round = 0; round < 100; round++) {
		/* with CANCEL_ALL: how many it cancelled */
		ret = io_uring_register_sync_cancel(ring, &reg);
		if (ret < 0 && ret != -ENOENT) {
			dprintf(out, "%s: cancelling what is pending: %s\n",
				set_names[set], strerror(-ret));
			return -1;
		}
		*cancelled += ret > 0 ? ret : 0;
		reaped = 0;
		while (!io_uring_wait_cqe_timeout(ring, &cqe, &ts)) {
			*cqes += count_cqe(set, cqe, ran, out);
			io_uring_cqe_seen(ring, cqe);
			reaped++;
		}
		if (ret <= 0 && !reaped && !io_uring_sq_ready(ring))
			return 0;
	}
	dprintf(out, "%s: requests kept coming after %d cancellations\n",
		set_names[set], round);
	return -1;
}

/* The child: returns T_EXIT_* and prints what it saw. */
static int fuzz(enum fuzz_set set)
{
	/* CQE_SKIP_SUCCESS would hide an operation that ran */
	unsigned char flag_mask = set == DENY_ALL ? ~IOSQE_CQE_SKIP_SUCCESS : 0xff;
	static struct targets before;
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	struct iovec iov;
	int i, ran = 0, sqes = 0, submitted, cqes = 0, written = 0, cancelled = 0;
	int sv[2], out, null, failed = 0;
	unsigned int head;
	uint64_t count = EVENT_COUNT;

	/* fds 0-2 become /dev/null: random SQEs may write to them */
	out = fcntl(1, F_DUPFD, 100);
	null = open("/dev/null", O_RDWR);
	if (out < 0 || null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
	    dup2(null, 2) < 0)
		return T_EXIT_FAIL;
	scratch = aligned_alloc(4096, SCRATCH);
	scratch_copy = malloc(SCRATCH);
	if (!scratch || !scratch_copy || io_uring_queue_init(64, &ring, 0))
		return T_EXIT_FAIL;
	if (make_fuzz_dir(set))
		return T_EXIT_FAIL;
	fill_scratch();
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv) ||
	    write(sv[1], SOCK_DATA, strlen(SOCK_DATA)) < 0)
		return T_EXIT_FAIL;
	fds[0] = null;
	fds[1] = open(fuzz_dir, O_RDONLY | O_DIRECTORY);
	fds[2] = sv[0];
	fds[3] = eventfd(0, EFD_NONBLOCK);
	peer = sv[1];
	if (fds[1] < 0 || fds[3] < 0 || write(fds[3], &count, sizeof(count)) < 0)
		return T_EXIT_FAIL;
	io_uring_register_files(&ring, fds, 4);
	iov.iov_base = scratch;
	iov.iov_len = SCRATCH;
	io_uring_register_buffers(&ring, &iov, 1);
	if (load_set(set))
		return T_EXIT_SKIP;	/* stock kernel */
	snapshot(&before);
	head = *ring.sq.khead;

	while (sqes < FUZZ_SQES) {
		for (i = 0; i < BATCH; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			if (!sqe)
				break;
			if (rnd() % 4)
				random_sqe(sqe, flag_mask);
			else
				plausible_sqe(sqe);
			sqes++;
		}
		/* a failed SQE ends the submission: the rest go next time */
		io_uring_submit(&ring);
		while (io_uring_peek_cqe(&ring, &cqe) == 0) {
			cqes += count_cqe(set, cqe, &ran, out);
			io_uring_cqe_seen(&ring, cqe);
		}
		if (set == DENY_ALL && memcmp(scratch, scratch_copy, SCRATCH))
			written++;
		fill_scratch();
	}
	failed += reap_all(set, &ring, &cqes, &cancelled, &ran, out) != 0;
	/* what the kernel consumed: every SQE it took posts a CQE */
	submitted = *ring.sq.khead - head;
	if (set != DENY_ALL) {
		dprintf(out, "%s: %d SQEs submitted, %d CQEs, %d pending at the end cancelled\n",
			set_names[set], submitted, cqes, cancelled);
		io_uring_queue_exit(&ring);
		return failed ? T_EXIT_FAIL : T_EXIT_PASS;
	}
	dprintf(out, "%s: %d SQEs submitted, %d CQEs, %d pending at the end cancelled, %d ran, the buffer written %d times\n",
		set_names[set], submitted, cqes, cancelled, ran, written);
	if (cqes != submitted) {
		dprintf(out, "deny_all: %d CQEs for %d SQEs\n", cqes, submitted);
		failed++;
	}
	failed += untouched(&before, out) + !!ran + !!written;
	io_uring_queue_exit(&ring);
	return failed ? T_EXIT_FAIL : T_EXIT_PASS;
}

int main(int argc, char **argv)
{
	unsigned long long seed = argc > 1 ? strtoull(argv[1], NULL, 0) :
				  (unsigned long long)time(NULL);
	int set, status, failed = 0, skipped = 0;
	pid_t pid;

	printf("fuzz_sqe: seed %llu, %d SQEs for each of %d filter sets\n",
	       seed, FUZZ_SQES, NR_SETS);
	fflush(stdout);
	for (set = 0; set < NR_SETS; set++) {
		pid = fork();
		if (pid == 0) {
			rng = seed + set;
			alarm(50);
			_exit(fuzz(set));
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			return T_EXIT_FAIL;
		if (!WIFEXITED(status)) {
			printf("%s: the child died (signal %d)\n", set_names[set],
			       WTERMSIG(status));
			failed = 1;
		} else if (WEXITSTATUS(status) == T_EXIT_SKIP) {
			skipped = 1;
		} else if (WEXITSTATUS(status)) {
			printf("%s: failed\n", set_names[set]);
			failed = 1;
		}
	}
	if (failed)
		return T_EXIT_FAIL;
	return skipped ? T_EXIT_SKIP : T_EXIT_PASS;
}
