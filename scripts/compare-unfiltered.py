#!/usr/bin/env python3
"""Usage: scripts/compare-unfiltered.py STOCK_LOG PATCHED_LOG

Unfiltered io_uring must behave the same on both kernels. Reads, from
each guest log, the "none/CASE" rows of the profile-equivalence suite
(each case as a system call and as its SQE, no filter loaded: result,
data read, and the state the fixture was left in) and the results of
liburing's own tests (suite liburing-upstream), and prints TAP: both
kernels ran them, and each has the same outcome on both.
"""
import re
import sys

ROW = re.compile(r"^(?:not ok|ok) \d+ none/(\S+): (?:same|DIFFERENT): (.*)$")
RESULT = re.compile(r"^(not ok|ok) \d+ (\S+)(?: # (SKIP)\b.*)?$")


def outcomes(path):
    """(equivalence case -> outcome, liburing test -> pass/fail/skip)."""
    cases, upstream, suite = {}, {}, None
    with open(path, errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\r\n")
            if line.startswith("# suite: "):
                suite = line[9:].strip()
                continue
            m = ROW.match(line)
            if m:
                cases[m.group(1)] = m.group(2)
            m = RESULT.match(line)
            if suite == "liburing-upstream" and m:
                status, name, skip = m.groups()
                upstream[name] = "skip" if skip else ("pass" if status == "ok" else "fail")
    return cases, upstream


def compare(n, what, stock, patched):
    """TAP lines n..n+2 for one kind of result."""
    for i, (label, res) in enumerate((("stock", stock), ("patched", patched))):
        print(f"{'ok' if res else 'not ok'} {n + i} {what} ran on {label} ({len(res)})")
    diffs = sorted(k for k in set(stock) | set(patched) if stock.get(k) != patched.get(k))
    for k in diffs:
        print(f"# {k}:\n#   stock   {stock.get(k, 'missing')}\n#   patched {patched.get(k, 'missing')}")
    ok = "ok" if stock and not diffs else "not ok"
    print(f"{ok} {n + 2} {what}: the same outcome on stock and patched "
          f"({len(stock)}, {len(diffs)} different)")


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    (s_cases, s_up), (p_cases, p_up) = outcomes(argv[0]), outcomes(argv[1])
    print("TAP version 13")
    print("1..6")
    compare(1, "unfiltered equivalence cases", s_cases, p_cases)
    compare(4, "liburing's own tests", s_up, p_up)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
