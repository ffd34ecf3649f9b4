// SPDX-License-Identifier: GPL-2.0
/*
 * review 7, views on the non-copy path: each check forks a child that
 * loads a filter testing one argument of one twin (SQEs only, ip == 0)
 * and submits one SQE with that value: -1 (ERRNO 1) if the filter saw
 * it, -2 if it saw something else, anything else if the filter did not
 * run. The opcodes here have no .seccomp_sqe: prep reads the shared SQE
 * and the view gets sqe == NULL.
 */
#include "r7common.h"
#include <netinet/in.h>
#include <linux/futex.h>

static int fails;
static char *buf;
static int filefd, sock_udp, pp[2];

static int load_check(int nr, int arg, uint64_t want)
{
	struct sock_filter f[] = {
		LD(SD_ARCH), JEQ(NATIVE_ARCH, 1, 0), RET(SECCOMP_RET_KILL_PROCESS),
		LD(SD_IP), JEQ(0, 1, 0), RET(SECCOMP_RET_ALLOW),
		LD(SD_IP + 4), JEQ(0, 1, 0), RET(SECCOMP_RET_ALLOW),
		LD(SD_NR), JEQ((uint32_t)nr, 1, 0), RET(ERR(3)),
		LD(SD_ARG(arg)), JEQ((uint32_t)want, 0, 3),
		LD(SD_ARG(arg) + 4), JEQ((uint32_t)(want >> 32), 0, 1),
		RET(ERR(1)), RET(ERR(2)),
	};
	return LOAD(f, SECCOMP_FILTER_FLAG_URING);
}

static void check(const char *what, struct io_uring_sqe *tmpl, int nr, int arg,
		  uint64_t want, unsigned int ring_flags)
{
	pid_t p = fork();
	int st;

	if (p == 0) {
		struct ring R;
		struct io_uring_sqe *sqe;
		struct io_uring_cqe c = { .res = -99999 };
		int table[4] = { filefd, sock_udp, pp[0], pp[1] };
		void keep(struct io_uring_cqe *x, void *a) { if (!(x->flags & IORING_CQE_F_NOTIF)) c = *x; }

		if (ring_init(&R, 8, ring_flags))
			_exit(100);
		syscall(__NR_io_uring_register, R.fd, IORING_REGISTER_FILES, table, 4);
		if (load_check(nr, arg, want))
			_exit(101);
		sqe = ring_sqe(&R);
		memcpy(sqe, tmpl, 64);
		ring_submit(&R, 0);
		ring_reap(&R, 1, 3000, keep, NULL);
		_exit(c.res == -1 ? 0 : c.res == -2 ? 2 : c.res == -3 ? 3 : 4);
	}
	waitpid(p, &st, 0);
	st = WIFEXITED(st) ? WEXITSTATUS(st) : 200;
	printf("%s %-40s %s\n", st ? "FAIL" : "ok  ", what,
	       st == 0 ? "seen" : st == 2 ? "other value" : st == 3 ? "other nr" : "no verdict/err");
	if (st)
		fails++;
}

int main(void)
{
	struct io_uring_sqe t;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(9), .sin_addr.s_addr = htonl(0x7f000001) };

	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("== r7-views\n");
	buf = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memcpy(buf + 1024, &a, sizeof(a));
	filefd = open("/tmp/vw", O_RDWR | O_CREAT | O_TRUNC, 0644);
	ftruncate(filefd, 8192);
	sock_udp = socket(AF_INET, SOCK_DGRAM, 0);
	pipe(pp);

