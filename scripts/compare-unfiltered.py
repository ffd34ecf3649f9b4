#!/usr/bin/env python3
"""Usage: scripts/compare-unfiltered.py STOCK_LOG PATCHED_LOG

Unfiltered io_uring must behave the same on both kernels. Reads, from
each guest log, the "none/CASE" rows of the profile-equivalence suite
(each case as a system call and as its SQE, no filter loaded: result,
data read, and the state the fixture was left in) and the results of
liburing's own tests (suite liburing-upstream), and prints TAP for each
kind: both kernels ran them, none failed on either kernel (a failure on
both is a failure, not a match), each case is present on both, and each
has the same outcome on both.
"""
import re
import sys

ROW = re.compile(r"^(not ok|ok) \d+ none/(\S+): (?:same|DIFFERENT): (.*)$")
# "not ok 7 name # exit 1" too: any text after " # " is a directive or a note
RESULT = re.compile(r"^(not ok|ok) \d+ (\S+)(?: # (.*))?$")


def outcomes(path):
    """(equivalence case -> (status, outcome), liburing test -> pass/fail/skip)."""
    cases, upstream, suite = {}, {}, None
    try:
        f = open(path, errors="replace")
    except OSError as e:
        print(f"# cannot read {path}: {e.strerror}")
        return cases, upstream
    with f:
        for raw in f:
            line = raw.rstrip("\r\n")
            if line.startswith("# suite: "):
                suite = line[9:].strip()
                continue
            m = ROW.match(line)
            if m and suite == "profile-equivalence":
                cases[m.group(2)] = ("pass" if m.group(1) == "ok" else "fail", m.group(3))
            m = RESULT.match(line)
            if suite == "liburing-upstream" and m:
                status, name, note = m.groups()
                skip = note is not None and note.upper().startswith("SKIP")
                upstream[name] = "skip" if skip and status == "ok" else (
                    "pass" if status == "ok" and note is None else "fail")
    return cases, upstream


def failed(value):
    return (value[0] if isinstance(value, tuple) else value) == "fail"


def compare(n, what, stock, patched):
    """TAP lines n..n+5 for one kind of result."""
    runs = (("stock", stock), ("patched", patched))
    for i, (label, res) in enumerate(runs):
        print(f"{'ok' if res else 'not ok'} {n + i} {what} ran on {label} ({len(res)})")
    for i, (label, res) in enumerate(runs):
        bad = sorted(k for k, v in res.items() if failed(v))
        for k in bad:
            detail = f": {res[k][1]}" if isinstance(res[k], tuple) else ""
            print(f"# {label}: {k} failed{detail}")
        print(f"{'not ok' if bad or not res else 'ok'} {n + 2 + i} {what}: none failed "
              f"on {label} ({len(bad)} failed)")
    missing = sorted(set(stock) ^ set(patched))
    for k in missing:
        print(f"# {k}: only on {'stock' if k in stock else 'patched'}")
    print(f"{'not ok' if missing or not stock else 'ok'} {n + 4} {what}: every one ran "
          f"on both kernels ({len(missing)} on one only)")
    diffs = sorted(k for k in set(stock) & set(patched) if stock[k] != patched[k])
    for k in diffs:
        print(f"# {k}:\n#   stock   {stock[k]}\n#   patched {patched[k]}")
    ok = "ok" if stock and not diffs else "not ok"
    print(f"{ok} {n + 5} {what}: the same outcome on stock and patched "
          f"({len(stock)}, {len(diffs)} different)")


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    (s_cases, s_up), (p_cases, p_up) = outcomes(argv[0]), outcomes(argv[1])
    print("TAP version 13")
    print("1..12")
    compare(1, "unfiltered equivalence cases", s_cases, p_cases)
    compare(7, "liburing's own tests", s_up, p_up)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
