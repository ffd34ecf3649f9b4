// SPDX-License-Identifier: GPL-2.0
/*
 * The seccomp action cache (allow bitmap and constant-verdict tables)
 * must never change a verdict. Each test runs every io_uring opcode, and
 * a few twin syscalls, under one set of filters twice: once with
 * kernel.seccomp.action_cache=1 and once with it 0 (every filter run), each
 * time in a fresh child, and compares what each operation completed with
 * (CQE res or syscall return, SIGSYS seen, the child's fate).
 *
 * SECCOMP_RET_TRAP is where the two ways in differ: a system call with a
 * TRAP verdict is not run and SIGSYS is sent, but an SQE with one fails
 * closed without any signal, completing with -ENOSYS (as TRACE and
 * USER_NOTIF do). So besides comparing the cache on and off, each run is
 * held to that: no SQE is ever followed by a SIGSYS, an SQE whose twin the
 * filters trap completes with -ENOSYS, and the twin syscall itself gets
 * exactly one SIGSYS (and any other verdict none).
 *
 * kernel.seccomp.uring_force is never written here: once set it stays set
 * until reboot, so the forced cases are in seccomp_uring_force_cache.c,
 * which runs last. These tests expect it unset.
 *
 * Every operation gets harmless arguments: fd -1 and pointers to paths
 * under /nonexistent, so that nothing runs that changes state. The hook
 * runs after prep, so an SQE whose prep rejects its fields never reaches
 * the filters: a probe first finds, for each opcode, the first of a few
 * argument shapes that reaches them, under a filter that denies every
 * operation with instruction_pointer 0 (io_uring's) and no syscall. The
 * filters return distinctive errno values (1000 and up) so that a verdict
 * cannot be mistaken for an error of the operation itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>

#include "../kselftest_harness.h"
#include "uring_expect.h"
#include "uring_filter.h"
#include "uring_raw.h"
#include "uring_stopped.h"

#if defined(__x86_64__)
#define NATIVE_ARCH	AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define NATIVE_ARCH	AUDIT_ARCH_AARCH64
#endif

#define CACHE_SYSCTL	"/proc/sys/kernel/seccomp/action_cache"
/* as the kernel's own seccomp_bpf test defines it */
#if !defined(__NR_uretprobe) && defined(__x86_64__)
#define __NR_uretprobe	335
#endif
#define NOPATH		"/nonexistent/seccomp-uring-cache"
/*
 * How many opcodes at least reach the filters with one of the shapes
 * below: 40 of the 58 of Linux 6.12 (the rest need fields these shapes
 * do not give, such as registered buffers, or are refused on fd -1 by
 * prep, or, for URING_CMD, which looks its file up when it is judged,
 * before the filters). Fewer would mean the comparison covers less than
 * it did, e.g. because the hook moved before prep or opcodes lost their
 * twin.
 */
#define MIN_REACHED	40

/*
 * The twin syscalls also checked directly, at syscall entry, each with
 * the opcode judged as it with the shapes below (READ and WRITE at offset
 * 0 are pread64 and pwrite64). Not every opcode here reaches the filters
 * (see probe_shapes()); check_traps() only uses those that do.
 */
static const struct twin {
	int nr;
	int op;
} twins[] = {
	{ __NR_openat, IORING_OP_OPENAT },
	{ __NR_unlinkat, IORING_OP_UNLINKAT },
	{ __NR_mkdirat, IORING_OP_MKDIRAT },
	{ __NR_pread64, IORING_OP_READ },
	{ __NR_pwrite64, IORING_OP_WRITE },
	{ __NR_connect, IORING_OP_CONNECT },
	{ __NR_socket, IORING_OP_SOCKET },
	{ __NR_fsync, IORING_OP_FSYNC },
};

#define NR_TWINS	ARRAY_SIZE(twins)

/* The argument shapes prep_op() knows; see probe_shapes(). */
enum shape { SHAPE_FD, SHAPE_PATH, SHAPE_2PATHS, SHAPE_3PATHS, SHAPE_HOW,
	     NR_SHAPES };

/*
 * What one run saw; in shared memory, filled in by the child. @traps and
 * @sys_traps count the SIGSYS that arrived during each SQE (always 0: no
 * SQE verdict sends one) and each syscall (1 for a TRAP verdict).
 */
struct outcome {
	int res[IORING_OP_LAST];
	int traps[IORING_OP_LAST];
	long sys_ret[NR_TWINS];
	int sys_traps[NR_TWINS];
	int ops_done;		/* opcodes completed before the child ended */
	int sys_done;
	int status;		/* wait status of the child */
};

/* A set of filters, loaded oldest first. */
struct filter_set {
	const struct filter_spec *specs;
	int nspecs;
};

/*
 * One rule of a test filter: return @ret for syscall @nr, if @arg < 0
 * always, else only if the low word of args[@arg] passes the jump @jmp
 * (BPF_JEQ or BPF_JSET) against @k.
 */
struct rule {
	int nr;
	__u32 ret;
	int arg;
	__u16 jmp;
	__u32 k;
};

#define ALWAYS	-1

#define END_RULES	{ .nr = -1 }

/*
 * A filter: its rules, in order, up to END_RULES, then @def for every
 * other syscall; loaded with @flags.
 */
struct filter_spec {
	const struct rule *rules;
	__u32 def;
	unsigned int flags;
};

