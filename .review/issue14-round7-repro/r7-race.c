// SPDX-License-Identifier: GPL-2.0
/*
 * review 7, races: another thread flips one field of the shared SQEs
 * while they are submitted; the filter refuses one of the two values.
 * The operation must never run with the refused value (the filters
 * must see what the operation uses).
 *
 *  ftrunc   FTRUNCATE len 4096 <-> 1 MiB (1 MiB refused); non-copy path
 *  rwflags  WRITE rw_flags 0 <-> RWF_APPEND (pwritev2 refused); nr choice
 *  socket   SOCKET domain AF_UNIX <-> AF_INET (AF_INET refused)
 *  fixed    FTRUNCATE fd 20 with IOSQE_FIXED_FILE flipped (plain fd 20 refused)
 *  mkdir    MKDIRAT path pointer ok <-> no (no refused); copy path
 *  opcode   opcode NOP <-> FTRUNCATE(len 1 MiB) (NOP allowed by the bitmap)
 *  pers     OPENAT as uid 1000 of a root-only file, personality 0 <-> root's
 *           (openat allowed by the bitmap: the other-creds path, no WARN)
 *  sqcreds  SQPOLL ring set up as root, creator then uid 1000: OPENAT of the
 *           root-only file must be refused (other creds, seccomp_sqe opcode)
 * Append "s" (ftruncs, mkdirs, opcodes, rwflagss) for a SQPOLL ring.
 *
 * usage: r7-race TEST SECONDS
 */
#include "r7common.h"
#include <sys/stat.h>

#define N 32
#define BIG (1u << 20)
#define FDNUM 20
static struct ring R;
static volatile int stop_flip;
static int files[N], filesB[N];
static const char *test;
static int sqpoll;
static unsigned long long n_ok, n_deny, n_other, n_bypass;
static char *okpaths = (char *)0x60000000UL, *nopaths = (char *)0x70000000UL;
static char wbuf[8] = "X";
static int pers;

static int load_args_filter(void)
{
	struct sock_filter f[] = {
		/* 0 */ LD(SD_ARCH), JEQ(NATIVE_ARCH, 1, 0), RET(SECCOMP_RET_KILL_PROCESS),
		/* 3 */ LD(SD_NR),
		/* 4 */ JEQ(__NR_io_uring_enter, 0, 1), RET(SECCOMP_RET_ALLOW),
		/* 6 */ JEQ(__NR_ftruncate, 5, 0),
		/* 7 */ JEQ(__NR_pwritev2, 11, 0),
		/* 8 */ JEQ(__NR_socket, 14, 0),
		/* 9 */ JEQ(__NR_mkdirat, 17, 0),
		/*10 */ RET(SECCOMP_RET_ALLOW),
		/*11 */ RET(SECCOMP_RET_ALLOW),
		/* ftruncate: 12 */
		LD(SD_ARG(1)), JEQ(BIG, 0, 1), RET(ERR(1321)),
		LD(SD_ARG(0)), JEQ(FDNUM, 0, 1), RET(ERR(1324)),
		RET(SECCOMP_RET_ALLOW),
		/* pwritev2: 19 */
		LD(SD_IP), JEQ(0, 0, 1), RET(ERR(1322)), RET(SECCOMP_RET_ALLOW),
		/* socket: 23 */
		LD(SD_ARG(0)), JEQ(AF_INET, 0, 1), RET(ERR(1323)), RET(SECCOMP_RET_ALLOW),
		/* mkdirat: 27 */
		LD(SD_ARG(1)), JGE(0x70000000, 0, 1), RET(ERR(1325)), RET(SECCOMP_RET_ALLOW),
	};
	return LOAD(f, SECCOMP_FILTER_FLAG_URING);
}

static int is(const char *t)
{
	size_t l = strlen(t);

	return !strncmp(test, t, l) && (test[l] == 0 || (test[l] == 's' && test[l + 1] == 0));
}

