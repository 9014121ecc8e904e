"""Registers as rows (issue 30), as a user runs them: a shuffle's values
drawn as a row per round, through scanviz-trace on the CPU runtime. For
warp_scan.cu (n = 1 .. 32) and block_warp_scan.cu (n up to 100, warps
apart), under three schedules: the trace has one register array
"shfl@LINE" (kind "register"), its row r the values each lane sent the r-th
time it ran the line; against Hillis-Steele's rounds computed here within
each warp; each write of row r >= 1 reads row r - 1 at its own lane and,
where lane >= 2^(r-1), at lane - 2^(r-1) (the arrows); no hazard and no
colliding cell on registers; the table's reading; a file read again the
same; the skipped round of warp_scan_skip.cu named.

Usage: test_shuffle_rows.py SCANVIZ_TRACE KERNELS_DIR"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, report  # noqa: E402

TRACE, KERNELS = sys.argv[1], sys.argv[2]


def rounds(inp, nrows):
    """Hillis-Steele's rounds 0 .. nrows-1 within each warp of 32."""
    cur, out = list(inp), [list(inp)]
    for r in range(1, nrows):
        s = 1 << (r - 1)
        cur = [cur[i] + cur[i - s] if i % 32 >= s else cur[i] for i in range(len(cur))]
        out.append(cur)
    return out


def shuffle_line(path):
    return next(k for k, l in enumerate(open(path).read().splitlines(), 1)
                if "= __shfl_up_sync(" in l)


def run(path, n, sched):
    p = subprocess.run([TRACE, "--kernel-file", path, "--random", str(n), "--seed", "3",
                        "--schedule", sched, "--format", "json"], capture_output=True, text=True,
                       timeout=120)
    return p, (json.loads(p.stdout) if p.stdout.startswith("{") else None)


def main():
    for name, sizes in (("warp_scan.cu", (1, 5, 8, 32)), ("block_warp_scan.cu", (33, 64, 100))):
        path = os.path.join(KERNELS, name)
        line = shuffle_line(path)
        for n in sizes:
            for sched in ("lockstep", "reverse", "random:2"):
                what = f"{name} n={n} {sched}"
                p, t = run(path, n, sched)
                check(p.returncode == 0 and t, f"{what}: exit {p.returncode}: {p.stderr[-300:]}")
                if not t:
                    continue
                regs = [(i, a) for i, a in enumerate(t["arrays"]) if a["kind"] == "register"]
                check(len(regs) == 1 and regs[0][1]["name"] == f"shfl@{line}",
                      f"{what}: register arrays {[a for _, a in regs]}")
                if len(regs) != 1:
                    continue
                ai, arr = regs[0]
                # warp 0 of the block scan runs the line twice (its totals)
                want_rows = 5 if name == "warp_scan.cu" or n <= 32 else 10
                check(arr["rows"] == want_rows and arr["len"] == want_rows * n,
                      f"{what}: {arr['rows']} rows of {arr['len']} cells, want {want_rows}")
                last = t["steps"][-1]["cells"][ai]
                want = rounds(t["input"], 5)
                got = [last[r * n:(r + 1) * n] for r in range(5)]
                check(got == want, f"{what}: the rows {got[:2]}... are not the rounds {want[:2]}...")
                # the arrows: each write of row r >= 1 reads its row r - 1
                bad = 0
                for st in t["steps"]:
                    for w in st.get("writes", []):
                        if w["array"] != ai or w["cell"] >= 5 * n or w["cell"] < n:
                            continue
                        r, i = divmod(w["cell"], n)
                        src = {x["cell"] for x in st["reads"][w["first_read"]:w["first_read"] + w["nreads"]]
                               if x["array"] == ai}
                        s = 1 << (r - 1)
                        need = {(r - 1) * n + i} | ({(r - 1) * n + i - s} if i % 32 >= s else set())
                        bad += not need <= src
                check(bad == 0, f"{what}: {bad} register writes without their round's reads")
                check(t["hazards_total"] == 0, f"{what}: {t['hazards_total']} hazards")
                cells = t.get("bank_conflicts", {}).get("cells", [])
                check(all(c["array"] != ai for c in cells), f"{what}: bank cells on registers")
                if sched == "lockstep" and n in (8, 64):
                    r = subprocess.run([TRACE, "--open", "-", "--format", "json"], input=p.stdout,
                                       capture_output=True, text=True, timeout=60)
                    check(r.returncode == 0 and r.stdout == p.stdout,
                          f"{what}: the file read again is not the same: {r.stderr[-300:]}")
                    tab = subprocess.run([TRACE, "--kernel-file", path, "--random", str(n)],
                                         capture_output=True, text=True, timeout=120,
                                         env={**os.environ, "NO_COLOR": "1"}).stdout
                    check(f"registers: shfl@{line}[0] to shfl@{line}[4] hold the chapter's "
                          "rounds 0 to 4" in tab, f"{what}: the table: {tab[-500:]}")
    skip = os.path.join(KERNELS, "warp_scan_skip.cu")
    p = subprocess.run([TRACE, "--kernel-file", skip], capture_output=True, text=True,
                       timeout=120, env={**os.environ, "NO_COLOR": "1"})
    line = shuffle_line(skip)
    check(p.returncode == 4 and f"registers: shfl@{line}[1][1] breaks round 1: it holds 1, the "
          "round gives 4" in p.stdout, f"warp_scan_skip.cu: exit {p.returncode}: {p.stdout[-400:]}")
    return report("registers as rows: all checks passed")


sys.exit(main())
