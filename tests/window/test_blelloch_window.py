#!/usr/bin/env python3
"""Blelloch in the window (issue 20): `scanviz --kernel blelloch` shows the
work-efficient scan through the kernel pane, run by the kernel runtime's
shipped build on the input, in a real window under Xvfb (the F12 state
line: kfile, ksteps, kout, kverdict, steps):
  - n = 8, exclusive: 9 steps (staging, 3 up, the root, 3 down, out), the
    exclusive scan, and the timeline has the kernel's steps;
  - its phases against its source (Down: the up-sweep's combine, its
    barrier, the down-sweep's swap lines) and predict mode (values);
  - a new input (typed into the input box) runs it again;
  - a presenter script's `kernel blelloch` step shows it, and walking back
    before it shows the chapter's again.

usage: test_blelloch_window.py SCANVIZ [SANITIZE [LSAN_SUPPRESSIONS]]
(exits 77 without xvfb-run or xdotool)
"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xharness import App, expect, run_under_xvfb, sanitizer_env, script_kernel_and_back, wait_runs  # noqa: E402

INPUT = "3 1 7 0 4 1 6 3"
EXCLUSIVE = "0,3,4,11,11,15,16,22"


def window(exe, env):
    app = App(exe, "--no-animation", "--backend", "cpu", "--exclusive", "--input", INPUT,
              "--kernel", "blelloch", env=env)
    try:
        st = wait_runs(app, 1)
        expect(st, kfile="kernels/blelloch.cu", kverdict="ok", kout=EXCLUSIVE, ksteps="9",
               steps="9", kstale=0, kerror="")
        # Phases against its source (Down/Up): the up-sweep's combine, line
        # 61 of kernels/blelloch.cu, then its barrier; the down-sweep's swap,
        # lines 78-79.
        app.keys("Right", "Right", "Down")
        expect(app.state(), step=2, phase="op", code_lines="61-61")
        app.keys("Down")
        expect(app.state(), step=2, phase="barrier", code_lines="64-64")
        app.keys("Right", "Right", "Right", "Down")
        expect(app.state(), step=5, phase="op", code_lines="78-79")
        # Predict mode (values): Right asks about the next step, Right reveals.
        app.keys("p", "Right")
        expect(app.state(), quiz=1, quiz_phase="ask", quiz_kind="values", quiz_step=6)
        app.keys("Right")
        expect(app.state(), quiz_phase="shown", step=6)
        app.keys("p")
        app.keys("End")
        st = app.state()
        expect(st, step=8)
        # A new input runs it again: n = 5, padded to 8 leaves.
        app.keys("e")
        app.type("1 2 3 4 5")
        app.keys("Return")
        st = wait_runs(app, 2)
        expect(st, kverdict="ok", kout="0,1,3,6,10", ksteps="9")
        app.quit_clean("Escape", "Escape")  # a typed array: Esc asks once
    finally:
        app.kill()


def script(exe, env):
    d = tempfile.mkdtemp(prefix="sv-bscript-")
    path = os.path.join(d, "talk.txt")
    with open(path, "w") as f:
        f.write("round 1 : the chapter's kernel\n"
                "kernel blelloch round 3 : the work-efficient tree, stride 4 up\n")
    try:  # inclusive: out[i] = t[i] + in[i]
        script_kernel_and_back(exe, env, INPUT, path, kfile="kernels/blelloch.cu", kverdict="ok",
                               script="2/2", step=3, kout="3,4,11,11,15,16,22,25")
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    args = run_under_xvfb()
    exe = args[0]
    env = sanitizer_env(args[1] if len(args) > 1 else "", args[2] if len(args) > 2 else "")
    window(exe, env)
    script(exe, env)
    print("blelloch window: ok")


if __name__ == "__main__":
    main()