static void emit_stmt(struct sock_fprog *prog, __u16 code, __u32 k)
{
	struct sock_filter insn = BPF_STMT(code, k);

	prog->filter[prog->len++] = insn;
}

static void emit_jump(struct sock_fprog *prog, __u16 code, __u32 k,
		      __u8 jt, __u8 jf)
{
	struct sock_filter insn = BPF_JUMP(code, k, jt, jf);

	prog->filter[prog->len++] = insn;
}

#define LD_ABS	(BPF_LD | BPF_W | BPF_ABS)

/* build_filter - compile @spec into @prog, which has room for it */
static void build_filter(struct sock_fprog *prog,
			 const struct filter_spec *spec)
{
	const struct rule *r;

	prog->len = 0;
#ifdef NATIVE_ARCH
	emit_stmt(prog, LD_ABS, offsetof(struct seccomp_data, arch));
	emit_jump(prog, BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0);
	emit_stmt(prog, BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
#endif
	for (r = spec->rules; r->nr >= 0; r++) {
		emit_stmt(prog, LD_ABS, offsetof(struct seccomp_data, nr));
		emit_jump(prog, BPF_JMP | BPF_JEQ | BPF_K, r->nr, 0,
			  r->arg == ALWAYS ? 1 : 3);
		if (r->arg != ALWAYS) {
			emit_stmt(prog, LD_ABS,
				  offsetof(struct seccomp_data, args[r->arg]));
			emit_jump(prog, BPF_JMP | r->jmp | BPF_K, r->k, 0, 1);
		}
		emit_stmt(prog, BPF_RET | BPF_K, r->ret);
	}
	emit_stmt(prog, BPF_RET | BPF_K, spec->def);
}

/*
 * SIGSYS is counted around each SQE and each syscall run_child() makes:
 * a syscall's arrives before it returns, and an SQE that sent one (none
 * should) would have it delivered as io_uring_enter() returns.
 */
/* atomic: the handler's increments must not be cached away */
static int traps;

static void count_sigsys(int sig, siginfo_t *info, void *ctx)
{
	__atomic_fetch_add(&traps, 1, __ATOMIC_RELAXED);
}

static int write_sysctl(const char *path, int val)
{
	char c = '0' + val;
	int fd = open(path, O_WRONLY);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, &c, 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

static char scratch[3][256];

/* For each opcode, the shape that reaches the filters, and whether one does. */
static int shapes[IORING_OP_LAST];
static bool reaches[IORING_OP_LAST];

/* Queue @opcode with harmless arguments of @shape. */
static void prep_op(struct uring *r, int opcode, enum shape shape,
		    struct open_how *how)
{
	struct io_uring_sqe *sqe = uring_sqe(r);
	int i;

	for (i = 0; i < 3; i++) {
		memset(scratch[i], 0, sizeof(scratch[i]));
		memcpy(scratch[i], NOPATH, sizeof(NOPATH));
	}
	memset(how, 0, sizeof(*how));
	sqe->opcode = opcode;
	/*
	 * Never 0, the user_data ASYNC_CANCEL (addr 0) looks for: a request
	 * that completed may still be leaving an io-wq worker, and the
	 * cancel would find it there (-EALREADY) or not (-ENOENT) by timing.
	 */
	sqe->user_data = 1 + opcode;
	sqe->fd = -1;
	if (opcode == IORING_OP_SPLICE || opcode == IORING_OP_TEE)
		sqe->splice_fd_in = -1;
	if (shape == SHAPE_FD)
		return;
	sqe->addr = (uintptr_t)scratch[0];
	sqe->len = 16;
	if (shape == SHAPE_2PATHS || shape == SHAPE_3PATHS)
		sqe->addr2 = (uintptr_t)scratch[1];
	if (shape == SHAPE_3PATHS)
		sqe->addr3 = (uintptr_t)scratch[2];
	if (shape == SHAPE_HOW) {
		sqe->addr2 = (uintptr_t)how;
		sqe->len = sizeof(*how);
	}
}

/* Denies every io_uring operation (instruction_pointer 0), no syscall. */
static struct sock_filter deny_sqes[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		 offsetof(struct seccomp_data, instruction_pointer)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3),
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		 offsetof(struct seccomp_data, instruction_pointer) + 4),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 1999),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

/*
 * probe_shapes - find, in a child, the shape of each opcode that reaches
 * the filters. Returns how many opcodes reach them, or -errno.
 */
static int probe_shapes(void)
{
	struct sock_fprog prog = {
		.len = ARRAY_SIZE(deny_sqes), .filter = deny_sqes,
	};
	int *found, i, reached = 0, status;
	struct open_how how;
	struct uring r;
	pid_t pid;

	found = mmap(NULL, sizeof(shapes), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (found == MAP_FAILED)
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		alarm(20);
		if (uring_init(&r, 8, 0) ||
		    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
			    SECCOMP_FILTER_FLAG_URING, &prog))
			_exit(2);
		for (i = 0; i < IORING_OP_LAST; i++) {
			for (found[i] = 0; found[i] < NR_SHAPES; found[i]++) {
				prep_op(&r, i, found[i], &how);
				if (uring_run(&r) == -1999)
					break;
			}
		}
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -ECHILD;
	for (i = 0; i < IORING_OP_LAST; i++) {
		reaches[i] = found[i] < NR_SHAPES;
		if (reaches[i])
			reached++;
		else
			ksft_print_msg("opcode %d reaches no filter\n", i);
		shapes[i] = found[i] % NR_SHAPES;
	}
	munmap(found, sizeof(shapes));
	return reached;
}

