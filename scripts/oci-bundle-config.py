#!/usr/bin/env python3
"""Usage: scripts/oci-bundle-config.py SECCOMP_JSON ENV... -- ARG...

Prints the config.json of an OCI bundle whose rootfs is the directory
"rootfs" next to it, for crun: the process runs ARG... as root with
Docker's default capability set and environment ENV... (NAME=VALUE),
in /tmp (a tmpfs), in new PID, IPC, UTS, mount, network and cgroup
namespaces, with the mounts "crun spec" gives a container (/proc, a
/dev tmpfs, devpts, /dev/shm, /dev/mqueue, /sys read-only, its cgroup)
and linux.seccomp from SECCOMP_JSON (scripts/docker-seccomp-to-oci.py's
output). No no_new_privs: Docker does not set it by default either, so
crun loads the filter while it still has CAP_SYS_ADMIN.
"""
import importlib.util
import json
import os
import sys

# Docker's default capability set, as the seccomp conversion has it
_spec = importlib.util.spec_from_file_location(
    "docker_seccomp_to_oci",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "docker-seccomp-to-oci.py"))
_conv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_conv)
DOCKER_DEFAULT_CAPS = list(_conv.DOCKER_DEFAULT_CAPS)


def mount(dest, typ, source, options):
    return {"destination": dest, "type": typ, "source": source, "options": options}


def main(argv):
    if len(argv) < 3 or "--" not in argv:
        sys.exit(__doc__)
    sep = argv.index("--")
    seccomp_path, env, args = argv[0], argv[1:sep], argv[sep + 1:]
    if not args:
        sys.exit(__doc__)
    with open(seccomp_path) as f:
        seccomp = json.load(f)
    config = {
        "ociVersion": "1.0.0",
        "process": {
            "terminal": False,
            "user": {"uid": 0, "gid": 0},
            "args": args,
            "env": ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"] + env,
            "cwd": "/tmp",
            "capabilities": {k: DOCKER_DEFAULT_CAPS for k in
                             ("bounding", "effective", "permitted")},
            "rlimits": [{"type": "RLIMIT_NOFILE", "hard": 1024, "soft": 1024}],
            "noNewPrivileges": False,
        },
        "root": {"path": "rootfs", "readonly": True},
        "hostname": "uring-container",
        "mounts": [
            mount("/proc", "proc", "proc", []),
            mount("/dev", "tmpfs", "tmpfs", ["nosuid", "strictatime", "mode=755", "size=65536k"]),
            mount("/dev/pts", "devpts", "devpts",
                  ["nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620"]),
            mount("/dev/shm", "tmpfs", "shm", ["nosuid", "noexec", "nodev", "mode=1777", "size=65536k"]),
            mount("/dev/mqueue", "mqueue", "mqueue", ["nosuid", "noexec", "nodev"]),
            mount("/sys", "sysfs", "sysfs", ["nosuid", "noexec", "nodev", "ro"]),
            mount("/sys/fs/cgroup", "cgroup", "cgroup", ["nosuid", "noexec", "nodev", "relatime", "ro"]),
            mount("/tmp", "tmpfs", "tmpfs", ["nosuid", "nodev", "mode=1777"]),
        ],
        "linux": {
            "namespaces": [{"type": t} for t in
                           ("pid", "ipc", "uts", "mount", "network", "cgroup")],
            "seccomp": seccomp,
            "maskedPaths": ["/proc/kcore", "/proc/keys", "/proc/timer_list", "/sys/firmware"],
            "readonlyPaths": ["/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys",
                              "/proc/sysrq-trigger"],
        },
    }
    json.dump(config, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
