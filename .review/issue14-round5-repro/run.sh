#!/bin/sh
cd /tmp
for t in /tests/bin/seccomp_uring_*; do echo "== $t"; timeout 300 $t; echo "== rc $?"; done
