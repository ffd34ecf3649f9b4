#!/usr/bin/env python3
"""Usage: bench/report.py --patched LOG --stock LOG [--patched-wall LOG]
                         [--stock-wall LOG] [--took 'LABEL=SECONDS']...
                         --commit SHA --out DIR

Reads what the benchmark guests printed (bench/guest/run-bench.sh): the
MICRO, GROWTH and FIO lines of the icount boots, whose figures are guest
instructions (per operation; fio's IOPS are IOs per 10^9 instructions),
and the WALL lines of the ordinary boots (wall-clock IOPS, noisy). Every
icount figure was measured twice in one boot (pass 1 and 2); their mean
is reported. Writes to DIR: micro.csv, growth.csv, fio.csv, the data
files of plot.gp and report.md (each target of issue 14 with measured
value, target, met or missed).

Exits 1 if a measurement is missing or its two passes differ by more
than 1 % (the report is written anyway and names them).
"""
import argparse
import datetime
import sys
from collections import defaultdict

TOLERANCE = 0.01
OPS = ["nop", "getpid", "read", "openat2", "connect"]
SQE_OPS = ["nop", "read", "openat2", "connect"]
CONFIGS = ["none", "plain_allow", "plain_bpf", "uring_allow", "uring_deny",
           "uring_bpf", "uring_ea"]
STOCK_CONFIGS = ["none", "plain_allow", "plain_bpf"]
FIO_CONFIGS = ["none", "plain_allow", "plain_bpf", "uring_allow", "uring_bpf",
               "uring_ea"]
DEPTHS = [1, 32, 128]
GROWTH_INSNS = [10, 100, 1000]
GROWTH_FILTERS = [1, 2, 4, 8]

CONFIG_TEXT = {
    "none": "no filter",
    "plain_allow": "allow (bitmap hit), not opted in",
    "plain_bpf": "300-insn BPF reading args, not opted in",
    "uring_allow": "opted in, allow (bitmap hit)",
    "uring_deny": "opted in, constant deny (ERRNO)",
    "uring_bpf": "opted in, 300-insn BPF reading args",
    "uring_ea": "opted in, 300-insn BPF reading the extension area",
}
OP_TEXT = {
    "nop": ("io_uring_enter(fd, 0, ...)", "IORING_OP_NOP"),
    "getpid": ("getpid", None),
    "read": ("pread64, 4 KiB O_DIRECT, null_blk", "IORING_OP_READ"),
    "openat2": ("openat2 + close", "IORING_OP_OPENAT2 + close"),
    "connect": ("connect (AF_UNIX, refused)", "IORING_OP_CONNECT"),
}


class Pair:
    """One figure measured in pass 1 and pass 2 of the same boot."""

    def __init__(self):
        self.passes = {}

    def add(self, p, value):
        self.passes[p] = value

    @property
    def complete(self):
        return 1 in self.passes and 2 in self.passes and \
            all(v > 0 for v in self.passes.values())

    @property
    def mean(self):
        if not self.complete:
            return float("nan")
        return (self.passes[1] + self.passes[2]) / 2

    @property
    def diff(self):
        """Relative difference of the two passes."""
        if not self.complete:
            return float("nan")
        a, b = self.passes[1], self.passes[2]
        return abs(a - b) / min(a, b)


class Data:
    def __init__(self):
        # (kernel, config, op, path) -> Pair
        self.micro = defaultdict(Pair)
        # (mode, insns, filters, path) -> Pair
        self.growth = defaultdict(Pair)
        # (kernel, config, depth) -> Pair of IOPS (IOs per 10^9 insns)
        self.fio = defaultdict(Pair)
        # (kernel, config, depth) -> wall-clock IOPS
        self.wall = {}

    def m(self, kernel, config, op, path):
        return self.micro[(kernel, config, op, path)].mean


def parse_icount(path, kernel, data):
    with open(path, errors="replace") as f:
        for raw in f:
            w = raw.split()
            try:
                if w[:1] == ["MICRO"] and len(w) == 7:
                    _, cfg, op, p, ps, v, _r = w
                    data.micro[(kernel, cfg, op, p)].add(int(ps), float(v))
                elif w[:1] == ["GROWTH"] and len(w) == 8 and kernel == "patched":
                    _, mode, insns, n, p, ps, v, _r = w
                    data.growth[(mode, int(insns), int(n), p)].add(int(ps), float(v))
                elif w[:1] == ["FIO"] and len(w) == 6:
                    _, cfg, depth, ps, iops, _ms = w
                    data.fio[(kernel, cfg, int(depth))].add(int(ps), float(iops))
            except ValueError:
                sys.exit(f"{path}: malformed line: {raw.strip()}")


