#!/usr/bin/env python3
"""Usage: bench/side_by_side.py --patched LOG [--stock LOG] --commit SHA
                               --out DIR

Reads what bench/micro/side_by_side printed in the icount boots
(bench/guest/run-bench.sh): SIDE lines (guest instructions per SQE, each
measured twice in one boot), CACHE lines (what seccomp's action cache
says about an op's SQEs) and CHECK lines (behaviour checks). Writes to
DIR side-by-side.csv and side-by-side.md: the per-SQE cost of the same
policy as an opted-in seccomp filter and as io_uring's task filters, the
targets T1 and T2 with their inputs and PASS or FAIL, the checks, and the
capabilities table (bench/side_by_side_capabilities.md).

Exits 1 if a figure is missing, its two passes differ by more than 1 %,
an action cache line is not the expected one or a check failed (the
report is written anyway and names them). A missed target is reported,
not an error.
"""
import argparse
import datetime
import errno
import os
import sys
from collections import defaultdict

from report import TOLERANCE, Pair, check_pair, finish, fmt

HERE = os.path.dirname(os.path.abspath(__file__))
OPS = ["nop", "read", "openat2", "openat2_creat", "socket", "socket_vsock",
       "connect"]
CONFIGS = ["none", "sec_a", "iou_a", "iou_a_sys", "sec_b", "iou_b", "iou_b_sys"]
STOCK_CONFIGS = ["none", "iou_a", "iou_b"]
POLICY_CONFIGS = {"a": ("sec_a", "iou_a", "iou_a_sys"),
                  "b": ("sec_b", "iou_b", "iou_b_sys")}
REFUSED = {"a": {"openat2_creat", "socket_vsock"},
           "b": set(OPS) - {"nop", "read"}}
CHECKS = {"patched": ["iou_old_ring", "iou_deny_rest_first", "iou_refusal_ends_batch",
                      "sec_old_ring", "sec_refusal_continues_batch"],
          "stock": ["iou_old_ring", "iou_deny_rest_first", "iou_refusal_ends_batch"]}
T1_SLACK = 20
T1_OPS = ["nop", "read"]
T2_OPS = ["openat2", "openat2_creat", "socket", "socket_vsock"]
SECCOMP_DENY = 0x00050000 | errno.EPERM     # SECCOMP_RET_ERRNO | EPERM

OP_TEXT = {
    "nop": "IORING_OP_NOP",
    "read": "IORING_OP_READ, 4 KiB O_DIRECT, null_blk",
    "openat2": "IORING_OP_OPENAT2, O_RDONLY",
    "openat2_creat": "IORING_OP_OPENAT2, O_RDWR\\|O_CREAT",
    "socket": "IORING_OP_SOCKET, AF_UNIX",
    "socket_vsock": "IORING_OP_SOCKET, AF_VSOCK",
    "connect": "IORING_OP_CONNECT, AF_UNIX (refused by the peer)",
}
CONFIG_TEXT = {
    "none": "no filter",
    "sec_a": "A (i): seccomp, opted in",
    "iou_a": "A (ii): io_uring task filters",
    "iou_a_sys": "A (ii) + A as seccomp for syscalls only",
    "sec_b": "B (i): seccomp, opted in",
    "iou_b": "B (ii): io_uring task filters, DENY_REST",
    "iou_b_sys": "B (ii) + B as seccomp for syscalls only",
}


class Data:
    def __init__(self):
        self.side = defaultdict(Pair)   # (kernel, config, op) -> Pair
        self.cache = {}                 # (config, op) -> set of descriptions
        self.checks = {}                # (kernel, name) -> (status, observed, expected)

    def m(self, config, op, kernel="patched"):
        return self.side[(kernel, config, op)].mean

    def added(self, config, op, kernel="patched"):
        return self.m(config, op, kernel) - self.m("none", op, kernel)


def parse(path, kernel, d):
    with open(path, errors="replace") as f:
        for raw in f:
            w = raw.split()
            try:
                if w[:1] == ["SIDE"] and len(w) == 6:
                    d.side[(kernel, w[1], w[2])].add(int(w[3]), float(w[4]))
                elif w[:1] == ["CACHE"] and len(w) == 5 and kernel == "patched":
                    d.cache.setdefault((w[1], w[2]), set()).add(w[4])
                elif w[:1] == ["CHECK"] and len(w) == 5:
                    d.checks[(kernel, w[1])] = (w[2], w[3], w[4])
            except ValueError:
                sys.exit(f"{path}: malformed line: {raw.strip()}")


