#!/bin/bash
# Sourced by the crun suites of the real-software guest (real/suites/*crun*).
# run_bundle CONFIG EXPECT NAME: Debian's crun runs a copy of /tests/bundle
# as container NAME, with the bundle's CONFIG (config.json or
# config-flag.json) as its config.json and URING_SECCOMP_EXPECT=EXPECT;
# the container's output goes to /run/NAME.out. crun's exit status.
run_bundle() {
	local bundle="/run/$3" rc=0
	rm -rf "$bundle"
	cp -a /tests/bundle "$bundle"
	sed "s/@EXPECT@/$2/" "/tests/bundle/$1" >"$bundle/config.json"
	crun run --bundle "$bundle" "$3" >"/run/$3.out" 2>&1 || rc=$?
	crun delete -f "$3" >/dev/null 2>&1 || true
	return "$rc"
}
