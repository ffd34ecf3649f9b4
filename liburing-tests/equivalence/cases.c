// SPDX-License-Identifier: GPL-2.0
/*
 * The case table of the profile equivalence test. A case's system call
 * and its SQE get the same arguments; the SQE's opcode is the one io_uring
 * judges as that system call (the twin).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <linux/futex.h>

#include "cases.h"

/* Opcodes newer than the packaged liburing's header. */
#define OP_FUTEX_WAKE 52
#define OP_FTRUNCATE 55
#define OP_BIND 56
#define OP_LISTEN 57
#ifndef FUTEX2_SIZE_U32
#define FUTEX2_SIZE_U32 0x02
#endif
#define NR_futex_wake 454

static long ret(long r)
{
	return r < 0 ? -errno : r;
}

static void no_setup(struct case_ctx *c)
{
	(void)c;
}

static void set_iov(struct case_ctx *c, const char *data, size_t len)
{
	if (data)
		memcpy(c->buf, data, len);
	c->iov = (struct iovec){ .iov_base = c->buf, .iov_len = len };
	c->msg = (struct msghdr){ .msg_iov = &c->iov, .msg_iovlen = 1 };
}

static void set_sin(struct case_ctx *c, int port)
{
	c->sin = (struct sockaddr_in){ .sin_family = AF_INET,
				       .sin_port = htons(port),
				       .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
}

/* Plain reads and writes of "data". */
static long sys_read(struct case_ctx *c) { return ret(pread(FD_DATA, c->buf, 4, 2)); }
static void sqe_read(struct io_uring_sqe *s, struct case_ctx *c)
{ io_uring_prep_read(s, FD_DATA, c->buf, 4, 2); }

static long sys_write(struct case_ctx *c) { (void)c; return ret(pwrite(FD_DATA, "WXYZ", 4, 0)); }
static void sqe_write(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_write(s, FD_DATA, "WXYZ", 4, 0); }

static void setup_iov_in(struct case_ctx *c) { set_iov(c, NULL, 5); }
static long sys_readv(struct case_ctx *c) { return ret(preadv2(FD_DATA, &c->iov, 1, 4, 0)); }
static void sqe_readv(struct io_uring_sqe *s, struct case_ctx *c)
{ io_uring_prep_readv(s, FD_DATA, &c->iov, 1, 4); }

static void setup_iov_out(struct case_ctx *c) { set_iov(c, "vv", 2); }
static long sys_writev(struct case_ctx *c) { return ret(pwritev2(FD_DATA, &c->iov, 1, 8, 0)); }
static void sqe_writev(struct io_uring_sqe *s, struct case_ctx *c)
{ io_uring_prep_writev(s, FD_DATA, &c->iov, 1, 8); }

static long sys_fsync(struct case_ctx *c) { (void)c; return ret(fsync(FD_DATA)); }
static void sqe_fsync(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_fsync(s, FD_DATA, 0); }

static long sys_sfr(struct case_ctx *c)
{ (void)c; return ret(sync_file_range(FD_DATA, 0, 16, SYNC_FILE_RANGE_WRITE)); }
static void sqe_sfr(struct io_uring_sqe *s, struct case_ctx *c)
{
	(void)c;
	io_uring_prep_rw(IORING_OP_SYNC_FILE_RANGE, s, FD_DATA, NULL, 16, 0);
	s->sync_range_flags = SYNC_FILE_RANGE_WRITE;
}

static long sys_fallocate(struct case_ctx *c) { (void)c; return ret(fallocate(FD_DATA, 0, 0, 4096)); }
static void sqe_fallocate(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_fallocate(s, FD_DATA, 0, 0, 4096); }

static long sys_ftruncate(struct case_ctx *c) { (void)c; return ret(ftruncate(FD_DATA, 3)); }
static void sqe_ftruncate(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_rw(OP_FTRUNCATE, s, FD_DATA, NULL, 0, 3); }

/* glibc's posix_fadvise returns the error: call the system call itself. */
static long sys_fadvise(struct case_ctx *c)
{ (void)c; return ret(syscall(__NR_fadvise64, FD_DATA, 0, 16, POSIX_FADV_DONTNEED)); }
static void sqe_fadvise(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_fadvise(s, FD_DATA, 0, 16, POSIX_FADV_DONTNEED); }

static void setup_map(struct case_ctx *c)
{
	c->map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}
static long sys_madvise(struct case_ctx *c) { return ret(madvise(c->map, 4096, MADV_DONTNEED)); }
static void sqe_madvise(struct io_uring_sqe *s, struct case_ctx *c)
{ io_uring_prep_madvise(s, c->map, 4096, MADV_DONTNEED); }

/* Opens: the flags decide under a read-only profile. */
static long sys_open_ro(struct case_ctx *c) { (void)c; return ret(openat(FD_DIR, "data", O_RDONLY)); }
static void sqe_open_ro(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_openat(s, FD_DIR, "data", O_RDONLY, 0); }

static long sys_open_creat(struct case_ctx *c)
{ (void)c; return ret(openat(FD_DIR, "new", O_WRONLY | O_CREAT, 0600)); }
static void sqe_open_creat(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_openat(s, FD_DIR, "new", O_WRONLY | O_CREAT, 0600); }

static long sys_open_trunc(struct case_ctx *c)
{ (void)c; return ret(openat(FD_DIR, "data", O_WRONLY | O_TRUNC)); }
static void sqe_open_trunc(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_openat(s, FD_DIR, "data", O_WRONLY | O_TRUNC, 0); }

static void setup_how(struct case_ctx *c) { c->how = (struct open_how){ .flags = O_RDONLY }; }
static long sys_openat2(struct case_ctx *c)
{ return ret(syscall(__NR_openat2, FD_DIR, "data", &c->how, sizeof(c->how))); }
static void sqe_openat2(struct io_uring_sqe *s, struct case_ctx *c)
{ io_uring_prep_openat2(s, FD_DIR, "data", &c->how); }

static long sys_close(struct case_ctx *c) { (void)c; return ret(close(FD_DATA)); }
static void sqe_close(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_close(s, FD_DATA); }

static long sys_statx(struct case_ctx *c)
{ return ret(statx(FD_DIR, "data", 0, STATX_SIZE, &c->stx)); }
static void sqe_statx(struct io_uring_sqe *s, struct case_ctx *c)
{ io_uring_prep_statx(s, FD_DIR, "data", 0, STATX_SIZE, &c->stx); }

/* Changes to the directory. */
static long sys_mkdirat(struct case_ctx *c) { (void)c; return ret(mkdirat(FD_DIR, "newdir", 0700)); }
static void sqe_mkdirat(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_mkdirat(s, FD_DIR, "newdir", 0700); }

static long sys_unlinkat(struct case_ctx *c) { (void)c; return ret(unlinkat(FD_DIR, "victim", 0)); }
static void sqe_unlinkat(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_unlinkat(s, FD_DIR, "victim", 0); }

static long sys_renameat(struct case_ctx *c)
{ (void)c; return ret(renameat2(FD_DIR, "victim", FD_DIR, "renamed", 0)); }
static void sqe_renameat(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_renameat(s, FD_DIR, "victim", FD_DIR, "renamed", 0); }

static long sys_symlinkat(struct case_ctx *c) { (void)c; return ret(symlinkat("data", FD_DIR, "sym")); }
static void sqe_symlinkat(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_symlinkat(s, "data", FD_DIR, "sym"); }

static long sys_linkat(struct case_ctx *c)
{ (void)c; return ret(linkat(FD_DIR, "data", FD_DIR, "hard", 0)); }
static void sqe_linkat(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_linkat(s, FD_DIR, "data", FD_DIR, "hard", 0); }

static long sys_fsetxattr(struct case_ctx *c)
{ (void)c; return ret(fsetxattr(FD_DATA, "user.k", "v", 1, 0)); }
static void sqe_fsetxattr(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_fsetxattr(s, FD_DATA, "user.k", "v", 0, 1); }

/* Pipes. */
static long sys_splice(struct case_ctx *c)
{
	loff_t off = 0;

	(void)c;
	return ret(splice(FD_PIPE_R, NULL, FD_DATA, &off, 4, 0));
}
static void sqe_splice(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_splice(s, FD_PIPE_R, -1, FD_DATA, 0, 4, 0); }

static long sys_tee(struct case_ctx *c) { (void)c; return ret(tee(FD_PIPE_R, FD_PIPE2_W, 4, 0)); }
static void sqe_tee(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_tee(s, FD_PIPE_R, FD_PIPE2_W, 4, 0); }

static void setup_epoll(struct case_ctx *c)
{
	c->epfd = epoll_create1(0);
	c->ev = (struct epoll_event){ .events = EPOLLIN };
}
static long sys_epoll_ctl(struct case_ctx *c)
{ return ret(epoll_ctl(c->epfd, EPOLL_CTL_ADD, FD_PIPE_R, &c->ev)); }
static void sqe_epoll_ctl(struct io_uring_sqe *s, struct case_ctx *c)
{ io_uring_prep_epoll_ctl(s, c->epfd, FD_PIPE_R, EPOLL_CTL_ADD, &c->ev); }

static long sys_futex_wake(struct case_ctx *c)
{ return ret(syscall(NR_futex_wake, &c->futex, 0xffffffffUL, 1, FUTEX2_SIZE_U32)); }
static void sqe_futex_wake(struct io_uring_sqe *s, struct case_ctx *c)
{
	io_uring_prep_rw(OP_FUTEX_WAKE, s, FUTEX2_SIZE_U32, &c->futex, 0, 0);
	s->addr2 = 1;		/* how many to wake */
	s->addr3 = 0xffffffff;	/* the mask: a u32 futex takes 32 bits */
}

/* Sockets: the family decides under every profile. */
static long sys_sock_inet(struct case_ctx *c) { (void)c; return ret(socket(AF_INET, SOCK_STREAM, 0)); }
static void sqe_sock_inet(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_socket(s, AF_INET, SOCK_STREAM, 0, 0); }

static long sys_sock_unix(struct case_ctx *c) { (void)c; return ret(socket(AF_UNIX, SOCK_STREAM, 0)); }
static void sqe_sock_unix(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_socket(s, AF_UNIX, SOCK_STREAM, 0, 0); }

static long sys_sock_netlink(struct case_ctx *c) { (void)c; return ret(socket(AF_NETLINK, SOCK_RAW, 0)); }
static void sqe_sock_netlink(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_socket(s, AF_NETLINK, SOCK_RAW, 0, 0); }

static long sys_sock_vsock(struct case_ctx *c) { (void)c; return ret(socket(AF_VSOCK, SOCK_STREAM, 0)); }
static void sqe_sock_vsock(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_socket(s, AF_VSOCK, SOCK_STREAM, 0, 0); }

static void setup_connect(struct case_ctx *c) { set_sin(c, c->port); }
static long sys_connect(struct case_ctx *c)
{ return ret(connect(FD_INET, (struct sockaddr *)&c->sin, sizeof(c->sin))); }
static void sqe_connect(struct io_uring_sqe *s, struct case_ctx *c)
{ io_uring_prep_connect(s, FD_INET, (struct sockaddr *)&c->sin, sizeof(c->sin)); }

static void setup_bind(struct case_ctx *c) { set_sin(c, 0); }
static long sys_bind(struct case_ctx *c)
{ return ret(bind(FD_INET, (struct sockaddr *)&c->sin, sizeof(c->sin))); }
static void sqe_bind(struct io_uring_sqe *s, struct case_ctx *c)
{ io_uring_prep_rw(OP_BIND, s, FD_INET, &c->sin, 0, sizeof(c->sin)); }

static long sys_listen(struct case_ctx *c) { (void)c; return ret(listen(FD_INET, 1)); }
static void sqe_listen(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_rw(OP_LISTEN, s, FD_INET, NULL, 1, 0); }

static long sys_accept(struct case_ctx *c) { (void)c; return ret(accept4(FD_ACCEPT, NULL, NULL, 0)); }
static void sqe_accept(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_accept(s, FD_ACCEPT, NULL, NULL, 0); }

static long sys_shutdown(struct case_ctx *c) { (void)c; return ret(shutdown(FD_SOCK, SHUT_WR)); }
static void sqe_shutdown(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_shutdown(s, FD_SOCK, SHUT_WR); }

static long sys_send(struct case_ctx *c) { (void)c; return ret(send(FD_SOCK, "ping", 4, 0)); }
static void sqe_send(struct io_uring_sqe *s, struct case_ctx *c)
{ (void)c; io_uring_prep_send(s, FD_SOCK, "ping", 4, 0); }

static long sys_recv(struct case_ctx *c) { return ret(recv(FD_SOCK, c->buf, 5, 0)); }
static void sqe_recv(struct io_uring_sqe *s, struct case_ctx *c)
{ io_uring_prep_recv(s, FD_SOCK, c->buf, 5, 0); }

static void setup_msg_out(struct case_ctx *c) { set_iov(c, "pong", 4); }
static long sys_sendmsg(struct case_ctx *c) { return ret(sendmsg(FD_SOCK, &c->msg, 0)); }
static void sqe_sendmsg(struct io_uring_sqe *s, struct case_ctx *c)
{ io_uring_prep_sendmsg(s, FD_SOCK, &c->msg, 0); }

/* To a bound AF_UNIX path, from an unbound datagram socket. */
static void setup_unix_path(struct case_ctx *c)
{
	set_iov(c, "dgram", 5);
	c->sun = (struct sockaddr_un){ .sun_family = AF_UNIX };
	snprintf(c->sun.sun_path, sizeof(c->sun.sun_path), "%s/%s", c->dir, FIXTURE_UNIX_PATH);
	c->msg.msg_name = &c->sun;
	c->msg.msg_namelen = sizeof(c->sun);
}
static long sys_sendto_path(struct case_ctx *c)
{ return ret(sendto(FD_DGRAM, c->buf, 5, 0, (struct sockaddr *)&c->sun, sizeof(c->sun))); }
static void sqe_sendto_path(struct io_uring_sqe *s, struct case_ctx *c)
{
	io_uring_prep_send(s, FD_DGRAM, c->buf, 5, 0);
	io_uring_prep_send_set_addr(s, (struct sockaddr *)&c->sun, sizeof(c->sun));
}
static long sys_sendmsg_path(struct case_ctx *c) { return ret(sendmsg(FD_DGRAM, &c->msg, 0)); }
static void sqe_sendmsg_path(struct io_uring_sqe *s, struct case_ctx *c)
{ io_uring_prep_sendmsg(s, FD_DGRAM, &c->msg, 0); }

static void setup_msg_in(struct case_ctx *c) { set_iov(c, NULL, 5); }
static long sys_recvmsg(struct case_ctx *c) { return ret(recvmsg(FD_SOCK, &c->msg, 0)); }
static void sqe_recvmsg(struct io_uring_sqe *s, struct case_ctx *c)
{ io_uring_prep_recvmsg(s, FD_SOCK, &c->msg, 0); }

#define CASE(n, sc, res, setup, fn) { n, sc, res, setup, sys_##fn, sqe_##fn }

const struct eq_case eq_cases[] = {
	CASE("read", "pread64", RES_DATA, no_setup, read),
	CASE("write", "pwrite64", RES_EXACT, no_setup, write),
	CASE("readv", "preadv2", RES_DATA, setup_iov_in, readv),
	CASE("writev", "pwritev2", RES_EXACT, setup_iov_out, writev),
	CASE("fsync", "fsync", RES_EXACT, no_setup, fsync),
	CASE("sync_file_range", "sync_file_range", RES_EXACT, no_setup, sfr),
	CASE("fallocate", "fallocate", RES_EXACT, no_setup, fallocate),
	CASE("ftruncate", "ftruncate", RES_EXACT, no_setup, ftruncate),
	CASE("fadvise", "fadvise64", RES_EXACT, no_setup, fadvise),
	CASE("madvise", "madvise", RES_EXACT, setup_map, madvise),
	CASE("openat-rdonly", "openat", RES_FD, no_setup, open_ro),
	CASE("openat-creat", "openat", RES_FD, no_setup, open_creat),
	CASE("openat-trunc", "openat", RES_FD, no_setup, open_trunc),
	CASE("openat2-rdonly", "openat2", RES_FD, setup_how, openat2),
	CASE("close", "close", RES_EXACT, no_setup, close),
	CASE("statx", "statx", RES_EXACT, no_setup, statx),
	CASE("mkdirat", "mkdirat", RES_EXACT, no_setup, mkdirat),
	CASE("unlinkat", "unlinkat", RES_EXACT, no_setup, unlinkat),
	CASE("renameat", "renameat2", RES_EXACT, no_setup, renameat),
	CASE("symlinkat", "symlinkat", RES_EXACT, no_setup, symlinkat),
	CASE("linkat", "linkat", RES_EXACT, no_setup, linkat),
	CASE("fsetxattr", "fsetxattr", RES_EXACT, no_setup, fsetxattr),
	CASE("splice", "splice", RES_EXACT, no_setup, splice),
	CASE("tee", "tee", RES_EXACT, no_setup, tee),
	CASE("epoll_ctl", "epoll_ctl", RES_EXACT, setup_epoll, epoll_ctl),
	CASE("futex_wake", "futex_wake", RES_EXACT, no_setup, futex_wake),
	CASE("socket-inet", "socket", RES_FD, no_setup, sock_inet),
	CASE("socket-unix", "socket", RES_FD, no_setup, sock_unix),
	CASE("socket-netlink", "socket", RES_FD, no_setup, sock_netlink),
	CASE("socket-vsock", "socket", RES_FD, no_setup, sock_vsock),
	CASE("connect", "connect", RES_EXACT, setup_connect, connect),
	CASE("bind", "bind", RES_EXACT, setup_bind, bind),
	CASE("listen", "listen", RES_EXACT, no_setup, listen),
	CASE("accept", "accept4", RES_FD, no_setup, accept),
	CASE("shutdown", "shutdown", RES_EXACT, no_setup, shutdown),
	CASE("send", "sendto", RES_EXACT, no_setup, send),
	CASE("recv", "recvfrom", RES_DATA, no_setup, recv),
	CASE("sendmsg", "sendmsg", RES_EXACT, setup_msg_out, sendmsg),
	CASE("recvmsg", "recvmsg", RES_DATA, setup_msg_in, recvmsg),
	CASE("sendto-unix-path", "sendto", RES_EXACT, setup_unix_path, sendto_path),
	CASE("sendmsg-unix-path", "sendmsg", RES_EXACT, setup_unix_path, sendmsg_path),
};

const unsigned int eq_ncases = sizeof(eq_cases) / sizeof(eq_cases[0]);