#define T0() memset(&t, 0, sizeof(t))
	for (int sq = 0; sq < 2; sq++) {
		unsigned int rf = sq ? IORING_SETUP_SQPOLL : 0;

		printf("-- %s ring\n", sq ? "SQPOLL" : "plain");
		T0(); t.opcode = IORING_OP_READ; t.fd = filefd; t.addr = (uint64_t)buf; t.len = 333; t.off = 4444;
		check("READ pread64 buf", &t, __NR_pread64, 1, (uint64_t)buf, rf);
		check("READ pread64 len", &t, __NR_pread64, 2, 333, rf);
		check("READ pread64 off", &t, __NR_pread64, 3, 4444, rf);
		t.flags = IOSQE_FIXED_FILE; t.fd = 0;
		check("READ fixed fd", &t, __NR_pread64, 0, 0x80000000ULL, rf);
		T0(); t.opcode = IORING_OP_WRITE; t.fd = filefd; t.addr = (uint64_t)buf; t.len = 7; t.off = 0; t.rw_flags = RWF_DSYNC;
		check("WRITE RWF_DSYNC pwritev2 flags", &t, __NR_pwritev2, 5, RWF_DSYNC, rf);
		T0(); t.opcode = IORING_OP_WRITE; t.fd = filefd; t.addr = (uint64_t)buf; t.len = 7; t.off = -1ULL;
		check("WRITE at pos -> write len", &t, __NR_write, 2, 7, rf);
		T0(); t.opcode = IORING_OP_FTRUNCATE; t.fd = filefd; t.off = 12345;
		check("FTRUNCATE len", &t, __NR_ftruncate, 1, 12345, rf);
		T0(); t.opcode = IORING_OP_FALLOCATE; t.fd = filefd; t.off = 100; t.len = 1; t.addr = 200;
		check("FALLOCATE mode", &t, __NR_fallocate, 1, 1, rf);
		check("FALLOCATE len", &t, __NR_fallocate, 3, 200, rf);
		T0(); t.opcode = IORING_OP_SEND; t.fd = sock_udp; t.addr = (uint64_t)buf; t.len = 5;
		t.msg_flags = MSG_DONTWAIT; t.addr2 = (uint64_t)(buf + 1024); t.addr_len = sizeof(a);
		check("SEND sendto flags (no NOSIGNAL)", &t, __NR_sendto, 3, MSG_DONTWAIT, rf);
		check("SEND sendto addr", &t, __NR_sendto, 4, (uint64_t)(buf + 1024), rf);
		check("SEND sendto addrlen", &t, __NR_sendto, 5, sizeof(a), rf);
		T0(); t.opcode = IORING_OP_SOCKET; t.fd = AF_INET; t.off = SOCK_DGRAM; t.len = 17;
		check("SOCKET domain", &t, __NR_socket, 0, AF_INET, rf);
		check("SOCKET protocol", &t, __NR_socket, 2, 17, rf);
		T0(); t.opcode = IORING_OP_CONNECT; t.fd = sock_udp; t.addr = (uint64_t)(buf + 1024); t.off = sizeof(a);
		check("CONNECT addrlen", &t, __NR_connect, 2, sizeof(a), rf);
		T0(); t.opcode = IORING_OP_SPLICE; t.splice_fd_in = pp[0]; t.fd = filefd; t.len = 99;
		t.splice_off_in = -1ULL; t.off = 77; t.splice_flags = SPLICE_F_NONBLOCK;
		check("SPLICE off_out", &t, __NR_splice, 3, 77, rf);
		check("SPLICE len", &t, __NR_splice, 4, 99, rf);
		check("SPLICE fd_in", &t, __NR_splice, 0, pp[0], rf);
		T0(); t.opcode = IORING_OP_FUTEX_WAKE; t.addr = (uint64_t)buf; t.addr2 = 1; t.addr3 = FUTEX_BITSET_MATCH_ANY; t.fd = FUTEX2_SIZE_U32;
		check("FUTEX_WAKE uaddr", &t, __NR_futex_wake, 0, (uint64_t)buf, rf);
		T0(); t.opcode = IORING_OP_SYNC_FILE_RANGE; t.fd = filefd; t.off = 4096; t.len = 512; t.sync_range_flags = 2;
		check("SYNC_FILE_RANGE off", &t, __NR_sync_file_range, 1, 4096, rf);
		check("SYNC_FILE_RANGE flags", &t, __NR_sync_file_range, 3, 2, rf);
		T0(); t.opcode = IORING_OP_FIXED_FD_INSTALL; t.fd = 2; t.flags = IOSQE_FIXED_FILE;
		check("FIXED_FD_INSTALL fcntl fd", &t, __NR_fcntl, 0, 0x80000002ULL, rf);
		T0(); t.opcode = IORING_OP_MADVISE; t.addr = (uint64_t)buf; t.len = 4096; t.fadvise_advice = MADV_WILLNEED;
		check("MADVISE advice", &t, __NR_madvise, 2, MADV_WILLNEED, rf);
		T0(); t.opcode = IORING_OP_NOP;
		check("NOP io_uring_enter opcode", &t, __NR_io_uring_enter, 5, 0, rf);
		T0(); t.opcode = IORING_OP_FSYNC; t.fd = filefd; t.fsync_flags = IORING_FSYNC_DATASYNC;
		check("FSYNC DATASYNC fdatasync fd", &t, __NR_fdatasync, 0, filefd, rf);
		/* copy path still right */
		T0(); t.opcode = IORING_OP_MKDIRAT; t.fd = AT_FDCWD; t.addr = (uint64_t)"/tmp/vwdir"; t.len = 0700;
		check("MKDIRAT path pointer (copy)", &t, __NR_mkdirat, 1, t.addr, rf);
	}
	printf("%s (%d failed)\n", fails ? "R7-VIEWS FAIL" : "R7-VIEWS ok", fails);
	return !!fails;
}
