#!/bin/sh
# kmemleak: after every other suite ran, scan for unreferenced objects.
# One TAP line; skipped when the kernel has no kmemleak, unless the
# kernel is a --debug one (URING_SECCOMP_DEBUG=1, from run-guest.sh):
# there a missing kmemleak fails. Exits 1 on failure.
echo "# suite: kmemleak"
echo "TAP version 13"
echo "1..1"
if [ ! -e /sys/kernel/debug/kmemleak ]; then
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null || true
fi
f=/sys/kernel/debug/kmemleak
if [ ! -e "$f" ] && [ "${URING_SECCOMP_DEBUG:-0}" = 1 ]; then
	echo "not ok 1 kmemleak # no kmemleak in a --debug kernel"
	exit 1
fi
if [ ! -e "$f" ]; then
	echo "ok 1 kmemleak # SKIP no kmemleak in this kernel"
	exit 0
fi
# Two scans: an object is reported only once it was seen unreferenced
# by a scan and still is by the next one.
if ! echo scan >"$f" 2>/dev/null; then
	echo "not ok 1 kmemleak # scan failed (disabled after an error?)"
	exit 1
fi
sleep 5
echo scan >"$f"
leaks="$(cat "$f")"
if [ -n "$leaks" ]; then
	printf '%s\n' "$leaks" | sed 's/^/# /'
	echo "not ok 1 kmemleak # $(printf '%s\n' "$leaks" | grep -c '^unreferenced object') leaks"
	exit 1
else
	echo "ok 1 kmemleak"
fi
