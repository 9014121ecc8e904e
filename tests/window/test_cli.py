#!/usr/bin/env python3
"""scanviz's command line without a display: exit statuses, messages that
name the bad token or field, the no-display hint, --export writing one
PNG per step where it says it did, and the README's "Your own kernel"
commands working before an install.

usage: test_cli.py SCANVIZ SCANVIZ_TRACE_OR_EMPTY
"""
import json
import os
import re
import resource
import signal
import stat
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, headless_env, report  # noqa: E402


def run(exe, *args, stdin=None, cwd=None, stdin_file=None, stdout_file=None, fsize=None):
    """Runs exe without a display. stdin_file/stdout_file: paths (/dev/zero,
    /dev/full) instead of text; fsize: RLIMIT_FSIZE in bytes for the child
    (writes past it fail with EFBIG: a full disk without root)."""
    env = headless_env()
    # In the ASan build, LeakSanitizer's tracer (StopTheWorld) crashed now and
    # then at exit ("Tracer caught signal 11") while Mesa's llvmpipe threads
    # wound down after an export, failing a run whose files were all right.
    # Leaks of the rendering paths are checked by the window tests (xharness:
    # LeakSanitizer with Mesa's driver kept mapped); here ASan and UBSan stay.
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"

    def limit():
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    fin = open(stdin_file, "rb") if stdin_file else None
    fout = open(stdout_file, "wb") if stdout_file else None
    try:
        r = subprocess.run([os.path.abspath(exe)] + list(args),
                           input=None if fin else (stdin.encode() if stdin is not None else None),
                           stdin=fin, stdout=fout if fout else subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env, timeout=120, cwd=cwd,
                           preexec_fn=limit)
    finally:
        if fin:
            fin.close()
        if fout:
            fout.close()
    out = r.stdout.decode("utf-8", "replace") if r.stdout is not None else ""
    return r.returncode, out, r.stderr.decode("utf-8", "replace")


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def fault_tests(exe, trace_tool, tmp):
    """Issue 7: nothing lost, nothing leaked (docs/reliability.md)."""
    # Defect 1: a device node given as --export-plot is written in place and
    # never removed; a full disk leaves a good plot.png and an earlier
    # export's round-NN.png whole (RLIMIT_FSIZE: 4 KiB, far below a PNG).
    dev = os.path.join(tmp, "fulldev")
    made = False
    try:
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # /dev/full
        made = True
    except OSError:
        pass
    if made:
        rc, out, err = run(exe, "--export-plot", dev, "--size", "64x64")
        check(rc == 1 and "write failed" in err and os.path.exists(dev)
              and stat.S_ISCHR(os.stat(dev).st_mode),
              f"--export-plot DEVICE: exit {rc}, exists {os.path.exists(dev)}: {err.strip()}")
        os.unlink(dev)
    # The full disk is RLIMIT_FSIZE, which also bounds the memory files the
    # CPU runtime's capture passes its kernel in (a full disk does not): the
    # window under it is given a trace file, so only the export writes.
    saved = os.path.join(tmp, "nine.json")
    r = subprocess.run([trace_tool, "--backend", "cpu", "--format", "json", "-o", saved,
                        "--input", "1 2 3 4 5 6 7 8 9"], capture_output=True, timeout=120)
    check(r.returncode == 0, f"scanviz-trace -o: {r.returncode}: {r.stderr.decode().strip()}")
    p = os.path.join(tmp, "good-plot.png")
    rc, out, err = run(exe, "--export-plot", p, "--size", "320x200")
    good = open(p, "rb").read() if rc == 0 else b""
    rc, out, err = run(exe, "--trace", saved, "--export-plot", p, "--size", "640x360",
                       fsize=4096)
    check(rc == 1 and p in err and os.strerror(27) in err,  # EFBIG
          f"full disk --export-plot: exit {rc}: {err.strip()}")
    check(good and open(p, "rb").read() == good, "full disk: the good plot.png changed")
    d = os.path.join(tmp, "good-rounds")
    rc, out, err = run(exe, "--export", d, "--size", "160x90", "--backend", "cpu",
                       "--input", "1 2 3 4 5 6 7 8 9")
    old = {n: open(os.path.join(d, n), "rb").read() for n in sorted(os.listdir(d))}
    check(rc == 0 and len(old) == 5, f"--export: {rc} {sorted(old)}")
    rc, out, err = run(exe, "--trace", saved, "--export", d, "--size", "320x200",
                       fsize=4096)
    now = {n: open(os.path.join(d, n), "rb").read() for n in sorted(os.listdir(d))}
    check(rc == 1 and "no image was replaced" in err, f"full disk --export: {rc}: {err.strip()}")
    check(now == old, f"full disk --export: the earlier export changed: {sorted(now)}")

    # Defect 6: without a display, the printed trace going to a full stdout
    # is a failure with a message.
    cwd = os.path.join(tmp, "fullout")
    os.mkdir(cwd)
    rc, out, err = run(exe, "--backend", "cpu", cwd=cwd, stdout_file="/dev/full")
    check(rc == 1 and "stdout: write failed" in err and os.strerror(28) in err,
          f"> /dev/full: exit {rc}: {err.strip()}")

    # Defect 7 (and 12, the path named once): endless input refused at once.
    for args, kw, want in [
            (["--file", "/dev/zero"], {}, "/dev/zero: longer than the limit of 1 MiB for values"),
            (["-"], {"stdin_file": "/dev/zero"}, "stdin: longer than the limit of 1 MiB"),
            (["--trace", "/dev/urandom"], {}, "/dev/urandom: longer than the limit of 16 MiB"),
            (["--bench-csv", "/dev/zero", "--export-plot", tmp + "/z.png"], {},
             "/dev/zero: longer than the limit of 4 MiB")]:
        rc, out, err = run(exe, *args, **kw)
        path = args[1] if args[0] != "-" else "stdin"
        check(rc == 2 and want in err and err.count(path) == 1,
              f"{args}: exit {rc}: {err.strip()}")

    # One input layer (issue 8): the same rules as scanviz-trace.
    rc, out, err = run(exe, "--seed", "5", "--export", tmp + "/s")
    check(rc == 2 and "--seed (argument 2) applies to --random only" in err, f"--seed: {err}")
    rc, out, err = run(exe, "--random", "4", "--seed", "0x10", "--export", tmp + "/s")
    check(rc == 2 and "expected a whole decimal number" in err, f"hex seed: {err}")
    rc, out, err = run(exe, "--random", "4", "--seed", "7", "--export", tmp + "/s",
                       "--size", "160x90", "--backend", "cpu")
    check(rc == 0, f"--random --seed: exit {rc}: {err}")

    # Defect 10: a hostile device name reaches neither the terminal nor the
    # window raw (the export's report line escapes it).
    if trace_tool:
        r = subprocess.run([trace_tool, "--backend", "cpu", "--format", "json"],
                           capture_output=True, text=True)
        j = json.loads(r.stdout)
        j["backend"] = "cuda"
        j["device"] = "\u001b[2J\u001b]0;pwned\u0007\nRound 9"
        h = os.path.join(tmp, "hostile.json")
        with open(h, "w") as f:
            json.dump(j, f)
        rc, out, err = run(exe, "--trace", h, "--export", tmp + "/h", "--size", "160x90")
        check(rc == 0 and "\x1b" not in out + err and "\x07" not in out + err
              and "\\e[2J" in out, f"hostile device: exit {rc}: {out!r} {err!r}")


