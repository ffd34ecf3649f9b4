#!/bin/sh
B=/tests/bin
$B/r7-views; echo "rc=$?"
for t in ftrunc ftruncs rwflags rwflagss socket sockets fixed fixeds mkdir mkdirs opcode opcodes pers sqcreds; do
	$B/r7-race $t 6; echo "rc=$?"
done
echo "dmesg WARN/BUG count: $(dmesg | grep -c -E 'WARNING|BUG|Oops')"
