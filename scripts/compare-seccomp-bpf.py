#!/usr/bin/env python3
"""Usage: scripts/compare-seccomp-bpf.py STOCK_LOG PATCHED_LOG

The regression check: reads the raw seccomp_bpf TAP that
scripts/guest/suites/30-seccomp-bpf.sh printed (behind "#| ") in each
guest log and prints TAP: it ran on each kernel, the pass/fail/skip
counts are equal, and every case has the same result on both kernels.
"""
import re
import sys

RESULT = re.compile(r"^(not ok|ok) \d+ (\S+)(?: # (SKIP|XFAIL)\b.*)?$")


def results(path):
    """Case name -> pass/fail/skip, in the order seen."""
    out = {}
    with open(path, errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\r\n")
            if not line.startswith("#| "):
                continue
            m = RESULT.match(line[3:])
            if m:
                status, name, directive = m.groups()
                out[name] = "skip" if directive else ("pass" if status == "ok" else "fail")
    return out


def counts(res):
    return tuple(sum(1 for v in res.values() if v == k) for k in ("pass", "fail", "skip"))


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    stock, patched = results(argv[0]), results(argv[1])
    print("TAP version 13")
    print("1..4")
    n = 0
    for label, res in (("stock", stock), ("patched", patched)):
        n += 1
        p, f, s = counts(res)
        ok = "ok" if res else "not ok"
        print(f"{ok} {n} seccomp_bpf ran on {label} ({p} passed, {f} failed, {s} skipped)")
    cs, cp = counts(stock), counts(patched)
    ok = "ok" if stock and cs == cp else "not ok"
    print(f"{ok} 3 seccomp_bpf counts equal: stock {cs[0]}/{cs[1]}/{cs[2]}, "
          f"patched {cp[0]}/{cp[1]}/{cp[2]} (pass/fail/skip)")
    diffs = sorted(k for k in set(stock) | set(patched) if stock.get(k) != patched.get(k))
    for k in diffs:
        print(f"# {k}: stock {stock.get(k, 'missing')}, patched {patched.get(k, 'missing')}")
    ok = "ok" if stock and not diffs else "not ok"
    print(f"{ok} 4 every seccomp_bpf case has the same result on both kernels ({len(stock)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