static void *flipper(void *arg)
{
	unsigned int k = 0;

	while (!stop_flip) {
		for (int i = 0; i < (int)R.entries; i++) {
			volatile struct io_uring_sqe *s = ring_slot(&R, i);

			if (is("ftrunc"))
				s->off = (k & 1) ? BIG : 4096;
			else if (is("rwflags"))
				s->rw_flags = (k & 1) ? RWF_APPEND : 0;
			else if (is("socket"))
				s->fd = (k & 1) ? AF_INET : AF_UNIX;
			else if (is("fixed"))
				s->flags = (k & 1) ? IOSQE_FIXED_FILE : 0;
			else if (is("mkdir"))
				s->addr = (unsigned long)((k & 1) ? nopaths : okpaths) + (s->user_data % N) * 64;
			else if (is("opcode"))
				s->opcode = (k & 1) ? IORING_OP_FTRUNCATE : IORING_OP_NOP;
			else if (is("pers"))
				s->personality = (k & 1) ? pers : 0;
		}
		k++;
	}
	return NULL;
}

static void fill(struct io_uring_sqe *sqe, int i)
{
	sqe->user_data = i;
	if (is("ftrunc")) {
		sqe->opcode = IORING_OP_FTRUNCATE;
		sqe->fd = files[i];
		sqe->off = 4096;
	} else if (is("rwflags")) {
		sqe->opcode = IORING_OP_WRITE;
		sqe->fd = files[i];
		sqe->addr = (unsigned long)wbuf;
		sqe->len = 1;
		sqe->off = 0;
	} else if (is("socket")) {
		sqe->opcode = IORING_OP_SOCKET;
		sqe->fd = AF_UNIX;
		sqe->off = SOCK_DGRAM;
	} else if (is("fixed")) {
		sqe->opcode = IORING_OP_FTRUNCATE;
		sqe->fd = FDNUM;
		sqe->off = 777;
	} else if (is("mkdir")) {
		sqe->opcode = IORING_OP_MKDIRAT;
		sqe->fd = AT_FDCWD;
		sqe->addr = (unsigned long)okpaths + i * 64;
		sqe->len = 0755;
	} else if (is("opcode")) {
		sqe->opcode = IORING_OP_NOP;
		sqe->fd = files[i];
		sqe->off = BIG;
	} else if (is("pers") || is("sqcreds")) {
		sqe->opcode = IORING_OP_OPENAT;
		sqe->fd = AT_FDCWD;
		sqe->addr = (unsigned long)"/tmp/r7sec/secret";
		sqe->open_flags = O_RDONLY;
	}
}

static void on_cqe(struct io_uring_cqe *cqe, void *arg)
{
	int i = cqe->user_data % N, res = cqe->res;
	struct stat st;
	char p[64];

	if (res < 0 && res != -1321 && res != -1322 && res != -1323 &&
	    res != -1324 && res != -1325 && res != -EPERM && res != -EACCES) {
		if (n_other++ < 5)
			printf("  other res %d\n", res);
		return;
	}
	if (res < 0 && res != -EACCES)
		n_deny++;
	else
		n_ok++;
	if (is("ftrunc") || is("opcode")) {
		fstat(files[i], &st);
		if (st.st_size == BIG) {
			n_bypass++;
			printf("  BYPASS: %s slot %d res %d size %lld\n", test, i, res,
			       (long long)st.st_size);
		}
		ftruncate(files[i], 0);
	} else if (is("rwflags")) {
		fstat(files[i], &st);
		if (res >= 0 && st.st_size == 17) {
			n_bypass++;
			printf("  BYPASS: rwflags slot %d res %d size 17 (appended)\n", i, res);
		}
		ftruncate(files[i], 16);
	} else if (is("socket")) {
		if (res >= 0) {
			int dom = -1;
			socklen_t l = sizeof(dom);

			getsockopt(res, SOL_SOCKET, SO_DOMAIN, &dom, &l);
			if (dom == AF_INET) {
				n_bypass++;
				printf("  BYPASS: socket AF_INET created fd %d\n", res);
			}
			close(res);
		}
	} else if (is("fixed")) {
		fstat(files[0], &st);
		if (st.st_size == 777) {
			n_bypass++;
			printf("  BYPASS: fixed: plain fd %d truncated, res %d\n", FDNUM, res);
		}
		ftruncate(files[0], 0);
		ftruncate(filesB[0], 0);
	} else if (is("mkdir")) {
		snprintf(p, sizeof(p), "/tmp/r5/no%d", i);
		if (!stat(p, &st)) {
			n_bypass++;
			printf("  BYPASS: mkdir %s made, res %d\n", p, res);
			rmdir(p);
		}
		snprintf(p, sizeof(p), "/tmp/r5/ok%d", i);
		rmdir(p);
	} else if (is("pers") || is("sqcreds")) {
		if (res >= 0) {
			n_bypass++;
			printf("  BYPASS: %s: root-only file opened as fd %d\n", test, res);
			close(res);
		}
	}
}

