#!/usr/bin/env python3
"""Usage: scripts/compare-unfiltered.py STOCK_LOG PATCHED_LOG

Unfiltered io_uring must behave the same on both kernels. Reads, from
each guest log, the "none/CASE" rows of the profile-equivalence suite
(each case as a system call and as its SQE, no filter loaded: result,
data read, and the state the fixture was left in) and prints TAP: both
kernels ran the cases, and every case has the same outcome on both.
"""
import re
import sys

ROW = re.compile(r"^(?:not ok|ok) \d+ none/(\S+): (?:same|DIFFERENT): (.*)$")


def outcomes(path):
    """Case -> outcome line, for the unfiltered column."""
    out = {}
    with open(path, errors="replace") as f:
        for raw in f:
            m = ROW.match(raw.rstrip("\r\n"))
            if m:
                out[m.group(1)] = m.group(2)
    return out


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    stock, patched = outcomes(argv[0]), outcomes(argv[1])
    print("TAP version 13")
    print("1..3")
    for n, (label, res) in enumerate((("stock", stock), ("patched", patched)), 1):
        print(f"{'ok' if res else 'not ok'} {n} unfiltered io_uring cases ran on {label} "
              f"({len(res)} cases)")
    diffs = sorted(k for k in set(stock) | set(patched) if stock.get(k) != patched.get(k))
    for k in diffs:
        print(f"# {k}:\n#   stock   {stock.get(k, 'missing')}\n#   patched {patched.get(k, 'missing')}")
    ok = "ok" if stock and not diffs else "not ok"
    print(f"{ok} 3 unfiltered, every case has the same outcome on stock and patched "
          f"({len(stock)} cases, {len(diffs)} different)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
