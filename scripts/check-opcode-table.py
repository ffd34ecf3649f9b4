#!/usr/bin/env python3
"""Check the io_uring opcode table of the seccomp documentation.

Usage: scripts/check-opcode-table.py TABLE.rst KERNEL_TREE

TABLE.rst is kernel-patches/opcode-table.rst or a whole
Documentation/userspace-api/seccomp_filter.rst holding it; entries are
found wherever they appear:

    ``IORING_OP_READ``
       :judged as: ``pread64``, ``preadv2``
       :fd: ``args[0]``; ...
       :addr: ...

plus one entry headed ``every opcode`` for the fields io_init_req()
and its callers (which read the opcode and pass it in) read for all of
them. KERNEL_TREE is a kernel source tree with the
uring-seccomp series applied. Nothing is built; the C is read as text.

Prints TAP and exits 1 on any failure. The checks:

 - every IORING_OP_* below IORING_OP_LAST (include/uapi/linux/io_uring.h)
   has exactly one entry, and no entry names another opcode;
 - the ``every opcode`` entry lists exactly the sqe->FIELD io_init_req()
   and the functions that call it read;
 - per opcode, ":judged as:" is the set of syscalls the source can judge
   it as: io_issue_defs[].seccomp_nr, plus every __NR_x and IO_SECCOMP_NR_x
   in the body of its io_cold_defs[].seccomp_nr function. An
   IO_SECCOMP_NR_x macro (io_uring/opdef.h) stands for any of the
   __NR_ names it is defined as; the table must name at least one. A
   .seccomp_nr function shared by several opcodes (io_rw_seccomp_nr()
   returns the read and the write twins) need only have each of its
   syscalls listed by one of them; no opcode may list a syscall the
   source cannot produce for it;
 - per opcode, the fields of its entry plus those of ``every opcode`` are
   the sqe->FIELD that io_init_req() and its prep read, following calls
   that pass ``sqe`` on to functions defined in io_uring/. An opcode
   whose prep keeps the SQE for issue (``->sqe = sqe``, URING_CMD) also
   reads every ``->sqe->FIELD`` read in io_uring/*.c and the sqe->FIELD
   of include/linux/io_uring/cmd.h, the accessors given to drivers; its
   entry may also list, as ``GAP:``, fields only a driver reads.
   A field only tested (``if (sqe->x)``) counts as read;
 - per opcode, io_issue_defs[].seccomp_sqe is 1 exactly when its seccomp
   view reads the SQE: its .seccomp_args function (following calls that
   pass ``sqe`` on) reads an sqe->FIELD or a kept ``->sqe``, its prep
   keeps the SQE, or its case of io_seccomp_foreign_buf() reads it. Prep
   then reads a private copy, which the view reads too.

Each field line must say something. Extracting no field for a prep other
than io_eopnotsupp_prep, or finding no prep, is a failure, not a pass.
"""
import glob
import os
import re
import sys

ENTRY_RE = re.compile(r"^(\s*)``(IORING_OP_\w+|every opcode)``\s*$")
FIELD_RE = re.compile(r"^(\s+):([^:`]+):(?:\s+(.*))?$")
JUDGED = "judged as"
EVERY = "every opcode"
SQE_FIELD_RE = re.compile(r"\bsqe->(\w+)")
KEPT_SQE_FIELD_RE = re.compile(r"\w->sqe->(\w+)")
ALIASED_SQE_RE = re.compile(r"\*\s*sqe\s*=\s*\w+->sqe\s*;")
KEEPS_SQE_RE = re.compile(r"->sqe\s*=\s*sqe\s*;")
KEPT_SQE_RE = re.compile(r"->sqe\b")
NR_RE = re.compile(r"\b(?:__NR_|IO_SECCOMP_NR_)\w+")
FUNC_HEAD_RE = re.compile(
    r"^(?:[A-Za-z_][\w \t\*]*?[\s\*])?(\w+)\s*\(([^;{}]*?)\)\s*"
    r"((?:__\w+\([^()]*\)\s*)*)\{", re.M)
CALL_RE = re.compile(r"\b(\w+)\s*\(")
PASSES_SQE_RE = re.compile(r"\bsqe\b(?!\s*->)")
NOT_SUPPORTED = "io_eopnotsupp_prep"


