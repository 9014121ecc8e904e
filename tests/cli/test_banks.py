"""Shared-memory bank conflicts in a kernel file's trace (issue 30), on the CPU
runtime, as a user runs it: "bank_conflicts" in the trace file, totals and
by step and line, the same under every schedule, against counts made here of
the accesses each line makes (32 banks of 4 bytes; per warp, one request per
instruction; 8-byte accesses by half-warp; a word many lanes read is a
broadcast; the conflicts of a request are its wavefronts past the first of
each group, as ncu's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld /
_st count them); the table's line; the file read again the same.

Usage: test_banks.py SCANVIZ_TRACE"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, report  # noqa: E402

TRACE = sys.argv[1]

KERNEL = r"""__global__ void banks(const int *in, int *out, int n)
{
    __shared__ int s[2048];
    __shared__ long long d[1024];
    int i = threadIdx.x;
    s[i] = in[i];                      // A: stride 1
    s[(2 * i) % 2048] = in[i];         // B: stride 2
    s[(32 * i) % 2048] = in[i];        // C: stride 32
    s[(33 * i) % 2048] = in[i];        // D: stride 33 (odd: none)
    d[i] = in[i];                      // E: 8 bytes, stride 1
    __syncthreads();
    int v = s[0] + s[i / 4];           // F: a broadcast, then four lanes a word
    v += s[(2 * i) % 2048];            // G: stride 2
    v += (int)d[(2 * i) % 1024];       // H: 8 bytes, stride 2
    v += s[(64 * i + (i & 1)) % 2048]; // I: two words per bank... every lane its own
    out[i] = v;
}
"""


def groups(n, words_of, size):
    """Each group of one line's warp requests: its distinct 4-byte words and
    how many of them each bank holds (words_of(i): lane i's first word;
    8-byte accesses by half-warp)."""
    group = 32 if size <= 4 else 16
    per = 1 if size <= 4 else size // 4
    for w0 in range(0, n, 32):
        for g0 in range(w0, min(w0 + 32, n), group):
            lanes = range(g0, min(g0 + group, n))
            ws = {words_of(i) + k for i in lanes for k in range(per)}
            banks = {}
            for w in ws:
                banks[w % 32] = banks.get(w % 32, 0) + 1
            yield ws, banks


def conflicts(n, words_of, size):
    """Conflicts of one line: each group's wavefronts past its first."""
    return sum(max(banks.values()) - 1 for _, banks in groups(n, words_of, size))


def cells_of(n, words_of, size, into):
    """The colliding cells of one line into into[cell] (the most ways): in
    each group, a word whose bank serves more than one distinct word is
    marked with that bank's count (cells are 4-byte words, from the
    array's start)."""
    for ws, banks in groups(n, words_of, size):
        for w in ws:
            if banks[w % 32] >= 2:
                into[w] = max(into.get(w, 0), banks[w % 32])


