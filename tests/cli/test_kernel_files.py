"""scanviz-trace --kernel-file on every test kernel (tests/kernels/*.cu) and
the starting file, on the CPU runtime, as a user runs it: the exit status,
the output, the hazard count against an independent count (the access sets
of each kernel modelled here, pairs of threads per cell and step with one
writing), the failure's kind and line (the file's `MARK:` lines), the table's
words, the trace file written and opened again.

Usage: test_kernel_files.py SCANVIZ_TRACE KERNELS_DIR STARTER_FILE [SCANVIZ]
(with SCANVIZ, also `scanviz --trace` of a kernel trace file, headless)"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, report  # noqa: E402

TRACE, KERNELS, STARTER = sys.argv[1], sys.argv[2], sys.argv[3]
VIEWER = sys.argv[4] if len(sys.argv) > 4 else None
CHAPTER = "3 1 7 0 4 1 6 3"
SCAN = [3, 4, 11, 11, 15, 16, 22, 25]


def run(*args, timeout=60):
    p = subprocess.run([TRACE, *args], capture_output=True, text=True, timeout=timeout,
                       env={**os.environ, "NO_COLOR": "1"})
    return p.returncode, p.stdout, p.stderr


def kernel(name):
    return os.path.join(KERNELS, name)


def mark(name, what):
    """The line of `name` whose comment says MARK: what."""
    with open(kernel(name)) as f:
        for no, line in enumerate(f, 1):
            if "MARK: " + what in line:
                return no
    raise AssertionError(f"{name}: no MARK: {what}")


def trace_json(name, *args, want_rc):
    """The run's trace file, which must also open again and write back the
    same bytes (scanviz-trace --open - --format json)."""
    rc, out, err = run("--kernel-file", kernel(name), "--format", "json", *args)
    check(rc == want_rc, f"{name} {args}: exit {rc}, expected {want_rc}; stderr: {err}")
    p = subprocess.run([TRACE, "--open", "-", "--format", "json"], input=out,
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 0 and p.stdout == out,
          f"{name} {args}: the trace file does not open again the same: {p.stderr[-300:]}")
    try:
        t = json.loads(out)
    except ValueError:
        check(False, f"{name} {args}: not JSON: {out[:300]} / {err[:300]}")
        return None
    verdict = {0: "ok", 4: "wrong", 2: "refused", 5: "failed"}.get(want_rc)
    check(t.get("verdict") == verdict, f"{name} {args}: verdict {t.get('verdict')}, not {verdict}")
    return t


def hazard_pairs(steps):
    """Independent hazard count: steps is a list of {cell: (readers, writers)};
    a hazard is an unordered pair of distinct threads touching one cell in
    one step, at least one of them writing."""
    total = 0
    for cells in steps:
        for readers, writers in cells.values():
            touch = readers | writers
            total += sum(1 for a in touch for b in touch
                         if a < b and (a in writers or b in writers))
    return total


def in_place_model(n):
    """in_place_race.cu: round of stride s: thread i >= s reads s[i-s], s[i],
    writes s[i]; one barrier per round."""
    steps = []
    s = 1
    while s < n:
        cells = {}
        for i in range(s, n):
            for c in (i - s, i):
                cells.setdefault(c, (set(), set()))[0].add(i)
            cells[i][1].add(i)
        steps.append(cells)
        s *= 2
    return hazard_pairs(steps)


def no_barrier_model(n):
    """no_barrier.cu: every round after the staging falls into one interval."""
    cells = {}
    pout, s = 0, 1
    while s < n:
        pout, pin = 1 - pout, pout
        for i in range(n):
            reads = [(pin, i - s), (pin, i)] if i >= s else [(pin, i)]
            for c in reads:
                cells.setdefault(c, (set(), set()))[0].add(i)
            cells.setdefault((pout, i), (set(), set()))[1].add(i)
        s *= 2
    return hazard_pairs([cells])


def scan(values):
    """The inclusive int32 sum scan, wrapping as on the GPU."""
    out, acc = [], 0
    for v in values:
        acc = (acc + v + 2**31) % 2**32 - 2**31
        out.append(acc)
    return out


def test_correct():
    for name in ("double_buffer.cu", "temp_2d.cu", "in_place_two_barriers.cu", "two_entries.cu"):
        extra = ["--entry", "scan"] if name == "two_entries.cu" else []
        for sched in ("lockstep", "sequential", "reverse", "random:3"):
            t = trace_json(name, "--input", CHAPTER, "--schedule", sched, "--runs", "1", *extra,
                           want_rc=0)
            if t:
                check(t["output"] == SCAN, f"{name} {sched}: output {t['output']}")
                check(t["hazards"] == [] and t["hazards_total"] == 0, f"{name}: hazards")
                check(t["failure"] is None, f"{name}: failure {t['failure']}")
                check(t["source"] and "__global__" in t["source"], f"{name}: source carried")
    t = trace_json("double_buffer.cu", "--random", "1024", "--seed", "5", want_rc=0)
    if t:
        check(len(t["output"]) == 1024 and t["output"] == scan(t["input"]), "n = 1024")
        shared = [k for k, a in enumerate(t["arrays"]) if a["kind"] == "shared"]
        check(len(shared) == 1 and t["arrays"][shared[0]]["name"] == "buf", "buf by its name")
    t = trace_json("double_buffer.cu", "--input", "7", want_rc=0)
    check(t is not None and t["output"] == [7], "n = 1")
    # a file's own Op (the runtime's name for the run's operator) is its own
    t = trace_json("own_op.cu", "--input", CHAPTER, want_rc=0)
    check(t is not None and t["output"] == SCAN, "own Op: the file's own operator")
    trace_json("own_op.cu", "--input", CHAPTER, "--op", "max", want_rc=4)
    rc, out, err = run("--kernel-file", STARTER, "--input", CHAPTER)
    check(rc == 0, f"starter: exit {rc}: {err}")
    check("output: right" in out and "hazards: 0" in out, f"starter table: {out[-600:]}")
    check("round 1: smem[1] holds the round's windows" in out, "starter: the chapter's reading")
    # the chapter's kernel file takes the operator, type and scan from the runtime
    for extra in (["--op", "max"], ["--type", "float32", "--op", "min"], ["--exclusive"],
                  ["--op", "product", "--exclusive"], ["--op", "xor"]):
        rc, out, err = run("--kernel-file", STARTER, "--random", "100", "--seed", "3", *extra)
        check(rc == 0 and "output: right" in out, f"starter {extra}: exit {rc}: {err}{out[-300:]}")


def test_types_and_ops():
    t = trace_json("float_sum.cu", "--type", "float32", "--input", "0.5 0.25 1 2", want_rc=0)
    check(t is not None and t["output"] == [0.5, 0.75, 1.75, 3.75], "float32")
    # Rounding: the tree's order of additions differs from the sequential
    # scan's in the last bit (0.1 + 0.2 + 0.3); within the float32 tolerance
    # that is right, in the exit status as in the diagnosis.
    rc, out, err = run("--kernel-file", kernel("float_sum.cu"), "--type", "float32",
                       "--input", "0.1 0.2 0.3 1 0.7 0.9 0.01 3")
    check(rc == 0 and "output: right" in out, f"float32 rounding: exit {rc}: {out[-400:]}")
    t = trace_json("max_scan.cu", "--op", "max", "--input", CHAPTER, want_rc=0)
    check(t is not None and t["output"] == [3, 3, 7, 7, 7, 7, 7, 7], "max")
    t = trace_json("max_scan.cu", "--input", CHAPTER, want_rc=4)
    check(t is not None and t["output"][1] == 3, "max with --op sum: wrong output")
    rc, out, err = run("--kernel-file", kernel("max_scan.cu"), "--input", CHAPTER)
    check(rc == 4 and "output: wrong from cell 1: 3, expected 4" in out, f"max table: {out[-500:]}")
    t = trace_json("blelloch.cu", "--exclusive", "--input", CHAPTER, want_rc=0)
    if t:
        check(t["output"] == [0, 3, 4, 11, 11, 15, 16, 22], f"blelloch: {t['output']}")
        check(t["hazards_total"] == 0, "blelloch: no hazard")
    rc, out, err = run("--kernel-file", kernel("blelloch.cu"), "--exclusive", "--input", CHAPTER)
    # right another way: not the chapter's rounds, never "broken" (issue 28), and read as
    # Blelloch's tree from what the trace holds, whatever the file is called (issue 29)
    check(rc == 0 and "tree: 8 leaves, 7 combines up and 7 down (the chapter's rounds do not "
          "apply)" in out and "broken" not in out, f"blelloch: read as the tree: {out[-800:]}")


def test_races():
    for n in (8, 64, 1024):
        args = ["--random", str(n)] if n > 8 else ["--input", CHAPTER]
        for sched in ("lockstep", "sequential"):
            t = trace_json("in_place_race.cu", *args, "--schedule", sched, want_rc=4)
            if t:
                check(t["hazards_total"] == in_place_model(n),
                      f"in-place n={n} {sched}: {t['hazards_total']} hazards, "
                      f"expected {in_place_model(n)}")
                line = mark("in_place_race.cu", "race")
                h = t["hazards"][0] if t["hazards"] else None
                check(h and h["first"]["line"] == line and h["second"]["line"] == line,
                      f"in-place: hazard lines {h}")
        t = trace_json("no_barrier.cu", *args, want_rc=4)
        if t:
            check(t["hazards_total"] == no_barrier_model(n),
                  f"no-barrier n={n}: {t['hazards_total']}, expected {no_barrier_model(n)}")
    check(in_place_model(1024) == 8194, "the model gives BUILD-NOTES' count")
    t = trace_json("in_place_race.cu", "--input", CHAPTER, "--schedule", "sequential", want_rc=4)
    check(t is not None and t["output"] != SCAN, "sequential: the race shows in the output")
    rc, out, err = run("--kernel-file", kernel("in_place_race.cu"), "--input", CHAPTER)
    check(rc == 4 and "hazards: 10 (" in out, f"in-place table: {out[-900:]}")
    check("step 2: thread " in out and f"lines {mark('in_place_race.cu', 'race')}" in out,
          "a hazard in words")


def test_failures():
    t = trace_json("no_guard.cu", "--input", CHAPTER, want_rc=5)
    if t:
        f = t["failure"]
        check(f and f["kind"] == "out-of-range" and f["thread"] == 0 and f["index"] == -1
              and f["line"] == mark("no_guard.cu", "oob")
              and t["arrays"][f["array"]]["name"] == "buf", f"no-guard: {f}")
        check(len(t["steps"]) >= 1, "no-guard: the staging step kept")
    t = trace_json("out_of_range_write.cu", "--input", CHAPTER, want_rc=5)
    if t:
        f = t["failure"]
        check(f and f["kind"] == "out-of-range" and f["thread"] == 7 and f["index"] == 8
              and f["line"] == mark("out_of_range_write.cu", "oob"), f"oob write: {f}")
    t = trace_json("barrier_in_if.cu", "--input", CHAPTER, want_rc=5)
    if t:
        f = t["failure"]
        line = mark("barrier_in_if.cu", "barrier")
        check(f and f["kind"] == "deadlock", f"deadlock: {f}")
        check(f and {"line": line, "count": 7, "first_thread": 1} in f["waits"],
              f"deadlock: threads 1..7 wait at line {line}: {f and f['waits']}")
    t = trace_json("endless_loop.cu", "--input", CHAPTER, "--time-limit", "1", want_rc=5)
    check(t is not None and t["failure"] and t["failure"]["kind"] == "time", "time limit")
    # at n = 1024 the steps an endless loop records would be hundreds of MB:
    # the file keeps what fits its limit, and opens again. The limit is about
    # 40 steps of n = 1024; 3 s gives a sanitized build on two busy cores
    # room to record them (1 s recorded fewer than 41 on a CI run). The
    # runtime records about 64 MiB of steps (669 here) whatever the speed: a
    # fast machine recorded thousands in 3 s, too many to send before the
    # parent stopped the process, and the run lost its thread and line
    t = trace_json("endless_loop.cu", "--random", "1024", "--time-limit", "3", want_rc=5)
    check(t is not None and t.get("steps_dropped", 0) > 0 and t["failure"]["kind"] == "time",
          "an endless loop's trace file within its limit")
    t = trace_json("syntax_error.cu", "--input", CHAPTER, want_rc=2)
    if t:
        f = t["failure"]
        line = mark("syntax_error.cu", "syntax")
        check(f and f["kind"] == "compile" and f["line"] in (line, line + 1), f"compile: {f}")
        check(f and "syntax_error.cu" in (f["message"] or ""), "compile: the file's name")
    rc, out, err = run("--kernel-file", kernel("syntax_error.cu"), "--input", CHAPTER)
    check(rc == 2 and "The compiler said:" in out, f"compile table: {out[-500:]}")
    t = trace_json("wrong_signature.cu", "--input", CHAPTER, want_rc=2)
    if t:
        msg = t["failure"] and t["failure"]["message"] or ""
        check(t["failure"]["kind"] == "signature" and "const int *" in msg and "int *" in msg,
              f"signature: {t['failure']}")
    t = trace_json("forbidden_include.cu", "--input", CHAPTER, want_rc=2)
    if t:
        f = t["failure"]
        check(f["kind"] == "include" and f["line"] == mark("forbidden_include.cu", "include")
              and "stdio.h" in (f["message"] or ""), f"include: {f}")
    t = trace_json("two_entries.cu", "--input", CHAPTER, want_rc=2)
    check(t is not None and t["failure"]["kind"] == "signature", "two entries need --entry")
    t = trace_json("two_entries.cu", "--input", CHAPTER, "--entry", "nothing", want_rc=2)
    msg = t and t["failure"] and t["failure"]["message"] or ""
    check(t is not None and t["failure"]["kind"] == "signature" and "copy_only" in msg and
          "scan" in msg, f"--entry nothing names the entries there are: {msg}")
    t = trace_json("double_buffer.cu", "--input", CHAPTER, "--exclusive", want_rc=4)
    check(t is not None and t["output"] == SCAN, "an inclusive kernel checked as --exclusive")
    t = trace_json("two_entries.cu", "--input", CHAPTER, "--entry", "copy_only", want_rc=4)
    check(t is not None and t["output"] == [3, 1, 7, 0, 4, 1, 6, 3], "--entry copy_only")


def view_kernel_traces(d, racy):
    """scanviz --trace: a kernel trace file (version 3) is drawn by the
    kernel pane, whatever its shape: a chapter-shaped one (right, race-free,
    double buffer) and a racy one alike, one image per step, read only; a
    kernel trace with --kernel is refused, saying why."""
    good = os.path.join(d, "good.scanviz.json")
    rc, out, err = run("--kernel-file", kernel("double_buffer.cu"), "--input", CHAPTER,
                       "--format", "json", "-o", good)
    check(rc == 0, f"good trace: {err}")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["SDL_VIDEODRIVER"] = "offscreen"
    for path, steps, sub in ((good, 5, "png"), (racy, 5, "png2")):
        p = subprocess.run([VIEWER, "--trace", path, "--export", os.path.join(d, sub)],
                           capture_output=True, text=True, timeout=120, env=env)
        last = f"round-{steps - 1:02d}.png"
        check(p.returncode == 0 and last in p.stdout and "CPU runtime" in p.stdout and
              os.path.exists(os.path.join(d, sub, last)) and
              not os.path.exists(os.path.join(d, sub, f"round-{steps:02d}.png")),
              f"scanviz --trace {os.path.basename(path)}: the kernel pane's {steps} steps: "
              f"{p.returncode}: {p.stdout[-300:]} {p.stderr[-300:]}")
    p = subprocess.run([VIEWER, "--trace", racy, "--kernel", "in-place", "--export",
                        os.path.join(d, "png3")], capture_output=True, text=True, timeout=120,
                       env=env)
    check(p.returncode == 2 and "is a kernel trace" in p.stderr,
          f"--trace of a kernel trace with --kernel: {p.returncode}: {p.stderr[-300:]}")


def view_kernel_exports(d):
    """The exports draw a kernel file (issue 18, section 5): scanviz
    --kernel-file F with --export (+ --overview), --export-gif and
    --export-svg in one run, on the two-barrier in-place kernel's 8 steps:
    a PNG and an SVG per step with the file's own source (--code), an
    overview of every step (not a step's picture), a GIF of them all."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["SDL_VIDEODRIVER"] = "offscreen"
    png, svg, gif = (os.path.join(d, x) for x in ("kpng", "ksvg", "k.gif"))
    p = subprocess.run([VIEWER, "--kernel-file", kernel("in_place_two_barriers.cu"), "--input",
                        CHAPTER, "--code", "--overview", "--export", png, "--export-svg", svg,
                        "--export-gif", gif], capture_output=True, text=True, timeout=180,
                       env=env)
    check(p.returncode == 0 and "round-07.png" in p.stdout and
          "your kernel in_place_two_barriers.cu, CPU runtime" in p.stdout,
          f"exports of a kernel file: {p.returncode}: {p.stdout[-400:]} {p.stderr[-400:]}")
    if p.returncode != 0:
        return
    pngs = sorted(f for f in os.listdir(png) if f.startswith("round-"))
    check(len(pngs) == 8, f"a PNG per step: {pngs}")
    with open(os.path.join(png, "overview.png"), "rb") as a, \
            open(os.path.join(png, "round-00.png"), "rb") as b:
        check(a.read() != b.read(), "overview.png is not the first step's picture")
    svgs = sorted(f for f in os.listdir(svg))
    check(len(svgs) == 9 and "overview.svg" in svgs, f"an SVG per step and the overview: {svgs}")

    def text_of(name):
        with open(os.path.join(svg, name)) as f:
            return f.read()
    step3 = text_of("round-02.svg")
    check("in_place_two_barriers.cu" in step3 and "s[i] = v;" in step3 and
          "everybody has written" in step3, "round-02.svg: the kernel pane and its own source")
    over = text_of("overview.svg")
    check("no cell written" in over and "barrier of line 20" in over and "line 21" in over and
          "8 steps" in over, "overview.svg: every step of the kernel, its lines")
    with open(gif, "rb") as f:
        data = f.read()
    check(data[:6] == b"GIF89a" and data.count(b"\x21\xf9\x04") >= 8,
          "the GIF: a frame for each of the 8 steps at least")


def test_files_and_usage():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "race.scanviz.json")
        rc, out, err = run("--kernel-file", kernel("in_place_race.cu"), "--input", CHAPTER,
                           "--format", "json", "-o", path)
        check(rc == 4 and os.path.exists(path), f"-o: exit {rc}: {err}")
        rc, out, err = run("--open", path)
        check(rc == 0 and "hazards: 10" in out and "in_place_race.cu" in out,
              f"--open a kernel trace: {rc}: {err} {out[-300:]}")
        rc, again, err = run("--open", path, "--format", "json")
        with open(path) as f:
            check(rc == 0 and again == f.read(), "--open --format json gives the file back")
        if VIEWER:
            view_kernel_traces(d, path)
            view_kernel_exports(d)
        rc, out, err = run("--kernel", "no-else", "--format", "json")
        check(rc == 0 and json.loads(out)["output"][0] is None,
              "a chapter trace's output is null where the last round's pout is unwritten")
    with tempfile.TemporaryDirectory() as d:
        big = os.path.join(d, "big.cu")
        with open(big, "w") as f:
            f.write("// padding\n" * 30000)
        rc, out, err = run("--kernel-file", big)
        check(rc == 2 and "256 KiB" in err, f"a kernel file over its limit: {rc}: {err}")
        rc, out, err = run("--kernel-file", "/dev/zero")
        check(rc == 2 and "/dev/zero" in err, f"endless input: {rc}: {err}")
        rc, out, err = run("--kernel-file", d)
        check(rc == 2, f"a folder: {rc}: {err}")
        rc, out, err = run("--kernel-file", kernel("double_buffer.cu"), "--format", "json",
                           "-o", os.path.join(d, "no", "such", "dir.json"))
        check(rc == 1 and out == "", f"-o into a missing folder: {rc}: {err}")
        # A run whose trace outgrows the file's budget: the steps past it are
        # left out, said on stderr, and the file still opens (and is judged).
        many = os.path.join(d, "many.cu")
        with open(many, "w") as f:
            f.write("template <typename T>\n__global__ void many(const T *in, T *out, int n)\n"
                    "{\n    extern __shared__ T s[];\n    int i = threadIdx.x;\n"
                    "    s[i] = in[i];\n    __syncthreads();\n"
                    "    for (int k = 0; k < 4000; k++) {\n        s[i] = s[i];\n"
                    "        __syncthreads();\n    }\n    out[i] = s[i];\n}\n")
        path = os.path.join(d, "many.json")
        rc, out, err = run("--kernel-file", many, "--random", "1024", "--format", "json",
                           "-o", path, timeout=120)
        m = re.search(r"many\.cu: (\d+) steps after step (\d+) left out of the trace file", err)
        check(rc == 4 and m is not None, f"a trace over the file's budget: {rc}: {err[-400:]}")
        if m and os.path.exists(path):
            with open(path) as f:
                t = json.load(f)
            check(len(t["steps"]) == int(m.group(2)) and os.path.getsize(path) < 16 << 20,
                  f"the trimmed file: {len(t['steps'])} steps, {os.path.getsize(path)} bytes, "
                  f"the message said {m.group(2)} kept")
    with open(kernel("double_buffer.cu")) as f:
        p = subprocess.run([TRACE, "--kernel-file", "-", "--input", CHAPTER], stdin=f,
                           capture_output=True, text=True, timeout=60)
    check(p.returncode == 0 and "output: right" in p.stdout, f"--kernel-file -: {p.stderr}")
    rc, out, err = run("--kernel-file", "-", "-")
    check(rc == 2 and "standard input" in err, f"--kernel-file - with values from -: {rc}: {err}")
    rc, out, err = run("--kernel-file", os.path.join(KERNELS, "missing.cu"))
    check(rc == 2 and "missing.cu" in err, f"a missing file: {rc}: {err}")
    rc, out, err = run("--entry", "scan")
    check(rc == 2 and "--entry" in err, f"--entry without --kernel-file: {rc}: {err}")
    rc, out, err = run("--kernel-file", kernel("double_buffer.cu"), "--kernel", "in-place")
    check(rc == 2, f"--kernel-file with --kernel: {rc}: {err}")
    rc, out, err = run("--kernel-file", kernel("double_buffer.cu"), "--time-limit", "-1")
    check(rc == 2 and "--time-limit" in err, f"a bad --time-limit: {rc}: {err}")


test_correct()
test_types_and_ops()
test_races()
test_failures()
test_files_and_usage()
sys.exit(report("kernel files: all checks passed"))
