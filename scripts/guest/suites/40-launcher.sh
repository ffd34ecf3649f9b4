#!/bin/sh
# uring-launch (scripts/launcher/): every bad profile is refused with its
# place named, exit 2, and the command never runs; the shipped profiles and
# the real ones (Podman's, Docker's: real/) build; a launched command runs
# with no_new_privs and one filter; what the test profiles (test/) and the
# real ones answer, run by launch-probe with and without capabilities
# (test/expected.txt). On a kernel without SECCOMP_FILTER_FLAG_URING the
# launcher refuses to run anything, and each of these checks checks that.
# Which kernel this is comes from URING_SECCOMP_EXPECT (run-guest.sh), never
# from a message: on "patched" a launcher that cannot load the flag fails.
# Unset (run by hand): the launcher's own --check answer decides.
L=/tests/launcher
launch=$L/uring-launch
probe=$L/launch-probe
ran=/tmp/launcher-ran
echo "# suite: launcher"
echo "TAP version 13"
n=0
nbad=$(grep -vc '^#' $L/bad-profiles/expected.txt)
nrun=$(grep -vc '^#' $L/test/expected.txt)
nprof=0
for p in "$L"/profiles/*.json; do nprof=$((nprof + 1)); done
echo "1..$((nbad + nprof + 2 + 1 + 2 + 2 + nrun + 2))"
result() { # OK-STATUS NAME [DIRECTIVE]
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $n $2${3:+ # $3}"; else echo "not ok $n $2"; fi
}
comment() { printf '%s\n' "$@" | sed 's/^/# /'; }

case "${URING_SECCOMP_EXPECT:-}" in
patched) stock=0 ;;
stock) stock=1 ;;
*)
	stock=0
	"$launch" --check --profile $L/profiles/strict-nonet.json 2>&1 |
		grep -q 'no SECCOMP_FILTER_FLAG_URING' && stock=1
	echo "# URING_SECCOMP_EXPECT unset: judged a $([ $stock -eq 1 ] && echo stock || echo patched) kernel from --check"
	;;
esac

grep -v '^#' $L/bad-profiles/expected.txt >/tmp/launcher-rows
while IFS='|' read -r file want; do
	rm -f "$ran"
	msg="$("$launch" --profile "$L/bad-profiles/$file" -- /bin/busybox touch "$ran" 2>&1 </dev/null)"
	rc=$?
	echo "# $msg"
	ok=1
	case "$msg" in *"$want"*) [ $rc -eq 2 ] && [ ! -e "$ran" ] && ok=0 ;; esac
	[ $ok -eq 0 ] || echo "# want exit 2, \"$want\", and no $ran; got exit $rc"
	result $ok "bad profile $file refused: $want"
done </tmp/launcher-rows

# --check OUTPUT RC: built, and the kernel is the one we were told
check_ok() {
	[ "$2" -eq 0 ] || return 1
	if [ $stock -eq 1 ]; then
		case "$1" in *"no SECCOMP_FILTER_FLAG_URING"*) return 0 ;; esac
		echo "# a stock kernel must not accept SECCOMP_FILTER_FLAG_URING"
	else
		case "$1" in *"io_uring judged"*) return 0 ;; esac
		echo "# the patched kernel must accept SECCOMP_FILTER_FLAG_URING"
	fi
	return 1
}

for p in "$L"/profiles/*.json; do
	out="$("$launch" --check --profile "$p" 2>&1)"
	rc=$?
	comment "$out"
	check_ok "$out" $rc
	result $? "profile ${p##*/} builds"
done

# Podman's and Docker's default profiles, unmodified (build-tests.sh
# ships them when the build machine has them).
for p in podman docker-default; do
	f=$L/real/$p.json
	if [ ! -e "$f" ]; then
		result 0 "real profile $p.json builds" "SKIP not shipped: absent at build time"
		continue
	fi
	out="$("$launch" --check --allow-io-uring --profile "$f" 2>&1)"
	rc=$?
	comment "$out"
	check_ok "$out" $rc
	result $? "real profile $p.json builds"
done

# A name libseccomp does not know, in an allow rule: a warning, not an error.
out="$("$launch" --check --profile $L/test/typo-in-allow.json 2>&1)"
rc=$?
comment "$out"
ok=1
case "$out" in *"warning"*"does not know 1 system call"*"getppidd (syscalls[0].names[1])"*) [ $rc -eq 0 ] && ok=0 ;; esac
result $ok "an unknown name in an allow rule is left out with a warning"

