"""scanviz-trace --kernel-file on files of many blocks (issue 31), as a user
runs them: n past one block (--random, --input and --file up to 2^20 for a
file with a host function scan; the one-block limit and its words for any
other), the
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


TMPDIR = os.environ.get("TMPDIR", "/tmp")


def variant(name, old, new):
    """A temporary copy of test kernel name with old (which must be there)
    written as new: its path (the caller removes it)."""
    text = open(k(name)).read()
    assert old in text, f"{name} lacks {old!r}"
    path = os.path.join(TMPDIR, f"sv-{os.getpid()}-{name}")
    with open(path, "w") as f:
        f.write(text.replace(old, new, 1))
    return path


def scan(values):
    out, acc = [], 0
    for v in values:
        acc = (acc + v + 2**31) % 2**32 - 2**31
        out.append(acc)
    return out


# the hierarchical scan at n = 65,536: 1024 blocks of 64, three launches
rc, out, err = run("--kernel-file", k("blocks_hier.cu"), "--random", "65536", "--seed", "3",
                   "--schedule", "random:2", "--format", "json", "--time-limit", "60")
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
# each launch's blocks over time: one tile per block, by launch then block,
# the out[] cells each wrote, its steps (barriers) and publishes
tiles = t.get("tiles", [])
check([(x["launch"], x["block"]) for x in tiles] ==
      [(0, b) for b in range(1024)] + [(1, 0)] + [(2, b) for b in range(1024)],
      f"hier: {len(tiles)} tiles")
check(all(x["out"] == [64 * x["block"], 64 * x["block"] + 63] for x in tiles
          if x["launch"] == 0 or (x["launch"] == 2 and x["block"] > 0)) and
      tiles[1024]["out"] is None and tiles[1025]["out"] is None,
      "hier: the tiles' out[] cells (add_back's block 0 adds nothing)")
check(all(x["start"] <= e["time"] <= x["end"] for x in tiles for e in x["events"]),
      "hier: an event outside its tile's time")
first = tiles[5]["events"] if len(tiles) > 5 else []
steps = [e["line"] for e in first if e["kind"] == "step"]
pubs = [(e["array"], e["cell"], e["value"]) for e in first if e["kind"] == "publish"]
tile5 = sum(t["input"][320:384]) if t.get("input") else None
check(len(steps) >= 6 and pubs == [(1, 5, (tile5 + 2**31) % 2**32 - 2**31 if tile5 is not None
                                        else None)],
      f"hier launch 1 block 5: steps {steps}, publishes {pubs}")
check(all(e["kind"] != "look" for x in tiles if x["launch"] == 0 for e in x["events"]),
      "hier launch 1: a block read another's word")
# a single pass: each tile after the first reads what tiles before it wrote,
# one of them waits (random:1), the trace opens again byte for byte
rc, out, err = run("--kernel-file", k("blocks_lookback.cu"), "--random", "256", "--seed", "3",
                   "--schedule", "random:1", "--format", "json")
t = json.loads(out) if rc == 0 else {}
tl = t.get("tiles", [])
check(rc == 0 and len(tl) == 4, f"lookback: exit {rc}, {len(tl)} tiles: {err[-300:]}")
order = sorted(range(len(tl)), key=lambda i: tl[i]["out"][0])
for row, i in enumerate(order[1:], 1):
    reads = [tl[e["tile"]]["out"][0] // 64 for e in tl[i]["events"]
             if e["kind"] == "look" and e["array"] == 1]
    check(reads and all(r < row for r in reads), f"lookback tile {row} read tiles {reads}")
waits = [e for x in tl for e in x["events"] if e["kind"] == "wait"]
check(len(waits) >= 1 and all(e["array"] == 1 for e in waits), f"lookback waits: {waits}")
p = subprocess.run([TRACE, "--open", "-", "--format", "json"], input=out, capture_output=True,
                   text=True, timeout=120)
check(p.returncode == 0 and p.stdout == out, f"the lookback trace does not open again: {p.stderr}")
# a broken tile is refused, naming its field
if tl:
    bad = json.loads(out)
    bad["tiles"][2]["events"][0]["kind"] = "jump"
    p = subprocess.run([TRACE, "--open", "-"], input=json.dumps(bad), capture_output=True,
                       text=True, timeout=60)
    check(p.returncode == 2 and "tiles[2].events[0].kind" in p.stderr, f"{p.returncode} {p.stderr}")
    bad = json.loads(out)
    bad["tiles"][1]["end"] = bad["tiles"][1]["start"] - 1 if bad["tiles"][1]["start"] else -1
    p = subprocess.run([TRACE, "--open", "-"], input=json.dumps(bad), capture_output=True,
                       text=True, timeout=60)
    check(p.returncode == 2 and "tiles" in p.stderr, f"{p.returncode} {p.stderr}")
# many runs of such a file: refused, saying so (a seeded schedule alone runs it once)
# --runs R: run k a child of its own under seed S + k; the trace the first
# wrong run's, with the runs counted (the CPU runtime; the GPU's replay runs
# once)
rc, out, err = run("--kernel-file", k("blocks_lookback.cu"), "--random", "256", "--runs", "8",
                   "--schedule", "random:1", "--format", "json")
t = json.loads(out) if rc == 0 else {}
check(rc == 0 and t.get("runs") == 8 and t.get("wrong_runs") == 0 and
      t.get("schedule") == "random:1" and t.get("output") == scan(t.get("input", [])),
      f"--runs 8 of the look-back: {rc} {err[-300:]}")
rc, out, err = run("--kernel-file", k("blocks_chained.cu"), "--random", "1024", "--runs", "12",
                   "--schedule", "random:3", "--format", "json")
t = json.loads(out) if out.startswith("{") else {}
check(rc == 5 and t.get("runs") == 12 and 1 <= t.get("wrong_runs", 0) <= 12 and
      t.get("failure", {}).get("kind") == "deadlock" and
      "blocks may start in any order" in err,
      f"--runs 12 of the chained scan without a ticket: {rc} {t.get('runs')} "
      f"{t.get('wrong_runs')} {err[-300:]}")
rc, out, err = run("--kernel-file", k("blocks_chained.cu"), "--random", "1024", "--runs", "12",
                   "--schedule", "random:3")
check(rc == 5 and "runs: " in out and " of 12 wrong" in out, f"--runs 12, table: {rc} {out[-600:]}")
rc, out, err = run("--kernel-file", k("blocks_lookback.cu"), "--random", "256", "--runs", "8",
                   "--backend", "cuda")
check(rc == 2 and "--runs 8 with --backend cuda: a kernel file with a host function scan runs "
      "once on the GPU" in err, f"--runs 8 --backend cuda: {rc} {err}")
# the table heads each step with its launch
rc, out, err = run("--kernel-file", k("blocks_hier.cu"), "--input", "3 1 7 0 4 1 6 3 2")
check(rc == 0 and "Launch 1 \u00b7 block_scan<<<1, 64>>> at line " in out and
      "Launch 3 \u00b7 add_back<<<1, 64>>>" in out, f"table: {rc} {out[:600]}")
# past the limit of launches, and past one block without a host function
rc, out, err = run("--kernel-file", k("blocks_hier.cu"), "--random", "1048577")
check(rc == 2 and "expected a whole decimal number from 1 to 1048576" in err,
      f"1048577: {rc} {err}")
# the hierarchical scan at n = 2^20 (16,384 blocks of 64): right, its trace
# file (about 70 MB) written whole and read back byte for byte from a file
# (standard input keeps the 16 MiB of any trace). Its default time limit (20
# us a value: 21 s; test_blocks checks it) takes 5 s of it on this machine's
# normal build; an ASan build on a loaded CI machine has taken longer, so a
# limit of its own
big = os.path.join(TMPDIR, f"sv-blocks-{os.getpid()}.json")
rc, out, err = run("--kernel-file", k("blocks_hier.cu"), "--random", "1048576", "--seed", "5",
                   "--format", "json", "-o", big, "--time-limit", "200", timeout=300)
out = open(big).read() if rc == 0 else ""
check(rc == 0, f"hier at 2^20: exit {rc}: {err[-400:]}")
t = json.loads(out) if rc == 0 else {}
check(t.get("n") == 1048576 and t.get("output") == scan(t.get("input", [])) and
      t.get("expected") == t.get("output"), "hier at 2^20: output is not the scan")
check([(x["grid"], x["step"]) for x in t.get("launches", [])] == [(16384, 0), (1, 1), (16384, 2)]
      and len(t.get("steps", [])) == 3 and t["arrays"][1]["len"] == 16384 and
      len(t.get("tiles", [])) == 2 * 16384 + 1, f"hier at 2^20: {t.get('launches')}")
check(t["steps"][2]["cells"][0] == t["output"] and t["steps"][2]["wrote"][0] ==
      list(range(64, 1048576)), "hier at 2^20: the add-back's step")
p = subprocess.run([TRACE, "--open", big, "--format", "json"], capture_output=True, text=True,
                   timeout=300)
check(p.returncode == 0 and p.stdout == out, f"the 2^20 trace does not open again: {p.stderr}")
p = subprocess.run([TRACE, "--open", "-", "--format", "json"], input=out, capture_output=True,
                   text=True, timeout=300)
check(p.returncode == 2 and "stdin: longer than the limit of 16 MiB for a trace file" in p.stderr,
      f"the 2^20 trace from stdin: {p.returncode} {p.stderr}")
# a file that says it is of 2^20 values but is padded past its budget
with open(big, "a") as f:
    f.write(" " * (128 << 20))
p = subprocess.run([TRACE, "--open", big], capture_output=True, text=True, timeout=300)
check(p.returncode == 2 and "longer than the limit of 128 MiB for a trace file" in p.stderr,
      f"a padded 2^20 trace: {p.returncode} {p.stderr}")
os.unlink(big)
del t, out
# a launch of more than 65,536 blocks (one thread each): right, without
# tiles (the trace's 65,536), its events counted as dropped
b1 = variant("blocks_hier.cu", "#define B 64", "#define B 1")
rc, out, err = run("--kernel-file", b1, "--random", "70000", "--format", "json", "--time-limit",
                   "60")
os.unlink(b1)
t = json.loads(out) if rc == 0 else {}
check(rc == 0 and [(x["grid"], x["block"]) for x in t.get("launches", [])] ==
      [(70000, 1), (1, 1), (70000, 1)] and [x["launch"] for x in t.get("tiles", [])] == [1] and
      t.get("events_dropped", 0) > 0 and t.get("output") == scan(t.get("input", [])),
      f"70000 blocks: {rc} {err[-300:]}")
# cudaMemcpy between device arrays: one launch a round, the buffers swapped
# on the host, in[] copied in and the last round copied out
for sched in ("lockstep", "reverse", "random:3"):
    rc, out, err = run("--kernel-file", k("blocks_memcpy.cu"), "--random", "1000", "--schedule",
                       sched, "--format", "json")
    t = json.loads(out) if rc == 0 else {}
    check(rc == 0 and t.get("output") == scan(t.get("input", [])) and
          [x["kernel"] for x in t.get("launches", [])] == ["round_kernel"] * 10 and
          [a["name"] for a in t.get("arrays", [])] == ["out", "a", "b"] and
          t["steps"][0]["cells"][2][:3] == scan(t["input"][:2]) + [t["input"][1] + t["input"][2]],
          f"memcpy, {sched}: exit {rc}: {err[-300:]}")
mc = variant("blocks_memcpy.cu", "cudaMemcpyDeviceToDevice); /* MARK: copy in */",
             "cudaMemcpyHostToDevice);")
rc, out, err = run("--kernel-file", mc, "--random", "100")
os.unlink(mc)
check(rc == 2 and "cudaMemcpy at line 20 from the host: the host function does not read or "
      "write device memory itself" in err, f"memcpy from the host: {rc} {err[-300:]}")
# the table past 4096 cells: the first 4096 of each step and of the output,
# and the output's line of its first wrong cell
rc, out, err = run("--kernel-file", k("blocks_warp.cu"), "--random", "65536")
lines = out.splitlines()
check(rc == 4 and out.count("  ... cells 4096 to 65535 not shown (--format json has every "
                            "cell)") == 3 and "  ... cells 4096 to 4223 not shown" in lines and
      "  ... cells 4240 to 65535 not shown (--format json has every cell)" in lines and
      "  output: wrong from cell 4224: 524, expected 18745" in lines and len(out) < 1 << 20,
      f"the table at 65536: {rc} {len(out)} bytes {err[-200:]}")
# a 2-D grid: (16, 3) blocks of 64 for n = 3000, in the JSON as "grid" (its
# blocks) and "grid_dims", the table's head as the launch wrote it, the file
# reopened byte for byte, and grid_dims that are not the grid refused
rc, out, err = run("--kernel-file", k("blocks_grid_2d.cu"), "--random", "3000", "--schedule",
                   "reverse", "--format", "json")
t = json.loads(out) if rc == 0 else {}
check(rc == 0 and t.get("output") == scan(t.get("input", [])) and
      [(x["grid"], x.get("grid_dims")) for x in t.get("launches", [])] ==
      [(48, [16, 3, 1]), (1, None), (48, [16, 3, 1])] and
      sorted(x["block"] for x in t.get("tiles", []) if x["launch"] == 0) == list(range(48)),
      f"2-D grid: exit {rc}: {err[-300:]} {t.get('launches')}")
p = subprocess.run([TRACE, "--open", "-", "--format", "json"], input=out, capture_output=True,
                   text=True, timeout=120)
check(p.returncode == 0 and p.stdout == out,
      f"the 2-D grid's trace does not open again: {p.stderr}")
bad = out.replace('"grid_dims": [16, 3, 1]', '"grid_dims": [16, 2, 1]', 1)
p = subprocess.run([TRACE, "--open", "-"], input=bad, capture_output=True, text=True, timeout=120)
check(p.returncode == 2 and "launches[0].grid_dims: [16, 2, 1]: a grid of more than one "
      "dimension whose blocks are grid = 48" in p.stderr, f"bad grid_dims: {p.stderr}")
rc, out, err = run("--kernel-file", k("blocks_grid_2d.cu"), "--random", "3000")
check(rc == 0 and "Launch 1 \u00b7 block_scan<<<(16, 3), 64>>> at line " in out,
      f"2-D grid, table: {rc} {out[:300]}")
# 2-D blocks of (8, 8): threadIdx.y and blockDim.y, the JSON's block_dims,
# the table's head, read back; past CUDA's block limits refused in words
rc, out, err = run("--kernel-file", k("blocks_block_2d.cu"), "--random", "3000", "--schedule",
                   "random:4", "--format", "json")
t = json.loads(out) if rc == 0 else {}
check(rc == 0 and t.get("output") == scan(t.get("input", [])) and
      [(x["block"], x.get("block_dims")) for x in t.get("launches", [])] ==
      [(64, [8, 8, 1]), (1, None), (64, [8, 8, 1])],
      f"2-D blocks: exit {rc}: {err[-300:]} {t.get('launches')}")
p = subprocess.run([TRACE, "--open", "-", "--format", "json"], input=out, capture_output=True,
                   text=True, timeout=120)
check(p.returncode == 0 and p.stdout == out, f"2-D blocks' trace does not open again: {p.stderr}")
bad = out.replace('"block_dims": [8, 8, 1]', '"block_dims": [8, 4, 1]', 1)
p = subprocess.run([TRACE, "--open", "-"], input=bad, capture_output=True, text=True, timeout=120)
check(p.returncode == 2 and "launches[0].block_dims: [8, 4, 1]: a block of more than one "
      "dimension whose threads are block = 64" in p.stderr, f"bad block_dims: {p.stderr}")
rc, out, err = run("--kernel-file", k("blocks_block_2d.cu"), "--random", "3000")
check(rc == 0 and "Launch 1 \u00b7 block_scan<<<47, (8, 8)>>> at line " in out,
      f"2-D blocks, table: {rc} {out[:300]}")
deep = variant("blocks_block_2d.cu", "dim3 block(8, B / 8);", "dim3 block(1, 1, 128);")
rc, out, err = run("--kernel-file", deep, "--random", "300")
check(rc == 2 and "blocks of (1, 1, 128) threads" in out + err and "z at most 64" in out + err,
      f"a block 128 deep: {rc} {err[-400:]}")
os.unlink(deep)
# printf in the host function: its text in the trace's console, as a
# program's output (escaped), the run as without it
hp = variant("blocks_hier.cu", "    cudaFree(sums);",
             '    printf("%d blocks of %d, \\x1b[31m\\n", blocks, B);\n    cudaFree(sums);')
rc, out, err = run("--kernel-file", hp, "--input", "3 1 7 0 4 1 6 3 2", "--format", "json")
t = json.loads(out) if rc == 0 else {}
check(rc == 0 and t.get("console") == "1 blocks of 64, \\e[31m\\n" and
      t.get("output") == scan([3, 1, 7, 0, 4, 1, 6, 3, 2]),
      f"host printf: {rc} {t.get('console')!r} {err[-300:]}")
rc, out, err = run("--kernel-file", hp, "--input", "3 1 7 0 4 1 6 3 2")
check(rc == 0 and "the kernel's process wrote: 1 blocks of 64, \\e[31m\\n" in out and
      "\x1b[31m" not in out, f"host printf, table: {rc} {out[-400:]}")
os.unlink(hp)
# more launches than the trace's 2^25 cells of steps hold: the first 10 are
# steps, the other 11 ran (the output is theirs) and are counted as dropped
rc, out, err = run("--kernel-file", k("blocks_many_launches.cu"), "--random", "1048576",
                   "--format", "json", timeout=300)
t = json.loads(out) if rc == 4 else {}
check(rc == 4 and len(t.get("steps", [])) == 10 and t.get("steps_dropped") == 11 and
      len(t.get("launches", [])) == 10 and len(t.get("tiles", [])) == 10 and
      t.get("output") == t.get("input") and t.get("first_wrong") == 1,
      f"21 launches at 2^20: exit {rc}: {err[-300:]}")
del t, out
# --file and --input past 1024 values for such a file (a file of 2^20 values
# is more than the one block's 1 MiB of values)
vals = [(v * 7919) % 19 - 9 for v in range(1048576)]
path = os.path.join(TMPDIR, f"sv-blocks-{os.getpid()}.txt")
with open(path, "w") as f:
    f.write("# 2^20 values\n" + "\n".join(map(str, vals)) + "\n")
rc, out, err = run("--kernel-file", k("blocks_lookback.cu"), "--file", path, "--format", "json",
                   "--time-limit", "120", timeout=300)
os.unlink(path)
check(rc == 0 and json.loads(out)["output"] == scan(vals) if rc == 0 else False,
      f"lookback on a file of 2^20 values: {rc} {err[-300:]}")
rc, out, err = run("--kernel-file", k("blocks_hier.cu"), "--input", " ".join(map(str, vals[:3000])),
                   "--format", "json")
check(rc == 0 and json.loads(out)["output"] == scan(vals[:3000]) if rc == 0 else False,
      f"hier on --input of 3000 values: {rc} {err[-300:]}")
rc, out, err = run("--kernel-file", k("double_buffer.cu"), "--input", " ".join(["1"] * 1025))
check(rc == 2 and "1025 values: more than the block limit of 1024" in err,
      f"one block, 1025: {err}")
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
