#!/usr/bin/env python3
"""scanviz's command line without a display: exit statuses, messages that
name the bad token or field, the no-display hint, and --export writing one
PNG per step where it says it did.

usage: test_cli.py SCANVIZ SCANVIZ_TRACE_OR_EMPTY
"""
import json
import os
import re
import subprocess
import sys
import tempfile

failures = 0


def check(cond, msg):
    global failures
    if not cond:
        line = sys._getframe(1).f_lineno
        print(f"{__file__}:{line}: FAIL: {msg}", flush=True)
        failures += 1


def run(exe, *args, stdin=None, cwd=None):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    r = subprocess.run([os.path.abspath(exe)] + list(args), input=stdin, capture_output=True,
                       text=True, env=env, timeout=120, cwd=cwd)
    return r.returncode, r.stdout, r.stderr


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def main():
    exe = sys.argv[1]
    trace_tool = sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] else None
    tmp = tempfile.mkdtemp(prefix="scanviz-cli-")

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
                         "missing.csv")]:
        rc, out, err = run(exe, *args)
        check(rc == 2, f"{args}: exit {rc}, expected 2 ({err.strip()})")
        check(token in err, f"{args}: stderr does not name {token!r}: {err.strip()}")

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

    # The Measure view, headless.
    p = os.path.join(tmp, "plot.png")
    rc, out, err = run(exe, "--export-plot", p, "--size", "640x360")
    check(rc == 0 and png_size(p) == (640, 360), f"--export-plot: exit {rc}: {err}")

    # --bench-frames prints median and p99.
    rc, out, err = run(exe, "--bench-frames", "6", "--size", "320x200")
    check(rc == 0 and "median" in out and "p99" in out, f"--bench-frames: {rc} {out} {err}")

    if failures:
        print(f"test_cli: {failures} check(s) failed")
        sys.exit(1)
    print("test_cli: all checks passed")


if __name__ == "__main__":
    main()