static long run_twin(int nr)
{
	long ret;

	switch (nr) {
	case __NR_openat:
	case __NR_unlinkat:
	case __NR_mkdirat:
		ret = syscall(nr, -1, NOPATH, 0, 0);
		break;
	case __NR_socket:
		ret = syscall(nr, -1, 0, 0);
		break;
	default:
		ret = syscall(nr, -1, scratch[0], 16, 0);
		break;
	}
	return ret < 0 ? -errno : ret;
}

/* The child: load @set, then run every opcode and every twin syscall. */
static void run_child(const struct filter_set *set, struct outcome *out)
{
	struct sigaction sa = {
		.sa_sigaction = count_sigsys,
		.sa_flags = SA_SIGINFO,
	};
	struct sock_filter insns[64];
	struct sock_fprog prog = { .filter = insns };
	struct open_how how;
	struct uring r;
	int i, before;

	alarm(20);
	if (sigaction(SIGSYS, &sa, NULL) || uring_init(&r, 8, 0) ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		_exit(2);
	for (i = 0; i < set->nspecs; i++) {
		build_filter(&prog, &set->specs[i]);
		if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
			    set->specs[i].flags, &prog))
			_exit(3);
	}
	for (i = 0; i < IORING_OP_LAST; i++) {
		before = __atomic_load_n(&traps, __ATOMIC_RELAXED);
		prep_op(&r, i, shapes[i], &how);
		out->res[i] = uring_run(&r);
		out->traps[i] = __atomic_load_n(&traps, __ATOMIC_RELAXED) - before;
		out->ops_done = i + 1;
	}
	for (i = 0; i < (int)NR_TWINS; i++) {
		before = __atomic_load_n(&traps, __ATOMIC_RELAXED);
		out->sys_ret[i] = run_twin(twins[i].nr);
		out->sys_traps[i] = __atomic_load_n(&traps, __ATOMIC_RELAXED) - before;
		out->sys_done = i + 1;
	}
	_exit(0);
}

static int run_set(const struct filter_set *set, int cache_on,
		   struct outcome *out)
{
	pid_t pid;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = write_sysctl(CACHE_SYSCTL, cache_on);
	if (ret)
		return ret;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		run_child(set, out);
	if (waitpid(pid, &out->status, 0) != pid)
		return -errno;
	return 0;
}

/* What a system call that was not run returns: -ENOSYS, as for TRAP. */
static int not_run(void)
{
	return syscall(100000) == -1 ? -errno : 0;
}

/* seccomp's order of actions: the lower, the stronger. */
static int action_rank(__u32 ret)
{
	return (int)(ret & SECCOMP_RET_ACTION_FULL);
}

/*
 * stack_action - the action @set gives every call of @nr, in *@action;
 * for an SQE (@sqe) only the filters with SECCOMP_FILTER_FLAG_URING
 * judge (uring_force is unset here). Returns false when an argument
 * decides it (a rule for @nr that is not ALWAYS).
 */
static bool stack_action(const struct filter_set *set, int nr, bool sqe,
			 __u32 *action)
{
	__u32 best = SECCOMP_RET_ALLOW, ret;
	const struct rule *r;
	int i;

	for (i = 0; i < set->nspecs; i++) {
		if (sqe && !(set->specs[i].flags & SECCOMP_FILTER_FLAG_URING))
			continue;
		ret = set->specs[i].def;
		for (r = set->specs[i].rules; r->nr >= 0; r++) {
			if (r->nr != nr)
				continue;
			if (r->arg != ALWAYS)
				return false;
			ret = r->ret;
			break;
		}
		if (action_rank(ret) < action_rank(best))
			best = ret;
	}
	*action = best & SECCOMP_RET_ACTION_FULL;
	return true;
}

/*
 * Whether a filter of @set with SECCOMP_FILTER_FLAG_URING has a rule that
 * traps a twin whatever its arguments: read off the rules, not through
 * stack_action(), to catch a check_traps() that checks nothing.
 */
static bool traps_a_twin(const struct filter_set *set)
{
	const struct rule *r;
	int i, t;

	for (i = 0; i < set->nspecs; i++) {
		if (!(set->specs[i].flags & SECCOMP_FILTER_FLAG_URING))
			continue;
		for (r = set->specs[i].rules; r->nr >= 0; r++)
			for (t = 0; t < (int)NR_TWINS; t++)
				if (r->nr == twins[t].nr && r->arg == ALWAYS &&
				    (r->ret & SECCOMP_RET_ACTION_FULL) ==
				    SECCOMP_RET_TRAP)
					return true;
	}
	return false;
}

/*
 * check_traps - hold one run (@mode: the cache "on" or "off") to the
 * TRAP contract: no SQE is followed by a SIGSYS; an SQE whose twin @set
 * traps completes with -ENOSYS; a twin syscall gets one SIGSYS if @set
 * traps it and none for any other verdict. Returns how many TRAP
 * verdicts it checked (SQEs and syscalls).
 */
