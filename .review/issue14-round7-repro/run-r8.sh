#!/bin/sh
B=/tests/bin
$B/r8-diff dump
$B/r8-diff 60 | grep -vE "^  base" | tail -40
$B/r8-diff 30 sqpoll | tail -20
echo 1 > /proc/sys/kernel/seccomp/uring_force && echo "uring_force=1"
$B/r8-diff 50 forced | tail -30
$B/r8-diff 20 forced sqpoll | tail -20
echo "dmesg WARN/BUG count: $(dmesg | grep -c -E 'WARNING|BUG|Oops')"
dmesg | grep -E 'WARNING|BUG|Oops' -A5 | head -40
