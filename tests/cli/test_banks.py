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


def conflicts(n, words_of, size):
    """Conflicts of one line: each warp's request, words_of(i) the 4-byte
    words lane i touches (its first word for 8 bytes)."""
    total = 0
    group = 32 if size <= 4 else 16
    per = 1 if size <= 4 else size // 4
    for w0 in range(0, n, 32):
        for g0 in range(w0, min(w0 + 32, n), group):
            lanes = range(g0, min(g0 + group, n))
            ws = {words_of(i) + k for i in lanes for k in range(per)}
            banks = {}
            for w in ws:
                banks[w % 32] = banks.get(w % 32, 0) + 1
            total += max(banks.values()) - 1
    return total


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
            got = t.get("bank_conflicts")
            check(got == {"loads": loads, "stores": stores, "by_line": by_line},
                  f"n={n} {sched}: exit {rc}, bank_conflicts {got}\n  want {loads} {stores} {by_line}: {err[-200:]}")
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
    return report("bank conflicts: all checks passed")


sys.exit(main())