# launched PROFILE [OPTION]: the command has no_new_privs and one filter
# (patched), or the launcher refuses to run it (stock).
launched() {
	rm -f "$ran"
	status="$("$launch" ${2:+"$2"} --profile "$1" -- /bin/busybox sh -c \
		"/bin/busybox touch $ran; /bin/busybox cat /proc/self/status" 2>&1)"
	rc=$?
	if [ $stock -eq 1 ]; then
		comment "$status"
		case "$status" in *"no SECCOMP_FILTER_FLAG_URING"*) [ $rc -eq 3 ] && [ ! -e "$ran" ] && return 0 ;; esac
		return 1
	fi
	printf '%s\n' "$status" | grep -E '^(NoNewPrivs|Seccomp|Seccomp_filters):|uring-launch' | sed 's/^/# /'
	[ $rc -eq 0 ] && printf '%s\n' "$status" | grep -q '^NoNewPrivs:.1$' &&
		printf '%s\n' "$status" | grep -q '^Seccomp:.2$' &&
		printf '%s\n' "$status" | grep -q '^Seccomp_filters:.1$'
}

if [ $stock -eq 1 ]; then
	launched $L/profiles/docker-uring.json
	result $? "stock kernel: the launcher refuses to run the command"
	result 0 "launched command has no_new_privs and one filter" "SKIP stock kernel"
else
	launched $L/profiles/docker-uring.json
	ok=$?
	result $ok "the kernel accepts the flag"
	result $ok "launched command has no_new_privs and one filter"
fi
for p in podman docker-default; do
	f=$L/real/$p.json
	if [ ! -e "$f" ]; then
		result 0 "$p.json --allow-io-uring runs a command" "SKIP not shipped: absent at build time"
		continue
	fi
	launched "$f" --allow-io-uring
	ok=$?
	if [ $stock -eq 1 ]; then
		result $ok "stock kernel: $p.json --allow-io-uring: the launcher refuses to run the command"
	else
		result $ok "$p.json --allow-io-uring runs a command"
	fi
done

# What the profiles answer: test/expected.txt.
grep -v '^#' $L/test/expected.txt >/tmp/launcher-rows
while IFS='|' read -r profile opt drop calls want; do
	name="judged: $profile"
	[ "$opt" = - ] || name="$name $opt"
	[ "$drop" = - ] || name="$name without $drop"
	if [ ! -e "$L/$profile" ]; then
		result 0 "$name" "SKIP not shipped: absent at build time"
		continue
	fi
	set -- "$launch"
	[ "$opt" = - ] || set -- "$@" "$opt"
	set -- "$@" --profile "$L/$profile" -- "$probe" call
	[ "$drop" = - ] || set -- "$probe" drop "$drop" -- "$@"
	# shellcheck disable=SC2086 # calls are words
	out="$("$@" $calls 2>/tmp/launcher-err </dev/null)"
	rc=$?
	got="$(printf '%s' "$out" | tr '\n' ' ')"
	got="${got% }"
	comment "$(cat /tmp/launcher-err)"
	ok=1
	if [ $stock -eq 1 ]; then
		[ $rc -eq 3 ] && [ -z "$out" ] && ok=0
		[ $ok -eq 0 ] || echo "# want exit 3 and nothing run on a stock kernel; got exit $rc: $got"
	else
		[ $rc -eq 0 ] && [ "$got" = "$want" ] && ok=0
		[ $ok -eq 0 ] || echo "# want $want; got exit $rc: $got"
	fi
	result $ok "$name"
done </tmp/launcher-rows

out="$("$launch" -- /bin/busybox true 2>&1)"
rc=$?
comment "$out"
[ $rc -eq 2 ] && case "$out" in *"--profile is required"*) true ;; *) false ;; esac
result $? "no --profile: usage error (exit $rc)"
out="$("$launch" --profile /nonexistent.json -- /bin/busybox true 2>&1)"
rc=$?
comment "$out"
[ $rc -eq 2 ] && case "$out" in *"/nonexistent.json: top level: cannot open"*) true ;; *) false ;; esac
result $? "missing profile file named (exit $rc)"