int main(int argc, char **argv)
{
	int secs, i, ret;
	unsigned long long end;
	pthread_t th;
	unsigned long long batches = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	test = argc > 1 ? argv[1] : "ftrunc";
	secs = argc > 2 ? atoi(argv[2]) : 10;
	{
		static const char *const base[] = { "ftrunc", "rwflags", "socket", "fixed", "mkdir", "opcode" };
		size_t l = strlen(test);

		for (i = 0; i < 6; i++)
			if (l == strlen(base[i]) + 1 && !strncmp(test, base[i], l - 1) && test[l - 1] == 's')
				sqpoll = 1;
		if (!strcmp(test, "sqcreds"))
			sqpoll = 1;
	}
	printf("== r7-race %s %ds%s\n", test, secs, sqpoll ? " (SQPOLL)" : "");

	mkdir("/tmp/r5", 0755);
	mkdir("/tmp/r6", 0755);
	mkdir("/tmp/r7sec", 0755);
	{
		int fd = open("/tmp/r7sec/secret", O_RDWR | O_CREAT, 0600);
		write(fd, "s", 1);
		close(fd);
	}
	mmap(okpaths, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	mmap(nopaths, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	for (i = 0; i < N; i++) {
		snprintf(okpaths + i * 64, 64, "/tmp/r5/ok%d", i);
		snprintf(nopaths + i * 64, 64, "/tmp/r5/no%d", i);
	}
	/* fd 20 = file A, slot 20 = file B */
	{
		int a = open("/tmp/r6/A", O_RDWR | O_CREAT | O_TRUNC, 0644);
		dup2(a, FDNUM);
		close(a);
	}
	for (i = 0; i < N; i++) {
		char p[64];

		snprintf(p, sizeof(p), "/tmp/r6/f%d", i);
		files[i] = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (files[i] == FDNUM)
			files[i] = dup(files[i]);
		if (is("rwflags"))
			write(files[i], "aaaaaaaaaaaaaaaa", 16);
	}
	if (is("fixed")) {
		files[0] = FDNUM;
		filesB[0] = open("/tmp/r6/B", O_RDWR | O_CREAT | O_TRUNC, 0644);
	}

	ret = ring_init(&R, N, sqpoll ? IORING_SETUP_SQPOLL : 0);
	if (ret) {
		printf("ring_init %d\n", ret);
		return 2;
	}
	if (is("fixed")) {
		int table[FDNUM + 1];

		for (i = 0; i <= FDNUM; i++)
			table[i] = -1;
		table[FDNUM] = filesB[0];
		if (syscall(__NR_io_uring_register, R.fd, IORING_REGISTER_FILES, table, FDNUM + 1))
			printf("register files %s\n", strerror(errno));
	}
	if (is("pers")) {
		pers = syscall(__NR_io_uring_register, R.fd, IORING_REGISTER_PERSONALITY, NULL, 0);
		printf("  personality %d\n", pers);
	}
	if (load_args_filter()) {
		printf("filter load failed %s\n", strerror(errno));
		return 2;
	}
	if (is("pers") || is("sqcreds")) {
		if (setresuid(1000, 1000, 1000)) {
			printf("setresuid: %s\n", strerror(errno));
			return 2;
		}
		if (open("/tmp/r7sec/secret", O_RDONLY) >= 0)
			printf("  (uid 1000 can open the secret?)\n");
	}
	if (!is("sqcreds"))
		pthread_create(&th, NULL, flipper, NULL);
	end = now_ms() + secs * 1000ULL;
	while (now_ms() < end) {
		for (i = 0; i < N; i++)
			fill(ring_sqe(&R), i);
		ring_submit(&R, 0);
		if (ring_reap(&R, N, 3000, on_cqe, NULL) != N) {
			printf("  timeout reaping\n");
			break;
		}
		batches++;
	}
	stop_flip = 1;
	if (!is("sqcreds"))
		pthread_join(th, NULL);
	printf("%s %s: batches %llu ran %llu refused %llu other %llu bypass %llu\n",
	       n_bypass ? "R7-RACE FAIL" : "R7-RACE ok", test, batches, n_ok, n_deny,
	       n_other, n_bypass);
	return n_bypass ? 1 : 0;
}
