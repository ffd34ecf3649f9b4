#!/usr/bin/env python3
"""Usage: scripts/parse-results.py [--allowed-skips FILE] [--expect-suite NAME]...
                                  [--expect-real-suite NAME]...
                                  [--host LABEL=TAP]... [--guest LABEL=LOG]...
                                  [--real-guest LABEL=LOG]...

Reads the TAP/KTAP the tests printed and ends with one line
"N passed, N failed, N skipped". Exits 1 on any failure.

A guest log must end its run with "# guest-done rc=0" (missing: the
guest crashed or hung; non-zero: a suite script failed) and hold no
kernel splat (Oops, BUG, WARNING, KASAN, panic, lockdep, ...). Every
--expect-suite NAME must appear in it as a "# suite: NAME" section, once,
with a plan whose count matches its results. A host TAP file must hold
one plan matching its results.

A result "# TODO", "# XFAIL" or "# XPASS" is a failure: no test here is
expected to fail. A skip is counted as skipped only if the
--allowed-skips manifest lists it for that guest ("KERNEL SUITE TEST
# reason" lines, TEST being the rest of the line up to the "#";
scripts/allowed-skips.txt; KERNEL is "patched" or "stock", for every
guest of that kind, or "patched-VERSION", "stock-VERSION" for the guest
of that label alone); any other skip fails, and so does a manifest
entry for a test that a guest it is for does not hold at all (stale). A guest labelled "stock..." runs the unpatched kernel: its
"# SKIP BYPASS" results are counted and listed as bypasses reproduced,
and there must be at least one; on any other label a bypass fails.

A --real-guest is the real-software guest of issue 16 (Debian's
systemd, crun, MariaDB on a root disk; scripts/test-real.sh): its log is
read as a guest's, listed as "LABEL/real", and must hold every
--expect-real-suite NAME instead; manifest entries for those suites are
checked against it alone, the others against the other guests.

A guest comment "# retried: TEXT" (a test the suite ran again after it
failed; only liburing's own tests are) is listed as "RETRIED LABEL:
SUITE: TEXT". It changes no count: the result line that follows it is
the test's result.
"""
import re
import sys

SPLAT = re.compile(
    r"(BUG: |WARNING: |Oops|Kernel panic|KASAN|UBSAN|general protection fault"
    r"|possible circular locking|possible recursive locking|INFO: task .* blocked"
    r"|kmemleak: .* new suspected|BUG kmalloc|list_add corruption|Call Trace:)")
RESULT = re.compile(r"^(not ok|ok) (\d+) (.*?)(?: # (SKIP|TODO|XFAIL|XPASS)\b ?(.*))?$",
                    re.IGNORECASE)
PLAN = re.compile(r"^1\.\.(\d+)")
DONE = re.compile(r"^# guest-done(?: rc=(\d+))?\s*$")
KERNELS = ("patched", "stock")
# a guest's label: its kind, then the kernel version ("patched-7.3")
LABEL = re.compile(r"^(patched|stock)(-[0-9]+\.[0-9]+)?$")


def guest_label(label):
    """The label without "/real" (a real-software guest's): "patched-7.3"."""
    return label.split("/", 1)[0]


def kind(label):
    """The kind of guest a label names: "patched" or "stock"."""
    return label.split("-", 1)[0]


class Tally:
    def __init__(self):
        self.passed = self.failed = self.skipped = self.bypass = 0
        self.problems = []
        # suite -> set of test names seen (host TAP: suite None)
        self.tests = {}
        self.suites = []


class Manifest:
    """The allowed skips: (kernel, suite, name) -> reason."""

    def __init__(self, path=None):
        self.entries, self.problems = {}, []
        if path is None:
            return
        try:
            with open(path) as f:
                lines = f.readlines()
        except OSError as e:
            self.problems.append(f"cannot read {path}: {e.strerror}")
            return
        for no, raw in enumerate(lines, 1):
            line = raw.split("#", 1)[0].strip()
            reason = raw.split("#", 1)[1].strip() if "#" in raw else ""
            if not line:
                continue
            # the test name is the rest of the line: it may hold spaces
            words = line.split(None, 2)
            where = f"{path}:{no}"
            if len(words) != 3 or not LABEL.match(words[0]) or not reason:
                self.problems.append(f"{where}: want \"KERNEL SUITE TEST  # reason\""
                                     f" with KERNEL one of {'|'.join(KERNELS)},"
                                     " or one of them and -VERSION")
                continue
            key = tuple(words)
            if key in self.entries:
                self.problems.append(f"{where}: {' '.join(key)} listed twice")
            self.entries[key] = reason

    def allows(self, label, suite, name):
        label = guest_label(label)
        return ((label, suite, name) in self.entries or
                (kind(label), suite, name) in self.entries)


