"""scanviz-trace --kernel-file on files of many blocks (issue 31), as a user
runs them: n past one block (--random up to 65,536 for a file with a host
function scan; the one-block limit and its words for any other), the
launches in the trace file and the table, the output against a scan
computed here, the trace file opened again byte for byte, the in-order
assumption named (exit 5) and a race between blocks (exit 4).

Usage: test_blocks_cli.py SCANVIZ_TRACE KERNELS_DIR"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, report  # noqa: E402

TRACE, KERNELS = sys.argv[1], sys.argv[2]


def run(*args, stdin=None, timeout=120):
    p = subprocess.run([TRACE, *args], capture_output=True, text=True, timeout=timeout,
                       input=stdin, env={**os.environ, "NO_COLOR": "1"})
    return p.returncode, p.stdout, p.stderr


def k(name):
    return os.path.join(KERNELS, name)


def scan(values):
    out, acc = [], 0
    for v in values:
        acc = (acc + v + 2**31) % 2**32 - 2**31
        out.append(acc)
    return out


# the hierarchical scan at n = 65,536: 1024 blocks of 64, three launches
rc, out, err = run("--kernel-file", k("blocks_hier.cu"), "--random", "65536", "--seed", "3",
                   "--schedule", "random:2", "--format", "json")
check(rc == 0, f"hier at 65536: exit {rc}: {err[-400:]}")
t = json.loads(out) if rc == 0 else {}
check(t.get("n") == 65536 and t.get("verdict") == "ok", f"hier: n {t.get('n')} {t.get('verdict')}")
check(t.get("output") == scan(t.get("input", [])), "hier at 65536: output is not the scan")
launches = t.get("launches", [])
check([(x["kernel"], x["grid"], x["block"], x["step"]) for x in launches] ==
      [("block_scan", 1024, 64, 0), ("scan_sums", 1, 1, 1), ("add_back", 1024, 64, 2)],
      f"launches: {launches}")
check([a["name"] for a in t.get("arrays", [])] == ["out", "sums"] and
      t["arrays"][1]["kind"] == "global" and t["arrays"][1]["len"] == 1024, f"{t.get('arrays')}")
p = subprocess.run([TRACE, "--open", "-", "--format", "json"], input=out, capture_output=True,
                   text=True, timeout=120)
check(p.returncode == 0 and p.stdout == out, f"the 65536 trace does not open again: {p.stderr}")
# the table heads each step with its launch
rc, out, err = run("--kernel-file", k("blocks_hier.cu"), "--input", "3 1 7 0 4 1 6 3 2")
check(rc == 0 and "Launch 1 \u00b7 block_scan<<<1, 64>>> at line " in out and
      "Launch 3 \u00b7 add_back<<<1, 64>>>" in out, f"table: {rc} {out[:600]}")
# past the limit of launches, and past one block without a host function
rc, out, err = run("--kernel-file", k("blocks_hier.cu"), "--random", "65537")
check(rc == 2 and "expected a whole decimal number from 1 to 65536" in err, f"65537: {rc} {err}")
rc, out, err = run("--kernel-file", k("double_buffer.cu"), "--random", "2000")
check(rc == 2 and "n = 2000 is above the block limit: a single-block scan takes at most 1024 "
      "elements" in err, f"one block at 2000: {rc} {err}")
rc, out, err = run("--random", "2000")
check(rc == 2 and "n = 2000 is above the block limit" in err, f"the chapter at 2000: {rc} {err}")
# the single pass without a ticket: named under reverse, within its time
rc, out, err = run("--kernel-file", k("blocks_chained.cu"), "--random", "4096", "--schedule",
                   "reverse", "--time-limit", "5")
check(rc == 5 and "a flag of block 125, which has not started: blocks may start in any order"
      in out + err, f"chained, reverse: {rc} {(out + err)[-500:]}")
rc, out, err = run("--kernel-file", k("blocks_ticket.cu"), "--random", "4096", "--schedule",
                   "random:9")
check(rc == 0, f"ticket, random:9: {rc} {(out + err)[-300:]}")
# the sums read in the launch that writes them: a race between blocks
rc, out, err = run("--kernel-file", k("blocks_one_launch.cu"), "--random", "3000", "--schedule",
                   "reverse")
check(rc == 4 and "(WAR)" in out and "sums[" in out, f"one launch: {rc} {out[-400:]}")
sys.exit(report("blocks cli: all checks passed"))