def expected_cells(n):
    """(step, array, cell) -> ways over every line: array 0 is s, 1 is d."""
    dw = lambda j: 2 * j  # noqa: E731
    lines = [  # step, array, words of lane i, size
        (0, 0, lambda i: i, 4), (0, 0, lambda i: (2 * i) % 2048, 4),
        (0, 0, lambda i: (32 * i) % 2048, 4), (0, 0, lambda i: (33 * i) % 2048, 4),
        (0, 1, lambda i: dw(i), 8), (1, 0, lambda i: 0, 4), (1, 0, lambda i: i // 4, 4),
        (1, 0, lambda i: (2 * i) % 2048, 4), (1, 1, lambda i: dw((2 * i) % 1024), 8),
        (1, 0, lambda i: (64 * i + (i & 1)) % 2048, 4)]
    out = {}
    for step, arr, words_of, size in lines:
        got = {}
        cells_of(n, words_of, size, got)
        for c, ways in got.items():
            out[(step, arr, c)] = max(out.get((step, arr, c), 0), ways)
    return out


def expected(n):
    # the words, from s's and d's own starts (both start bank-aligned: the
    # counts depend only on where in its bank row each access falls)
    dw = lambda j: 2 * j  # noqa: E731  d[j]'s first word, from d's start
    lines = {
        "A": (0, conflicts(n, lambda i: i, 4), "st"),
        "B": (0, conflicts(n, lambda i: (2 * i) % 2048, 4), "st"),
        "C": (0, conflicts(n, lambda i: (32 * i) % 2048, 4), "st"),
        "D": (0, conflicts(n, lambda i: (33 * i) % 2048, 4), "st"),
        "E": (0, conflicts(n, lambda i: dw(i), 8), "st"),
        "G": (1, conflicts(n, lambda i: (2 * i) % 2048, 4), "ld"),
        "H": (1, conflicts(n, lambda i: dw((2 * i) % 1024), 8), "ld"),
        "I": (1, conflicts(n, lambda i: (64 * i + (i & 1)) % 2048, 4), "ld"),
    }
    # line F holds two loads: s[0] (a broadcast) and s[i / 4]
    lines["F"] = (1, conflicts(n, lambda i: 0, 4) + conflicts(n, lambda i: i // 4, 4), "ld")
    return lines


def line_of(tag):
    return next(k for k, l in enumerate(KERNEL.splitlines(), 1) if f"// {tag}:" in l)


def main():
    d = tempfile.mkdtemp(prefix="sv-banks-")
    k = os.path.join(d, "banks.cu")
    with open(k, "w") as f:
        f.write(KERNEL)
    for n in (1, 17, 32, 33, 64, 100, 1024):
        want = expected(n)
        by_line = []
        for tag, (step, c, kind) in sorted(want.items(), key=lambda kv: (kv[1][0], line_of(kv[0]))):
            if c:
                by_line.append({"step": step, "line": line_of(tag),
                                "loads": c if kind == "ld" else 0,
                                "stores": c if kind == "st" else 0})
        loads = sum(c for s, c, kd in want.values() if kd == "ld")
        stores = sum(c for s, c, kd in want.values() if kd == "st")
        for sched in ("lockstep", "reverse", "random:4"):
            rc, out, err = (lambda p: (p.returncode, p.stdout, p.stderr))(subprocess.run(
                [TRACE, "--kernel-file", k, "--random", str(n), "--seed", "2", "--schedule",
                 sched, "--format", "json"], capture_output=True, text=True, timeout=120))
            t = json.loads(out) if out.startswith("{") else {}
            got = dict(t.get("bank_conflicts") or {})
            cells = got.pop("cells", None)
            check(got == {"loads": loads, "stores": stores, "by_line": by_line},
                  f"n={n} {sched}: exit {rc}, bank_conflicts {got}\n  want {loads} {stores} {by_line}: {err[-200:]}")
            # the colliding cells, drawn on the picture: each once, in order,
            # with its most ways, at a line that makes those ways
            want_cells = expected_cells(n)
            have = {(c["step"], c["array"], c["cell"]): c["ways"] for c in cells or []}
            keys = [(c["step"], c["array"], c["cell"]) for c in cells or []]
            check(have == want_cells and keys == sorted(keys) and len(set(keys)) == len(keys),
                  f"n={n} {sched}: {len(have)} colliding cells, want {len(want_cells)}: "
                  f"{sorted(set(have.items()) ^ set(want_cells.items()))[:6]}")
            s_lines = {line_of(x) for x in "BCFGI"}
            check(all(c["line"] in (s_lines if c["array"] == 0 else {line_of("H")}) and
                      c["op"] == ("store" if c["step"] == 0 else "load") and
                      c["warp"] == 0 for c in cells or [] if c["step"] == 1 and n <= 32),
                  f"n={n} {sched}: a colliding cell's line, op or warp: {(cells or [])[:3]}")
            if sched == "lockstep" and out.startswith("{"):
                p = subprocess.run([TRACE, "--open", "-", "--format", "json"], input=out,
                                   capture_output=True, text=True, timeout=60)
                check(p.returncode == 0 and p.stdout == out,
                      f"n={n}: the trace file does not open again the same: {p.stderr[-300:]}")
    p = subprocess.run([TRACE, "--kernel-file", k, "--random", "64"], capture_output=True,
                       text=True, timeout=60, env={**os.environ, "NO_COLOR": "1"})
    want = expected(64)
    loads = sum(c for s, c, kd in want.values() if kd == "ld")
    stores = sum(c for s, c, kd in want.values() if kd == "st")
    check(f"bank conflicts: {loads} in loads, {stores} in stores" in p.stdout,
          f"the table: {p.stdout[-600:]}")
    # a file's colliding cells are read bounded: each refusal names the
    # entry; a file of before them (no "cells") still opens
    p = subprocess.run([TRACE, "--kernel-file", k, "--random", "64", "--format", "json"],
                       capture_output=True, text=True, timeout=60)
    base = json.loads(p.stdout)
    out_index = next(i for i, a in enumerate(base["arrays"]) if a["kind"] == "out")
    cells = base["bank_conflicts"]["cells"]
    check(len(cells) >= 2, f"n=64: {len(cells)} colliding cells")
    path = os.path.join(d, "cells.json")
    for what, change, want in (
            ("the out array", lambda c: c[0].update(array=out_index), "bank_conflicts.cells[0]"),
            ("33 ways", lambda c: c[1].update(ways=33), "bank_conflicts.cells[1].ways"),
            ("a cell past its array", lambda c: c[0].update(cell=2048), "bank_conflicts.cells[0]"),
            ("out of order", lambda c: c.reverse(), "out of order"),
            ("a load or a store", lambda c: c[0].update(op="both"), "bank_conflicts.cells[0].op"),
            ("not a list", None, "bank_conflicts.cells")):
        doc = json.loads(p.stdout)
        if change:
            change(doc["bank_conflicts"]["cells"])
        else:
            doc["bank_conflicts"]["cells"] = {"step": 0}
        with open(path, "w") as f:
            json.dump(doc, f)
        r = subprocess.run([TRACE, "--open", path], capture_output=True, text=True, timeout=60)
        check(r.returncode == 2 and want in r.stderr,
              f"{what}: exit {r.returncode}, want 2 naming {want!r}: {r.stderr[-300:]}")
    doc = json.loads(p.stdout)
    del doc["bank_conflicts"]["cells"]
    with open(path, "w") as f:
        json.dump(doc, f)
    r = subprocess.run([TRACE, "--open", path, "--format", "json"], capture_output=True,
                       text=True, timeout=60)
    check(r.returncode in (0, 4) and '"cells": []' in r.stdout,
          f"a file without cells: exit {r.returncode}: {r.stderr[-300:]}")
    return report("bank conflicts: all checks passed")


sys.exit(main())
