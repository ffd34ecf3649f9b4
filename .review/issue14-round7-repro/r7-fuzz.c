// SPDX-License-Identifier: GPL-2.0
/*
 * review 7, fuzz: every SQE is refused by a URING filter that reads its
 * arguments (the SQE view is told apart from a syscall by ip == 0), so
 * every SQE that passes prep goes through io_seccomp_check() with
 * fill_args, most of them (those without .seccomp_sqe) prepped from the
 * shared SQE and shown with sqe == NULL. Random SQEs, random flags
 * (FIXED_FILE, LINK, ASYNC, BUFFER_SELECT, DRAIN), personalities,
 * registered buffers and files, a thread scribbling on the SQEs while
 * they are submitted. Nothing may crash or WARN, and no CQE may report
 * success (res >= 0, other than a zero-copy notification): that would be
 * an operation that ran although every filter verdict refuses it.
 *
 * usage: r7-fuzz MODE SECONDS   MODE: plain | sqe128 | sqpoll | fork | sqpollfork
 */
#include "r7common.h"

#define ENTRIES 128
static struct ring R;
static int mode_sqe128, mode_sqpoll, mode_fork, verbose, noflip;
static volatile int stop_flip;
static char *buf;		/* 64 KiB scratch */
static int fds[12];
static int pers;
static unsigned long long cnt_deny[256], cnt_eperm[256], cnt_other[256], cnt_ok[256];
static int bypass;
static struct io_uring_sqe hist[ENTRIES * 2];

static uint64_t pick_addr(void)
{
	switch (rnd() % 8) {
	case 0: return 0;
	case 1: return (uint64_t)buf;
	case 2: return (uint64_t)(buf + 4096);	/* "/tmp/fz/a" */
	case 3: return (uint64_t)(buf + 8192);	/* iovec array */
	case 4: return (uint64_t)(buf + 12288);	/* sockaddr */
	case 5: return rnd();
	case 6: return 1;
	default: return (uint64_t)(buf + (rnd() % 60000));
	}
}

static int pick_fd(void)
{
	unsigned int i = rnd() % 16;

	if (i < 12)
		return fds[i];
	if (i == 12)
		return AT_FDCWD;
	if (i == 13)
		return -1;
	return rnd() % 8;	/* registered slots */
}

static void gen_sqe(struct io_uring_sqe *sqe, unsigned int serial)
{
	unsigned int r = rnd() % 100;
	uint8_t flags = 0;

	if (r < 85)
		sqe->opcode = rnd() % IORING_OP_LAST;
	else if (r < 92)
		sqe->opcode = IORING_OP_LAST + rnd() % 4;
	else
		sqe->opcode = rnd() & 0xff;
	if (rnd() % 4 == 0) flags |= IOSQE_FIXED_FILE;
	if (rnd() % 8 == 0) flags |= IOSQE_IO_LINK;
	if (rnd() % 16 == 0) flags |= IOSQE_IO_HARDLINK;
	if (rnd() % 6 == 0) flags |= IOSQE_ASYNC;
	if (rnd() % 6 == 0) flags |= IOSQE_BUFFER_SELECT;
	if (rnd() % 64 == 0) flags |= IOSQE_IO_DRAIN;
	sqe->flags = flags;
	sqe->fd = pick_fd();
	switch (rnd() % 5) {
	case 0: sqe->off = 0; break;
	case 1: sqe->off = 8; break;
	case 2: sqe->off = -1ULL; break;
	case 3: sqe->off = pick_addr(); break;
	default: sqe->off = rnd() % 8192; break;
	}
	sqe->addr = pick_addr();
	switch (rnd() % 6) {
	case 0: sqe->len = 0; break;
	case 1: sqe->len = 1; break;
	case 2: sqe->len = 8; break;
	case 3: sqe->len = 4096; break;
	case 4: sqe->len = rnd(); break;
	default: sqe->len = rnd() % 16; break;
	}
	switch (rnd() % 4) {
	case 0: sqe->rw_flags = 0; break;
	case 1: sqe->rw_flags = rnd(); break;
	case 2: sqe->rw_flags = 1u << (rnd() % 32); break;
	default: sqe->rw_flags = rnd() % 16; break;
	}
	sqe->user_data = serial;
	sqe->buf_index = rnd() % 3 ? rnd() % 3 : rnd();
	switch (rnd() % 6) {
	case 0: sqe->personality = pers; break;
	case 1: sqe->personality = 77; break;
	default: sqe->personality = 0; break;
	}
	switch (rnd() % 4) {
	case 0: sqe->splice_fd_in = 0; break;
	case 1: sqe->splice_fd_in = pick_fd(); break;
	case 2: sqe->splice_fd_in = rnd() % 4; break;
	default: sqe->splice_fd_in = rnd(); break;
	}
	switch (rnd() % 4) {
	case 0: sqe->ioprio = 0; break;
	case 1: sqe->ioprio = 1u << (rnd() % 16); break;
	case 2: sqe->ioprio = rnd(); break;
	default: sqe->ioprio = rnd() % 16; break;
	}
	sqe->addr3 = rnd() % 3 ? 0 : pick_addr();
	if (rnd() % 3 == 0)
		sqe->addr2 = pick_addr();
	if (rnd() % 2) {
		/* sparse: most fields zero, so that more SQEs pass prep */
		unsigned char *p = (unsigned char *)sqe;
		static const struct { unsigned char off, len; } fld[] = {
			{ 2, 2 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 4 },
			{ 28, 4 }, { 40, 2 }, { 42, 2 }, { 44, 4 }, { 48, 8 },
		};
		for (unsigned int i = 0; i < sizeof(fld) / sizeof(fld[0]); i++)
			if (rnd() % 10 < 7 && fld[i].off != 4)
				memset(p + fld[i].off, 0, fld[i].len);
		if (rnd() % 2)
			sqe->flags &= IOSQE_FIXED_FILE;
		if (rnd() % 2)
			sqe->fd = pick_fd();
		if (rnd() % 3 == 0)
			sqe->addr = (uint64_t)(buf + 4096);	/* a path */
		if (rnd() % 4 == 0)
			sqe->addr2 = (uint64_t)(buf + 4096);
		if (sqe->opcode == IORING_OP_SOCKET && rnd() % 2) {
			sqe->fd = rnd() % 2 ? AF_UNIX : AF_INET;
			sqe->off = SOCK_DGRAM;
			sqe->len = 0;
		}
	}
	if (mode_sqe128) {
		unsigned char *p = (unsigned char *)sqe + 64;
		for (int i = 0; i < 64; i++)
			p[i] = rnd() % 3 ? 0 : rnd();
	}
}