static int check_traps(struct __test_metadata *_metadata,
		       const struct filter_set *set,
		       const struct outcome *out, const char *mode)
{
	int i, op, checked = 0, enosys = not_run();
	__u32 action;

	/* (braces: EXPECT_*() TH_LOG() is two statements) */
	for (i = 0; i < out->ops_done; i++) {
		EXPECT_EQ(0, out->traps[i])
			TH_LOG("cache %s: opcode %d (res %d) was followed by %d SIGSYS",
			       mode, i, out->res[i], out->traps[i]);
	}
	for (i = 0; i < (int)NR_TWINS; i++) {
		op = twins[i].op;
		if (i < out->sys_done &&
		    stack_action(set, twins[i].nr, false, &action)) {
			EXPECT_EQ(action == SECCOMP_RET_TRAP, out->sys_traps[i])
				TH_LOG("cache %s: syscall %d (action %#x, ret %ld): %d SIGSYS",
				       mode, twins[i].nr, action,
				       out->sys_ret[i], out->sys_traps[i]);
			checked += action == SECCOMP_RET_TRAP;
		}
		if (op < out->ops_done &&
		    stack_action(set, twins[i].nr, true, &action) &&
		    action == SECCOMP_RET_TRAP) {
			/* the check needs the SQE to reach the filters */
			EXPECT_TRUE(reaches[op])
				TH_LOG("opcode %d, trapped as syscall %d, reaches no filter",
				       op, twins[i].nr);
			EXPECT_EQ(enosys, out->res[op])
				TH_LOG("cache %s: opcode %d, trapped as syscall %d",
				       mode, op, twins[i].nr);
			checked++;
		}
	}
	return checked;
}

/*
 * check_set - run @set with the cache on and off and compare. @want_op
 * names one opcode whose verdict is known, to make sure the filters were
 * in force at all: it completed with @want_res, or, if @want_kill, it
 * killed the child.
 */
static void check_set(struct __test_metadata *_metadata,
		      const struct filter_set *set, int want_op, int want_res,
		      bool want_kill)
{
	struct outcome *on, *off;
	int i, reached, diffs = 0, trap_checks;

	if (access(CACHE_SYSCTL, W_OK)) {
		uring_feature_missing(_metadata, errno, ENOENT,
				      "no " CACHE_SYSCTL);
		return;
	}
	uring_feature_present(_metadata, "there is " CACHE_SYSCTL);
	reached = probe_shapes();
	ASSERT_LE(MIN_REACHED, reached);
	on = mmap(NULL, 2 * sizeof(*on), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, on);
	off = on + 1;
	ASSERT_EQ(0, run_set(set, 1, on));
	ASSERT_EQ(0, run_set(set, 0, off));
	ASSERT_EQ(0, write_sysctl(CACHE_SYSCTL, 1));

	for (i = 0; i < IORING_OP_LAST; i++) {
		if (on->res[i] == off->res[i] && on->traps[i] == off->traps[i])
			continue;
		diffs++;
		TH_LOG("opcode %d: cache on res %d traps %d, off res %d traps %d",
		       i, on->res[i], on->traps[i], off->res[i], off->traps[i]);
	}
	for (i = 0; i < (int)NR_TWINS; i++) {
		if (on->sys_ret[i] == off->sys_ret[i] &&
		    on->sys_traps[i] == off->sys_traps[i])
			continue;
		diffs++;
		TH_LOG("syscall %d: cache on %ld traps %d, off %ld traps %d",
		       twins[i].nr, on->sys_ret[i], on->sys_traps[i],
		       off->sys_ret[i], off->sys_traps[i]);
	}
	TH_LOG("%d opcodes (%d reach the filters) and %d syscalls judged, %d differences",
	       on->ops_done, reached, on->sys_done, diffs);
	EXPECT_EQ(0, diffs);
	trap_checks = check_traps(_metadata, set, on, "on");
	trap_checks += check_traps(_metadata, set, off, "off");
	TH_LOG("%d TRAP verdicts checked (SQE: -ENOSYS, no SIGSYS; syscall: SIGSYS)",
	       trap_checks);
	/*
	 * A set with a rule that traps a twin outright must have had it
	 * checked on both paths, cache on and off.
	 */
	if (traps_a_twin(set) && !want_kill)
		EXPECT_LE(4, trap_checks);
	EXPECT_EQ(on->ops_done, off->ops_done);
	EXPECT_EQ(on->sys_done, off->sys_done);
	EXPECT_EQ(on->status, off->status);
	if (want_kill) {
		EXPECT_EQ(want_op, on->ops_done);
		EXPECT_TRUE(WIFSIGNALED(on->status));
		EXPECT_EQ(SIGSYS, WTERMSIG(on->status));
	} else {
		EXPECT_TRUE(WIFEXITED(on->status));
		EXPECT_EQ(0, WEXITSTATUS(on->status));
		EXPECT_LT(want_op, on->ops_done);
		EXPECT_EQ(want_res, on->res[want_op]);
	}
	munmap(on, 2 * sizeof(*on));
}

#define SPEC(r, d, f) { .rules = r, .def = d, .flags = f }

/* Constant verdicts only: the cache answers everything. */
static const struct rule const_deny[] = {
	{ .nr = __NR_openat, .ret = SECCOMP_RET_ERRNO | 1001, .arg = ALWAYS },
	{ .nr = __NR_unlinkat, .ret = SECCOMP_RET_ERRNO | 1002, .arg = ALWAYS },
	{ .nr = __NR_pread64, .ret = SECCOMP_RET_ERRNO | 1003, .arg = ALWAYS },
	{ .nr = __NR_connect, .ret = SECCOMP_RET_TRAP | 7, .arg = ALWAYS },
	{ .nr = __NR_statx, .ret = SECCOMP_RET_ERRNO | 1004, .arg = ALWAYS },
	END_RULES,
};