def exercise_tests(exe, tmp):
    """scanviz --exercise list without a display: the list with the progress
    file's words, a bad progress file said and ignored; the flags' rules."""
    state = os.path.join(tmp, "state")
    os.makedirs(os.path.join(state, "scanviz"), mode=0o700)
    progress = os.path.join(state, "scanviz", "progress")
    with open(progress, "w") as f:
        f.write("scanviz-progress 1\nguard passed=yes hints=2 attempts=5 "
                "first-pass=2026-12-01T12:30:00Z revealed=no\nmax attempts=1\n")
    os.environ["XDG_STATE_HOME"] = state
    try:
        rc, out, err = run(exe, "--exercise", "list")
        rows = {line.split()[1]: line for line in out.splitlines() if line.strip()}
        check(rc == 0 and len(rows) >= 8, f"--exercise list: {rc} {out} {err}")
        check("passed 2026-12-01, 5 attempts, 2 hints" in rows.get("guard", ""),
              f"--exercise list: guard's progress: {rows.get('guard')!r}")
        check("1 attempt, 0 hints" in rows.get("max", ""), f"max: {rows.get('max')!r}")
        check("not started" in rows.get("round-one", ""), f"round-one: {rows.get('round-one')!r}")
        with open(progress, "w") as f:
            f.write("scanviz-progress 1\nguard hints=two\n")
        rc, out, err = run(exe, "--exercise", "list")
        check(rc == 0 and "line 2, field 2 (hints)" in err and "ignored" in err
              and "passed" not in out, f"a bad progress file: {rc} {err}")
        with open(progress) as f:
            check(f.read() == "scanviz-progress 1\nguard hints=two\n",
                  "listing changed a bad progress file")
    finally:
        del os.environ["XDG_STATE_HOME"]
    rc, out, err = run(exe, "--into", tmp)
    check(rc == 2 and "--into goes with --exercise NAME" in err, f"--into alone: {rc} {err}")
    rc, out, err = run(exe, "--exercise", "guard", "--kernel-file", "x.cu")
    check(rc == 2 and "not with --kernel-file" in err, f"--exercise --kernel-file: {rc} {err}")