def parse_wall(path, kernel, data):
    with open(path, errors="replace") as f:
        for raw in f:
            w = raw.split()
            if w[:1] == ["WALL"] and len(w) == 4:
                try:
                    data.wall[(kernel, w[1], int(w[2]))] = float(w[3])
                except ValueError:
                    sys.exit(f"{path}: malformed line: {raw.strip()}")


def expected_micro():
    """Every (kernel, config, op, path) the guests must have measured."""
    for kernel, configs in (("stock", STOCK_CONFIGS), ("patched", CONFIGS)):
        for cfg in configs:
            for op in OPS:
                if op == "nop" and cfg == "uring_deny":
                    continue
                for path in ("syscall", "uring"):
                    if op == "getpid" and path == "uring":
                        continue
                    yield (kernel, cfg, op, path)


def expected_growth():
    for path in ("syscall", "uring"):
        yield ("none", 0, 0, path)
        for mode in ("fastpath", "bpf"):
            for i in GROWTH_INSNS:
                for n in GROWTH_FILTERS:
                    yield (mode, i, n, path)


def expected_fio():
    for kernel, configs in (("stock", STOCK_CONFIGS), ("patched", FIO_CONFIGS)):
        for cfg in configs:
            for depth in DEPTHS:
                yield (kernel, cfg, depth)


def self_check(data):
    """The problems: missing figures, passes more than 1 % apart."""
    problems, worst = [], 0.0
    groups = (("micro", data.micro, expected_micro()),
              ("growth", data.growth, expected_growth()),
              ("fio", data.fio, expected_fio()))
    for name, table, keys in groups:
        for key in keys:
            label = f"{name} {' '.join(map(str, key))}"
            worst = max(worst, check_pair(label, table.get(key), problems))
    return problems, worst


def check_pair(label, pair, problems):
    """Adds to problems what is wrong with one figure's pair of passes, if
    anything; returns how far apart the passes are (0 if not both ran)."""
    if pair is None or not pair.complete:
        problems.append(f"{label}: not measured in both passes")
        return 0.0
    if pair.diff > TOLERANCE:
        problems.append(f"{label}: passes differ by {pair.diff:.2%} "
                        f"({pair.passes[1]:.2f} / {pair.passes[2]:.2f})")
    return pair.diff


def finish(path, lines, problems, prog):
    """Writes the report's lines to path, with the self-check failures at
    the end; prints them on stderr as prog; returns the exit status."""
    if problems:
        lines += ["", "## Self-check failures", ""] + [f"- {p}" for p in problems]
    lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines))
    for p in problems:
        print(f"{prog}: {p}", file=sys.stderr)
    return 1 if problems else 0


def fmt(v, digits=1):
    return "n/a" if v != v else f"{v:.{digits}f}"


class Targets:
    def __init__(self):
        self.rows, self.missed, self.total = [], 0, 0

    def add(self, name, measured, target, met):
        self.total += 1
        if not met:
            self.missed += 1
        self.rows.append(f"| {name} | {measured} | {target} | "
                         f"{'met' if met else '**missed**'} |")