/* Verdicts that depend on arguments: never cached for those nrs. */
static const struct rule arg_deny[] = {
	{ .nr = __NR_openat, .ret = SECCOMP_RET_ERRNO | 1011,
	  .arg = 2, .jmp = BPF_JSET, .k = O_CREAT },
	{ .nr = __NR_pread64, .ret = SECCOMP_RET_ERRNO | 1012,
	  .arg = 0, .jmp = BPF_JEQ, .k = 0xffffffff },
	{ .nr = __NR_mkdirat, .ret = SECCOMP_RET_ERRNO | 1013, .arg = ALWAYS },
	END_RULES,
};

/* For an older filter without the io_uring flag. */
static const struct rule unflagged_deny[] = {
	{ .nr = __NR_openat, .ret = SECCOMP_RET_ERRNO | 1021, .arg = ALWAYS },
	{ .nr = __NR_renameat2, .ret = SECCOMP_RET_ERRNO | 1022, .arg = ALWAYS },
	{ .nr = __NR_socket, .ret = SECCOMP_RET_ERRNO | 1023, .arg = ALWAYS },
	END_RULES,
};

/* Same actions for the same nrs as const_deny: the newest one's data wins. */
static const struct rule tie_deny[] = {
	{ .nr = __NR_openat, .ret = SECCOMP_RET_ERRNO | 1031, .arg = ALWAYS },
	{ .nr = __NR_unlinkat, .ret = SECCOMP_RET_ERRNO | 1032, .arg = ALWAYS },
	END_RULES,
};

/* Default deny: what the child needs after loading, nothing more. */
static const struct rule few_allowed[] = {
	{ .nr = __NR_io_uring_enter, .ret = SECCOMP_RET_ALLOW, .arg = ALWAYS },
	{ .nr = __NR_exit_group, .ret = SECCOMP_RET_ALLOW, .arg = ALWAYS },
	{ .nr = __NR_rt_sigreturn, .ret = SECCOMP_RET_ALLOW, .arg = ALWAYS },
	{ .nr = __NR_pwrite64, .ret = SECCOMP_RET_LOG, .arg = ALWAYS },
	END_RULES,
};

/*
 * Kill on one nr that an older filter judges by its arguments: KILL_PROCESS
 * wins over anything, so the cache may answer it alone.
 */
static const struct rule kill_openat[] = {
	{ .nr = __NR_openat, .ret = SECCOMP_RET_KILL_PROCESS, .arg = ALWAYS },
	END_RULES,
};

#define URING	SECCOMP_FILTER_FLAG_URING

TEST(cache_keeps_constant_verdicts)
{
	const struct filter_spec specs[] = {
		SPEC(const_deny, SECCOMP_RET_ALLOW, URING),
	};
	struct filter_set set = { specs, ARRAY_SIZE(specs) };

	check_set(_metadata, &set, IORING_OP_OPENAT, -1001, false);
}

TEST(cache_keeps_argument_verdicts)
{
	const struct filter_spec specs[] = {
		SPEC(arg_deny, SECCOMP_RET_ALLOW, URING),
	};
	struct filter_set set = { specs, ARRAY_SIZE(specs) };

	check_set(_metadata, &set, IORING_OP_READ, -1012, false);
}

TEST(cache_keeps_verdicts_of_a_mixed_stack)
{
	const struct filter_spec specs[] = {
		SPEC(unflagged_deny, SECCOMP_RET_ALLOW, 0),
		SPEC(arg_deny, SECCOMP_RET_ALLOW, URING),
		SPEC(const_deny, SECCOMP_RET_ALLOW, URING),
	};
	struct filter_set set = { specs, ARRAY_SIZE(specs) };

	check_set(_metadata, &set, IORING_OP_OPENAT, -1001, false);
}

/*
 * The cache under kernel.seccomp.uring_force=1 (a forced stack, where
 * filters without the flag judge SQEs too) is tested in
 * seccomp_uring_force.c, which runs last: the sysctl cannot be turned
 * off again, so no test here may set it.
 */

TEST(cache_keeps_the_newest_of_equal_actions)
{
	const struct filter_spec specs[] = {
		SPEC(const_deny, SECCOMP_RET_ALLOW, URING),
		SPEC(tie_deny, SECCOMP_RET_ALLOW, URING),
	};
	struct filter_set set = { specs, ARRAY_SIZE(specs) };

	check_set(_metadata, &set, IORING_OP_OPENAT, -1031, false);
}

TEST(cache_keeps_default_deny_verdicts)
{
	const struct filter_spec specs[] = {
		SPEC(few_allowed, SECCOMP_RET_ERRNO | 1041, URING),
	};
	struct filter_set set = { specs, ARRAY_SIZE(specs) };

	check_set(_metadata, &set, IORING_OP_MKDIRAT, -1041, false);
}

TEST(cache_keeps_kill_verdicts)
{
	const struct filter_spec specs[] = {
		SPEC(arg_deny, SECCOMP_RET_ALLOW, URING),
		SPEC(kill_openat, SECCOMP_RET_ALLOW, URING),
	};
	struct filter_set set = { specs, ARRAY_SIZE(specs) };

	/* the child dies at OPENAT, with the cache and without */
	check_set(_metadata, &set, IORING_OP_OPENAT, 0, true);
}

