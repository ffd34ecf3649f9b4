#!/bin/sh
# uring-launch (scripts/launcher/): every bad profile is refused with its
# place named, exit 2, and the command never runs; the shipped profiles
# build; a launched command runs with no_new_privs and one filter; on a
# kernel without SECCOMP_FILTER_FLAG_URING the launcher refuses to run it.
L=/tests/launcher
launch=$L/uring-launch
ran=/tmp/launcher-ran
echo "# suite: launcher"
echo "TAP version 13"
n=0
plan=$(($(grep -vc '^#' $L/bad-profiles/expected.txt) + 3 + 4))
echo "1..$plan"
result() { # OK-STATUS NAME [DIRECTIVE]
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n $2${3:+ # $3}"; else echo "not ok $n $2"; fi
}

grep -v '^#' $L/bad-profiles/expected.txt | while IFS='|' read -r file want; do
	rm -f "$ran"
	msg="$("$launch" --profile "$L/bad-profiles/$file" -- /bin/busybox touch "$ran" 2>&1)"
	rc=$?
	echo "# $msg"
	ok=1
	case "$msg" in *"$want"*) [ $rc -eq 2 ] && [ ! -e "$ran" ] && ok=0 ;; esac
	[ $ok -eq 0 ] || echo "# want exit 2, \"$want\", and no $ran; got exit $rc"
	n=$((n + 1))
	[ $ok -eq 0 ] && echo "ok $n bad profile $file refused: $want" ||
		echo "not ok $n bad profile $file refused: $want"
done
n=$(grep -vc '^#' $L/bad-profiles/expected.txt)

stock=0
for p in "$L"/profiles/*.json; do
	out="$("$launch" --check --profile "$p" 2>&1)"
	rc=$?
	echo "# $out"
	case "$out" in *"no SECCOMP_FILTER_FLAG_URING"*) stock=1 ;; esac
	result $rc "profile ${p##*/} builds"
done

# A launched command: no_new_privs set, exactly one filter, in filter mode.
rm -f "$ran"
status="$("$launch" --profile $L/profiles/docker-uring.json -- /bin/busybox cat /proc/self/status 2>&1)"
rc=$?
if [ $stock -eq 1 ]; then
	echo "# $status"
	ok=1
	case "$status" in *"no SECCOMP_FILTER_FLAG_URING"*) [ $rc -eq 3 ] && ok=0 ;; esac
	result $ok "stock kernel: the launcher refuses to run the command (exit $rc)"
	result 0 "launched command has no_new_privs and one filter" "SKIP stock kernel"
else
	printf '%s\n' "$status" | grep -E '^(NoNewPrivs|Seccomp|Seccomp_filters):' | sed 's/^/# /'
	ok=1
	printf '%s\n' "$status" | grep -q '^NoNewPrivs:.1$' &&
		printf '%s\n' "$status" | grep -q '^Seccomp:.2$' &&
		printf '%s\n' "$status" | grep -q '^Seccomp_filters:.1$' && [ $rc -eq 0 ] && ok=0
	result 0 "the kernel accepts the flag"
	result $ok "launched command has no_new_privs and one filter"
fi

out="$("$launch" -- /bin/busybox true 2>&1)"
rc=$?
echo "# $out"
[ $rc -eq 2 ] && case "$out" in *"--profile is required"*) true ;; *) false ;; esac
result $? "no --profile: usage error (exit $rc)"
out="$("$launch" --profile /nonexistent.json -- /bin/busybox true 2>&1)"
rc=$?
echo "# $out"
[ $rc -eq 2 ] && case "$out" in *"/nonexistent.json: top level: cannot open"*) true ;; *) false ;; esac
result $? "missing profile file named (exit $rc)"
