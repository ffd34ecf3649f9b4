/* Control: kernel.seccomp.fastpath toggled 400 times while filtered threads
 * make system calls; no io_uring at all. */
#include "../issue14-round2-repro/common.h"

static volatile int stop;

static void *loop(void *a)
{
	while (!stop) {
		syscall(__NR_getppid);
		syscall(__NR_mkdirat, AT_FDCWD, "/nonexistent/x", 0700);
	}
	return a;
}

int main(void)
{
	pid_t child;
	int st;

	printf("TAP version 13\n1..1\n");
	child = fork();
	if (child == 0) {
		pthread_t t[3];

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || install_deny_mkdirat(0))
			_exit(2);
		for (int i = 0; i < 3; i++)
			pthread_create(&t[i], NULL, loop, NULL);
		msleep(100000);
		_exit(0);
	}
	msleep(200);
	for (int n = 0; n < 400; n++) {
		int fd = open("/proc/sys/kernel/seccomp/fastpath", O_WRONLY);

		if (fd < 0 || write(fd, (n & 1) ? "1" : "0", 1) != 1) {
			printf("# write failed\n");
			break;
		}
		close(fd);
		msleep(5);
	}
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	printf("ok 1 - survived 400 fastpath flips with filtered syscalls only\n");
	return 0;
}
