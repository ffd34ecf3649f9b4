#!/bin/sh
B=/tests/bin
for m in plain sqe128 sqpoll fork sqpollfork; do
	$B/r7-fuzz $m 12 | grep -E "^==|R7-FUZZ|^batches|SUCCESS|not consumed"; echo "rc=$?"
done
$B/r7-views | grep -E "FAIL|R7-VIEWS"
$B/r7-forkbuf 6 | grep -E "FAIL|BYPASS|R7-FORKBUF|race:"
for t in ftrunc ftruncs rwflags rwflagss socket sockets fixed fixeds mkdir mkdirs opcode opcodes pers sqcreds; do
	$B/r7-race $t 5 | grep -E "R7-RACE|BYPASS"
done
echo "dmesg WARN/BUG count: $(dmesg | grep -c -E 'WARNING|BUG|Oops')"