def parse_tap(label, lines, tally, guest, manifest):
    suite, plan, seen, context = None, None, 0, []
    stock = label.startswith("stock")
    done = None

    def close_suite():
        where = f"suite {suite}" if suite is not None else "TAP"
        if suite is None and guest:
            return
        if plan is None:
            tally.problems.append(f"{label}: {where} printed no plan")
        elif plan != seen:
            tally.problems.append(f"{label}: {where} planned {plan} tests, ran {seen}")
        elif suite is None and seen == 0:
            tally.problems.append(f"{label}: no test results")

    for raw in lines:
        line = raw.rstrip("\r\n")
        # the serial console may prefix the guest's lines with kernel output
        if guest and SPLAT.search(line):
            tally.problems.append(f"{label}: kernel splat: {line.strip()}")
        if guest and line.startswith("# suite: "):
            close_suite()
            suite, plan, seen, context = line[9:].strip(), None, 0, []
            if suite in tally.suites:
                tally.problems.append(f"{label}: suite {suite} reported twice")
            tally.suites.append(suite)
            tally.tests.setdefault(suite, set())
            continue
        if guest and line.startswith("# guest-done"):
            m = DONE.match(line)
            done = m.group(1) if m and m.group(1) is not None else "?"
            continue
        m = PLAN.match(line)
        if m:
            if plan is not None:
                where = f"suite {suite}" if suite is not None else "TAP"
                tally.problems.append(f"{label}: {where} printed a second plan")
            plan = int(m.group(1))
            continue
        if guest and line.startswith("# retried: "):
            print(f"RETRIED {label}: {suite}: {line[11:].strip()}")
        m = RESULT.match(line)
        if not m:
            if line.startswith("#"):
                context = (context + [line])[-12:]
            continue
        seen += 1
        status, _, name, directive, reason = m.groups()
        status = status.lower()
        directive = directive.upper() if directive else None
        reason = reason or ""
        tally.tests.setdefault(suite, set()).add(name)
        where = f"{suite} {name}" if suite is not None else name
        why = None
        if directive in ("TODO", "XFAIL", "XPASS"):
            why = f"# {directive}: no test here is expected to fail"
        elif status == "not ok":
            why = ""
        elif directive == "SKIP" and reason.startswith("BYPASS") and not stock:
            why = f"bypass reproduced on a kernel that is not stock ({reason})"
        elif directive == "SKIP" and not (guest and manifest.allows(label, suite, name)):
            why = f"skip not allowed ({reason or 'no reason given'})"
        if why is not None:
            tally.failed += 1
            print(f"FAIL {label}: {where}{': ' + why if why else ''}")
            for c in context:
                print(f"    {c}")
        elif directive == "SKIP":
            tally.skipped += 1
            if reason.startswith("BYPASS"):
                tally.bypass += 1
                print(f"BYPASS {label}: {where}: {reason}")
        else:
            tally.passed += 1
        context = []
    close_suite()
    if not guest:
        return
    if done is None:
        tally.problems.append(f"{label}: guest did not finish (crash, panic or timeout):"
                              " no \"# guest-done\"")
    elif done != "0":
        tally.problems.append(f"{label}: guest finished with rc={done}, not 0"
                              " (a suite script failed or died)")


def check_guest(label, tally, expected, manifest, real=False, real_suites=()):
    """The expected suites and the manifest's entries for this guest: a real-
    software guest's entries are those of its suites, the others' are not."""
    for s in expected:
        if s not in tally.suites:
            tally.problems.append(f"{label}: suite {s} missing (died before its"
                                  " \"# suite:\" line, or never ran)")
    for (kernel, suite, name), reason in manifest.entries.items():
        if kernel not in (guest_label(label), kind(label)) or name in tally.tests.get(suite, ()):
            continue
        if (suite not in expected) if real else (suite in real_suites):
            continue
        if suite in expected and suite not in tally.suites:
            continue  # reported as a missing suite
        tally.problems.append(f"{label}: stale manifest entry: {kernel} {suite} {name}"
                              f" (no such test in the log; reason was: {reason})")


def main(argv):
    total = Tally()
    items, expected, expected_real, manifest_path = [], [], [], None
    i = 0
    while i < len(argv):
        kind = argv[i]
        if i + 1 >= len(argv):
            sys.exit(__doc__)
        arg = argv[i + 1]
        i += 2
        if kind == "--allowed-skips":
            manifest_path = arg
        elif kind == "--expect-suite":
            expected.append(arg)
        elif kind == "--expect-real-suite":
            expected_real.append(arg)
        elif kind in ("--host", "--guest", "--real-guest") and "=" in arg:
            label, path = arg.split("=", 1)
            real = kind == "--real-guest"
            items.append((kind != "--host", real, f"{label}/real" if real else label, path))
        else:
            sys.exit(__doc__)
    if not items:
        sys.exit(__doc__)
    manifest = Manifest(manifest_path)
    for p in manifest.problems:
        print(f"ERROR allowed skips: {p}")
    total.failed += len(manifest.problems)
    for guest, real, label, path in items:
        tally = Tally()
        try:
            with open(path, errors="replace") as f:
                parse_tap(label, f, tally, guest, manifest)
        except OSError as e:
            tally.problems.append(f"{label}: cannot read {path}: {e.strerror}")
        if guest:
            check_guest(label, tally, expected_real if real else expected, manifest,
                        real, expected_real)
        if guest and label.startswith("stock"):
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
