#!/usr/bin/env python3
"""Usage: bench/report.py --patched LOG --stock LOG --commit SHA --out DIR

Reads the MICRO, GROWTH and FIO lines the benchmark guests printed
(bench/guest/run-bench.sh), drops repetition 0 (the warm-up), and writes
to DIR: fio.csv, micro.csv, growth.csv, the data files of plot.gp and
report.md, the ratios against the targets of the fast-path issue. Every
ratio is of medians from one boot (stock vs patched: two boots), with
the spread (max-min over median) of its inputs; a difference smaller
than that spread is reported as inside the noise.
"""
import argparse
import datetime
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"^(MICRO|GROWTH|FIO) (.*)$")
FIO_CONFIGS = ["stock", "nofilter", "fastpath", "bpf", "nocache"]
MICRO_CASES = ["none", "allow_bitmap", "bpf_allow", "const_deny", "bpf_deny",
               "plain_openat2", "ea_openat2"]


class Series:
    """The kept (non-warm-up) values of one configuration."""

    def __init__(self):
        self.values = []

    def add(self, rep, value):
        if rep > 0 and value > 0:
            self.values.append(value)

    @property
    def median(self):
        return statistics.median(self.values) if self.values else float("nan")

    @property
    def spread(self):
        if len(self.values) < 2:
            return float("nan")
        return (max(self.values) - min(self.values)) / self.median


def parse(path, fio, micro, growth):
    with open(path, errors="replace") as f:
        for raw in f:
            m = LINE.match(raw.strip())
            if not m:
                continue
            kind, fields = m.group(1), m.group(2).split()
            try:
                if kind == "FIO":
                    cfg, depth, rep, iops = fields
                    fio[(cfg, int(depth))].add(int(rep), float(iops))
                elif kind == "MICRO":
                    path_, case, rep, ns = fields
                    micro[(path_, case)].add(int(rep), float(ns))
                else:
                    path_, mode, insns, filters, rep, ns = fields
                    growth[(path_, mode, int(insns), int(filters))].add(int(rep), float(ns))
            except ValueError:
                sys.exit(f"{path}: malformed line: {raw.strip()}")