def targets(d):
    t = Targets()
    s_none = d.m("stock", "none", "nop", "uring")
    p_none = d.m("patched", "none", "nop", "uring")
    t.add("NOP per SQE, no filter: patched vs stock",
          f"{fmt(p_none)} vs {fmt(s_none)} ({p_none - s_none:+.1f})",
          "<= stock + 5", p_none <= s_none + 5)
    for cfg in ("plain_allow", "plain_bpf"):
        s, p = d.m("stock", cfg, "nop", "uring"), d.m("patched", cfg, "nop", "uring")
        t.add(f"NOP per SQE, filter not opted in ({CONFIG_TEXT[cfg]}): patched vs stock",
              f"{fmt(p)} vs {fmt(s)} ({p - s:+.1f})", "<= stock + 5", p <= s + 5)
    a = d.m("patched", "uring_allow", "nop", "uring")
    t.add("NOP per SQE, opted-in allow (bitmap hit) vs no filter, patched",
          f"{fmt(a)} vs {fmt(p_none)} ({a - p_none:+.1f})", "<= no filter + 20",
          a <= p_none + 20)
    u = d.m("patched", "uring_bpf", "nop", "uring") - p_none
    sc = d.m("patched", "uring_bpf", "nop", "syscall") - \
        d.m("patched", "none", "nop", "syscall")
    r = u / sc if sc else float("nan")
    t.add("NOP per SQE, opted-in 300-insn BPF: added per SQE / added per "
          "syscall (io_uring_enter), same filter, patched",
          f"+{u:.1f} / +{sc:.1f} = {r:.3f}", "<= 1.1", r <= 1.1)
    rows = []
    for op in OPS:
        cells = []
        for s_cfg, p_cfg in (("none", "none"), ("plain_allow", "plain_allow"),
                             ("plain_allow", "uring_allow"), ("plain_bpf", "plain_bpf"),
                             ("plain_bpf", "uring_bpf")):
            s, p = d.m("stock", s_cfg, op, "syscall"), d.m("patched", p_cfg, op, "syscall")
            rel = p / s - 1
            # the target bounds what the series adds: faster is met too
            met = rel <= 0.01
            t.total += 1
            t.missed += not met
            word = 'met' if met else '**missed**'
            if met and rel < -0.01:
                word = 'met (faster)'
            cells.append(f"{fmt(p)} vs {fmt(s)} ({rel:+.2%}) {word}")
        rows.append(f"| {OP_TEXT[op][0]} | {' | '.join(cells)} |")
    return t, rows


def write_csvs(d, out):
    with open(f"{out}/micro.csv", "w") as f:
        f.write("kernel,config,op,path,pass1,pass2,insns_per_op\n")
        for key in expected_micro():
            pr = d.micro.get(key, Pair())
            f.write(",".join(key) + f",{pr.passes.get(1, '')},{pr.passes.get(2, '')},"
                    f"{fmt(pr.mean, 2)}\n")
    with open(f"{out}/growth.csv", "w") as f:
        f.write("mode,insns,filters,path,pass1,pass2,insns_per_op,added\n")
        for key in expected_growth():
            pr = d.growth.get(key, Pair())
            base = d.growth[("none", 0, 0, key[3])].mean
            f.write(",".join(map(str, key)) + f",{pr.passes.get(1, '')},"
                    f"{pr.passes.get(2, '')},{fmt(pr.mean, 2)},{fmt(pr.mean - base, 2)}\n")
    with open(f"{out}/growth.dat", "w") as f:
        for path in ("syscall", "uring"):
            base = d.growth[("none", 0, 0, path)].mean
            for mode in ("fastpath", "bpf"):
                f.write(f"# {path} {mode}: insns, added for 1 2 4 8 filters\n")
                for i in GROWTH_INSNS:
                    row = [fmt(d.growth[(mode, i, n, path)].mean - base)
                           for n in GROWTH_FILTERS]
                    f.write(f"{i} {' '.join(row)}\n")
                f.write("\n\n")
    with open(f"{out}/fio.csv", "w") as f:
        f.write("kernel,config,iodepth,ios_per_1e9_insns_pass1,pass2,"
                "insns_per_io,wall_iops_noisy\n")
        for key in expected_fio():
            pr = d.fio.get(key, Pair())
            f.write(f"{key[0]},{key[1]},{key[2]},{pr.passes.get(1, '')},"
                    f"{pr.passes.get(2, '')},{fmt(1e9 / pr.mean)},"
                    f"{fmt(d.wall.get(key, float('nan')), 0)}\n")
    with open(f"{out}/fio.dat", "w") as f:
        f.write("# config qd1 qd32 qd128\n")
        for kernel, cfg in expected_fio_rows():
            row = [fmt(1e9 / d.fio[(kernel, cfg, q)].mean) for q in DEPTHS]
            f.write(f"{kernel}:{cfg} {' '.join(row)}\n")


def expected_fio_rows():
    return [("stock", c) for c in STOCK_CONFIGS] + [("patched", c) for c in FIO_CONFIGS]


