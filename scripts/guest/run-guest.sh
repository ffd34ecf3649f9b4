#!/bin/sh
# Runs inside the guest: every suite script of /tests/suites, in name
# order. Each prints "# suite: NAME" and then TAP with a plan, so the host
# can check that every suite ran to its end.
status=0
for suite in /tests/suites/*.sh; do
	sh "$suite" || status=1
done
exit $status
