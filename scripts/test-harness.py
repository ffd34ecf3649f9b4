#!/usr/bin/env python3
"""Usage: scripts/test-harness.py [SCRIPTS_DIR]

The checks of the checks: feeds synthetic guest logs and TAP to
parse-results.py, compare-seccomp-bpf.py and compare-unfiltered.py, runs
the guest suites that map exit codes (10, 20, 30, 50) on fake test
programs, and expected-suites.sh on fake suite files, and prints TAP: a
good run passes, and each way a run can go wrong fails it. Also checks
that scripts/allowed-skips.txt parses and names only real suites.
SCRIPTS_DIR (default: this script's directory) is the scripts/ tree
under test, e.g. an older one. Exits 1 if any check failed.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FAILED = re.compile(r"^\d+ passed, [1-9]\d* failed, \d+ skipped$")


class Harness:
    def __init__(self, scripts, tmp):
        self.scripts, self.tmp, self.n, self.failed, self.lines = scripts, tmp, 0, 0, []
        self.files = 0

    def write(self, text, name=None, mode=0o644):
        self.files += 1
        path = os.path.join(self.tmp, name or f"f{self.files}")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)
        return path

    def run(self, argv, env=None):
        """(exit status, stdout + stderr) of a command; 127 if it cannot run."""
        try:
            p = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                               env=dict(os.environ, **(env or {})))
        except (OSError, subprocess.TimeoutExpired) as e:
            return 127, str(e)
        return p.returncode, p.stdout + p.stderr

    def knows(self, script, option):
        try:
            with open(os.path.join(self.scripts, script)) as f:
                return option in f.read()
        except OSError:
            return True

    def py(self, script, *args):
        return self.run([sys.executable, os.path.join(self.scripts, script), *args])

    def check(self, ok, name, out=""):
        self.n += 1
        if not ok:
            self.failed += 1
            for line in out.strip().splitlines()[-15:]:
                self.lines.append(f"# {line}")
        # TAP: "\#" in a description is no directive
        name = name.replace("#", "\\#")
        self.lines.append(f"{'ok' if ok else 'not ok'} {self.n} {name}")


def tap_not_ok(out):
    """Whether TAP output holds a failure or is not whole (plan vs results)."""
    lines = out.splitlines()
    plans = [int(m.group(1)) for m in (re.match(r"^1\.\.(\d+)", x) for x in lines) if m]
    results = [x for x in lines if re.match(r"^(not ok|ok) \d+", x)]
    bad = [x for x in results if x.startswith("not ok")]
    return bool(bad) or len(plans) != 1 or plans[0] != len(results)


# ---- parse-results.py -------------------------------------------------

def guest_log(suites, done="# guest-done rc=0"):
    """A guest log: suites is a list of (name, [result lines], plan or None)."""
    out = ["# guest: 6.12.118, running /tests/run-guest.sh"]
    for name, results, plan in suites:
        out += [f"# suite: {name}", "TAP version 13"]
        if plan is not False:
            out.append(f"1..{len(results) if plan is None else plan}")
        out += results
    if done:
        out.append(done)
    return "\n".join(out) + "\n"


PATCHED = [("alpha", ["ok 1 global.a1", "ok 2 global.a2 # SKIP no frob here"], None),
           ("beta", ["ok 1 b1"], None)]
STOCK = [("alpha", ["ok 1 global.a1", "ok 2 global.a2 # SKIP no frob here"], None),
         ("beta", ["ok 1 b1 # SKIP BYPASS reproduced on stock kernel",
                   "ok 2 the command runs # SKIP stock kernel"], None)]
MANIFEST = """# test manifest
patched alpha global.a2  # no frob in the fake kernel
stock   alpha global.a2  # no frob in the fake kernel
stock   beta  b1         # bypass reproduced
stock   beta  the command runs  # a name with spaces
"""
HOST = "TAP version 13\n1..2\nok 1 h1\nok 2 h2\n"


def parse_results(h, patched=PATCHED, stock=STOCK, manifest=MANIFEST, host=HOST,
                  patched_done="# guest-done rc=0", stock_done="# guest-done rc=0",
                  expect=("alpha", "beta"), labels=("patched", "stock")):
    args = []
    # an older parse-results.py (SCRIPTS_DIR) without these options is
    # run on the same logs without them, to show what it lets through
    if h.knows("parse-results.py", "--allowed-skips"):
        args += ["--allowed-skips", h.write(manifest)]
    if h.knows("parse-results.py", "--expect-suite"):
        for s in expect:
            args += ["--expect-suite", s]
    args += ["--host", f"host={h.write(host)}",
             "--guest", f"{labels[0]}={h.write(guest_log(patched, patched_done))}",
             "--guest", f"{labels[1]}={h.write(guest_log(stock, stock_done))}"]
    return h.py("parse-results.py", *args)


def check_fails(h, name, rc_out, want):
    """A parse-results run that must fail, saying want, with the final line kept."""
    rc, out = rc_out
    last = out.strip().splitlines()[-1] if out.strip() else ""
    ok = rc == 1 and want in out and FAILED.match(last)
    h.check(ok, f"parse-results fails {name}", out)


def test_parse_results(h):
    rc, out = parse_results(h)
    last = out.strip().splitlines()[-1] if out.strip() else ""
    h.check(rc == 0 and last == "5 passed, 0 failed, 4 skipped",
            "parse-results passes a good run: \"5 passed, 0 failed, 4 skipped\"", out)

    # guests of one kernel version ("patched-7.3"): the generic entries
    # apply to them, and so do those of their version, not another's
    versioned = MANIFEST.replace("stock   alpha global.a2", "stock-7.3 alpha global.a2")
    rc, out = parse_results(h, manifest=versioned, labels=("patched-7.3", "stock-7.3"))
    last = out.strip().splitlines()[-1] if out.strip() else ""
    h.check(rc == 0 and last == "5 passed, 0 failed, 4 skipped",
            "parse-results applies generic and same-version entries to \"patched-7.3\"", out)
    check_fails(h, "a skip allowed for another kernel version only",
                parse_results(h, manifest=versioned.replace("stock-7.3", "stock-6.12"),
                              labels=("patched-7.3", "stock-7.3")),
                "skip not allowed")

    check_fails(h, "a guest log without \"# guest-done\"",
                parse_results(h, patched_done=None), "guest did not finish")
    check_fails(h, "\"# guest-done rc=1\"",
                parse_results(h, stock_done="# guest-done rc=1"), "rc=1")
    check_fails(h, "an expected suite missing from a guest log",
                parse_results(h, patched=PATCHED[:1]), "suite beta missing")
    check_fails(h, "an expected suite never started (its file printed nothing)",
                parse_results(h, expect=("alpha", "beta", "gamma")), "suite gamma missing")
    todo = [("alpha", PATCHED[0][1], None), ("beta", ["not ok 1 b1 # TODO later"], None)]
    check_fails(h, "\"not ok ... # TODO\"", parse_results(h, patched=todo), "TODO")
    todo = [("alpha", PATCHED[0][1], None), ("beta", ["ok 1 b1 # TODO later"], None)]
    check_fails(h, "\"ok ... # TODO\"", parse_results(h, patched=todo), "TODO")
    skip = [("alpha", PATCHED[0][1], None), ("beta", ["ok 1 b1 # SKIP no idea"], None)]
    check_fails(h, "a skip the manifest does not list",
                parse_results(h, patched=skip), "b1: skip not allowed (no idea)")
    check_fails(h, "a skip the manifest lists for the other kernel only",
                parse_results(h, manifest=MANIFEST.replace(
                    "patched alpha global.a2  # no frob in the fake kernel\n", "")),
                "global.a2: skip not allowed")
    check_fails(h, "a stale manifest entry (no such test in the log)",
                parse_results(h, manifest=MANIFEST + "patched beta gone with spaces  # removed test\n"),
                "stale manifest entry: patched beta gone with spaces (")
    check_fails(h, "a manifest line without a reason",
                parse_results(h, manifest=MANIFEST + "patched beta b1\n"), "allowed skips")
    check_fails(h, "host TAP without a plan",
                parse_results(h, host="ok 1 h1\nok 2 h2\n"), "printed no plan")
    check_fails(h, "host TAP whose plan is not its count",
                parse_results(h, host="1..3\nok 1 h1\nok 2 h2\n"), "planned 3 tests, ran 2")
    check_fails(h, "empty host TAP",
                parse_results(h, host="1..0\n"), "no test results")
    byp = [("alpha", PATCHED[0][1], None),
           ("beta", ["ok 1 b1 # SKIP BYPASS reproduced on stock kernel"], None)]
    check_fails(h, "\"# SKIP BYPASS\" on the patched kernel, even where listed",
                parse_results(h, patched=byp,
                              manifest=MANIFEST + "patched beta b1  # listed by mistake\n"),
                "bypass reproduced on a kernel that is not stock")
    check_fails(h, "a suite whose plan is not its count",
                parse_results(h, patched=[PATCHED[0], ("beta", ["ok 1 b1"], 2)]),
                "suite beta planned 2 tests, ran 1")
    check_fails(h, "a kernel splat",
                parse_results(h, patched=[PATCHED[0], ("beta", ["ok 1 b1",
                              "[   9.1] WARNING: CPU: 0 PID: 1 at io_uring/x.c:1"], None)]),
                "kernel splat")
    check_fails(h, "a stock run that reproduced no bypass",
                parse_results(h, stock=PATCHED, manifest=MANIFEST.split("stock   beta")[0]),
                "reproduced no bypass")
    retried = [PATCHED[0], ("beta", ["# retried: b1: exit codes 139, 0", "ok 1 b1"], 1)]
    rc, out = parse_results(h, patched=retried)
    h.check(rc == 0 and "RETRIED patched: beta: b1: exit codes 139, 0" in out and
            out.strip().endswith("5 passed, 0 failed, 4 skipped"),
            "parse-results lists a \"# retried:\" line and counts only the result", out)
    nok = [PATCHED[0], ("beta", ["not ok 1 b1"], None)]
    check_fails(h, "\"not ok\"", parse_results(h, patched=nok), "FAIL patched: ")
    if h.knows("parse-results.py", "--real-guest"):
        test_parse_real_guests(h)


REAL_PATCHED = [("real/one", ["ok 1 r1", "ok 2 r2 refused as an SQE, not done"], None)]
REAL_STOCK = [("real/one", ["ok 1 r1", "ok 2 r2 refused as an SQE # SKIP BYPASS the SQE ran"],
               None)]
REAL_MANIFEST = MANIFEST + "stock real/one r2 refused as an SQE  # bypass reproduced\n"


def parse_real(h, real_patched=REAL_PATCHED, real_stock=REAL_STOCK, expect_real=("real/one",)):
    """The good busybox run plus the two real-software guests (--real-guest)."""
    args = ["--allowed-skips", h.write(REAL_MANIFEST)]
    for s in ("alpha", "beta"):
        args += ["--expect-suite", s]
    for s in expect_real:
        args += ["--expect-real-suite", s]
    args += ["--host", f"host={h.write(HOST)}",
             "--guest", f"patched={h.write(guest_log(PATCHED))}",
             "--guest", f"stock={h.write(guest_log(STOCK))}",
             "--real-guest", f"patched={h.write(guest_log(real_patched))}",
             "--real-guest", f"stock={h.write(guest_log(real_stock))}"]
    return h.py("parse-results.py", *args)


def test_parse_real_guests(h):
    """--real-guest: its own suites, its own manifest entries, bypasses on stock."""
    rc, out = parse_real(h)
    h.check(rc == 0 and "BYPASS stock/real: real/one r2 refused as an SQE" in out and
            out.strip().endswith("8 passed, 0 failed, 5 skipped"),
            "parse-results passes the real-software guests beside the others", out)
    check_fails(h, "a real-software guest without its suite",
                parse_real(h, expect_real=("real/one", "real/two")),
                "patched/real: suite real/two missing")
    check_fails(h, "a bypass on the patched real-software guest",
                parse_real(h, real_patched=REAL_STOCK),
                "bypass reproduced on a kernel that is not stock")
    check_fails(h, "a real-software guest's manifest entry its log lacks",
                parse_real(h, real_stock=REAL_PATCHED),
                "stale manifest entry: stock real/one r2")


# ---- compare-seccomp-bpf.py -------------------------------------------

def bpf_log(results, plan=None, totals=True, rc="0", end=True):
    """A guest log holding a raw seccomp_bpf run, as 30-seccomp-bpf.sh prints it."""
    p = sum(1 for r in results if r.startswith("ok") and "# SKIP" not in r)
    s = sum(1 for r in results if "# SKIP" in r)
    f = sum(1 for r in results if r.startswith("not ok"))
    raw = ["TAP version 13", f"1..{len(results) if plan is None else plan}",
           f"# Starting {len(results)} tests from 1 test cases."] + results
    if totals:
        raw.append(f"# Totals: pass:{p} fail:{f} xfail:0 xpass:0 skip:{s} error:0")
    out = ["# suite: seccomp_bpf", "TAP version 13", "1..1", "# seccomp_bpf-raw begin"]
    out += [f"#| {x}" for x in raw]
    if end:
        out.append(f"# seccomp_bpf-raw end (exit {rc}, 3 s)")
    return "\n".join(out) + "\n"


BPF_GOOD = ["ok 1 global.kcmp", "ok 2 TRAP.dfl", "ok 3 global.user_notif # SKIP no perms"]


def test_compare_bpf(h):
    def cmp(stock, patched):
        return h.py("compare-seccomp-bpf.py", h.write(stock), h.write(patched))

    rc, out = cmp(bpf_log(BPF_GOOD), bpf_log(BPF_GOOD))
    h.check(rc == 0 and not tap_not_ok(out), "compare-seccomp-bpf passes two good runs", out)
    both = ["ok 1 global.kcmp", "not ok 2 TRAP.dfl", "ok 3 global.user_notif # SKIP no perms"]
    rc, out = cmp(bpf_log(both, rc="1"), bpf_log(both, rc="1"))
    h.check(tap_not_ok(out), "compare-seccomp-bpf fails a case failing on both kernels", out)
    cut = BPF_GOOD[:2]
    rc, out = cmp(bpf_log(cut, plan=3, totals=False, end=False),
                  bpf_log(cut, plan=3, totals=False, end=False))
    h.check(tap_not_ok(out), "compare-seccomp-bpf fails a run truncated the same way on both"
            " (2 of 3 cases, no totals)", out)
    rc, out = cmp(bpf_log(BPF_GOOD), bpf_log(BPF_GOOD, totals=False))
    h.check(tap_not_ok(out), "compare-seccomp-bpf fails a run without its \"# Totals:\" line",
            out)
    rc, out = cmp(bpf_log(BPF_GOOD), bpf_log(BPF_GOOD, rc="139"))
    h.check(tap_not_ok(out), "compare-seccomp-bpf fails a run whose exit status is not 0",
            out)
    rc, out = cmp(bpf_log(BPF_GOOD), bpf_log(BPF_GOOD[:1] + ["not ok 2 TRAP.dfl"] +
                                             BPF_GOOD[2:], rc="1"))
    h.check(tap_not_ok(out), "compare-seccomp-bpf fails a case failing on patched only", out)


# ---- compare-unfiltered.py --------------------------------------------

def unfiltered_log(rows, upstream):
    out = ["# suite: profile-equivalence", "TAP version 13", f"1..{len(rows)}"] + rows
    out += ["# suite: liburing-upstream", "TAP version 13", f"1..{len(upstream)}"] + upstream
    return "\n".join(out + ["# guest-done rc=0"]) + "\n"


ROWS = ["ok 1 none/openat-creat: same: res=fd file=created",
        "ok 2 none/mkdirat: same: res=0 dir=made"]
UP = ["ok 1 accept", "ok 2 statx # SKIP", "ok 3 nop"]


def test_compare_unfiltered(h):
    def cmp(stock, patched):
        return h.py("compare-unfiltered.py", h.write(stock), h.write(patched))

    rc, out = cmp(unfiltered_log(ROWS, UP), unfiltered_log(ROWS, UP))
    h.check(rc == 0 and not tap_not_ok(out), "compare-unfiltered passes two good runs", out)
    bad = UP[:2] + ["not ok 3 nop # exit 1"]
    rc, out = cmp(unfiltered_log(ROWS, bad), unfiltered_log(ROWS, bad))
    h.check(tap_not_ok(out) and "nop" in out,
            "compare-unfiltered sees \"not ok 3 nop # exit 1\" (on both kernels)", out)
    rc, out = cmp(unfiltered_log(ROWS, UP), unfiltered_log(ROWS, bad))
    h.check(tap_not_ok(out) and "nop" in out,
            "compare-unfiltered sees \"not ok 3 nop # exit 1\" on patched only", out)
    rc, out = cmp(unfiltered_log(ROWS, UP), unfiltered_log(ROWS[:1], UP[:2]))
    h.check(tap_not_ok(out) and "mkdirat" in out and "nop" in out,
            "compare-unfiltered names the cases missing on one side", out)
    rows = ROWS[:1] + ["not ok 2 none/mkdirat: DIFFERENT: res=0 dir=made"]
    rc, out = cmp(unfiltered_log(rows, UP), unfiltered_log(rows, UP))
    h.check(tap_not_ok(out), "compare-unfiltered fails an equivalence case failing on both",
            out)


# ---- guest suites -----------------------------------------------------

def fake(h, path, body):
    return h.write(f"#!/bin/sh\n{body}\n", path, 0o755)


def suite(h, name, tests, env=None):
    return h.run(["sh", os.path.join(h.scripts, "guest", "suites", name)],
                 env=dict({"URING_SECCOMP_TESTS": tests, "URING_SECCOMP_TIMEOUT": "20"},
                          **(env or {})))


def test_suites(h):
    t = os.path.join(h.tmp, "t20")
    fake(h, "t20/bin/uring-pass", "exit 0")
    fake(h, "t20/bin/uring-skip", "exit 77")
    fake(h, "t20/bin/uring-bypass", "echo 'file created'; exit 99")
    rc, out = suite(h, "20-liburing-tests.sh", t, {"URING_SECCOMP_EXPECT": "patched"})
    h.check(rc == 1 and re.search(r"^not ok \d+ bypass # exit 99", out, re.M),
            "20-liburing-tests: exit 99 on the patched kernel is a failure", out)
    h.check(rc == 1 and re.search(r"^not ok \d+ skip # exit 77", out, re.M),
            "20-liburing-tests: exit 77 on the patched kernel is a failure", out)
    rc, out = suite(h, "20-liburing-tests.sh", t, {"URING_SECCOMP_EXPECT": "stock"})
    h.check(rc == 0 and re.search(r"^ok \d+ bypass # SKIP BYPASS", out, re.M),
            "20-liburing-tests: exit 99 on the stock kernel is SKIP BYPASS", out)
    h.check(rc == 0 and re.search(r"^ok \d+ skip # SKIP$", out, re.M),
            "20-liburing-tests: exit 77 on the stock kernel is a skip", out)
    fake(h, "t20/bin/uring-fail", "exit 1")
    rc, out = suite(h, "20-liburing-tests.sh", t, {"URING_SECCOMP_EXPECT": "stock"})
    h.check(rc == 1 and re.search(r"^not ok \d+ fail # exit 1", out, re.M),
            "20-liburing-tests: a failure makes the suite exit 1", out)

    t = os.path.join(h.tmp, "t30")
    tap = "echo 'TAP version 13'; echo 1..1; echo 'ok 1 global.x'"
    fake(h, "t30/seccomp_bpf", f"{tap}; exit 1")
    rc, out = suite(h, "30-seccomp-bpf.sh", t)
    h.check(rc == 1 and "# seccomp_bpf-raw end (exit 1," in out and
            re.search(r"^not ok 1 seccomp_bpf", out, re.M) and "#| ok 1 global.x" in out,
            "30-seccomp-bpf: seccomp_bpf's exit status 1 survives the pipe", out)
    fake(h, "t30/seccomp_bpf", f"{tap}; exit 0")
    rc, out = suite(h, "30-seccomp-bpf.sh", t)
    h.check(rc == 0 and "# seccomp_bpf-raw end (exit 0," in out and
            re.search(r"^ok 1 seccomp_bpf", out, re.M),
            "30-seccomp-bpf: exit status 0 is a pass", out)

    t = os.path.join(h.tmp, "t10")
    fake(h, "t10/bin/seccomp_uring_fake", "echo 1..1; echo 'ok 1 global.x'; exit 1")
    rc, out = suite(h, "10-selftests.sh", t)
    h.check(rc == 1 and "# selftests/seccomp_uring_fake: exit 1" in out,
            "10-selftests: a program's non-zero exit status is printed and fails the suite",
            out)

    t = os.path.join(h.tmp, "t50")
    # the suite's randomize_va_space: a file of the harness, never the host's
    aslr = h.write("2\n", "t50-randomize_va_space")
    fake(h, "t50/liburing-upstream/good.t", f"[ \"$(cat {aslr})\" = 1 ]")
    fake(h, "t50/liburing-upstream/bad.t", "exit 1")
    rc, out = suite(h, "50-liburing-upstream.sh", t, {"URING_SECCOMP_ASLR": aslr})
    with open(aslr) as f:
        after = f.read().strip()
    h.check(re.search(r"^ok \d+ good$", out, re.M) and after == "2",
            "50-liburing-upstream: brk randomization is off while the tests run,"
            " and put back after", out + f"\nrandomize_va_space after: {after}")
    h.check(rc == 1 and re.search(r"^not ok \d+ bad # exit 1", out, re.M),
            "50-liburing-upstream: a failure makes the suite exit 1", out)
    h.check("# retried: bad: exit codes 1, 1, 1 (3 attempts of at most 3)" in out,
            "50-liburing-upstream: a test that always fails is run three times", out)
    once = os.path.join(h.tmp, "t50-crashed-once")
    fake(h, "t50/liburing-upstream/bad.t", f"[ -e {once} ] && exit 0; touch {once}; exit 139")
    rc, out = suite(h, "50-liburing-upstream.sh", t, {"URING_SECCOMP_ASLR": aslr})
    h.check(rc == 0 and re.search(r"^ok \d+ bad$", out, re.M) and
            "# retried: bad: exit codes 139, 0 (2 attempts of at most 3)" in out,
            "50-liburing-upstream: a crash once, then a pass, is a pass listed as retried",
            out)


def test_expected_suites(h):
    d = os.path.join(h.tmp, "suites")
    h.write('#!/bin/sh\nfor t in /x/*; do\n\techo "# suite: selftests/${t##*/}"\ndone\n',
            "suites/10-k.sh")
    h.write('#!/bin/sh\necho "# suite: one"\n', "suites/20-one.sh")
    h.write("int main(void) { return 0; }\n", "selftests/seccomp_a.c")
    h.write("int main(void) { return 0; }\n", "selftests/seccomp_b.c")
    sel = os.path.join(h.tmp, "selftests")
    es = os.path.join(h.scripts, "expected-suites.sh")
    rc, out = h.run([es, d, sel])
    h.check(rc == 0 and out.split() == ["selftests/seccomp_a", "selftests/seccomp_b", "one"],
            "expected-suites: one per suite line, one per selftests program", out)
    h.write('#!/bin/sh\necho "# suite: two"\n', "suites/30-two.sh")
    rc, out = h.run([es, d, sel])
    h.check(rc == 0 and out.split()[-1] == "two",
            "expected-suites: a new suite file is a new expected suite", out)
    h.write("#!/bin/sh\necho hello\n", "suites/40-silent.sh")
    rc, out = h.run([es, d, sel])
    h.check(rc != 0 and "40-silent.sh" in out,
            "expected-suites: a suite file that echoes no \"# suite:\" line is an error", out)
    os.unlink(os.path.join(d, "40-silent.sh"))

    rc, out = h.run([es])
    real = out.split()
    h.check(rc == 0 and "liburing-tests" in real and "seccomp_bpf" in real,
            "expected-suites: the repository's suites", out)
    # every manifest line parses and names a suite a guest reports (the
    # real-software guest's too, where the scripts have them)
    real_dir = os.path.join(h.scripts, "real", "suites")
    if os.path.isdir(real_dir):
        rc2, out2 = h.run([es, real_dir])
        rc = rc or rc2
        real += out2.split()
    manifest = os.path.join(h.scripts, "allowed-skips.txt")
    bad = []
    try:
        with open(manifest) as f:
            for no, line in enumerate(f, 1):
                words = line.split("#", 1)[0].split(None, 2)
                if words and (len(words) != 3 or
                              not re.match(r"^(patched|stock)(-[0-9]+\.[0-9]+)?$", words[0]) or
                              words[1] not in real or "#" not in line):
                    bad.append(f"{manifest}:{no}: {line.strip()}")
    except OSError as e:
        bad.append(str(e))
    h.check(not bad and rc == 0, "allowed-skips.txt: every line is \"KERNEL SUITE TEST"
            "  # reason\" with a suite the guests report", "\n".join(bad))


def main(argv):
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        sys.exit(__doc__)
    scripts = os.path.abspath(argv[0]) if argv else HERE
    with tempfile.TemporaryDirectory(prefix="test-harness.") as tmp:
        h = Harness(scripts, tmp)
        test_parse_results(h)
        test_compare_bpf(h)
        test_compare_unfiltered(h)
        test_suites(h)
        test_expected_suites(h)
    print("TAP version 13")
    print(f"1..{h.n}")
    print("\n".join(h.lines))
    print(f"# {h.n - h.failed} passed, {h.failed} failed")
    return 1 if h.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