static void *flipper(void *arg)
{
	uint64_t s = 0x9e3779b97f4a7c15ULL;

	while (!stop_flip) {
		unsigned int idx, off;
		unsigned char *p;

		s ^= s << 13; s ^= s >> 7; s ^= s << 17;
		idx = s % ENTRIES;
		off = (s >> 8) % 64;
		p = (unsigned char *)ring_slot(&R, idx);
		/* never the user_data, to keep the report readable */
		if (off >= 32 && off < 40)
			continue;
		p[off] ^= (unsigned char)(s >> 24) | 1;
		/* no IOSQE_CQE_SKIP_SUCCESS: a success must show */
		if (off == 1)
			p[off] &= ~IOSQE_CQE_SKIP_SUCCESS;
	}
	return NULL;
}

static unsigned int got_nonnotif;
static void on_cqe(struct io_uring_cqe *cqe, void *arg)
{
	uint64_t serial = cqe->user_data;
	struct io_uring_sqe *h;
	uint8_t op;

	if (cqe->flags & IORING_CQE_F_NOTIF)
		return;
	got_nonnotif++;
	if (serial >= 1ULL << 40) {
		printf("odd user_data %llx res %d\n", (unsigned long long)serial, cqe->res);
		return;
	}
	h = &hist[serial % (ENTRIES * 2)];
	op = h->opcode;
	if (cqe->res == -1234)
		cnt_deny[op]++;
	else if (cqe->res == -EPERM)
		cnt_eperm[op]++;
	else if (cqe->res >= 0) {
		cnt_ok[op]++;
		/*
		 * The flipper may have changed the opcode under us: report
		 * what we wrote; a success is a finding whatever it was.
		 */
		if (bypass++ < 20)
			printf("SUCCESS CQE: serial %llu opcode(as written) %u flags %#x fd %d res %d cflags %#x\n",
			       (unsigned long long)serial, op, h->flags, h->fd,
			       cqe->res, cqe->flags);
	} else
		cnt_other[op]++;
}

static int eventfd_fd(void)
{
	return syscall(__NR_eventfd2, 0, 0);
}

