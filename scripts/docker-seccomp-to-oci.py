#!/usr/bin/env python3
"""Usage: scripts/docker-seccomp-to-oci.py PROFILE [--allow NAME]...

Prints, as JSON, the OCI runtime spec's linux.seccomp object that Docker
(moby) would put in a container's config.json for PROFILE (Docker's
seccomp profile format, e.g. its default.json) on x86_64 with Docker's
default capability set, the way moby's profiles/seccomp package does it
(setupSeccomp): the architectures are the archMap entry of the native
architecture and its sub-architectures; a syscalls entry is kept only if
every capability its "includes" names is in the set, none its
"excludes" names is, its "includes" arches (Go's names: amd64) hold
amd64 and its "excludes" arches do not; minKernel is taken as met (every
one in Docker's profile is older than the guest kernels). Comments go.
Each --allow NAME adds NAME to one more SCMP_ACT_ALLOW entry at the end
(io_uring_setup, io_uring_enter and io_uring_register for the real-
software guest). The runtime (crun) compiles the result to BPF itself.
"""
import argparse
import json
import sys

# moby's oci/caps DefaultCapabilities(): what a "docker run" without
# --cap-add/--cap-drop/--privileged gets (also the bundle's capabilities:
# scripts/oci-bundle-config.py)
DOCKER_DEFAULT_CAPS = (
    "CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FSETID", "CAP_FOWNER", "CAP_MKNOD",
    "CAP_NET_RAW", "CAP_SETGID", "CAP_SETUID", "CAP_SETFCAP", "CAP_SETPCAP",
    "CAP_NET_BIND_SERVICE", "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE",
)
NATIVE_SCMP = "SCMP_ARCH_X86_64"
NATIVE_GO = "amd64"


def applies(entry, caps):
    inc = entry.get("includes") or {}
    exc = entry.get("excludes") or {}
    if inc.get("arches") and NATIVE_GO not in inc["arches"]:
        return False
    if NATIVE_GO in (exc.get("arches") or []):
        return False
    if any(c not in caps for c in inc.get("caps") or []):
        return False
    if any(c in caps for c in exc.get("caps") or []):
        return False
    return True


def convert(profile, caps, allow):
    out = {"defaultAction": profile["defaultAction"]}
    if "defaultErrnoRet" in profile:
        out["defaultErrnoRet"] = profile["defaultErrnoRet"]
    arches = []
    for a in profile.get("archMap") or []:
        if a["architecture"] == NATIVE_SCMP:
            arches = [a["architecture"]] + list(a.get("subArchitectures") or [])
    if not arches:
        sys.exit(f"error: the profile's archMap has no {NATIVE_SCMP} entry")
    out["architectures"] = arches
    syscalls = []
    for entry in profile["syscalls"]:
        if not applies(entry, caps):
            continue
        rule = {"names": list(entry["names"]), "action": entry["action"]}
        if "errnoRet" in entry:
            rule["errnoRet"] = entry["errnoRet"]
        if entry.get("args"):
            rule["args"] = [{k: a[k] for k in ("index", "value", "valueTwo", "op") if k in a}
                            for a in entry["args"]]
        syscalls.append(rule)
    if allow:
        syscalls.append({"names": allow, "action": "SCMP_ACT_ALLOW"})
    out["syscalls"] = syscalls
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("profile")
    ap.add_argument("--allow", action="append", default=[], metavar="NAME")
    args = ap.parse_args()
    with open(args.profile) as f:
        profile = json.load(f)
    json.dump(convert(profile, DOCKER_DEFAULT_CAPS, args.allow), sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