/*
 * The tests above compare the cache on and off; they would prove nothing
 * if kernel.seccomp.action_cache=0 left the cache on. No verdict can show
 * it (the cache is built to give the filters' verdicts), so this test
 * measures the one thing it changes: whether the BPF programs run. Two
 * stacked filters each walk BUSY_INSNS jumps for every syscall before
 * their constant verdict; the cache answers without running them, so
 * with it off each judgment costs thousands of BPF instructions more.
 * The best of ROUNDS runs of each mode is compared (TCG guests are noisy).
 */
#define BUSY_FILTERS	2
#define BUSY_INSNS	4000
#define ROUNDS		5
#define CALLS		4000
#define BATCH		32
/*
 * The minimum cost ratio off/on. Measured in a TCG guest with the JIT:
 * over 100 for getppid() and 16 for IORING_OP_MKDIRAT (whose own cost
 * is larger); without the cache the filters add about 30 us to each
 * judgment there, with it nothing, so 4 leaves room for noise.
 */
#define MIN_RATIO	4

/* A busy filter: ERRNO(1051) for getppid, ERRNO(1052) for mkdirat. */
static void build_busy_filter(struct sock_fprog *prog)
{
	int i;

	prog->len = 0;
	emit_stmt(prog, LD_ABS, offsetof(struct seccomp_data, nr));
	/* never taken: the emulation follows the constant nr past each */
	for (i = 0; i < BUSY_INSNS; i++)
		emit_jump(prog, BPF_JMP | BPF_JEQ | BPF_K, 0x7fff0000 + i, 1, 0);
	emit_jump(prog, BPF_JMP | BPF_JEQ | BPF_K, __NR_getppid, 0, 1);
	emit_stmt(prog, BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 1051);
	emit_jump(prog, BPF_JMP | BPF_JEQ | BPF_K, __NR_mkdirat, 0, 1);
	emit_stmt(prog, BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 1052);
	emit_stmt(prog, BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Nanoseconds for CALLS getppid(); -1 if one was not refused. */
static long long time_syscalls(void)
{
	long long start = now_ns();
	int i;

	for (i = 0; i < CALLS; i++)
		if (syscall(__NR_getppid) != -1 || errno != 1051)
			return -1;
	return now_ns() - start;
}

/* Nanoseconds for CALLS IORING_OP_MKDIRAT; -1 if one was not refused. */
static long long time_sqes(struct uring *r)
{
	long long start = now_ns();
	struct io_uring_cqe cqe;
	int i, j;

	for (i = 0; i < CALLS; i += BATCH) {
		for (j = 0; j < BATCH; j++) {
			struct io_uring_sqe *sqe = uring_sqe(r);

			sqe->opcode = IORING_OP_MKDIRAT;
			sqe->fd = AT_FDCWD;
			sqe->addr = (uintptr_t)NOPATH;
		}
		if (uring_submit(r, BATCH) != BATCH)
			return -1;
		for (j = 0; j < BATCH; j++)
			if (uring_cqe(r, &cqe) || cqe.res != -1052)
				return -1;
	}
	return now_ns() - start;
}

/* The resolution of now_ns(): a TCG guest's clock may tick in ms. */
static long long clock_res_ns(void)
{
	struct timespec ts;

	if (clock_getres(CLOCK_MONOTONIC, &ts))
		return 1000000;
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long min_time(long long a, long long b)
{
	return a < 0 || b < 0 ? -1 : a < b ? a : b;
}

TEST(action_cache_off_runs_the_filters)
{
	struct sock_filter *insns;
	struct sock_fprog prog;
	long long sys[2] = { LLONG_MAX, LLONG_MAX };
	long long sqe[2] = { LLONG_MAX, LLONG_MAX };
	long long res = clock_res_ns();
	struct uring r;
	int i, on, fd;

	/* opened first: the sysctl is flipped under the filters */
	fd = open(CACHE_SYSCTL, O_WRONLY);
	if (fd < 0) {
		uring_feature_missing(_metadata, errno, ENOENT,
				      "no " CACHE_SYSCTL);
		return;
	}
	uring_feature_present(_metadata, "there is " CACHE_SYSCTL);
	insns = calloc(BUSY_INSNS + 8, sizeof(*insns));
	ASSERT_NE(NULL, insns);
	prog.filter = insns;
	build_busy_filter(&prog);
	ASSERT_EQ(0, uring_init(&r, BATCH, 0));
	ASSERT_EQ(0, prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0));
	for (i = 0; i < BUSY_FILTERS; i++)
		ASSERT_EQ(0, syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER,
				     SECCOMP_FILTER_FLAG_URING, &prog));
	for (i = 0; i < 2 * ROUNDS; i++) {
		on = i % 2;
		if (pwrite(fd, on ? "1" : "0", 1, 0) != 1)
			break;
		sys[on] = min_time(sys[on], time_syscalls());
		sqe[on] = min_time(sqe[on], time_sqes(&r));
	}
	ASSERT_EQ(1, pwrite(fd, "1", 1, 0));
	close(fd);
	ASSERT_EQ(2 * ROUNDS, i);
	TH_LOG("%d getppid: %lld us with the cache, %lld us without",
	       CALLS, sys[1] / 1000, sys[0] / 1000);
	TH_LOG("%d IORING_OP_MKDIRAT: %lld us with the cache, %lld us without",
	       CALLS, sqe[1] / 1000, sqe[0] / 1000);
	TH_LOG("clock resolution: %lld us", res / 1000);
	ASSERT_LE(0, sys[1]);
	ASSERT_LE(0, sqe[1]);
	/* a time shorter than the clock's resolution may read 0 */
	EXPECT_LE(MIN_RATIO * (sys[1] + res), sys[0]);
	EXPECT_LE(MIN_RATIO * (sqe[1] + res), sqe[0]);
}

/*
 * /proc/PID/seccomp_cache (CONFIG_SECCOMP_CACHE_DEBUG) shows the tables
 * the io_uring fast path answers from: getpid always allowed for SQEs,
 * mkdirat with the constant ERRNO(EACCES) on both paths.
 */
TEST(cache_debug_shows_the_uring_tables)
{
	struct sock_filter insns[NR_FILTER_MAX];
	char want[4][96], line[128], path[64];
	int found[4] = { 0 };
	struct utsname u;
	unsigned short len;
	FILE *f;
	int i;
	pid_t pid;

	if (!uring_flag_known()) {
		uring_feature_missing(_metadata, errno, EINVAL,
				      "SECCOMP_FILTER_FLAG_URING is refused");
		return;
	}
	ASSERT_EQ(0, uname(&u));
	snprintf(want[0], sizeof(want[0]), "%s-uring %d ALLOW\n", u.machine,
		 __NR_getpid);
	snprintf(want[1], sizeof(want[1]), "%s-uring %d FILTER\n", u.machine,
		 __NR_mkdirat);
	snprintf(want[2], sizeof(want[2]), "%s-uring-const %d 0x%08x\n",
		 u.machine, __NR_mkdirat, SECCOMP_RET_ERRNO | EACCES);
	snprintf(want[3], sizeof(want[3]), "%s-const %d 0x%08x\n", u.machine,
		 __NR_mkdirat, SECCOMP_RET_ERRNO | EACCES);
	len = nr_action_filter(insns, __NR_mkdirat, SECCOMP_RET_ERRNO | EACCES);
	pid = filtered_stopped(insns, len, SECCOMP_FILTER_FLAG_URING, false);
	ASSERT_LT(0, pid) TH_LOG("the filtered child did not stop");
	snprintf(path, sizeof(path), "/proc/%d/seccomp_cache", pid);
	f = fopen(path, "r");
	if (!f)
		reap(pid);
	ASSERT_NE(NULL, f) TH_LOG("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		for (i = 0; i < 4; i++)
			found[i] |= !strcmp(line, want[i]);
	}
	fclose(f);
	reap(pid);
	for (i = 0; i < 4; i++)
		EXPECT_TRUE(found[i]) TH_LOG("no line %s", want[i]);
}

/*
 * A filter must never refuse uretprobe: the kernel's uretprobe trampoline
 * calls it, and the probed function would crash. seccomp's exception for
 * it is held in the action cache (the emulation allows it); turning the
 * cache off must keep it. The call made here, outside the trampoline,
 * gets SIGILL once seccomp lets it run (-ENOSYS without CONFIG_UPROBES);
 * the filter would have completed it with errno 1000.
 */
TEST(action_cache_off_keeps_the_uretprobe_exception)
{
#ifndef __NR_uretprobe
	SKIP(return, "no uretprobe system call on this architecture");
#else
	int on, status;
	pid_t pid;

	if (access(CACHE_SYSCTL, W_OK)) {
		uring_feature_missing(_metadata, errno, ENOENT,
				      "no " CACHE_SYSCTL);
		return;
	}
	uring_feature_present(_metadata, "there is " CACHE_SYSCTL);
	for (on = 1; on >= 0; on--) {
		if (write_sysctl(CACHE_SYSCTL, on))
			break;
		pid = fork();
		if (pid < 0)
			break;
		if (pid == 0) {
			long ret;

			if (load_nr_action(__NR_uretprobe,
					   SECCOMP_RET_ERRNO | 1000, 0) < 0)
				_exit(2);
			ret = syscall(__NR_uretprobe);
			_exit(ret == -1 && errno == 1000 ? 10 : 0);
		}
		EXPECT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE((WIFSIGNALED(status) && WTERMSIG(status) == SIGILL) ||
			    (WIFEXITED(status) && WEXITSTATUS(status) == 0))
			TH_LOG("action_cache %d: wait status %#x (exit 10: the filter refused it)",
			       on, status);
	}
	/* the loop ran to its end: every write and fork above worked */
	EXPECT_EQ(-1, on) TH_LOG("stopped at action_cache %d", on);
	/* the cache back on, whatever happened above */
	EXPECT_EQ(0, write_sysctl(CACHE_SYSCTL, 1));
#endif
}

/*
 * Prep chooses the twin of a READ, a WRITE or an FSYNC among a few (an
 * offset of -1 reads at the file position, rw_flags make it preadv2,
 * IORING_FSYNC_DATASYNC fdatasync), so the cache may allow such an opcode
 * before prep only when the filters allow every one of those twins
 * whatever the arguments. With one of them refused for any arguments, the
 * SQEs that become it are refused, and read, write or change nothing,
 * and those that become the others run. One variant for each twin
 * refused.
 */
#define TWIN_ERRNO	1234

static const struct twin_shape {
	int op;
	int nr;
	__u64 off;
	int flags;	/* rw_flags, or fsync_flags */
} twin_shapes[] = {
	{ IORING_OP_READ, __NR_read, (__u64)-1, 0 },
	{ IORING_OP_READ, __NR_pread64, 0, 0 },
	{ IORING_OP_READ, __NR_preadv2, 0, RWF_DSYNC },
	{ IORING_OP_WRITE, __NR_write, (__u64)-1, 0 },
	{ IORING_OP_WRITE, __NR_pwrite64, 0, 0 },
	{ IORING_OP_WRITE, __NR_pwritev2, 0, RWF_DSYNC },
	{ IORING_OP_FSYNC, __NR_fsync, 0, 0 },
	{ IORING_OP_FSYNC, __NR_fdatasync, 0, IORING_FSYNC_DATASYNC },
};

FIXTURE(twin_set) {
	char path[64];
	int fd;
	struct uring r;
};

FIXTURE_VARIANT(twin_set) {
	int op;
	int refused;
};

FIXTURE_VARIANT_ADD(twin_set, read_refused) {
	.op = IORING_OP_READ, .refused = __NR_read,
};

FIXTURE_VARIANT_ADD(twin_set, pread64_refused) {
	.op = IORING_OP_READ, .refused = __NR_pread64,
};

FIXTURE_VARIANT_ADD(twin_set, preadv2_refused) {
	.op = IORING_OP_READ, .refused = __NR_preadv2,
};

FIXTURE_VARIANT_ADD(twin_set, write_refused) {
	.op = IORING_OP_WRITE, .refused = __NR_write,
};

FIXTURE_VARIANT_ADD(twin_set, pwrite64_refused) {
	.op = IORING_OP_WRITE, .refused = __NR_pwrite64,
};

FIXTURE_VARIANT_ADD(twin_set, pwritev2_refused) {
	.op = IORING_OP_WRITE, .refused = __NR_pwritev2,
};

FIXTURE_VARIANT_ADD(twin_set, fsync_refused) {
	.op = IORING_OP_FSYNC, .refused = __NR_fsync,
};

FIXTURE_VARIANT_ADD(twin_set, fdatasync_refused) {
	.op = IORING_OP_FSYNC, .refused = __NR_fdatasync,
};

FIXTURE_SETUP(twin_set)
{
	snprintf(self->path, sizeof(self->path), "%s",
		 "/tmp/seccomp-uring-twin-XXXXXX");
	self->fd = mkstemp(self->path);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, uring_init(&self->r, 4, 0));
}