# --- C text -------------------------------------------------------------
def strip_comments(text):
    """Blank out C comments and empty string literals, keeping lines."""
    def blank(match):
        if match.group(0)[0] in "\"'":
            return match.group(0)[0] * 2
        return re.sub(r"[^\n]", " ", match.group(0))
    return re.sub(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\""
                  r"|'(?:\\.|[^'\\\n])*'", blank, text, flags=re.S)


def bail(message):
    """Stop: the source is not what this script understands."""
    print("Bail out! " + message)
    sys.exit(1)


def matching(text, start, open_ch="{", close_ch="}"):
    """Index just past the bracket that closes the one at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == open_ch:
            depth += 1
        elif text[i] == close_ch:
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError("unbalanced %s" % open_ch)


def read_c(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return strip_comments(f.read())
    except OSError as e:
        bail(str(e))


def functions(paths):
    """Map each function defined in paths to its body."""
    found = {}
    for path in paths:
        text = read_c(path)
        pos = 0
        for m in FUNC_HEAD_RE.finditer(text):
            if m.start() < pos or m.group(1) in ("if", "for", "while",
                                                 "switch"):
                continue
            brace = m.end() - 1
            try:
                pos = matching(text, brace)
            except ValueError as e:
                bail("%s: %s() %s" % (path, m.group(1), e))
            found.setdefault(m.group(1), text[brace:pos])
    return found


def block_after(text, pattern, what):
    """The {...} block that follows the first match of pattern."""
    m = re.search(pattern, text)
    if not m:
        bail("%s not found" % what)
    brace = text.index("{", m.end() - 1)
    return text[brace:matching(text, brace)]


def designated(block):
    """Map [IORING_OP_X] = { ... } entries of an opdef table to bodies."""
    out = {}
    for m in re.finditer(r"\[(IORING_OP_\w+)\]\s*=\s*\{", block):
        brace = m.end() - 1
        out[m.group(1)] = block[brace:matching(block, brace)]
    return out


def members(entry, name):
    """All values given to .name in a table entry (#if branches too)."""
    return re.findall(r"\.%s\s*=\s*(\w+)" % name, entry)


# --- kernel facts -------------------------------------------------------
def opcodes(tree):
    """The enum io_uring_op names below IORING_OP_LAST, in order."""
    text = read_c(os.path.join(tree, "include/uapi/linux/io_uring.h"))
    body = block_after(text, r"enum\s+io_uring_op\s*\{", "enum io_uring_op")
    names = re.findall(r"\b(IORING_OP_\w+)", body)
    if "IORING_OP_LAST" not in names:
        bail("IORING_OP_LAST not in enum io_uring_op")
    return names[:names.index("IORING_OP_LAST")]


def nr_macros(tree):
    """Map IO_SECCOMP_NR_x to the syscall names it may be defined as."""
    text = read_c(os.path.join(tree, "io_uring/opdef.h"))
    out = {}
    for m in re.finditer(r"#\s*define\s+(IO_SECCOMP_NR_\w+)\s+__NR_(\w+)",
                         text):
        out.setdefault(m.group(1), set()).add(m.group(2))
    return out


def resolve_nr(token, macros):
    """The alternatives one __NR_x or IO_SECCOMP_NR_x token stands for."""
    if token.startswith("__NR_"):
        return frozenset([token[len("__NR_"):]])
    if token not in macros:
        bail("%s is not defined in io_uring/opdef.h" % token)
    return frozenset(macros[token])


class Kernel:
    """What the kernel source says about each opcode."""

    def __init__(self, tree):
        self.tree = tree
        uring = sorted(glob.glob(os.path.join(tree, "io_uring/*.[ch]")))
        self.funcs = functions(uring)
        self.macros = nr_macros(tree)
        self.ops = opcodes(tree)
        opdef = read_c(os.path.join(tree, "io_uring/opdef.c"))
        self.issue = designated(block_after(
            opdef, r"io_issue_defs\[\]\s*=", "io_issue_defs[]"))
        self.cold = designated(block_after(
            opdef, r"io_cold_defs\[\]\s*=", "io_cold_defs[]"))
        self.init_fields = self.body_fields("io_init_req")
        # its callers read the opcode and pass it in (the one judged),
        # directly or through a wrapper (7.3: io_init_filter_req())
        callees = {"io_init_req"}
        for _ in range(2):
            callers = {name for name, body in self.funcs.items()
                       if name not in callees and
                       any(re.search(r"\b%s\(" % c, body) for c in callees)}
            for name in callers:
                self.init_fields |= set(SQE_FIELD_RE.findall(self.funcs[name]))
            callees |= callers
        self.kept_fields = self.kept_sqe_fields(uring)
        self.foreign_buf_sqe = self.foreign_buf_sqe_ops()

    def body_fields(self, name):
        if name not in self.funcs:
            bail("%s() not found" % name)
        return set(SQE_FIELD_RE.findall(self.funcs[name]))

    def kept_sqe_fields(self, uring):
        """Fields read through a kept SQE pointer (issue, drivers)."""
        fields = set()
        for path in uring:
            fields |= set(KEPT_SQE_FIELD_RE.findall(read_c(path)))
        # a function that reads a kept SQE through a local copy of the
        # pointer (7.3's cmd_net.c: "const struct io_uring_sqe *sqe =
        # cmd->sqe;")
        for body in self.funcs.values():
            if ALIASED_SQE_RE.search(body):
                fields |= set(SQE_FIELD_RE.findall(body))
        cmd_h = os.path.join(self.tree, "include/linux/io_uring/cmd.h")
        if not os.path.exists(cmd_h):
            bail("%s is missing: the fields drivers read are unknown" % cmd_h)
        fields |= set(SQE_FIELD_RE.findall(read_c(cmd_h)))
        return fields

    def preps(self, op):
        """The prep functions of op (under any #if), unsupported ones out."""
        return [p for p in members(self.issue.get(op, ""), "prep")
                if p != NOT_SUPPORTED]

    def syscall_groups(self, op):
        """The syscalls op can be judged as: (groups from io_issue_defs,
        name of its io_cold_defs .seccomp_nr function or None, groups
        from that function's body). A group holds the alternatives one
        __NR_x or IO_SECCOMP_NR_x token stands for."""
        tokens = members(self.issue.get(op, ""), "seccomp_nr")
        base = {resolve_nr(t, self.macros) for t in tokens}
        fns = members(self.cold.get(op, ""), "seccomp_nr")
        if not fns:
            return base, None, set()
        if fns[0] not in self.funcs:
            bail("%s() not found" % fns[0])
        body = self.funcs[fns[0]]
        return base, fns[0], {resolve_nr(t, self.macros)
                              for t in NR_RE.findall(body)}

    def reached(self, start):
        """(name, body) of start and of the io_uring functions it hands
        sqe to, and so on."""
        out, seen, todo = [], set(), [start]
        while todo:
            name = todo.pop()
            if name in seen or name not in self.funcs:
                continue
            seen.add(name)
            body = self.funcs[name]
            out.append((name, body))
            for m in CALL_RE.finditer(body):
                try:
                    end = matching(body, m.end() - 1, "(", ")")
                except ValueError as e:
                    bail("%s(): %s" % (name, e))
                if PASSES_SQE_RE.search(body[m.end():end]):
                    todo.append(m.group(1))
        return out

    def prep_fields(self, prep):
        """sqe->FIELD read by prep and the io_uring functions it hands
        sqe to; the second value says whether it keeps the SQE."""
        fields, keeps = set(), False
        for _, body in self.reached(prep):
            fields |= set(SQE_FIELD_RE.findall(body))
            keeps = keeps or bool(KEEPS_SQE_RE.search(body))
        return fields, keeps

    def foreign_buf_sqe_ops(self):
        """The opcodes whose case in io_seccomp_foreign_buf() reads the
        SQE."""
        name = "io_seccomp_foreign_buf"
        if name not in self.funcs:
            bail("%s() not found" % name)
        parts = re.split(r"\b(?:case\s+(IORING_OP_\w+)|default)\s*:",
                         self.funcs[name])
        ops, labels = set(), []
        for label, text in zip(parts[1::2], parts[2::2]):
            labels.append(label)
            if not text.strip():
                continue  # falls through to the next label
            if SQE_FIELD_RE.search(text):
                ops |= {x for x in labels if x}
            labels = []
        return ops

    def view_reads_sqe(self, op):
        """Why op's seccomp view reads its SQE: empty if it reads none."""
        reasons = []
        for fn in members(self.cold.get(op, ""), "seccomp_args"):
            if fn not in self.funcs:
                bail("%s() not found" % fn)
            reasons += ["%s() reads it" % name for name, body in self.reached(fn)
                        if SQE_FIELD_RE.search(body) or KEPT_SQE_RE.search(body)]
        reasons += ["%s() keeps it" % p for p in self.preps(op)
                    if p in self.funcs and self.prep_fields(p)[1]]
        if op in self.foreign_buf_sqe:
            reasons.append("io_seccomp_foreign_buf() reads it")
        return reasons


# --- the table ----------------------------------------------------------
def parse_table(path):
    """List of (heading, {field: [text, ...]}) in file order."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        bail(str(e))
    entries, i = [], 0
    while i < len(lines):
        m = ENTRY_RE.match(lines[i])
        i += 1
        if not m:
            continue
        indent, fields, field_indent, name = len(m.group(1)), {}, None, None
        while i < len(lines):
            line = lines[i]
            depth = len(line) - len(line.lstrip())
            if line.strip() and depth <= indent:
                break
            f = FIELD_RE.match(line)
            if f and field_indent in (None, len(f.group(1))):
                field_indent = len(f.group(1))
                name = f.group(2).strip()
                fields.setdefault(name, []).append(f.group(3) or "")
            elif line.strip() and name is not None:
                fields[name][-1] += " " + line.strip()
            i += 1
        entries.append((m.group(2), fields))
    return entries


def split_names(text):
    """``a``, ``b`` -> {"a", "b"}"""
    return {n.strip().strip("`").strip() for n in text.split(",")
            if n.strip()}


# --- checks -------------------------------------------------------------
class Tap:
    """Collects results, then prints them as TAP."""

    def __init__(self):
        self.results = []

    def check(self, ok, name, diagnostics=()):
        self.results.append((ok, name, list(diagnostics)))

    def emit(self):
        print("TAP version 13")
        print("1..%d" % len(self.results))
        for n, (ok, name, diags) in enumerate(self.results, 1):
            print("%s %d - %s" % ("ok" if ok else "not ok", n, name))
            for d in diags:
                print("# " + d)
        return all(ok for ok, _, _ in self.results)


def check_coverage(tap, kernel, entries):
    """Check a: one entry per opcode, none for an unknown one."""
    counts = {}
    for heading, _ in entries:
        counts[heading] = counts.get(heading, 0) + 1
    diags = ["no entry for %s" % op for op in kernel.ops if op not in counts]
    diags += ["%d entries for %s" % (n, h) for h, n in counts.items()
              if n > 1]
    diags += ["entry for unknown opcode %s" % h for h in counts
              if h != EVERY and h not in kernel.ops]
    tap.check(not diags, "one entry per opcode (%d opcodes)"
              % len(kernel.ops), diags)


def field_diags(fields, expected, drivers_read=False):
    """What is wrong with an entry's fields, given those read. Where the
    SQE is handed to a driver (drivers_read), a field io_uring does not
    read may still be listed as a GAP: one the driver reads."""
    diags = ["missing field %s" % f for f in sorted(expected - set(fields))]
    diags += ["extra field %s (not read)" % f
              for f in sorted(set(fields) - expected)
              if not (drivers_read and fields[f][0].lstrip().startswith("GAP:"))]
    diags += ["field %s listed %d times" % (f, len(t))
              for f, t in sorted(fields.items()) if len(t) > 1]
    diags += ["field %s says nothing" % f
              for f, t in sorted(fields.items()) if not t[0].strip()]
    return diags


def check_every(tap, kernel, table):
    """The ``every opcode`` entry lists what io_init_req() reads."""
    name = "every opcode: the fields io_init_req() reads"
    if not kernel.init_fields:
        diags = ["no sqe->FIELD extracted from io_init_req()"]
    elif EVERY not in table:
        diags = ["no ``every opcode`` entry"]
    else:
        diags = field_diags(table[EVERY], kernel.init_fields)
    tap.check(not diags, name, diags)


def listed_syscalls(entry):
    """The syscall names an entry's :judged as: line gives."""
    if entry is None or JUDGED not in entry:
        return set()
    return split_names(entry[JUDGED][0])


def check_judged(tap, kernel, op, table):
    """Check b: :judged as: against the source. A .seccomp_nr function
    shared by several opcodes (one for reads and writes) may return a
    syscall only some of them can be judged as: each of its syscalls
    must then be listed by at least one of those opcodes, not by all."""
    name = "%s: judged as" % op
    entry = table.get(op)
    base, fn, body = kernel.syscall_groups(op)
    if entry is None or JUDGED not in entry:
        tap.check(False, name, ["no entry" if entry is None
                                else "no :judged as: line"])
        return
    if not base | body:
        tap.check(False, name, ["no .seccomp_nr found in opdef.c"])
        return
    listed = listed_syscalls(entry)
    sharers = [o for o in kernel.ops
               if kernel.syscall_groups(o)[1] == fn] if fn else [op]
    by_sharers = set().union(*(listed_syscalls(table.get(o))
                               for o in sharers))
    diags = ["missing %s" % " or ".join(sorted(g))
             for g in sorted(base, key=sorted) if not g & listed]
    if len(sharers) == 1:
        diags += ["missing %s (returned by %s())"
                  % (" or ".join(sorted(g)), fn)
                  for g in sorted(body, key=sorted) if not g & listed]
    else:
        diags += ["no opcode using %s() lists %s"
                  % (fn, " or ".join(sorted(g)))
                  for g in sorted(body, key=sorted) if not g & by_sharers]
    known = set().union(*(base | body))
    diags += ["%s is not produced by the source" % s
              for s in sorted(listed - known)]
    tap.check(not diags, name + " " + ", ".join(sorted(listed)), diags)


def check_fields(tap, kernel, op, entry, every):
    """Check c: the entry's fields and ``every opcode``'s against the
    sqe->FIELD io_init_req() and the opcode's prep read."""
    name = "%s: fields" % op
    preps = kernel.preps(op)
    if not preps:
        tap.check(False, name, ["no prep function other than %s in "
                                "io_issue_defs[]" % NOT_SUPPORTED])
        return
    expected = set(kernel.init_fields)
    drivers_read = False
    for prep in preps:
        if prep not in kernel.funcs:
            tap.check(False, name, ["prep %s() not found" % prep])
            return
        fields, keeps = kernel.prep_fields(prep)
        if not fields:
            tap.check(False, name, ["no sqe->FIELD extracted from %s()"
                                    % prep])
            return
        expected |= fields | (kernel.kept_fields if keeps else set())
        drivers_read = drivers_read or keeps
    if entry is None:
        tap.check(False, name, ["no entry"])
        return
    listed = {k: v for k, v in entry.items() if k != JUDGED}
    merged = dict(every)
    merged.update(listed)
    diags = field_diags(merged, expected, drivers_read)
    tap.check(not diags, "%s (%s)" % (name, ", ".join(preps)), diags)


def check_view_copy(tap, kernel, op):
    """Check d: io_issue_defs[].seccomp_sqe is set exactly when the
    opcode's seccomp view reads the SQE, so that prep and the view read
    one private copy of it (io_submit_sqe_judge())."""
    flag = members(kernel.issue.get(op, ""), "seccomp_sqe")
    reasons = kernel.view_reads_sqe(op)
    if reasons and flag != ["1"]:
        diags = ["the view reads the SQE, seccomp_sqe is not 1: " + r
                 for r in reasons]
    elif flag and flag != ["1"]:
        diags = ["seccomp_sqe = %s, want 1 or nothing" % ", ".join(flag)]
    elif flag and not reasons:
        diags = ["seccomp_sqe is set, but the view reads no SQE: a copy"
                 " for nothing"]
    else:
        diags = []
    tap.check(not diags, "%s: seccomp_sqe %s, the view reads %s" % (
        op, "set" if flag else "clear",
        "the SQE (%s)" % "; ".join(reasons) if reasons else "no SQE"), diags)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    entries = parse_table(argv[1])
    kernel = Kernel(argv[2])
    table = {}
    for heading, fields in entries:
        table.setdefault(heading, fields)
    tap = Tap()
    check_coverage(tap, kernel, entries)
    check_every(tap, kernel, table)
    every = table.get(EVERY, {})
    for op in kernel.ops:
        check_judged(tap, kernel, op, table)
        check_fields(tap, kernel, op, table.get(op), every)
        check_view_copy(tap, kernel, op)
    ok = tap.emit()
    gaps = sum(t.count("GAP:") for _, f in entries for v in f.values()
               for t in v)
    print("# %d GAP notes in the table" % gaps)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