static void setup(void)
{
	int sv[2], pp[2];
	struct iovec iov[2];
	int table[8];
	unsigned int flags = IORING_SETUP_SUBMIT_ALL;
	struct ring R2;

	buf = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(buf, 0, 65536);
	mkdir("/tmp/fz", 0755);
	strcpy(buf + 4096, "/tmp/fz/a");
	((struct iovec *)(buf + 8192))[0].iov_base = buf + 16384;
	((struct iovec *)(buf + 8192))[0].iov_len = 64;
	((struct iovec *)(buf + 8192))[1].iov_base = buf + 20480;
	((struct iovec *)(buf + 8192))[1].iov_len = 64;
	fds[0] = open("/tmp/fz/f", O_RDWR | O_CREAT, 0644);
	ftruncate(fds[0], 8192);
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	fds[1] = sv[0];
	fds[2] = sv[1];
	pipe(pp);
	fds[3] = pp[0];
	fds[4] = pp[1];
	fds[5] = open("/tmp/fz", O_RDONLY | O_DIRECTORY);
	fds[6] = socket(AF_INET, SOCK_DGRAM, 0);
	fds[7] = socket(AF_INET, SOCK_STREAM, 0);
	if (ring_init(&R2, 8, 0) == 0)
		fds[8] = R2.fd;
	fds[9] = open("/dev/null", O_RDWR);
	fds[10] = eventfd_fd();
	fds[11] = 0;

	if (mode_sqe128)
		flags |= IORING_SETUP_SQE128;
	if (mode_sqpoll)
		flags |= IORING_SETUP_SQPOLL;
	if (ring_init(&R, ENTRIES, flags)) {
		printf("ring_init failed\n");
		exit(2);
	}
	table[0] = fds[0]; table[1] = fds[1]; table[2] = fds[3]; table[3] = fds[4];
	table[4] = fds[6]; table[5] = -1; table[6] = fds[9]; table[7] = fds[5];
	if (syscall(__NR_io_uring_register, R.fd, IORING_REGISTER_FILES, table, 8))
		printf("register files: %s\n", strerror(errno));
	iov[0].iov_base = buf + 32768;
	iov[0].iov_len = 4096;
	iov[1].iov_base = buf + 40960;
	iov[1].iov_len = 8192;
	if (syscall(__NR_io_uring_register, R.fd, IORING_REGISTER_BUFFERS, iov, 2))
		printf("register buffers: %s\n", strerror(errno));
	pers = syscall(__NR_io_uring_register, R.fd, IORING_REGISTER_PERSONALITY, NULL, 0);
	if (pers < 0)
		printf("register personality: %s\n", strerror(errno));
}


static int load_deny_all(void)
{
	struct sock_filter f[] = {
		LD(SD_ARCH), JEQ(NATIVE_ARCH, 1, 0), RET(SECCOMP_RET_KILL_PROCESS),
		LD(SD_IP), JEQ(0, 1, 0), RET(SECCOMP_RET_ALLOW),
		LD(SD_IP + 4), JEQ(0, 1, 0), RET(SECCOMP_RET_ALLOW),
		/* an SQE: read its arguments, then refuse it */
		LD(SD_ARG(0)), LD(SD_ARG(1)), LD(SD_ARG(2)), LD(SD_ARG(3)),
		LD(SD_ARG(4)), LD(SD_ARG(5)), LD(SD_NR),
		RET(ERR(1234)),
	};
	return LOAD(f, getenv("R7_NOFLAG") ? 0 : SECCOMP_FILTER_FLAG_URING);
}

static const char *const names[] = {
	"NOP","READV","WRITEV","FSYNC","READ_FIXED","WRITE_FIXED","POLL_ADD","POLL_REMOVE",
	"SYNC_FILE_RANGE","SENDMSG","RECVMSG","TIMEOUT","TIMEOUT_REMOVE","ACCEPT","ASYNC_CANCEL",
	"LINK_TIMEOUT","CONNECT","FALLOCATE","OPENAT","CLOSE","FILES_UPDATE","STATX","READ","WRITE",
	"FADVISE","MADVISE","SEND","RECV","OPENAT2","EPOLL_CTL","SPLICE","PROVIDE_BUFFERS",
	"REMOVE_BUFFERS","TEE","SHUTDOWN","RENAMEAT","UNLINKAT","MKDIRAT","SYMLINKAT","LINKAT",
	"MSG_RING","FSETXATTR","SETXATTR","FGETXATTR","GETXATTR","SOCKET","URING_CMD","SEND_ZC",
	"SENDMSG_ZC","READ_MULTISHOT","WAITID","FUTEX_WAIT","FUTEX_WAKE","FUTEX_WAITV",
	"FIXED_FD_INSTALL","FTRUNCATE","BIND","LISTEN",
};

