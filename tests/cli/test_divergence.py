"""Divergence within a warp (issue 30), as a user reads it: the chapter's
double buffer at n = 64, through scanviz-trace on the CPU runtime. In the
round of stride s, lanes i >= s run the combining line and lanes i < s the
copy: a warp whose threads fall on both sides (s < 32: warp 0 only, since
warp 1's threads 32..63 are all >= s) diverges at both lines, and from
s = 32 on no warp does (warp 0 all copies, warp 1 all combines). The
trace file's "divergence" of each step against that, the table's lines,
and a file read again gives the same (derived: recomputed, never read).

Usage: test_divergence.py SCANVIZ_TRACE KERNELS_DIR"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, report  # noqa: E402

TRACE, KERNELS = sys.argv[1], sys.argv[2]
N = 64


def line_of(src, text):
    return next(k for k, l in enumerate(src.splitlines(), 1) if text in l)


def mask(lanes):
    m = 0
    for i in lanes:
        m |= 1 << i
    return m


def main():
    k = os.path.join(KERNELS, "double_buffer.cu")
    src = open(k).read()
    combine = line_of(src, "buf[pin * n + i - stride] + buf[pin * n + i]")
    copy = next(k for k, l in enumerate(src.splitlines(), 1) if l.strip() == "else") + 1
    for sched in ("lockstep", "random:3"):
        p = subprocess.run([TRACE, "--kernel-file", k, "--random", str(N), "--seed", "5",
                            "--schedule", sched, "--format", "json"], capture_output=True,
                           text=True, timeout=120)
        check(p.returncode == 0, f"{sched}: exit {p.returncode}: {p.stderr[-300:]}")
        t = json.loads(p.stdout)
        steps = t["steps"]
        check(len(steps) == 8, f"{sched}: {len(steps)} steps, want 8 (staging, 6 rounds, out)")
        for j, st in enumerate(steps):
            got = st.get("divergence", [])
            want = []
            if 1 <= j <= 6 and (1 << (j - 1)) < 32:
                s = 1 << (j - 1)
                want = [{"warp": 0, "line": combine, "ran": mask(range(s, 32)),
                         "lanes": mask(range(32))},
                        {"warp": 0, "line": copy, "ran": mask(range(s)),
                         "lanes": mask(range(32))}]
                want.sort(key=lambda d: d["line"])
            check(got == want, f"{sched}: step {j}: divergence {got}, want {want}")
        if sched == "lockstep":
            r = subprocess.run([TRACE, "--open", "-", "--format", "json"], input=p.stdout,
                               capture_output=True, text=True, timeout=60)
            check(r.returncode == 0 and r.stdout == p.stdout,
                  f"the file read again is not the same: {r.stderr[-300:]}")
    table = subprocess.run([TRACE, "--kernel-file", k, "--random", str(N), "--seed", "5"],
                           capture_output=True, text=True, timeout=120,
                           env={**os.environ, "NO_COLOR": "1"}).stdout
    want = f"divergence: warp 0 at line {combine}: lanes 4-31 ran it, lanes 0-3 waited"
    check(want in table, f"the table does not say {want!r}: {table[:400]}")
    check(table.count("divergence: warp 0") == 10 and "warp 1" not in table,
          f"{table.count('divergence: warp 0')} divergence lines, want 10 (rounds 1 to 5)")
    return report("divergence: all checks passed")


sys.exit(main())