def policy_of(config):
    return config.split("_")[1] if config != "none" else None


def decision(config, op):
    """What the configuration does with the op: allowed, or the errno."""
    p = policy_of(config)
    if p is None or op not in REFUSED[p]:
        return "allowed"
    return "EPERM" if config.startswith("sec_") else "EACCES"


def expected_cache(config, op):
    """What the action cache must say about the op's SQEs (sec_ configs)."""
    p = policy_of(config)
    if p == "a":
        return "bpf" if op in T2_OPS else "allow"
    if op in REFUSED["b"]:
        return f"const:0x{SECCOMP_DENY:08x}"
    return "allow"


def expected_keys(have_stock):
    kernels = [("patched", CONFIGS)] + ([("stock", STOCK_CONFIGS)] if have_stock else [])
    for kernel, configs in kernels:
        for cfg in configs:
            for op in OPS:
                yield (kernel, cfg, op)


def self_check(d, have_stock):
    problems, worst = [], 0.0
    for key in expected_keys(have_stock):
        worst = max(worst, check_pair("side " + " ".join(key), d.side.get(key), problems))
    for cfg in ("sec_a", "sec_b"):
        for op in OPS:
            got, want = d.cache.get((cfg, op), set()), expected_cache(cfg, op)
            if got != {want}:
                problems.append(f"action cache {cfg} {op}: {sorted(got) or 'no line'}, "
                                f"expected {want}")
    for kernel in ("patched", "stock") if have_stock else ("patched",):
        for name in CHECKS[kernel]:
            c = d.checks.get((kernel, name))
            if c is None:
                problems.append(f"check {name} ({kernel}): did not run")
            elif c[0] != "pass":
                problems.append(f"check {name} ({kernel}): observed {c[1]}, expected {c[2]}")
    return problems, worst


def verdict(ok, bold=False):
    """PASS or FAIL; FAIL always stands out, PASS too if @bold."""
    return ("**PASS**" if bold else "PASS") if ok else "**FAIL**"


def t1_rows(d):
    """T1: the opted-in allow fast path vs io_uring's no-filter-for-this-opcode.
    Returns the table rows and {op: met}."""
    rows, oks = [], {}
    for op in T1_OPS:
        ours, theirs = d.added("sec_a", op), d.added("iou_a", op)
        ok = ours <= theirs + T1_SLACK
        oks[op] = ok
        rows.append(f"| T1 {op} | {fmt(d.m('none', op))} | {fmt(d.m('sec_a', op))} "
                    f"({ours:+.1f}) | {fmt(d.m('iou_a', op))} ({theirs:+.1f}) | "
                    f"{ours:+.1f} <= {theirs:+.1f} + {T1_SLACK} | {verdict(ok)} |")
    return rows, oks


def t2_rows(d):
    """T2: a seccomp filter run vs io_uring's cBPF run, same op, same decision."""
    rows, oks = [], []
    for op in T2_OPS:
        ours, theirs = d.m("sec_a", op), d.m("iou_a", op)
        ok = ours <= theirs
        oks.append(ok)
        dec = "refused" if op in REFUSED["a"] else "allowed"
        rows.append(f"| T2 {op} ({dec}) | {fmt(d.m('none', op))} | {fmt(ours)} "
                    f"({d.added('sec_a', op):+.1f}) | {fmt(theirs)} "
                    f"({d.added('iou_a', op):+.1f}) | {fmt(ours)} <= {fmt(theirs)} "
                    f"({ours - theirs:+.1f}, ratio {ours / theirs:.3f}) | {verdict(ok)} |")
    return rows, all(oks)


def policy_table(d, p):
    sec, iou, sys_ = POLICY_CONFIGS[p]
    lines = [f"| SQE | decision | no filter | seccomp (i) | io_uring (ii) | "
             f"io_uring (ii) + seccomp for syscalls | (i) - (ii) | (i) - ((ii) + syscalls) |",
             "|---|---|---|---|---|---|---|---|"]
    for op in OPS:
        dec = decision(sec, op)
        dec = "allowed" if dec == "allowed" else "refused (EPERM / EACCES)"
        cells = [fmt(d.m("none", op))]
        for cfg in (sec, iou, sys_):
            cells.append(f"{fmt(d.m(cfg, op))} ({d.added(cfg, op):+.1f})")
        cells.append(f"{d.m(sec, op) - d.m(iou, op):+.1f}")
        cells.append(f"{d.m(sec, op) - d.m(sys_, op):+.1f}")
        lines.append(f"| {OP_TEXT[op]} | {dec} | {' | '.join(cells)} |")
    return lines