def micro_tables(d):
    lines = []
    for op in OPS:
        sys_name, sqe_name = OP_TEXT[op]
        lines += ["", f"### {op}: syscall `{sys_name}`" +
                  (f", SQE `{sqe_name}`" if sqe_name else " (syscall only)"), ""]
        head = "| configuration | stock syscall | patched syscall | added (patched)"
        sep = "|---|---|---|---"
        if sqe_name:
            head += " | stock SQE | patched SQE | added (patched)"
            sep += "|---|---|---"
        lines += [head + " |", sep + "|"]
        for cfg in CONFIGS:
            if op == "nop" and cfg == "uring_deny":
                lines.append(f"| {CONFIG_TEXT[cfg]} | n/a: a constant deny of "
                             "io_uring_enter would refuse the submission itself |")
                continue
            cells = []
            for path in ("syscall", "uring") if sqe_name else ("syscall",):
                s = d.m("stock", cfg, op, path)
                p = d.m("patched", cfg, op, path)
                added = p - d.m("patched", "none", op, path)
                cells += [fmt(s), fmt(p), "" if cfg == "none" else f"{added:+.1f}"]
            lines.append(f"| {CONFIG_TEXT[cfg]} | {' | '.join(cells)} |")
    return lines


def growth_table(d):
    lines = ["| filter insns | filters | syscall, fast path | SQE, fast path | "
             "syscall, BPF | SQE, BPF |", "|---|---|---|---|---|---|"]
    base = {p: d.growth[("none", 0, 0, p)].mean for p in ("syscall", "uring")}
    for i in GROWTH_INSNS:
        for n in GROWTH_FILTERS:
            cells = [f"{d.growth[(mode, i, n, p)].mean - base[p]:+.1f}"
                     for mode in ("fastpath", "bpf") for p in ("syscall", "uring")]
            lines.append(f"| {i} | {n} | {' | '.join(cells)} |")
    return lines


