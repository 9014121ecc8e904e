#!/usr/bin/env python3
"""The kernel on screen and the mistakes lab, driven by real key presses in a
real window under Xvfb (xdotool), checked through the F12 state line:
C toggles the source panel (and moves the cells left of it); Down/Up step
through the phases of a round (load, barrier, swap, then guard, op, barrier,
swap ... copy back), the highlighted source lines follow, Left/Right step
whole rounds and leave the phases; K cycles the kernels, re-capturing the
same input (in-place under the default sequential schedule gives the
issue's 3 4 14 15 32 35 65 71, wrong in 1 of 1 run), D toggles the correct
values; --code starts with the panel shown.

usage: test_lab_keys.py SCANVIZ [SANITIZE [LSAN_SUPPRESSIONS [SCANVIZ_TRACE]]]
(exits 77 without xvfb-run or xdotool)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xharness import App, expect, fail, run_under_xvfb, sanitizer_env, xdo  # noqa: E402


def cells_x(st):
    """The centre x of cell 0 and the pitch, in window points."""
    c0, rest = st["cells"].split("+")
    return float(c0), float(rest.split("@")[0])


def lines(st):
    lo, hi = st["code_lines"].split("-")
    return int(lo), int(hi)


def main():
    args = run_under_xvfb()
    exe = args[0]
    env = sanitizer_env(args[1] if len(args) > 1 else "none", args[2] if len(args) > 2 else None)
    app = App(exe, "--no-animation", "--backend", "cpu", env=env)
    try:
        st = app.state()
        expect(st, step=0, steps=4, code=0, phase="none", code_lines="0-0", kernel="correct",
               correct=0, lab_runs=0)
        c0, pitch = cells_x(st)
        right_end = c0 + 7 * pitch

        # C: the panel; the cells make room for it.
        app.keys("c")
        st = app.state()
        expect(st, code=1)
        c0b, pitchb = cells_x(st)
        if not c0b + 7 * pitchb < right_end - 50:
            fail(f"with the panel the cells should end further left: {c0b + 7 * pitchb} vs {right_end}")

        # Down: round 0's phases, then round 1's; the lines move down the file.
        seen = []
        for want_step, want_phase in [(0, "load"), (0, "barrier"), (0, "swap"), (1, "guard"),
                                      (1, "op"), (1, "barrier"), (1, "swap"), (2, "guard")]:
            app.keys("Down")
            st = app.state()
            expect(st, step=want_step, phase=want_phase)
            lo, hi = lines(st)
            if lo <= 0 or hi < lo:
                fail(f"phase {want_phase}: no source lines highlighted ({st['code_lines']})")
            seen.append((want_phase, lo, hi))
        d = {p: (lo, hi) for p, lo, hi in seen}
        if not (d["load"][0] < d["guard"][0] < d["op"][0] and d["op"][1] < seen[5][1]):
            fail(f"the highlighted lines do not follow the kernel's order: {seen}")
        if seen[1][1] == seen[5][1]:
            fail(f"round 0's barrier and the loop's are different lines: {seen}")
        if d["swap"][0] >= d["guard"][0]:
            fail(f"the swap comes before the guard in the file: {seen}")

        # Up goes back, across the round boundary.
        app.keys("Up")
        expect(app.state(), step=1, phase="swap")
        app.keys("Up", "Up")
        expect(app.state(), step=1, phase="op")
        # Right steps a whole round and leaves the phases.
        app.keys("Right")
        expect(app.state(), step=2, phase="none", code_lines="0-0")
        # The last round ends with the copy back; Down stops there.
        app.keys("End")
        for p in ("guard", "op", "barrier", "copy-back"):
            app.keys("Down")
            expect(app.state(), step=3, phase=p)
        st = app.state()
        app.keys("Down")
        expect(app.state(), step=3, phase="copy-back")
        # From round 0's first phase, Up stays.
        app.keys("Home", "Down", "Up")
        expect(app.state(), step=0, phase="load")
        app.keys("Home")

        # C again hides the panel.
        app.keys("c")
        expect(app.state(), code=0)

        # K: the kernels in order, on the same input.
        app.keys("k")
        st = app.state()
        expect(st, kernel="in-place", schedule="sequential", input="3,1,7,0,4,1,6,3",
               output="3,4,14,15,32,35,65,71", lab_runs=1, lab_wrong=1, first_wrong_round=1)
        app.keys("d")
        expect(app.state(), correct=1)
        app.keys("d")
        expect(app.state(), correct=0)
        for name in ("no-barrier", "in-place-no-barrier", "no-else", "off-by-one",
                     "pout-accumulate", "no-guard"):
            app.keys("k")
            st = app.state()
            expect(st, kernel=name, input="3,1,7,0,4,1,6,3", lab_runs=1)
        # no-else, off-by-one, pout-accumulate and no-guard are wrong under
        # any schedule
        expect(st, lab_wrong=1)
        app.keys("k")
        expect(app.state(), kernel="correct", output="3,4,11,11,15,16,22,25", lab_runs=0,
               first_wrong_round=-1)

        # Predict mode with a mistake: Q cycles values, cases, then "will each
        # cell be right?"; marks by keys (1 right, 2 wrong, Return cycles,
        # Tab moves) and by a click; Reveal scores against every run.
        app.keys("k")
        expect(app.state(), kernel="in-place", lab_wrong=1)
        app.keys("Home", "p", "Right")
        expect(app.state(), quiz=1, quiz_phase="ask", step=1, quiz_kind="values")
        app.keys("q", "q")
        expect(app.state(), quiz_kind="outcome", quiz_phase="ask")
        app.keys("1", "Tab", "Return", "Tab", "2", "Tab", "1")
        st = app.state()
        expect(st, quiz_answers="0:right,1:right,2:wrong,3:right", quiz_sel=3)
        c0, pitch = cells_x(st)
        row1_y = float(st["cells"].split("@")[1].split(",")[1])
        xdo("mousemove", "--window", app.wid, int(c0 + 4 * pitch), int(row1_y))
        xdo("click", 1)  # cell 4: none -> right
        app.keys("Tab", "Return", "Return")  # cell 5: right -> wrong
        st = app.state()
        expect(st, quiz_answers="0:right,1:right,2:wrong,3:right,4:right,5:wrong", quiz_sel=5)
        # in-place, sequential, round 1: cells 0 and 1 right, 2 .. 7 wrong
        app.keys("Right")
        expect(app.state(), quiz_phase="shown", quiz_score="4/6",
               quiz_results="0:right,1:right,2:right,3:wrong,4:wrong,5:right")
        app.keys("p")
        expect(app.state(), quiz=0)
        app.keys("k", "k", "k", "k", "k", "k", "k")  # back to the chapter's kernel
        expect(app.state(), kernel="correct")

        # A mistake keeps its kernel across a new input. (K's capture runs the
        # kernel's own code on the CPU runtime: wait for it, or the typed
        # characters reach the window before E has opened the input box.)
        app.keys("k")
        expect(app.state(), kernel="in-place")
        app.keys("e")
        app.type("1 1 1 1")
        app.keys("Return")
        st = app.state()
        expect(st, kernel="in-place", n=4, lab_runs=1)

        app.quit_clean("Escape", "Escape")  # the second Esc quits
    finally:
        app.kill()

    # --code starts with the panel; --kernel and --schedule choose the lab.
    app = App(exe, "--no-animation", "--backend", "cpu", "--code", "--kernel", "no-barrier",
              "--schedule", "warps:5", "--random", "64", "--seed", "2", env=env)
    try:
        st = app.state()
        expect(st, code=1, kernel="no-barrier", schedule="warps:5", lab_runs=100, n=64)
        app.quit_clean("Escape", "Escape")
    finally:
        app.kill()
    # The shipped presenter script: its closing steps switch to in-place and
    # back; walking back past a kernel step restores the kernel before it.
    story = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets",
                         "scripts", "chapter-story.txt")
    app = App(exe, "--no-animation", "--backend", "cpu", "--script", story, env=env)
    try:
        expect(app.state(), script="1/12", kernel="correct")
        app.keys(*["Right"] * 9)
        expect(app.state(), script="10/12", kernel="in-place", script_kernel="in-place", step=1,
               lab_wrong=1)
        app.keys("Right")
        expect(app.state(), script="11/12", kernel="in-place", script_kernel="-", step=3,
               output="3,4,14,15,32,35,65,71")
        app.keys("Right")
        expect(app.state(), script="12/12", kernel="correct", output="3,4,11,11,15,16,22,25")
        app.keys("Left", "Left")
        expect(app.state(), script="10/12", kernel="in-place")
        app.keys("Left")
        expect(app.state(), script="9/12", kernel="correct", lab_runs=0)
        app.quit_clean("Escape", "Escape")
    finally:
        app.kill()

    # A lab trace file (scanviz-trace --kernel ... --format json) opened with
    # --trace: the window shows its kernel and outcome.
    if len(args) > 3:
        import subprocess
        import tempfile
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "lab.json")
            subprocess.run([args[3], "--backend", "cpu", "--kernel", "in-place", "--schedule",
                            "sequential", "--runs", "3", "--format", "json", "-o", path],
                           check=True, env=env)
            app = App(exe, "--no-animation", "--backend", "cpu", "--trace", path, env=env)
            try:
                st = app.state()
                expect(st, kernel="in-place", schedule="sequential", lab_runs=3, lab_wrong=3,
                       first_wrong_round=1, output="3,4,14,15,32,35,65,71")
                if "emulated" not in st["source"] or "lab.json" not in st["source"]:
                    fail(f"the source names the file and the emulator: {st['source']}")
                app.keys("k")  # the next mistake, on the file's input
                expect(app.state(), kernel="no-barrier", input="3,1,7,0,4,1,6,3")
                app.quit_clean("Escape", "Escape")
            finally:
                app.kill()
    # Lab files the H200 wrote (tests/data, 2026-12-01; int32 sum of --random 64
    # --seed 1): the chapter's kernel, in-place 100 times (right every time, by
    # luck: racecheck still finds the race) and in-place shaken 100 times
    # (wrong in 87). Given together they are a deck: K and Shift+K walk them,
    # and on a laptop without a GPU the window shows the GPU's own outcomes.
    data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")
    deck = [os.path.join(data, f + ".scanviz.json") for f in
            ("correct-64-h200", "in-place-64-h200-unshaken", "in-place-64-h200-shaken")]
    app = App(exe, "--no-animation", "--backend", "cpu", "--trace", deck[0], "--trace", deck[1],
              deck[2], env=env)
    try:
        expect(app.state(), deck="1/3", kernel="correct", n=64, backend="cuda", lab_runs=0)
        app.keys("k")
        st = app.state()
        expect(st, deck="2/3", kernel="in-place", schedule="gpu", lab_runs=100, lab_wrong=0,
               first_wrong_round=-1, racecheck="124/908")
        if "100 GPU runs (not shaken)" not in st["source"]:
            fail(f"the source says the runs were not shaken: {st['source']}")
        app.keys("k")
        st = app.state()
        expect(st, deck="3/3", kernel="in-place", schedule="gpu", n=64, lab_runs=100,
               lab_wrong=87, first_wrong_round=1, racecheck="124/908")
        if "NVIDIA H200" not in st["source"] or "100 GPU runs (shaken, seed 1)" not in st["source"]:
            fail(f"the source names the H200 and its shaken runs: {st['source']}")
        app.keys("shift+k")
        expect(app.state(), deck="2/3", lab_wrong=0)
        app.keys("k", "k")
        expect(app.state(), deck="1/3", kernel="correct")
        app.quit_clean("Escape", "Escape")
    finally:
        app.kill()
    print("lab keys: all checks passed")


if __name__ == "__main__":
    main()