def stock_table(d):
    lines = ["| SQE | configuration | stock 7.3 | patched 7.3 | patched - stock |",
             "|---|---|---|---|---|"]
    for op in OPS:
        for cfg in STOCK_CONFIGS:
            s, p = d.m(cfg, op, "stock"), d.m(cfg, op)
            lines.append(f"| {OP_TEXT[op]} | {CONFIG_TEXT[cfg]} | {fmt(s)} | {fmt(p)} | "
                         f"{p - s:+.1f} ({p / s - 1:+.2%}) |")
    return lines


def cache_table(d):
    lines = ["| SQE | twin | A (i) | B (i) |", "|---|---|---|---|"]
    twins = {"nop": "io_uring_enter", "read": "pread64", "openat2": "openat2",
             "openat2_creat": "openat2", "socket": "socket",
             "socket_vsock": "socket", "connect": "connect"}
    for op in OPS:
        cells = [", ".join(sorted(d.cache.get((cfg, op), {"-"}))) for cfg in ("sec_a", "sec_b")]
        lines.append(f"| {OP_TEXT[op]} | {twins[op]} | {' | '.join(cells)} |")
    return lines


def checks_table(d, have_stock):
    lines = ["| check | kernel | observed | expected | |", "|---|---|---|---|---|"]
    for kernel in ("patched", "stock") if have_stock else ("patched",):
        for name in CHECKS[kernel]:
            st, obs, exp = d.checks.get((kernel, name), ("missing", "-", "-"))
            lines.append(f"| `{name}` | {kernel} | {obs} | {exp} | {st} |")
    return lines


def write_csv(d, have_stock, out):
    with open(f"{out}/side-by-side.csv", "w") as f:
        f.write("kernel,config,op,decision,pass1,pass2,insns_per_sqe,added_vs_none,"
                "action_cache\n")
        for key in expected_keys(have_stock):
            kernel, cfg, op = key
            pr = d.side.get(key, Pair())
            cache = ";".join(sorted(d.cache.get((cfg, op), set()))) \
                if kernel == "patched" else ""
            f.write(f"{kernel},{cfg},{op},{decision(cfg, op)},{pr.passes.get(1, '')},"
                    f"{pr.passes.get(2, '')},{fmt(pr.mean, 2)},"
                    f"{fmt(pr.mean - d.m('none', op, kernel), 2)},{cache}\n")


