#!/usr/bin/env python3
"""Your own kernel in the window (issue 18): scanviz --kernel-file FILE.cu
shows the file's kernel and runs it again on every save, checked through
the F12 state line (kfile, ksteps, kout, kverdict, kerror, kerror_line,
kstale, kruns) in a real window under Xvfb:
  - a rename over the file (as vim saves) shows the new kernel's trace;
  - a broken write in place keeps the last good trace (kstale=1) and names
    the failing line; a fixed save clears the error;
  - the watch survives the file being deleted and created again;
  - a presenter script's `kernel-file PATH` step shows that file's kernel;
  - the shipped script assets/scripts/shuffle-scan.txt alternates the
    chapter's rounds and shuffle-scan.cu's (beside it), each round by its
    step, and walks back;
  - all of it once with inotify and once with the polling fallback
    (SCANVIZ_WATCH_POLL=1).

usage: test_kernel_watch.py SCANVIZ STARTER.cu [SANITIZE [LSAN_SUPPRESSIONS]]
(exits 77 without xvfb-run or xdotool)
"""
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xharness import App, expect, fail, run_under_xvfb, sanitizer_env, script_kernel_and_back, wait_runs  # noqa: E402

INPUT = "3 1 7 0 4 1 6 3"
GOOD = "3,4,11,11,15,16,22,25"


def write_in_place(path, text):
    with open(path, "w") as f:
        f.write(text)


def rename_over(path, text):
    tmp = os.path.join(os.path.dirname(path), ".scan.cu.swp")
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, path)


def scenario(exe, good, env, method):
    d = tempfile.mkdtemp(prefix="sv-kwatch-")
    path = os.path.join(d, "scan.cu")
    write_in_place(path, good)
    app = App(exe, "--no-animation", "--backend", "cpu", "--input", INPUT,
              "--kernel-file", path, env=env)
    try:
        st = wait_runs(app, 1)
        expect(st, kverdict="ok", kout=GOOD, kstale=0, kerror="", kwatch=method)
        if int(st["ksteps"]) < 4:
            fail(f"the chapter's kernel at n = 8 has at least 4 steps: {st['ksteps']}")
        steps = st["steps"]
        if steps != st["ksteps"]:
            fail(f"the timeline has {steps} steps, the kernel trace {st['ksteps']}")

        # A rename over the file, as vim saves: the off-by-one guard.
        off = good.replace("if (i >= stride)", "if (i > stride)")
        if off == good:
            fail("the starting file has no `if (i >= stride)` to break")
        rename_over(path, off)
        st = wait_runs(app, 2)
        expect(st, kverdict="wrong", kstale=0, kerror="")
        if st["kout"] == GOOD:
            fail(f"the off-by-one kernel's output is shown as the good one: {st['kout']}")
        wrong_out = st["kout"]

        # A broken write in place: the last good picture stays, the error
        # names its line (the file's own numbering).
        lines = off.split("\n")
        bad_line = next(i for i, l in enumerate(lines) if l.strip() == "__syncthreads();") + 1
        lines.insert(bad_line - 1, "    this is not C;")
        write_in_place(path, "\n".join(lines))
        st = wait_runs(app, 3)
        expect(st, kstale=1, kout=wrong_out, kerror_line=bad_line, code=1)
        if not st["kerror"]:
            fail("a compile error shows no message")

        # A fixed save clears the error.
        write_in_place(path, good)
        st = wait_runs(app, 4)
        expect(st, kverdict="ok", kout=GOOD, kstale=0, kerror="", kerror_line=0)

        # Deleted, then created again: still watched.
        os.remove(path)
        time.sleep(0.5)
        write_in_place(path, off)
        st = wait_runs(app, 5)
        expect(st, kverdict="wrong", kout=wrong_out, kstale=0)
        print(f"{method}: save to trace {st['kms']} ms (n = 8)", flush=True)
        app.quit_clean()
    finally:
        app.kill()
        shutil.rmtree(d, ignore_errors=True)


def script_scenario(exe, good, env):
    """A presenter script's `kernel-file PATH` step (relative to the script)
    shows that file's kernel; walking back before it shows the chapter's."""
    d = tempfile.mkdtemp(prefix="sv-kscript-")
    write_in_place(os.path.join(d, "scan.cu"), good)
    script = os.path.join(d, "talk.txt")
    write_in_place(script, "round 1 : the chapter's kernel\n"
                           "kernel-file scan.cu round 1 : now yours\n")
    try:
        script_kernel_and_back(exe, env, INPUT, script, kfile=os.path.join(d, "scan.cu"),
                               kverdict="ok", kout=GOOD, script="2/2", step=1)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def shuffle_script_scenario(exe, env):
    """assets/scripts/shuffle-scan.txt: the chapter's round r, then the
    shuffle scan's round r (its step r: step 0 stages the input), for r = 1,
    2, 3; every shuffle step is the scan's kernel file, right; Left walks
    back to the chapter's kernel."""
    here = os.path.dirname(os.path.abspath(__file__))
    script = os.path.join(here, "..", "..", "assets", "scripts", "shuffle-scan.txt")
    app = App(exe, "--no-animation", "--backend", "cpu", "--input", INPUT, "--script", script,
              env=env)
    try:
        st = app.state()
        expect(st, kfile="-", script="1/6", step=1)
        runs = 0
        for r in (1, 2, 3):
            if r > 1:
                app.keys("Right")
                st = app.state()
                expect(st, kfile="-", script=f"{2 * r - 1}/6", step=r)
            app.keys("Right")
            runs += 1
            st = wait_runs(app, runs)
            if not st.get("kfile", "").endswith("shuffle-scan.cu"):
                fail(f"step {2 * r}: kfile {st.get('kfile')!r}")
            expect(st, script=f"{2 * r}/6", kverdict="ok", kout=GOOD, step=r, ksteps=5)
        app.keys("Left")
        st = app.state()
        expect(st, kfile="-", script="5/6", step=3)
        app.quit_clean()
    finally:
        app.kill()


def main():
    args = run_under_xvfb()
    exe, starter = args[0], args[1]
    env = sanitizer_env(args[2] if len(args) > 2 else "none", args[3] if len(args) > 3 else None)
    with open(starter) as f:
        good = f.read()
    scenario(exe, good, dict(env), "inotify")
    poll_env = dict(env)
    poll_env["SCANVIZ_WATCH_POLL"] = "1"
    scenario(exe, good, poll_env, "polling")
    script_scenario(exe, good, dict(env))
    shuffle_script_scenario(exe, dict(env))
    print("ok: kernel file watched, re-run on save, errors keep the last picture")


if __name__ == "__main__":
    main()