def big_trace_tests(exe, trace_tool, tmp):
    """A host function's trace of more than 1024 values (issue 31): the
    window shows it (--trace, or the file run on --random 2048); a single
    block's file keeps the 1024 values' limit."""
    if not trace_tool:
        return
    k = os.path.join(tmp, "copy_blocks.cu")
    with open(k, "w") as f:
        f.write("__global__ void copy(const int *in, int *out, int n)\n{\n"
                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i < n)\n        out[i] = i == 0 ? in[0] : in[i];\n}\n\n"
                "void scan(const int *in, int *out, int n)\n{\n"
                "    copy<<<(n + 255) / 256, 256>>>(in, out, n);\n}\n")
    big = os.path.join(tmp, "big.json")
    rc, out, err = run(trace_tool, "--kernel-file", k, "--random", "2048", "--format", "json",
                       "-o", big)
    check(rc == 4 and os.path.exists(big), f"copy of 2048 values: exit {rc}: {err[-300:]}")
    # the window past one block (issue 31): the file's launch, drawn as its tiles
    rc, out, err = run(exe, "--trace", big, "--export", os.path.join(tmp, "big"))
    check(rc == 0 and "wrote 1 image" in out and "n = 2048" in out and
          os.path.exists(os.path.join(tmp, "big", "round-00.png")),
          f"--trace of 2048 values: exit {rc}: {out.strip()} {err.strip()}")
    # the same file run in the window, 2048 values from --random (the file's
    # host function raises the limit, as scanviz-trace's)
    rc, out, err = run(exe, "--kernel-file", k, "--random", "2048", "--export",
                       os.path.join(tmp, "big-run"))
    check(rc == 0 and "n = 2048" in out, f"--kernel-file with --random 2048: exit {rc}: "
          f"{out.strip()} {err.strip()}")
    # a single block's file keeps one block's limit
    one = os.path.join(tmp, "copy_one.cu")
    with open(one, "w") as f:
        f.write("__global__ void copy(const int *in, int *out, int n)\n{\n"
                "    out[threadIdx.x] = in[threadIdx.x];\n}\n")
    rc, out, err = run(exe, "--kernel-file", one, "--random", "2048", "--export",
                       os.path.join(tmp, "big-one"))
    check(rc == 2 and "above the block limit" in err, f"one block's file, 2048 values: exit {rc}: "
          f"{err.strip()}")


def readme_kernel_tests(exe, trace_tool, tmp):
    """The README's "Your own kernel" commands, as a newcomer types them in
    an empty folder with nothing installed: each exits 0 (scanviz and
    scanviz-trace from this build; no display, so the window's line
    renders its rounds)."""
    readme = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "README.md")
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^## Your own kernel\n+```sh\n(.*?)```", text, re.M | re.S)
    check(m is not None, "README.md: no sh block under \"Your own kernel\"")
    if not m:
        return
    cwd = os.path.join(tmp, "readme-kernel")
    os.mkdir(cwd)
    tools = {"scanviz": exe, "scanviz-trace": trace_tool}
    ran = 0
    for line in m.group(1).splitlines():
        words = line.split("#")[0].split()
        if not words:
            continue
        check(words[0] in tools, f"README's kernel block runs {words[0]!r}, not scanviz's own "
              f"tools (it must work before an install): {line.strip()}")
        if words[0] not in tools or not tools[words[0]]:
            continue
        rc, out, err = run(tools[words[0]], *words[1:], cwd=cwd)
        check(rc == 0, f"README: `{line.split('#')[0].strip()}`: exit {rc}: {err.strip()[-300:]}")
        ran += 1
    check(ran >= 2, f"README's kernel block: only {ran} commands ran")