FIXTURE_TEARDOWN(twin_set)
{
	uring_exit(&self->r);
	close(self->fd);
	unlink(self->path);
}

/*
 * "AAAA" from offset 0, the file position at 0; with pwritev and preadv,
 * which are none of the twins a filter here refuses
 */
static int twin_file_reset(int fd)
{
	struct iovec iov = { .iov_base = "AAAA", .iov_len = 4 };

	if (pwritev(fd, &iov, 1, 0) != 4 || ftruncate(fd, 4))
		return -1;
	return lseek(fd, 0, SEEK_SET) == 0 ? 0 : -1;
}

static ssize_t twin_file_read(int fd, char *buf, size_t len)
{
	struct iovec iov = { .iov_base = buf, .iov_len = len };

	return preadv(fd, &iov, 1, 0);
}

TEST_F(twin_set, only_sqes_made_the_refused_twin_are_refused)
{
	const struct twin_shape *shape;
	struct io_uring_sqe *sqe;
	char buf[8], file[8];
	int ret, refused = 0;
	size_t i;

	ret = load_nr_action(variant->refused, SECCOMP_RET_ERRNO | TWIN_ERRNO,
			     SECCOMP_FILTER_FLAG_URING);
	if (ret == -EINVAL) {
		uring_feature_missing(_metadata, EINVAL, EINVAL,
				      "SECCOMP_FILTER_FLAG_URING is refused");
		return;
	}
	ASSERT_EQ(0, ret);
	for (i = 0; i < ARRAY_SIZE(twin_shapes); i++) {
		shape = &twin_shapes[i];
		if (shape->op != variant->op)
			continue;
		ASSERT_EQ(0, twin_file_reset(self->fd));
		memset(buf, 0, sizeof(buf));
		sqe = uring_sqe(&self->r);
		sqe->opcode = shape->op;
		sqe->fd = self->fd;
		sqe->off = shape->off;
		if (shape->op == IORING_OP_FSYNC) {
			sqe->fsync_flags = shape->flags;
		} else {
			sqe->rw_flags = shape->flags;
			sqe->addr = (unsigned long)(shape->op == IORING_OP_READ ?
						    buf : "BB");
			sqe->len = shape->op == IORING_OP_READ ? 4 : 2;
		}
		ret = uring_run(&self->r);
		memset(file, 0, sizeof(file));
		ASSERT_EQ(4, twin_file_read(self->fd, file, sizeof(file) - 1));
		if (shape->nr == variant->refused) {
			refused++;
			EXPECT_EQ(-TWIN_ERRNO, ret)
				TH_LOG("twin %d of opcode %d ran", shape->nr,
				       shape->op);
			/* nothing was read, nor written */
			EXPECT_STREQ("", buf);
			EXPECT_STREQ("AAAA", file);
			continue;
		}
		switch (shape->op) {
		case IORING_OP_READ:
			EXPECT_EQ(4, ret) TH_LOG("twin %d", shape->nr);
			EXPECT_STREQ("AAAA", buf);
			break;
		case IORING_OP_WRITE:
			EXPECT_EQ(2, ret) TH_LOG("twin %d", shape->nr);
			EXPECT_STREQ("BBAA", file);
			break;
		default:
			EXPECT_EQ(0, ret) TH_LOG("twin %d", shape->nr);
		}
	}
	EXPECT_EQ(1, refused);
}

TEST_HARNESS_MAIN