static int run(int secs)
{
	pthread_t th;
	unsigned long long end = now_ms() + secs * 1000ULL, batches = 0, sqes = 0;
	uint64_t serial = 0, last_print = now_ms();
	int i, stuck = 0, nsubmit_err = 0, nshort = 0;

	if (!noflip)
		pthread_create(&th, NULL, flipper, NULL);
	while (now_ms() < end) {
		unsigned int n = verbose ? 8 : ENTRIES, want;

		/* wait for the SQ ring to be empty (SQPOLL) */
		{
			unsigned long long t = now_ms() + 3000;

			while (*(volatile unsigned int *)R.sq_head != R.sqe_tail) {
				if (now_ms() > t) {
					printf("SQ ring not consumed: head %u tail %u\n",
					       *(volatile unsigned int *)R.sq_head, R.sqe_tail);
					stuck++;
					goto out;
				}
				if (!mode_sqpoll)
					ring_submit(&R, 0);
				sched_yield();
			}
		}
		if (now_ms() > last_print + 5000) {
			last_print = now_ms();
			printf("  ... %llu batches\n", batches);
		}
		for (i = 0; i < (int)n; i++) {
			struct io_uring_sqe *sqe = ring_sqe(&R);

			gen_sqe(sqe, serial);
			hist[serial % (ENTRIES * 2)] = *sqe;
			serial++;
		}
		got_nonnotif = 0;
		{
			int sr;

			if (verbose) {
				for (i = 0; i < (int)n; i++) {
					struct io_uring_sqe *q = &hist[(serial - n + i) % (ENTRIES * 2)];
					printf("  sqe %llu op %u fl %#x fd %d off %llx addr %llx len %u opf %#x bi %u pers %u sfd %d iop %#x\n",
					       (unsigned long long)q->user_data, q->opcode, q->flags, q->fd,
					       (unsigned long long)q->off, (unsigned long long)q->addr, q->len,
					       q->rw_flags, q->buf_index, q->personality, q->splice_fd_in, q->ioprio);
				}
			}
			sr = ring_submit(&R, 0);
			if (verbose)
				printf("  enter -> %d\n", sr);

			if (sr != (int)n && !mode_sqpoll && nsubmit_err++ < 5)
				printf("  io_uring_enter returned %d\n", sr);
		}
		want = n;
		ring_reap(&R, 1 << 30, 0, on_cqe, NULL);
		{
			unsigned long long t = now_ms() + 3000;
			while (got_nonnotif < want && now_ms() < t)
				ring_reap(&R, want - got_nonnotif, 50, on_cqe, NULL);
			if (got_nonnotif < want && nshort++ < 3)
				printf("  batch %llu: %u of %u CQEs\n", batches, got_nonnotif, want);
		}
		batches++;
		sqes += n;
	}
out:
	stop_flip = 1;
	if (!noflip)
		pthread_join(th, NULL);
	printf("batches %llu sqes %llu\n", batches, sqes);
	printf("%-18s %8s %8s %8s %8s\n", "opcode", "-1234", "-EPERM", "other", "OK(!)");
	for (i = 0; i < 256; i++) {
		if (!cnt_deny[i] && !cnt_eperm[i] && !cnt_ok[i] && !cnt_other[i])
			continue;
		printf("%3d %-14s %8llu %8llu %8llu %8llu\n", i,
		       i < (int)(sizeof(names) / sizeof(names[0])) ? names[i] : "?",
		       cnt_deny[i], cnt_eperm[i], cnt_other[i], cnt_ok[i]);
	}
	printf("%s: %d successful CQE(s)\n", bypass ? "R7-FUZZ FAIL" : "R7-FUZZ ok", bypass);
	return bypass || stuck ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "plain";
	int secs = argc > 2 ? atoi(argv[2]) : 20;

	setvbuf(stdout, NULL, _IOLBF, 0);
	rng_state ^= (uint64_t)getpid() << 20 ^ (uint64_t)time(NULL);
	mode_sqe128 = !strcmp(mode, "sqe128");
	mode_sqpoll = !strcmp(mode, "sqpoll") || !strcmp(mode, "sqpollfork");
	mode_fork = !strcmp(mode, "fork") || !strcmp(mode, "sqpollfork");
	verbose = argc > 3 && strchr(argv[3], 'v');
	noflip = argc > 3 && strchr(argv[3], 'n');
	if (argc > 4)
		rng_state = strtoull(argv[4], NULL, 0);
	printf("== r7-fuzz %s %ds seed %#llx\n", mode, secs, (unsigned long long)rng_state);
	setup();
	if (load_deny_all()) {
		printf("load filter failed\n");
		return 2;
	}
	if (mode_fork) {
		pid_t p = fork();
		int st;

		if (p == 0)
			_exit(run(secs));
		waitpid(p, &st, 0);
		printf("child: %s %d\n", WIFEXITED(st) ? "exit" : "signal",
		       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		return WIFEXITED(st) ? WEXITSTATUS(st) : 3;
	}
	return run(secs);
}
