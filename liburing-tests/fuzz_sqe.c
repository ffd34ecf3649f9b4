// SPDX-License-Identifier: GPL-2.0
/*
 * A seeded, bounded random-SQE fuzzer. Each filter set runs in its own
 * child, which submits FUZZ_SQES random SQEs (valid and invalid opcodes,
 * random IOSQE_* flags and fields, link chains, registered files and
 * buffers), without waiting for any of them, and reaps what completes.
 *
 * Oracles: no child may die (a kernel splat fails the run on the host);
 * under "deny_all", a filter that refuses every io_uring operation with
 * ERRNO(1234), no CQE may carry a result >= 0 (zero-copy notifications
 * aside), since that would be an operation that ran although it was
 * refused. Usage: fuzz_sqe [SEED];
 * the seed is printed, so a failure can be replayed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
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

enum fuzz_set { ALLOW_ALL, DENY_LIST, DENY_ALL, STACKED, NR_SETS };

static const char *const set_names[] = {
	"allow_all", "deny_list", "deny_all", "stacked",
};

static char *scratch;		/* every pointer an SQE gets points here */
static int fds[4];
static unsigned long long rng;

static unsigned int rnd(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return rng >> 33;
}

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
		return -EINVAL;		/* stock kernel */
	if (set == STACKED)
		return t_load_sqe_only(T_ANY_NR, SECCOMP_RET_ERRNO | DENY_ERRNO);
	return 0;
}

/* One random SQE, on fields of the kinds the opcodes read. */
static void random_sqe(struct io_uring_sqe *sqe)
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
			sqe->flags |= flag_bits[i];
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

/* Fill scratch with paths under /tmp/fuzz so a created file lands there. */
static void fill_scratch(void)
{
	int i;

	for (i = 0; i < SCRATCH; i += 32)
		snprintf(scratch + i, 32, "/tmp/fuzz/f%05d", i / 32);
}

/* The child: returns T_EXIT_* and prints what it saw. */
static int fuzz(enum fuzz_set set)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	struct iovec iov;
	int i, ran = 0, sqes = 0, sv[2], ret, out, null;

	/* fds 0-2 become /dev/null: random SQEs may write to them */
	out = fcntl(1, F_DUPFD, 100);
	null = open("/dev/null", O_RDWR);
	if (out < 0 || null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
	    dup2(null, 2) < 0)
		return T_EXIT_FAIL;
	scratch = aligned_alloc(4096, SCRATCH);
	if (!scratch || io_uring_queue_init(64, &ring, 0))
		return T_EXIT_FAIL;
	mkdir("/tmp/fuzz", 0700);
	if (chdir("/tmp/fuzz"))
		return T_EXIT_FAIL;
	fill_scratch();
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv))
		return T_EXIT_FAIL;
	fds[0] = null;
	fds[1] = open("/tmp/fuzz", O_RDONLY | O_DIRECTORY);
	fds[2] = sv[0];
	fds[3] = eventfd(0, EFD_NONBLOCK);
	io_uring_register_files(&ring, fds, 4);
	iov.iov_base = scratch;
	iov.iov_len = SCRATCH;
	io_uring_register_buffers(&ring, &iov, 1);
	ret = load_set(set);
	if (ret == -EINVAL)
		return T_EXIT_SKIP;
	if (ret)
		return T_EXIT_FAIL;

	while (sqes < FUZZ_SQES) {
		for (i = 0; i < BATCH; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

			if (!sqe)
				break;
			random_sqe(sqe);
			sqes++;
		}
		io_uring_submit(&ring);
		while (io_uring_peek_cqe(&ring, &cqe) == 0) {
			/*
			 * A zero-copy send's notification CQE (res 0) says
			 * its buffer is free again; it comes even when the
			 * send itself was refused at submission.
			 */
			if (set == DENY_ALL && cqe->res >= 0 &&
			    !(cqe->flags & IORING_CQE_F_NOTIF) && ran++ < 5)
				dprintf(out, "deny_all: opcode %u completed %d\n",
					(unsigned int)(cqe->user_data & 0xff),
					cqe->res);
			io_uring_cqe_seen(&ring, cqe);
		}
		fill_scratch();
	}
	if (set == DENY_ALL)
		dprintf(out, "%s: %d SQEs submitted, all refused, %d ran\n",
			set_names[set], sqes, ran);
	else
		dprintf(out, "%s: %d SQEs submitted\n", set_names[set], sqes);
	/* exit with requests still pending: the ring's teardown cancels them */
	return ran ? T_EXIT_FAIL : T_EXIT_PASS;
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
