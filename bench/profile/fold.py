#!/usr/bin/env python3
"""Attribute guest instructions to kernel functions.

Usage: bench/profile/fold.py VMLINUX SHORT LONG OPS

SHORT and LONG are tb_counts outputs of two runs of bench/profile's
prof_loop that differ only by OPS operations (LONG ran OPS more). Prints,
per function of VMLINUX, the guest instructions each operation added,
largest first, and the total. Code outside the kernel's text shows as
"user" (below it) or "outside vmlinux" (above it: BPF JIT images,
modules).
"""
import bisect
import subprocess
import sys
from collections import defaultdict


def kernel_symbols(vmlinux):
    """Sorted start addresses and names of VMLINUX's text symbols, the
    last one "outside vmlinux" at _etext."""
    out = subprocess.run(["nm", "-n", vmlinux], check=True,
                         capture_output=True, text=True).stdout
    addrs, names, etext = [], [], None
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        if parts[2] == "_etext":
            etext = int(parts[0], 16)
        elif parts[1] in "tTwW":
            addrs.append(int(parts[0], 16))
            names.append(parts[2])
    if etext is None:
        sys.exit(f"{vmlinux}: no _etext symbol")
    cut = bisect.bisect_left(addrs, etext)
    return addrs[:cut] + [etext], names[:cut] + ["outside vmlinux"]


def per_function(path, addrs, names):
    """Instructions run per function in one tb_counts output."""
    total = defaultdict(int)
    kernel_start = addrs[0]
    with open(path, encoding="ascii") as f:
        for line in f:
            pc, insns, runs = line.split()
            pc = int(pc, 16)
            if pc < kernel_start:
                name = "user"
            else:
                name = names[bisect.bisect_right(addrs, pc) - 1]
            total[name] += int(insns) * int(runs)
    return total


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    vmlinux, short, long_, ops = sys.argv[1:5]
    ops = int(ops)
    addrs, names = kernel_symbols(vmlinux)
    a = per_function(short, addrs, names)
    b = per_function(long_, addrs, names)
    rows = [(name, (b.get(name, 0) - a.get(name, 0)) / ops)
            for name in set(a) | set(b)]
    rows = [r for r in rows if abs(r[1]) >= 0.05]
    rows.sort(key=lambda r: -abs(r[1]))
    for name, per_op in rows:
        print(f"{per_op:10.2f}  {name}")
    print(f"{sum(r[1] for r in rows):10.2f}  total per operation")


if __name__ == "__main__":
    main()
