#!/usr/bin/env python3
"""A real scanviz window under Xvfb, driven by real key presses and mouse
clicks (xdotool), checked through the state line the app prints on F12.

usage: test_window.py SCANVIZ [SANITIZE [LSAN_SUPPRESSIONS]]
(exits 77 without xvfb-run or xdotool; in an AddressSanitizer build it also
fails on any sanitizer report, see test_fuzz.py)
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xharness import App, expect, fail, run_under_xvfb, sanitizer_env, xdo  # noqa: E402


def geometry(st):
    """(timeline xs, timeline y, cell-0 centre x, pitch, row ys) in window points."""
    tl, tly = st["timeline"].split("@")
    c0, rest = st["cells"].split("+")
    pitch, rows = rest.split("@")
    return ([float(v) for v in tl.split(",")], float(tly), float(c0), float(pitch),
            [float(v) for v in rows.split(",")])


def click(app, x, y, button=1):
    xdo("mousemove", "--window", app.wid, int(x), int(y))
    time.sleep(0.05)
    xdo("click", button)


def press_expect(app, steps):
    """Each step: press the keys, then the state line must show the fields."""
    for keys, want in steps:
        app.keys(*keys)
        expect(app.state(), **want)


def main():
    args = run_under_xvfb()
    exe = args[0]
    env = sanitizer_env(args[1] if len(args) > 1 else "none", args[2] if len(args) > 2 else None)
    app = App(exe, "--no-animation", env=env)
    try:
        st = app.state()
        expect(st, step=0, steps=4, n=8, op="sum", type="int32", scan="inclusive",
               input="3,1,7,0,4,1,6,3", output="3,4,11,11,15,16,22,25", editing=0, theme="dark")

        # Right three times: round 3; the step stays inside 0 .. steps-1.
        press_expect(app, [
            (("Right", "Right", "Right"), dict(step=3)),
            (("Right",), dict(step=3)),
            (("Left",), dict(step=2)),
            (("Home",), dict(step=0)),
            (("End",), dict(step=3)),
        ])

        # E, a new array, Return: a new trace (the box opens with its text
        # selected, so typing replaces it).
        app.keys("e")
        st = app.state()
        expect(st, editing=1, text="3 1 7 0 4 1 6 3")
        app.type("5 1 2 9 4")
        app.keys("Return")
        expect(app.state(), editing=0, n=5, input="5,1,2,9,4", output="5,6,8,17,21",
               error="", step=3, steps=4)

        # A bad input: the error names the token, the previous array stays.
        app.keys("e")
        app.type("1 2 x3")
        app.keys("Return")
        st = app.state()
        expect(st, editing=1, n=5, input="5,1,2,9,4", output="5,6,8,17,21")
        if "x3" not in st["error"]:
            fail(f"the error does not name the bad token x3: {st['error']!r}")
        # Esc closes the box (not the app); the array is still the old one.
        app.keys("Escape")
        expect(app.state(), editing=0, error="", input="5,1,2,9,4")

        # Keys do nothing surprising while the box has focus: letters are text.
        app.keys("e")
        app.type("tio")
        st = app.state()
        expect(st, editing=1, text="tio", theme="dark", op="sum", scan="inclusive")
        press_expect(app, [
            (("BackSpace", "BackSpace", "BackSpace", "Left", "Right"), dict(text="")),
            (("Escape",), dict(editing=0, input="5,1,2,9,4")),
        ])

        # Presets (Ctrl+1..4), also outside the box.
        app.keys("ctrl+2")
        expect(app.state(), n=16, input=",".join(["1"] * 16),
               output=",".join(str(i) for i in range(1, 17)), editing=0)
        app.keys("ctrl+3")
        expect(app.state(), n=13, editing=0)
        app.keys("ctrl+4")
        st = app.state()
        if st["editing"] != "0" or not (5 <= int(st["n"]) <= 16):
            fail(f"random preset: {st['raw'][:300]}")
        app.keys("ctrl+1")
        expect(app.state(), n=8, input="3,1,7,0,4,1,6,3", output="3,4,11,11,15,16,22,25")

        # R: random input of the same size.
        app.keys("r")
        st = app.state()
        expect(st, n=8)
        if st["input"] == "3,1,7,0,4,1,6,3":
            fail("R did not change the input")
        app.keys("ctrl+1")

        # I: exclusive adds the shift step; O: next operator.
        press_expect(app, [
            (("i",), dict(scan="exclusive", steps=5, output="0,3,4,11,11,15,16,22")),
            (("End",), dict(step=4)),
            (("i",), dict(scan="inclusive", steps=4, step=3)),
            (("o",), dict(op="max", output="3,3,7,7,7,7,7,7")),
        ])
        for _ in range(4):  # max -> min -> product -> xor -> sum
            app.keys("o")
        expect(app.state(), op="sum")

        # Theme, help, speed, play, UI scale, zoom, fullscreen, Measure view.
        press_expect(app, [
            (("t",), dict(theme="light")),
            (("t", "t"), dict(theme="dark")),
            (("h",), dict(help=1)),
            (("Escape",), dict(help=0)),
            (("shift+slash",), dict(help=1)),
            (("question",), dict(help=0)),
            (("plus",), dict(speed=1.5)),
            (("minus", "minus"), dict(speed=0.75)),
            (("equal",), dict(speed=1)),
            (("Home", "space"), dict(playing=1)),
            (("space",), dict(playing=0)),
            (("ctrl+plus",), dict(ui_scale="1.10")),
        ])
        app.keys("ctrl+minus", "ctrl+minus")
        st = app.state()
        if not float(st["ui_scale"]) < 1.0:
            fail(f"Ctrl - did not shrink the UI: {st['ui_scale']}")
        app.keys("ctrl+0")
        expect(app.state(), ui_scale="1.00")
        app.keys("bracketright")
        st = app.state()
        if not float(st["zoom"]) > 1.0:
            fail(f"] did not zoom in: {st['zoom']}")
        press_expect(app, [
            (("z",), dict(zoom="1.00", pan="0.00")),
            (("m",), dict(view="measure")),
            (("Right",), dict(view="measure")),  # no stepping behind the Measure view
            (("Escape",), dict(view="scan")),
        ])

        # Mouse: the timeline goes to a round; hover and click a cell.
        app.keys("Home")
        time.sleep(0.3)
        st = app.state()
        tl, tly, c0, pitch, rows = geometry(st)
        click(app, tl[2], tly)
        expect(app.state(), step=2)
        x5 = c0 + 5 * pitch
        xdo("mousemove", "--window", app.wid, int(x5), int(rows[3]))
        time.sleep(0.2)
        expect(app.state(), hover="3,5")
        click(app, x5, rows[3])
        expect(app.state(), pinned="3,5")
        click(app, x5, rows[3])
        expect(app.state(), pinned="-1,-1")

        # Issue 10, fix 10: a pinned buffer cell keeps its role (pout[5]
        # stays pout[5]) when the rounds swap the buffers.
        app.keys("Home", "Right")
        click(app, x5, rows[2])
        expect(app.state(), pinned="2,5")
        app.keys("Right")
        expect(app.state(), pinned="1,5", step=2)
        click(app, x5, rows[1])
        expect(app.state(), pinned="-1,-1")

        # Fix 2: the [?] button opens the help; a click closes it.
        hx, hy = (float(v) for v in app.state()["helpbtn"].split(","))
        click(app, hx, hy)
        expect(app.state(), help=1)
        click(app, c0, rows[1])
        expect(app.state(), help=0)

        # Fix 3: the error follows the text as it is typed.
        app.keys("e")
        app.type("3 1 7 o 4")
        app.keys("Return")
        st = app.state()
        if "'o'" not in st["error"]:
            fail(f"no error naming o: {st['error']!r}")
        app.keys("BackSpace", "BackSpace", "BackSpace")
        expect(app.state(), editing=1, error="", text="3 1 7 ")
        app.type("0 4")
        app.keys("Return")
        expect(app.state(), editing=0, input="3,1,7,0,4")
        app.keys("ctrl+1")

        # Fix 9: Y changes the element type; X is I.
        press_expect(app, [
            (("y",), dict(type="float32", input="3,1,7,0,4,1,6,3", output="3,4,11,11,15,16,22,25")),
            (("y",), dict(type="int32")),
            (("x",), dict(scan="exclusive")),
            (("x",), dict(scan="inclusive")),
        ])

        # Predict mode from the keyboard alone: P, Right asks about round 1,
        # Tab to cells, digits, Return; Page Down reveals.
        press_expect(app, [
            (("Home", "p"), dict(quiz=1, quiz_phase="shown", step=0)),
            (("Right",), dict(quiz_phase="ask", step=1, quiz_sel=0, quiz_kind="values")),
        ])
        app.keys("Tab", "Tab", "8", "Return", "1", "2", "Return")
        st = app.state()
        expect(st, quiz_answers="2:8,3:12", quiz_sel=4)
        app.keys("Next")
        expect(app.state(), quiz_phase="shown", quiz_results="2:right,3:wrong", quiz_score="1/2")
        # The cases question by mouse: round 2's pout is buf[0] (row 1).
        app.keys("q", "Right")
        st = app.state()
        expect(st, quiz_phase="ask", quiz_kind="cases", step=2)
        click(app, c0 + 2 * pitch, rows[1])
        click(app, c0 + 2 * pitch, rows[1])
        expect(app.state(), quiz_answers="2:partial", quiz_sel=2)
        press_expect(app, [
            (("Right",), dict(quiz_results="2:right", quiz_score="2/3")),
            (("Prior",), dict(step=1, quiz_phase="shown")),  # Page Up: back one round
            (("p",), dict(quiz=0)),
        ])

        # Fullscreen last: without a window manager, Xvfb leaves SDL's idea
        # of the window size at the screen's after leaving it.
        press_expect(app, [
            (("f",), dict(fullscreen=1)),
            (("F11",), dict(fullscreen=0)),
        ])
        # Fix 1: Esc leaves fullscreen first, and does not quit.
        app.keys("f")
        expect(app.state(), fullscreen=1)
        app.keys("Escape")
        time.sleep(0.3)
        expect(app.state(), fullscreen=0)

        # Esc with nothing open quits, with status 0; the array was edited
        # here, so the first Esc only asks.
        app.keys("Escape")
        expect(app.state(), quit_armed=1)
        app.quit_clean()
    finally:
        app.kill()

    # Slides (issue 10): a presenter script walked by the arrow keys, the
    # overview (V), a clean frame.
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets",
                          "scripts", "chapter-story.txt")
    app = App(exe, "--no-animation", "--clean", "--script", script, env=env)
    try:
        expect(app.state(), script="1/12", overview=1, clean=1, step=0)
        app.keys("Right")
        expect(app.state(), script="2/12", overview=0, step=0)
        app.keys("Right")
        expect(app.state(), script="3/12", overview=0, step=1)
        app.keys("Left")
        expect(app.state(), script="2/12", step=0)
        app.keys("Next")  # a clicker's Page Down
        expect(app.state(), script="3/12", step=1)
        app.keys("End")
        expect(app.state(), script="12/12", overview=0, step=3, kernel="correct")
        app.keys("Right")  # past the end: stays
        expect(app.state(), script="12/12")
        app.keys("Left", "Left", "Left")  # back past the in-place steps
        expect(app.state(), script="9/12", overview=1, step=3, kernel="correct")
        app.keys("Escape")  # closes the overview first
        expect(app.state(), overview=0)
        app.keys("v")
        expect(app.state(), overview=1)
        app.keys("v")
        expect(app.state(), overview=0)
        app.keys("Escape")
        rc = app.wait_exit()
        if rc != 0:
            fail(f"exit status {rc} (script run)")
    finally:
        app.kill()

    # A large n: the wheel zooms around the pointer, a drag pans.
    app = App(exe, "--no-animation", "--random", "300", "--seed", "3", env=env)
    try:
        st = app.state()
        expect(st, n=300, zoom="1.00")
        tl, tly, c0, pitch, rows = geometry(st)
        x = c0 + 150 * pitch
        xdo("mousemove", "--window", app.wid, int(x), int(rows[1]))
        for _ in range(6):
            xdo("click", 4)  # wheel up
        st = app.state()
        if not float(st["zoom"]) > 3.0:
            fail(f"the wheel did not zoom in: zoom={st['zoom']}")
        pan0 = float(st["pan"])
        if not 100 < pan0 < 150:
            fail(f"zoom did not keep cell 150 near the pointer: pan={pan0}")
        y = int(rows[1])
        xdo("mousedown", 1)
        for dx in range(0, 200, 20):
            xdo("mousemove", "--window", app.wid, int(x) + dx, y)
        xdo("mouseup", 1)
        st = app.state()
        if not float(st["pan"]) < pan0:
            fail(f"dragging right did not pan left: {pan0} -> {st['pan']}")
        app.keys("shift+Right")
        st2 = app.state()
        if not float(st2["pan"]) > float(st["pan"]):
            fail(f"Shift+Right did not pan: {st['pan']} -> {st2['pan']}")
        for _ in range(20):
            xdo("click", 5)  # wheel down, back to the whole array
        expect(app.state(), zoom="1.00", pan="0.00")
        app.quit_clean()
    finally:
        app.kill()
    # Ctrl+Q quits at once, even with an array made here; --quiz starts in
    # predict mode.
    app = App(exe, "--no-animation", "--quiz", env=env)
    try:
        expect(app.state(), quiz=1, quiz_phase="shown")
        app.keys("r", "ctrl+q")
        rc = app.wait_exit()
        if rc != 0:
            fail(f"exit status {rc} after Ctrl+Q")
    finally:
        app.kill()
    print("window test: all checks passed")


if __name__ == "__main__":
    main()