def method_lines(args, worst, problems):
    return [
        "# Opted-in seccomp filters beside io_uring's own BPF filters (Linux 7.3)", "",
        f"Patched kernel commit {args.commit}, {datetime.date.today().isoformat()}. "
        "Both mechanisms run on the patched kernel, in one boot; the io_uring "
        "filters alone also on stock 7.3 (last table).", "",
        "**Unit: guest instructions per SQE** (QEMU TCG, `-icount shift=0,sleep=off`, "
        "one vCPU: a CLOCK_MONOTONIC difference in the guest is the number of guest "
        "instructions executed). Per SQE: (R rounds of 32 SQEs, submitted and reaped "
        "by one io_uring_enter(2) each) minus (the same loop with no SQE), over 32 R, "
        "the median of nine such measurements. User-space work per SQE (filling it, "
        "checking its result) is in every column alike; instruction counts leave out "
        "cache and branch effects, and count each iteration of a `rep`-prefixed "
        "string instruction. Each configuration and op runs in a fresh child that "
        "makes what the op uses, loads the filters, then sets up its ring "
        "(io_uring task filters are copied into rings set up afterwards) with "
        "IORING_SETUP_SUBMIT_ALL (without it an SQE io_uring's filters refuse ends "
        "its batch, see the checks); ring setup is outside the measured loop, and so "
        "is closing the fds the SQEs made (a close(2) costs more under any seccomp "
        "filter). Every result is checked (allowed result, or -EPERM from seccomp, "
        "-EACCES from io_uring's filters).", "",
        "Policies. **A**: refuse socket(AF_VSOCK) and openat/openat2 with O_CREAT, "
        "allow the rest. **B**: refuse every io_uring operation but READ, WRITE, NOP. "
        "(i) is one seccomp filter loaded with SECCOMP_FILTER_FLAG_URING | "
        "SECCOMP_FILTER_FLAG_EXT_ARGS (A reads socket's args[0], openat's args[2] and "
        "openat2's open_how.flags in the extension area; B allows pread64, pwrite64, "
        "io_uring_enter, the twins of READ, WRITE, NOP, for any arguments, and the "
        "system calls the benchmark makes, to system calls only, by the extension "
        "area's SECCOMP_EXT_URING flag; anything else ERRNO(EPERM)). (ii) is "
        "io_uring task filters (IORING_REGISTER_BPF_FILTER, fd -1): A, a cBPF filter "
        "for SOCKET (family) and one for OPENAT and OPENAT2 (flags), none for other "
        "opcodes; B, allow filters for READ, WRITE and NOP, the last registered with "
        "DENY_REST. \"(ii) + seccomp for syscalls\" adds the policy as a seccomp "
        "filter that does not judge SQEs: a sandbox that has both, as any container "
        "has a seccomp filter (it makes the io_uring_enter(2) of each batch, and so "
        "each SQE, pay seccomp's syscall entry, as (i) does). Filters: "
        "bench/filters/side_policy_*.c.", "",
        f"Self-check: each figure measured twice in the same boot, by two fresh "
        f"children one after the other; largest difference between the passes "
        f"{worst:.3%} (allowed {TOLERANCE:.0%}). "
        + ("All passed." if not problems else
           f"**{len(problems)} problems** (listed at the end)."),
    ]