BANK_KERNEL = """__global__ void bank_pairs(const int *in, int *out, int n)
{
    __shared__ int t[2][32];
    int i = threadIdx.x;
    t[i & 1][i / 2] = in[i];
    __syncthreads();
    int sum = 0;
    for (int j = 0; j <= i; j++)
        sum += t[j & 1][j / 2];
    out[i] = sum;
}
"""


def bank_export_tests(exe, tmp):
    """Bank conflicts in the exports (issue 30): at n = 8 the staging's
    store puts t[0][0..3] and t[1][0..3] two words to a bank, so the first
    step's SVG tags those 8 cells "x2" and the last step's none."""
    k = os.path.join(tmp, "bank_pairs.cu")
    with open(k, "w") as f:
        f.write(BANK_KERNEL)
    svg = os.path.join(tmp, "bank-svg")
    rc, out, err = run(exe, "--kernel-file", k, "--export-svg", svg)
    check(rc == 0, f"--kernel-file bank_pairs.cu --export-svg: exit {rc}: {err[-300:]}")
    if rc != 0:
        return
    with open(os.path.join(svg, "round-00.svg"), encoding="utf-8") as f:
        first = f.read()
    with open(os.path.join(svg, "round-01.svg"), encoding="utf-8") as f:
        last = f.read()
    check(first.count(">\u00d72<") == 8 and "\u00d72" not in last,
          f"the exports' bank tags: {first.count('>' + chr(0xd7) + '2<')} in step 1 (want 8), "
          f"{last.count(chr(0xd7) + '2')} in step 2 (want 0)")


