#!/usr/bin/env python3
"""Usage: scripts/compare-seccomp-bpf.py STOCK_LOG PATCHED_LOG

The regression check: reads the raw seccomp_bpf TAP that
scripts/guest/suites/30-seccomp-bpf.sh printed (behind "#| ", between
"# seccomp_bpf-raw begin" and "# seccomp_bpf-raw end (exit N, ...)") in
each guest log and prints TAP. On each kernel seccomp_bpf ran to its
end (its plan, as many results, its "# Totals:" line agreeing with them,
the end marker with its exit status) and no case failed there (the
stock run must be clean too: a case failing on both kernels is a
failure, not a match); the pass/fail/skip counts are equal, and every
case has the same result on both kernels.
"""
import re
import sys

RESULT = re.compile(r"^(not ok|ok) \d+ (\S+)(?: # (SKIP|XFAIL|XPASS|TODO)\b.*| # .*)?$")
PLAN = re.compile(r"^1\.\.(\d+)")
TOTALS = re.compile(r"^# Totals: pass:(\d+) fail:(\d+) xfail:(\d+) xpass:(\d+) "
                    r"skip:(\d+) error:(\d+)")
END = re.compile(r"^# seccomp_bpf-raw end \(exit (\S+?),")


class Run:
    """One kernel's seccomp_bpf run: case name -> pass/fail/skip."""

    def __init__(self, path):
        self.res, self.plan, self.totals, self.exit = {}, None, None, None
        self.begun, self.lines, self.problems = False, 0, []
        try:
            f = open(path, errors="replace")
        except OSError as e:
            self.problems.append(f"cannot read {path}: {e.strerror}")
            return
        with f:
            for raw in f:
                self.line(raw.rstrip("\r\n"))

    def line(self, line):
        if line.startswith("# seccomp_bpf-raw begin"):
            self.begun = True
            return
        m = END.match(line)
        if m:
            self.exit = m.group(1)
            return
        if not line.startswith("#| "):
            return
        line = line[3:]
        m = PLAN.match(line)
        if m:
            self.plan = int(m.group(1))
        m = TOTALS.match(line)
        if m:
            self.totals = tuple(int(x) for x in m.groups())
        m = RESULT.match(line)
        if m:
            self.lines += 1
            status, name, directive = m.groups()
            if name in self.res:
                self.problems.append(f"case {name} reported twice")
            if directive == "SKIP":
                self.res[name] = "skip"
            elif status == "ok" and directive is None:
                self.res[name] = "pass"
            else:
                self.res[name] = "fail"

    def counts(self):
        return tuple(sum(1 for v in self.res.values() if v == k)
                     for k in ("pass", "fail", "skip"))

    def truncated(self):
        """Why this run is not a whole run, or None."""
        why = list(self.problems)
        if not self.begun:
            why.append("no \"# seccomp_bpf-raw begin\" (not run)")
        if self.plan is None:
            why.append("no plan")
        elif self.plan != self.lines:
            why.append(f"planned {self.plan} cases, ran {self.lines}")
        if self.totals is None:
            why.append("no \"# Totals:\" line")
        else:
            p, f, xf, xp, s, e = self.totals
            if (p, f + xf + xp + e, s) != self.counts():
                why.append(f"\"# Totals:\" pass:{p} fail:{f} skip:{s} disagrees with"
                           " the results printed")
        if self.exit is None:
            why.append("no \"# seccomp_bpf-raw end\" line with its exit status")
        return "; ".join(why) or None


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    runs = (("stock", Run(argv[0])), ("patched", Run(argv[1])))
    print("TAP version 13")
    print("1..6")
    n = 0
    for label, run in runs:
        n += 1
        p, f, s = run.counts()
        why = run.truncated()
        if why:
            print(f"# {label}: {why}")
        print(f"{'not ok' if why else 'ok'} {n} seccomp_bpf ran to its end on {label} "
              f"({p} passed, {f} failed, {s} skipped, exit {run.exit})")
    for label, run in runs:
        n += 1
        failed = sorted(k for k, v in run.res.items() if v == "fail")
        for k in failed:
            print(f"# {label}: {k} failed")
        ok = run.res and not failed and run.exit == "0"
        print(f"{'ok' if ok else 'not ok'} {n} no seccomp_bpf case failed on {label} "
              f"({len(failed)} failed, exit {run.exit})")
    (_, stock), (_, patched) = runs
    cs, cp = stock.counts(), patched.counts()
    ok = "ok" if stock.res and cs == cp else "not ok"
    print(f"{ok} 5 seccomp_bpf counts equal: stock {cs[0]}/{cs[1]}/{cs[2]}, "
          f"patched {cp[0]}/{cp[1]}/{cp[2]} (pass/fail/skip)")
    diffs = sorted(k for k in set(stock.res) | set(patched.res)
                   if stock.res.get(k) != patched.res.get(k))
    for k in diffs:
        print(f"# {k}: stock {stock.res.get(k, 'missing')}, "
              f"patched {patched.res.get(k, 'missing')}")
    ok = "ok" if stock.res and not diffs else "not ok"
    print(f"{ok} 6 every seccomp_bpf case has the same result on both kernels "
          f"({len(stock.res)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
