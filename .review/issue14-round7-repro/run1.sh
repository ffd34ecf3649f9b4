#!/bin/sh
B=/tests/bin
for m in plain sqe128 sqpoll fork sqpollfork; do
	$B/r7-fuzz $m 20 | grep -v "^ *[0-9]* ?"; echo "rc=$?"
done
$B/r7-forkbuf 10; echo "rc=$?"
echo "dmesg WARN/BUG count: $(dmesg | grep -c -E 'WARNING|BUG|Oops')"