class Report:
    def __init__(self):
        self.lines = []
        self.missed = 0

    def ratio(self, name, num, den, target, op=">="):
        """One ratio row: num/den of two Series against target."""
        r = num.median / den.median
        noise = max(num.spread, den.spread)
        met = r >= target if op == ">=" else r <= target
        if not met:
            self.missed += 1
        inside = abs(r - 1) <= noise
        note = "inside the noise" if inside else "outside the noise"
        self.lines.append(f"| {name} | {r:.3f} | {op} {target} | "
                          f"{'met' if met else 'MISSED'} | ±{noise:.0%} ({note}) |")
        return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--patched", required=True)
    ap.add_argument("--stock", required=True)
    ap.add_argument("--commit", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    fio, micro, growth = defaultdict(Series), defaultdict(Series), defaultdict(Series)
    parse(args.patched, fio, micro, growth)
    parse(args.stock, fio, micro, growth)
    out = args.out

    with open(f"{out}/fio.csv", "w") as f:
        f.write("config,iodepth,median_iops,runs\n")
        for depth in (32, 1):
            for cfg in FIO_CONFIGS:
                s = fio[(cfg, depth)]
                f.write(f"{cfg},{depth},{s.median:.0f},{len(s.values)}\n")
    with open(f"{out}/fio.dat", "w") as f:
        f.write("config qd32 qd1\n")
        for cfg in FIO_CONFIGS:
            f.write(f"{cfg} {fio[(cfg, 32)].median:.0f} {fio[(cfg, 1)].median:.0f}\n")

    with open(f"{out}/micro.csv", "w") as f:
        f.write("path,case,median_ns,runs\n")
        for path in ("syscall", "uring"):
            for case in MICRO_CASES:
                s = micro[(path, case)]
                if s.values:
                    f.write(f"{path},{case},{s.median:.1f},{len(s.values)}\n")

    with open(f"{out}/growth.csv", "w") as f:
        f.write("path,mode,insns,filters,added_ns\n")
        for (path, mode, insns, filters), s in sorted(growth.items()):
            if mode == "none":
                continue
            base = growth[(path, "none", 0, 0)].median
            f.write(f"{path},{mode},{insns},{filters},{s.median - base:.1f}\n")
    with open(f"{out}/growth.dat", "w") as f:
        for path in ("syscall", "uring"):
            for mode in ("fastpath", "bpf"):
                base = growth[(path, "none", 0, 0)].median
                f.write(f"# {path} {mode}\n")
                for insns in (10, 100, 1000):
                    row = [f"{growth[(path, mode, insns, n)].median - base:.1f}"
                           for n in (1, 2, 4, 8)]
                    f.write(f"{insns} {' '.join(row)}\n")
                f.write("\n\n")

    rep = Report()
    rep.lines += [
        "# uring-seccomp benchmark results", "",
        f"Kernel commit {args.commit}, {datetime.date.today().isoformat()}, "
        "QEMU/TCG guest (an emulator: only ratios within one boot mean "
        "anything; stock and patched are two boots).", "",
        "| ratio (medians) | value | target | | spread |",
        "|---|---|---|---|---|",
    ]
    for depth in (32, 1):
        nof = fio[("nofilter", depth)]
        rep.ratio(f"fio qd{depth} fastpath / nofilter", fio[("fastpath", depth)], nof, 0.98)
        rep.ratio(f"fio qd{depth} nofilter / stock (two boots)", nof, fio[("stock", depth)], 0.99)
        rep.ratio(f"fio qd{depth} bpf / nofilter", fio[("bpf", depth)], nof, 0.90)
        rep.ratio(f"fio qd{depth} nocache / nofilter", fio[("nocache", depth)], nof, 0.0)
    for path in ("syscall", "uring"):
        rep.ratio(f"{path}: bpf_deny / const_deny (ns per op)",
                  micro[(path, "bpf_deny")], micro[(path, "const_deny")], 3.0)

    def added(path, case):
        s = Series()
        base = micro[(path, "none")].median
        s.values = [v - base for v in micro[(path, case)].values]
        return s
    for case in ("bpf_allow", "allow_bitmap"):
        u, sc = added("uring", case), added("syscall", case)
        r = u.median / sc.median if sc.median else float("nan")
        met = r <= 1.0
        rep.missed += not met
        rep.lines.append(f"| {case}: hook added ns / syscall added ns | {r:.3f} "
                         f"(+{u.median:.0f} / +{sc.median:.0f} ns) | <= 1.0 | "
                         f"{'met' if met else 'MISSED'} | |")
    for path in ("syscall", "uring"):
        vals = [growth[(path, "fastpath", i, n)].median - growth[(path, "none", 0, 0)].median
                for i in (10, 100, 1000) for n in (1, 2, 4, 8)]
        bpf = [growth[(path, "bpf", i, n)].median - growth[(path, "none", 0, 0)].median
               for i in (10, 100, 1000) for n in (1, 2, 4, 8)]
        noise = growth[(path, "none", 0, 0)].spread * growth[(path, "none", 0, 0)].median
        flat = max(vals) - min(vals) <= max(noise, 0.25 * growth[(path, "none", 0, 0)].median)
        rep.missed += not flat
        rep.lines.append(f"| {path}: fast-path added ns, 10..1000 insns x 1..8 filters | "
                         f"{min(vals):.0f} .. {max(vals):.0f} (BPF path {min(bpf):.0f} .. "
                         f"{max(bpf):.0f}) | flat | {'met' if flat else 'MISSED'} | "
                         f"±{noise:.0f} ns |")

    rep.lines += ["", "## fio (IOPS, median of kept runs)", "",
                  "| config | iodepth | median | runs | spread |", "|---|---|---|---|---|"]
    for depth in (32, 1):
        for cfg in FIO_CONFIGS:
            s = fio[(cfg, depth)]
            rep.lines.append(f"| {cfg} | {depth} | {s.median:.0f} | "
                             f"{' '.join(f'{v:.0f}' for v in s.values)} | ±{s.spread:.0%} |")
    rep.lines += ["", "## microbenchmarks (ns per operation, median)", "",
                  "| case | syscall | uring |", "|---|---|---|"]
    for case in MICRO_CASES:
        cells = []
        for path in ("syscall", "uring"):
            s = micro[(path, case)]
            cells.append(f"{s.median:.0f} ±{s.spread:.0%}" if s.values else "not measured")
        rep.lines.append(f"| {case} | {cells[0]} | {cells[1]} |")
    rep.lines += ["", f"{rep.missed} target(s) missed.", ""]
    with open(f"{out}/report.md", "w") as f:
        f.write("\n".join(rep.lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