def main():
    exe = sys.argv[1]
    trace_tool = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
    tmp = tempfile.mkdtemp(prefix="scanviz-cli-")
    bank_export_tests(exe, tmp)

    rc, out, err = run(exe, "--help")
    check(rc == 0 and "--export DIR" in out and "--bench-frames" in out, "--help")
    # Every flag the user guide's command-line table names is in --help too.
    guide = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                         "user-guide.md")
    with open(guide, encoding="utf-8") as f:
        flags = set(re.findall(r"^\| `(--[a-z-]+)", f.read(), re.M))
    with open(guide, encoding="utf-8") as f:
        flags |= set(re.findall(r"^\| `--[a-z-]+[^|]*` / `(--[a-z-]+)`", f.read(), re.M))
    check(len(flags) >= 15, f"the guide's flag table: only {sorted(flags)}")
    for flag in sorted(flags):
        check(flag in out, f"{flag} is in docs/user-guide.md but not in --help")
    rc, out, err = run(exe, "--version")
    check(rc == 0 and out.startswith("scanviz "), "--version")

    # A display that refuses us: exit 1 saying so, never a window nobody can
    # see (SDL falls back to its offscreen driver; that app ran forever).
    if not os.path.exists("/tmp/.X11-unix/X4321"):
        env = headless_env()
        env["DISPLAY"] = ":4321"
        env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
        try:
            r = subprocess.run([os.path.abspath(exe), "--no-animation"], capture_output=True,
                               text=True, env=env, timeout=60)
            check(r.returncode == 1 and "cannot connect to the display (DISPLAY \":4321\"" in
                  r.stderr, f"a refused display: {r.returncode} {r.stderr}")
        except subprocess.TimeoutExpired:
            check(False, "a refused display: scanviz still ran after 60 s (an invisible window)")

    # Bad usage and bad input: exit 2, the token named.
    for args, token in [(["--bogus"], "--bogus"), (["--input", "1 2 x3"], "x3"),
                        (["--op", "nope"], "nope"), (["--type", "int8"], "int8"),
                        (["--op", "xor", "--type", "float32"], "xor"),
                        (["--random", "2000"], "2000"), (["--size", "10x10"], "10x10"),
                        (["--theme", "pink"], "pink"), (["--speed", "9"], "9"),
                        (["--backend", "gpu"], "gpu"), (["--round", "-1"], "-1"),
                        (["--round", "4", "--export", tmp + "/r"], "--round 4"),
                        (["--round", "99", "--export", tmp + "/r"], "rounds 0..3"),
                        (["3", "1"], "3"), (["--input", "1", "--random", "4"], "one input"),
                        (["--export"], "--export"),
                        (["--file", tmp + "/missing.txt"], "missing.txt"),
                        (["--bench-csv", tmp + "/missing.csv", "--export-plot", tmp + "/p.png"],
                         "missing.csv"),
                        (["--runs", "0"], '--runs "0"'), (["--runs", "1e3"], "1e3"),
                        (["--shake-seed", "-4"], '--shake-seed "-4"'),
                        (["--schedule", "sequential", "--backend", "cuda"], "--backend cuda"),
                        (["--kernel", "sloppy"], "sloppy"),
                        (["--compare", "brent-kung"], "brent-kung"),
                        (["--compare", "blelloch", "--kernel-file", tmp + "/k.cu"],
                         "--kernel-file")]:
        rc, out, err = run(exe, *args)
        check(rc == 2, f"{args}: exit {rc}, expected 2 ({err.strip()})")
        check(token in err, f"{args}: stderr does not name {token!r}: {err.strip()}")

    # A kernel file that does not compile, exported: exit 2, the compiler's
    # line named, nothing written: no folder made, an existing one untouched
    # (issue 28: it exited 0, "wrote 0 images ... round-00.png .. round--1.png").
    badk = os.path.join(tmp, "broken.cu")
    with open(badk, "w") as f:
        f.write("__global__ void scan(const int *in, int *out, int n)\n{\n"
                "    extern __shared__ int buf[];\n    int i = threadIdx.x;\n"
                "    buf[i] = in[i]\n    __syncthreads();\n    out[i] = buf[i];\n}\n")
    for flag, where in (("--export", tmp + "/kbad"), ("--export-svg", tmp + "/kbad-svg"),
                        ("--export-gif", tmp + "/kbad.gif")):
        rc, out, err = run(exe, "--kernel-file", badk, flag, where)
        check(rc == 2 and "does not compile" in err and "broken.cu:5:" in err and
              "(line 5)" in err and "nothing written" in err and "wrote" not in out,
              f"{flag} of a file that does not compile: exit {rc}: {out.strip()} {err.strip()}")
        check(not os.path.exists(where), f"{flag} of a file that does not compile made {where}")
    keep = os.path.join(tmp, "kkeep")
    os.mkdir(keep)
    with open(os.path.join(keep, "notes.txt"), "w") as f:
        f.write("mine\n")
    rc, out, err = run(exe, "--kernel-file", badk, "--export", keep)
    check(rc == 2 and sorted(os.listdir(keep)) == ["notes.txt"],
          f"--export into a folder: exit {rc}, left {sorted(os.listdir(keep))}")

    # A folder given with a trailing slash is named once: "slides/round-00.png",
    # never "slides//" (issue 28).
    slides = os.path.join(tmp, "slides")
    rc, out, err = run(exe, "--backend", "cpu", "--size", "320x200", "--export", slides + "/",
                       "--overview", "--export-svg", slides + "//")
    check(rc == 0 and "//" not in out and f"to {slides}/: round-00.png" in out and
          f"to {slides}/overview.png" in out and f"to {slides}/: round-00.svg" in out and
          os.path.isfile(os.path.join(slides, "round-00.png")),
          f"--export {slides}/: exit {rc}: {out.strip()} {err.strip()}")

    # A bad trace file: exit 2, the field named.
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        json.dump({"format": "scanviz-trace", "version": 1}, f)
    rc, out, err = run(exe, "--trace", bad, "--export", tmp + "/t")
    check(rc == 2 and "algorithm: missing" in err, f"bad trace: exit {rc}: {err.strip()}")

    # No display, no --export: say so, render the rounds to ./scanviz-rounds,
    # print the trace, name --export, exit 0 (the README's run command).
    cwd = os.path.join(tmp, "nodisplay")
    os.mkdir(cwd)
    rc, out, err = run(exe, "--backend", "cpu", cwd=cwd)
    d = os.path.join(cwd, "scanviz-rounds")
    files = sorted(os.listdir(d)) if os.path.isdir(d) else []
    check(rc == 0 and "no display" in err and "--export" in err,
          f"no display: exit {rc}: {err.strip()}")
    check(len(files) == 4 and "scanviz-rounds" in out, f"no display: {files}, {out[-200:]}")
    check("3  4 11 11 15 16 22 25" in out, "no display: the trace table is not printed")

    # --export: one PNG per step at the asked size, and where they went.
    d = os.path.join(tmp, "rounds")
    rc, out, err = run(exe, "--export", d, "--size", "320x200", "--backend", "cpu")
    files = sorted(os.listdir(d)) if os.path.isdir(d) else []
    check(rc == 0, f"--export: exit {rc}: {err.strip()}")
    check(files == ["round-00.png", "round-01.png", "round-02.png", "round-03.png"],
          f"--export files: {files}")
    check(d in out, f"--export does not say where the files went: {out.strip()}")
    for name in files:
        check(png_size(os.path.join(d, name)) == (320, 200), f"{name}: not a 320x200 PNG")
    # exclusive: one more file; stdin input.
    d = os.path.join(tmp, "excl")
    rc, out, err = run(exe, "-", "--exclusive", "--export", d, "--size", "160x90",
                       "--backend", "cpu", stdin="1 2 3 4 5\n")
    files = sorted(os.listdir(d)) if os.path.isdir(d) else []
    check(rc == 0 and len(files) == 5 and files[-1] == "round-04.png",
          f"exclusive export: exit {rc}, files {files}, {err.strip()}")
    # --backend cuda without a GPU in a headless mode: exit 3.
    rc, out, err = run(exe, "--backend", "cuda", "--export", tmp + "/c")
    check(rc in (0, 3), f"--backend cuda: exit {rc}")
    if rc == 3:
        check("CUDA" in err or "cuda" in err, f"--backend cuda: no reason given: {err}")

    # A saved trace opens and exports as its own steps.
    if trace_tool:
        tj = os.path.join(tmp, "t.json")
        r = subprocess.run([trace_tool, "--input", "5 6 7", "--backend", "cpu",
                            "--format", "json", "-o", tj], capture_output=True, text=True)
        check(r.returncode == 0, f"scanviz-trace: {r.stderr}")
        d = os.path.join(tmp, "fromfile")
        rc, out, err = run(exe, "--trace", tj, "--export", d, "--size", "160x90")
        files = sorted(os.listdir(d)) if os.path.isdir(d) else []
        check(rc == 0 and len(files) == 3, f"--trace export: exit {rc}, {files}, {err}")
        rc, out, err = run(exe, "--trace", tj, "--op", "max", "--export", d)
        check(rc == 2 and "--trace" in err, f"--trace with --op: exit {rc}: {err}")

    # --compare blelloch: the compare view's steps (Blelloch's 9 at n = 8) as
    # PNG, SVG (both panes' counters in the text) and GIF, headless.
    d = os.path.join(tmp, "compare")
    rc, out, err = run(exe, "--compare", "blelloch", "--backend", "cpu", "--size", "640x360",
                       "--export", d, "--export-svg", d, "--export-gif", d + "/c.gif")
    files = sorted(os.listdir(d)) if os.path.isdir(d) else []
    pngs = [f for f in files if f.endswith(".png")]
    check(rc == 0 and len(pngs) == 9 and "c.gif" in files and "round-08.svg" in files,
          f"--compare blelloch exports: exit {rc}, {files}, {err.strip()}")
    if "round-02.svg" in files:
        with open(os.path.join(d, "round-02.svg"), encoding="utf-8") as f:
            svg = f.read()
        for want in ("ops this step 6 \u00b7 total 13 \u00b7 depth 2",
                     "ops this step 2 \u00b7 total 6 \u00b7 depth 2",
                     "whole run: 17 adds in 3 rounds", "whole run: 22 adds in 7 steps"):
            check(want in svg, f"--compare SVG round-02 lacks {want!r}")
    check(all(png_size(os.path.join(d, f)) == (640, 360) for f in pngs), "--compare PNG sizes")

    # The Measure view, headless.
    p = os.path.join(tmp, "plot.png")
    rc, out, err = run(exe, "--export-plot", p, "--size", "640x360")
    check(rc == 0 and png_size(p) == (640, 360), f"--export-plot: exit {rc}: {err}")

    # --bench-frames prints median and p99.
    rc, out, err = run(exe, "--bench-frames", "6", "--size", "320x200")
    check(rc == 0 and "median" in out and "p99" in out, f"--bench-frames: {rc} {out} {err}")

    fault_tests(exe, trace_tool, tmp)
    big_trace_tests(exe, trace_tool, tmp)
    exercise_tests(exe, tmp)
    readme_kernel_tests(exe, trace_tool, tmp)

    sys.exit(report("test_cli: all checks passed"))


if __name__ == "__main__":
    main()