def fio_table(d):
    lines = ["| kernel | configuration | " +
             " | ".join(f"qd{q}: insns/IO (IOs per 10^9 insns)" for q in DEPTHS) +
             " | " + " | ".join(f"qd{q} wall-clock IOPS (noisy)" for q in DEPTHS) + " |",
             "|---|---|" + "---|" * (2 * len(DEPTHS))]
    for kernel, cfg in expected_fio_rows():
        cells = []
        for q in DEPTHS:
            iops = d.fio[(kernel, cfg, q)].mean
            cells.append(f"{fmt(1e9 / iops, 0)} ({fmt(iops, 0)})")
        for q in DEPTHS:
            cells.append(fmt(d.wall.get((kernel, cfg, q), float("nan")), 0))
        lines.append(f"| {kernel} | {CONFIG_TEXT[cfg]} | {' | '.join(cells)} |")
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--patched", required=True)
    ap.add_argument("--stock", required=True)
    ap.add_argument("--patched-wall")
    ap.add_argument("--stock-wall")
    ap.add_argument("--took", action="append", default=[])
    ap.add_argument("--commit", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    d = Data()
    parse_icount(args.patched, "patched", d)
    parse_icount(args.stock, "stock", d)
    for kernel, path in (("patched", args.patched_wall), ("stock", args.stock_wall)):
        if path:
            parse_wall(path, kernel, d)
    problems, worst = self_check(d)
    write_csvs(d, args.out)
    t, syscall_rows = targets(d)
    submit = d.m("stock", "plain_bpf", "nop", "uring") - d.m("stock", "none", "nop", "uring")

    lines = [
        "# uring-seccomp benchmark results", "",
        f"Patched kernel commit {args.commit}, {datetime.date.today().isoformat()}.", "",
        "**Unit: guest instructions.** Each guest ran under QEMU TCG, single-threaded, "
        "one vCPU, with `-icount shift=0,sleep=off`: guest time advances one "
        "nanosecond per guest instruction, so a CLOCK_MONOTONIC difference in the "
        "guest is the number of guest instructions executed (timer interrupts "
        "included, HZ=1000: one every 10^6 instructions). Per operation: (a loop of "
        "R rounds of 32 operations) minus (the same loop with no operation), over "
        "32 R, the median of nine such measurements (background kernel work that "
        "lands in one of them does not move it); SQEs are submitted and reaped 32 "
        "per io_uring_enter(2). "
        "**Instruction counts leave out cache and branch effects**: an operation "
        "that executes the same instructions but misses in the caches or mispredicts "
        "more is slower on real hardware, and this benchmark cannot see it. "
        "Stock and patched are two boots of the same guest configuration.", "",
        f"Self-check: every figure was measured twice in the same boot; the largest "
        f"difference between the two passes was {worst:.3%} (allowed: {TOLERANCE:.0%}). "
        + ("All figures passed." if not problems else
           f"**{len(problems)} failed** (listed at the end)."), "",
        "## Targets (issue 14)", "",
        "Per SQE: NOP, batches of 32, configurations of the same boot unless the "
        "row compares stock and patched.", "",
        "| target | measured (instructions) | target | |", "|---|---|---|---|",
    ]
    lines += t.rows
    lines += [
        "", f"The NOP's twin is io_uring_enter, so a filter that checks its "
        "arguments also runs for the io_uring_enter(2) that submits each batch: "
        f"1/32 of that run is part of every SQE's added cost ({submit:+.1f} per SQE "
        "on stock with the not-opted-in BPF filter, where SQEs are never judged).",
        "", "Syscall path, patched vs stock (target: at most 1 % slower; a "
        "figure more than 1 % faster is marked so; stock loads every "
        "filter without SECCOMP_FILTER_FLAG_URING, which it does not have):", "",
        "| syscall | no filter | allow, not opted in | allow, opted in (patched) | "
        "BPF, not opted in | BPF, opted in (patched) |",
        "|---|---|---|---|---|---|",
    ]
    lines += syscall_rows
    lines += ["", f"{t.missed} of {t.total} targets missed.", "",
              "## SQE loops and their syscall twins (instructions per operation)", "",
              "Filters are of Docker-default size (300 instructions: an arch check, "
              "padding rules for syscall numbers no kernel has, the rule for the "
              "measured syscall, allow the rest). `allow` and `deny` rules are "
              "constant, so seccomp's action cache answers them; `BPF` checks args[0] "
              "(a check every call passes) so every call runs the whole filter; the "
              "extension-area filter (SECCOMP_FILTER_FLAG_EXT_ARGS) checks the area's "
              "flags and, for openat2, open_how.flags (no O_CREAT) and for connect "
              "the address family (AF_UNIX). `added` is over no filter, same boot, "
              "same path. READ: 4 KiB at offset 0 of /dev/nullb0 opened with "
              "O_DIRECT (null_blk, no memory backing, completions inline). CONNECT: "
              "an AF_UNIX stream socket to a bound socket that does not listen "
              "(ECONNREFUSED at once; the socket can try again). OPENAT2 opens a "
              "tmpfs file O_RDONLY and the fd is closed with close(2) on both paths. "
              "NOP's syscall is io_uring_enter(ring, 0, 0, 0, NULL, 0), the syscall it "
              "is judged as, which submits nothing; getpid is not a twin of anything, "
              "it is there to compare with issue 14's table.", "",
              "Not explained yet: on both kernels and both paths, openat2 and connect "
              "execute fewer instructions under any seccomp filter than under none "
              "(about 600 and 750 fewer; a one-instruction allow filter does it too, "
              "no_new_privs alone does not; stat(\"/\") is about 750 cheaper too, "
              "fstat 150 dearer as expected), so their `added` column is negative; "
              "compare configurations with each other there."]
    lines += micro_tables(d)
    lines += ["", "## Growth: opted-in filters stacked, NOP (instructions added per "
              "operation over no filter, patched)", "",
              "`fast path`: constant allow for io_uring_enter (bitmap hit); `BPF`: the "
              "args check, so every filter runs (and the submitting io_uring_enter "
              "runs them too, 1/32 per SQE).", ""]
    lines += growth_table(d)
    lines += ["", "## fio: 4 KiB random reads, io_uring, null_blk", "",
              "Per IO, all of fio's work included (its own user-space code, "
              "io_uring_enter, the block layer): instructions per IO = 10^9 / fio's "
              "IOPS in guest time, mean of two runs of 0.5 s of guest time (5 * 10^8 "
              "instructions) after 0.1 s of ramp. The filter's rule is for read, "
              "pread64, preadv and preadv2; no constant-deny configuration (fio "
              "cannot run with its reads refused). The wall-clock columns are one "
              "run each of 2 s in an ordinary TCG guest (2 vCPUs, no icount) on a "
              "shared host: **noisy**, a sanity check only.", ""]
    lines += fio_table(d)
    if args.took:
        lines += ["", "## Time taken (host seconds per guest boot)", "",
                  "| boot | seconds |", "|---|---|"]
        lines += [f"| {lbl} | {sec} |" for lbl, sec in (x.split("=", 1) for x in args.took)]
    return finish(f"{args.out}/report.md", lines, problems, "report.py")


if __name__ == "__main__":
    sys.exit(main())