def notes(d):
    read_ours = d.added("sec_a", "read")
    nop_theirs = d.added("iou_a", "nop")
    return [
        "", "## Where each check runs, and what the targets compare", "",
        "io_uring's filters run in io_submit_sqe() right after io_init_req(), i.e. "
        "after prep, for every SQE of a ring that has any filter: "
        "`__io_uring_run_bpf_filters()` is called even for an opcode without a "
        "filter, and returns at its first test. In the patched tree they run in "
        "`io_init_filter_req()`, the same place. Ours has two places: an opcode "
        "whose twin opdef names (NOP, SOCKET, CONNECT, ...) is answered before prep "
        "by one bit of the action cache's allow bitmap (`io_seccomp_allowed()`); "
        "anything else is prepared, then shown to io_uring's filters, then judged "
        "by `io_seccomp_check()`, which gathers the twin's arguments and lets the "
        "cache (constant verdicts) or the filters answer.", "",
        f"READ is not on the bitmap path: its twin depends on what prep found "
        f"(rw.c `io_rw_seccomp_nr()`: pread64, read for an offset of -1, preadv2 "
        f"with rw_flags), so opdef gives it no fixed number "
        f"(`io_seccomp_optable_init()`) and every READ SQE goes through "
        f"`io_seccomp_check()` although the cache then allows pread64 at once "
        f"(the `allow` in the cache table): {read_ours:+.1f} per SQE, against "
        f"{d.added('sec_a', 'nop'):+.1f} for NOP. T1 for READ measures that path.", "",
        f"io_uring's \"no filter for this opcode\" costs {nop_theirs:+.1f} per NOP: "
        "`__io_uring_run_bpf_filters()` is an out-of-line call that zeroes its "
        "on-stack `struct io_uring_bpf_ctx` (CONFIG_INIT_STACK_ALL_ZERO) before "
        "its first test. The guest counts each iteration of that `rep stos`; a "
        "CPU executes it as one instruction, so on hardware that column is "
        "cheaper than its count says.", "",
        "A judged SQE (T2) pays `io_seccomp_check()` (the twin's arguments), "
        "`seccomp_uring_check_current()`, and, since policy A's filter reads the "
        "extension area for openat2, `seccomp_uring_run_chain_ext()` for every "
        "twin its filter runs for, socket included (the choice is per chain, not "
        "per twin): a copy of the seccomp_data and a zeroed 160-byte extension "
        "area before the filter runs. OPENAT2 adds a private copy of the SQE "
        "(`io_submit_sqe_judge_copy()`, its view reads the SQE) and the "
        "description of open_how (`seccomp_ext_describe()`: a copy, then the "
        "offset of its last non-zero byte). io_uring's cBPF run zeroes and fills "
        "a 40-byte context and runs the program. Per kernel function: "
        "`bench/profile/profile.sh KERNEL_DIR sec_a socket side` (and `iou_a`).", "",
        "Known instability: a refused OPENAT2 (refused after prep by both "
        "mechanisms, so its `struct filename` lives until the batch's "
        "completions are flushed, 32 at a time) can take one of a few values "
        "per SQE: all children of one run of side_by_side get the same one, the "
        "next run may get another, also with address space randomization off. Our "
        "reading, not verified further: the phase of the CPU's slab sheaf of "
        "names_cache when the measurement begins, which the measurement's "
        "balanced allocations keep (an allowed OPENAT2 frees its name at once "
        "and does not vary so). Seen on stock 7.3 under io_uring's filters as "
        "two runs of side_by_side in one boot further apart than the self-check "
        "allows, so the two passes of each figure are measured in one run, "
        "one fresh child after the other. The seccomp and io_uring figures it "
        "moves differ by far more than that.", "",
        "`io_uring_bpf_ctx` carries no fd, no buffer, no length or offset, and "
        "arguments only for SOCKET, OPENAT, OPENAT2 and CONNECT (see the "
        "capabilities table): policy A's seccomp filter could also check, say, "
        "READ's fd; io_uring's filters cannot.",
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--patched", required=True)
    ap.add_argument("--stock")
    ap.add_argument("--commit", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()

    d = Data()
    parse(args.patched, "patched", d)
    have_stock = bool(args.stock)
    if have_stock:
        parse(args.stock, "stock", d)
    problems, worst = self_check(d, have_stock)
    write_csv(d, have_stock, args.out)
    t1, t1_ok = t1_rows(d)
    t2, t2_ok = t2_rows(d)

    lines = method_lines(args, worst, problems)
    lines += ["", "## Targets", "",
              f"**T1** (the opted-in allow fast path costs no more than io_uring's "
              f"check of an opcode without a filter plus {T1_SLACK} instructions, both "
              f"over no filter; policy A, whose io_uring filters are for other "
              f"opcodes): "
              + ", ".join(f"{verdict(ok, True)} for {op.upper()}" for op, ok in t1_ok.items())
              + ". **T2** (a seccomp filter run costs no "
              f"more than io_uring's cBPF run for the same decision; policy A): "
              f"{verdict(t2_ok, True)}.", "",
              "| target | no filter | seccomp (i) (added) | io_uring (ii) (added) | "
              "condition | |", "|---|---|---|---|---|---|"]
    lines += t1 + t2
    lines += ["", "## Policy A (instructions per SQE; added over no filter in "
              "parentheses)", ""]
    lines += policy_table(d, "a")
    lines += ["", "## Policy B (instructions per SQE; added over no filter in "
              "parentheses)", ""]
    lines += policy_table(d, "b")
    lines += ["", "## What seccomp's action cache says about each SQE's twin", "",
              "From /proc/self/seccomp_cache in each child after loading (i): "
              "`allow` the allow bitmap, `const:` a constant verdict (no filter "
              "runs), `bpf` the filter runs.", ""]
    lines += cache_table(d)
    lines += notes(d)
    if have_stock:
        lines += ["", "## io_uring's filters on stock and patched 7.3", "",
                  "The series should not change what io_uring's own filters cost.", ""]
        lines += stock_table(d)
    lines += ["", "## Behaviour checks", "",
              "What the code of each mechanism says, observed in the guest "
              "(bench/micro/side_checks.c); results are CQE results (-97 "
              "EAFNOSUPPORT: no vsock in the guest, so unfiltered), or SQEs "
              "submitted by one io_uring_enter(2).", ""]
    lines += checks_table(d, have_stock)
    with open(os.path.join(HERE, "side_by_side_capabilities.md")) as f:
        caps = f.read().rstrip("\n").split("\n")
    lines += ["", "## Capabilities", "",
              "From the code of the patched 7.3 tree (ours) and of stock 7.3 "
              "(upstream's); files under io_uring/ unless named otherwise.", ""]
    lines += caps
    return finish(f"{args.out}/side-by-side.md", lines, problems, "side_by_side.py")


if __name__ == "__main__":
    sys.exit(main())
