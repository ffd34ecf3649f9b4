#!/usr/bin/env python3
"""Usage: scripts/parse-results.py [--host LABEL=TAP]... [--guest LABEL=LOG]...

Reads the TAP/KTAP the tests printed and ends with one line
"N passed, N failed, N skipped". A guest log must hold "# guest-done"
(else the guest crashed or hung) and no kernel splat (Oops, BUG, WARNING,
KASAN, panic, lockdep, ...). Every "# suite:" section must have a plan
whose count matches its results. A guest labelled "stock..." runs the
unpatched kernel: its "# SKIP BYPASS" results are counted and listed as
bypasses reproduced, and there must be at least one. Exits 1 on any
failure.
"""
import re
import sys

SPLAT = re.compile(
    r"(BUG: |WARNING: |Oops|Kernel panic|KASAN|UBSAN|general protection fault"
    r"|possible circular locking|possible recursive locking|INFO: task .* blocked"
    r"|kmemleak: .* new suspected|BUG kmalloc|list_add corruption|Call Trace:)")
RESULT = re.compile(r"^(not ok|ok) (\d+) (.*?)(?: # (SKIP|TODO|XFAIL)\b ?(.*))?$")
PLAN = re.compile(r"^1\.\.(\d+)")


class Tally:
    def __init__(self):
        self.passed = self.failed = self.skipped = self.bypass = 0
        self.problems = []


def parse_tap(label, lines, tally, guest):
    suite, plan, seen, context = None, None, 0, []

    def close_suite():
        if suite is not None and plan is not None and plan != seen:
            tally.problems.append(f"{label}: suite {suite} planned {plan} tests, ran {seen}")
        if suite is not None and plan is None:
            tally.problems.append(f"{label}: suite {suite} printed no plan")

    done = False
    for raw in lines:
        line = raw.rstrip("\r\n")
        # the serial console may prefix the guest's lines with kernel output
        if guest and SPLAT.search(line):
            tally.problems.append(f"{label}: kernel splat: {line.strip()}")
        if line.startswith("# suite: "):
            close_suite()
            suite, plan, seen, context = line[9:].strip(), None, 0, []
            continue
        if line.startswith("# guest-done"):
            done = True
            continue
        m = PLAN.match(line)
        if m:
            plan = int(m.group(1))
            continue
        m = RESULT.match(line)
        if not m:
            if line.startswith("#"):
                context = (context + [line])[-12:]
            continue
        seen += 1
        status, _, name, directive, reason = m.groups()
        reason = reason or ""
        if status == "not ok" and directive not in ("TODO",):
            tally.failed += 1
            print(f"FAIL {label}: {name}")
            for c in context:
                print(f"    {c}")
        elif directive == "SKIP":
            tally.skipped += 1
            if reason.startswith("BYPASS"):
                tally.bypass += 1
                print(f"BYPASS {label}: {name}: {reason}")
        else:
            tally.passed += 1
        context = []
    close_suite()
    if suite is None and not guest and seen == 0:
        tally.problems.append(f"{label}: no test results")
    if guest and not done:
        tally.problems.append(f"{label}: guest did not finish (crash, panic or timeout)")


def main(argv):
    total = Tally()
    items = []
    i = 0
    while i < len(argv):
        kind = argv[i]
        if kind not in ("--host", "--guest") or i + 1 >= len(argv) or "=" not in argv[i + 1]:
            sys.exit(__doc__)
        label, path = argv[i + 1].split("=", 1)
        items.append((kind == "--guest", label, path))
        i += 2
    if not items:
        sys.exit(__doc__)
    for guest, label, path in items:
        tally = Tally()
        try:
            with open(path, errors="replace") as f:
                parse_tap(label, f, tally, guest)
        except OSError as e:
            tally.problems.append(f"{label}: cannot read {path}: {e.strerror}")
        stock = label.startswith("stock")
        if stock:
            if tally.bypass == 0:
                tally.problems.append(f"{label}: the stock kernel reproduced no bypass")
            print(f"{label}: {tally.bypass} bypasses reproduced "
                  f"(io_uring ran the operation the filter denies)")
        for p in tally.problems:
            print(f"ERROR {p}")
        print(f"{label}: {tally.passed} passed, {tally.failed} failed, "
              f"{tally.skipped} skipped")
        total.passed += tally.passed
        total.failed += tally.failed + len(tally.problems)
        total.skipped += tally.skipped
    print(f"{total.passed} passed, {total.failed} failed, {total.skipped} skipped")
    return 1 if total.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
