#!/bin/sh
B=/tests/bin
ls /proc/sys/kernel/seccomp/
echo 0 > /proc/sys/kernel/seccomp/fastpath && echo "fastpath=0"
$B/r7-fuzz plain 15 | grep -E "R7-FUZZ|batches|SUCCESS|OPENAT|READ |MSG_RING"; echo "rc=$?"
$B/r7-fuzz sqpoll 15 | grep -E "R7-FUZZ|batches|SUCCESS|OPENAT|READ |MSG_RING"; echo "rc=$?"
echo 1 > /proc/sys/kernel/seccomp/fastpath
echo 1 > /proc/sys/kernel/seccomp/uring_force && echo "uring_force=1"
R7_NOFLAG=1 $B/r7-fuzz sqe128 15 | grep -E "R7-FUZZ|batches|SUCCESS|OPENAT|READ |MSG_RING"; echo "rc=$?"
R7_NOFLAG=1 $B/r7-fuzz fork 15 | grep -E "R7-FUZZ|batches|SUCCESS|OPENAT|READ |READ_FIXED|MSG_RING"; echo "rc=$?"
$B/r7-views | tail -1
echo "dmesg WARN/BUG count: $(dmesg | grep -c -E 'WARNING|BUG|Oops')"
