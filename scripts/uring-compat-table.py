#!/usr/bin/env python3
"""Usage: scripts/uring-compat-table.py [--check|--write README] TABLE.rst UNISTD_64.H DOCKER_PROFILE [SYSTEMD_SET]

Prints, as a Markdown table, the io_uring opcodes that a real profile
refuses once its filters judge SQEs (uring_force=1 or the flag), for
Docker's default profile (converted as scripts/docker-seccomp-to-oci.py
converts it, plus io_uring_setup/enter/register) and for systemd's
@system-service (SYSTEMD_SET: a file with the set's system calls, as
"systemd-analyze syscall-filter @system-service" gives them with its
nested groups expanded (the real guest prints them; scripts/test-kernel.sh
takes them from its log); without it, this host's systemd-analyze is
asked). The io_uring calls themselves are twins of no opcode. An opcode is
listed when one of its x86_64 twins (":judged as:" in TABLE.rst, the
series' opcode table; names not in UNISTD_64.H, the kernel's
asm/unistd_64.h, are other architectures' and left out) is refused
outright or allowed only for some arguments, with the classic system
call that does the same job where there is one, and what a profile
author adds. Exits 1 if TABLE.rst holds no opcode or SYSTEMD_SET no call.

With --write README, the table replaces what README holds between the
lines "<!-- compat-table begin -->" and "<!-- compat-table end -->";
with --check README, prints TAP: whether README holds that table (a
diff when not), and exits 1 when it does not.
"""
import difflib
import importlib.util
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# opcodes whose twins are newer calls for a job an older call also does
CLASSIC = {"IORING_OP_FUTEX_WAIT": "futex", "IORING_OP_FUTEX_WAKE": "futex",
           "IORING_OP_FUTEX_WAITV": "futex"}
URING = ["io_uring_setup", "io_uring_enter", "io_uring_register"]


def opcodes(rst):
    """{opcode: [twin, ...]} from the ":judged as:" lines (which may wrap)."""
    out = {}
    for m in re.finditer(r"^``(IORING_OP_\w+)``\n   :judged as: (.*(?:\n {6,}.*)*)", rst, re.M):
        out[m.group(1)] = re.findall(r"``(\w+)``", m.group(2))
    return out


def docker_rules(profile_path):
    spec = importlib.util.spec_from_file_location(
        "docker_seccomp_to_oci", os.path.join(HERE, "docker-seccomp-to-oci.py"))
    conv = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conv)
    with open(profile_path) as f:
        oci = conv.convert(json.load(f), conv.DOCKER_DEFAULT_CAPS, URING)
    allowed, some = set(), {}
    for rule in oci["syscalls"]:
        if rule["action"] != "SCMP_ACT_ALLOW":
            continue
        for n in rule["names"]:
            if rule.get("args"):
                some.setdefault(n, []).append(" ".join(
                    f"arg{a['index']} {a['op'][9:].lower()} {a['value']}" for a in rule["args"]))
            else:
                allowed.add(n)
    return allowed, some


def systemd_set(path):
    if path:
        with open(path) as f:
            names = {w for w in f.read().split() if not w.startswith(("#", "@"))}
        if not names:
            raise ValueError(f"{path} names no system call")
        return names

    def expand(group):
        out = subprocess.run(["systemd-analyze", "syscall-filter", group],
                             capture_output=True, text=True, check=True).stdout
        names = set()
        for line in out.splitlines()[1:]:
            line = line.strip()
            if line.startswith("@"):
                names |= expand(line)
            elif line and not line.startswith("#"):
                names.add(line)
        return names
    return expand("@system-service") | set(URING)


def table(argv):
    """The table's lines for TABLE.rst UNISTD_64.H DOCKER_PROFILE [SYSTEMD_SET]."""
    with open(argv[0]) as f:
        ops = opcodes(f.read())
    if not ops:
        raise ValueError(f"no opcode entries in {argv[0]}")
    with open(argv[1]) as f:
        x86_64 = set(re.findall(r"#define __NR_(\w+)\s", f.read()))
    d_allowed, d_some = docker_rules(argv[2])
    s_allowed = systemd_set(argv[3] if len(argv) == 4 else None)
    lines = ["| profile | opcode | judged as | refused | classic call doing the same job"
             " | a profile author adds |", "|---|---|---|---|---|---|"]
    rows = 0
    for op, twins in sorted(ops.items()):
        twins = [t for t in twins if t in x86_64]
        for name, allowed, some in (("Docker default", d_allowed, d_some),
                                    ("systemd @system-service", s_allowed, {})):
            refused = [t for t in twins if t not in allowed]
            if not refused:
                continue
            why = "; ".join(f"{t}: allowed only for {' or '.join(some[t])}" if t in some
                            else f"{t}: not in the profile" for t in refused)
            classic = CLASSIC.get(op, "")
            if classic:
                classic += " (allowed)" if classic in allowed else " (refused too)"
            fix = ("nothing: the profile refuses the same job as a system call"
                   if t_in_some_only(refused, some) else " ".join(refused))
            lines.append(f"| {name} | {op} | {', '.join(twins)} | {why} | {classic or '-'} | {fix} |")
            rows += 1
    lines += ["", f"{len(ops)} opcodes; {rows} rows."]
    return lines


BEGIN, END = "<!-- compat-table begin -->", "<!-- compat-table end -->"


def readme_block(text):
    """(before, block lines, after) of README text around the markers, or None."""
    lines = text.split("\n")
    if lines.count(BEGIN) != 1 or lines.count(END) != 1 or lines.index(BEGIN) > lines.index(END):
        return None
    b, e = lines.index(BEGIN), lines.index(END)
    return lines[:b + 1], lines[b + 1:e], lines[e:]


def main(argv):
    mode = None
    if argv and argv[0] in ("--check", "--write"):
        if len(argv) < 2:
            sys.exit(__doc__)
        mode, readme, argv = argv[0], argv[1], argv[2:]
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    try:
        lines = table(argv)
    except ValueError as e:
        if mode != "--check":
            sys.exit(f"error: {e}")
        print(f"TAP version 13\n1..1\n# {e}\nnot ok 1 {readme}'s compatibility table can be made")
        sys.exit(1)
    if mode is None:
        print("\n".join(lines))
        return
    with open(readme) as f:
        parts = readme_block(f.read())
    markers = f"one line {BEGIN} and after it one line {END}"
    if mode == "--write":
        if not parts:
            sys.exit(f"error: {readme} wants {markers}")
        with open(readme, "w") as f:
            f.write("\n".join(parts[0] + lines + parts[2]))
        return
    what = f"{readme}'s compatibility table is the one scripts/uring-compat-table.py makes"
    print("TAP version 13\n1..1")
    if not parts:
        print(f"# {readme} does not hold {markers}")
        print(f"not ok 1 {what}")
        sys.exit(1)
    block = parts[1]
    if block == lines:
        print(f"ok 1 {what}")
        return
    for line in difflib.unified_diff(block, lines, readme, "generated", lineterm=""):
        print(f"# {line}")
    print(f"not ok 1 {what}")
    sys.exit(1)


def t_in_some_only(refused, some):
    """Every refused twin is allowed for some arguments: a policy on arguments."""
    return all(t in some for t in refused)


if __name__ == "__main__":
    main(sys.argv[1:])
