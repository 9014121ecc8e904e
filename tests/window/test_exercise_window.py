#!/usr/bin/env python3
"""An exercise in the window (issue 19): scanviz --exercise NAME --into DIR
under Xvfb, with a temporary XDG_STATE_HOME, checked through the F12 state
line (exercise, excheck, exresult, exhints, exasks, exsolution, exnext) and
the files it leaves:
  - the starting file is copied into DIR as NAME.cu, and the check at
    opening fails it (not an attempt);
  - a wrong save shows the first failure in words, its input on screen
    (the kernel pane marks the cell); the solution saved shows the pass and
    offers the next exercise, which G opens (its starting file copied too);
  - N shows hints 1, 2, 3 and then no more; A is refused once before a pass
    and reveals the solution when asked twice; the student's file is never
    changed by it;
  - a second window on the same folder opens the student's file as it is
    (never overwritten);
  - the progress file counts the saves' checks and the hints;
  - all of it with inotify and with polling (SCANVIZ_WATCH_POLL=1);
  - the panel scrolls (issue 28): real Ctrl+Down / Ctrl+Up, Ctrl+Page Down
    and the wheel over the panel move exscroll=LINE/MAX, never past the
    text's end (MAX, from the frame) or above its top; the wheel there does
    not zoom; N and A scroll back to the top.

usage: test_exercise_window.py SCANVIZ EXERCISES_DIR [SANITIZE [LSAN_SUPPRESSIONS]]
(exits 77 without xvfb-run or xdotool)
"""
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xharness import App, expect, fail, run_under_xvfb, sanitizer_env, xdo  # noqa: E402


def wait_checks(app, n, timeout=120):
    """The state line once the app has taken n check results."""
    deadline = time.time() + timeout
    while True:
        st = app.state()
        if int(st.get("exchecks", "0")) >= n and st.get("exstale") == "0":
            return st
        if time.time() > deadline:
            fail(f"no check result {n} within {timeout} s: {st['raw'][-1200:]}")
        time.sleep(0.3)


def save(path, text):
    """As an editor saves: a new file renamed over the old one."""
    tmp = os.path.join(os.path.dirname(path), ".save.swp")
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, path)


def progress_line(state, name):
    path = os.path.join(state, "scanviz", "progress")
    with open(path) as f:
        for line in f:
            if line.startswith(name + " "):
                return line.strip()
    fail(f"no line for {name} in {path}")


def scenario(exe, exdir, base_env, poll):
    into = tempfile.mkdtemp(prefix="sv-ex-into-")
    state = tempfile.mkdtemp(prefix="sv-ex-state-")
    env = dict(base_env)
    env.update({"XDG_STATE_HOME": state, "SCANVIZ_EXERCISES": exdir, "NO_COLOR": "1"})
    if poll:
        env["SCANVIZ_WATCH_POLL"] = "1"
    mine = os.path.join(into, "guard.cu")
    with open(os.path.join(exdir, "guard", "solution.cu")) as f:
        solution = f.read()
    with open(os.path.join(exdir, "guard", "start.cu")) as f:
        start = f.read()

    app = App(exe, "--no-animation", "--exercise", "guard", "--into", into, env=env)
    try:
        st = wait_checks(app, 1)
        expect(st, exercise="guard", excheck="failed", exhints="0/3", exsolution=0, exnext="-",
               exfile=mine)
        if "buf[-1]" not in st["exresult"]:
            fail(f"the starting file's first failure: {st['exresult']!r}")
        with open(mine) as f:
            if f.read() != start:
                fail("the starting file was not copied whole")
        if st["kfile"] != mine:
            fail(f"the exercise is not the watched kernel file: {st['kfile']}")

        # Hints, and the reveal rule before a pass.
        app.keys("n")
        st = app.state()
        expect(st, exhints="1/3")
        app.keys("a")
        st = app.state()
        expect(st, exsolution=0, exasks=1)
        app.keys("n", "n", "n")
        st = app.state()
        expect(st, exhints="3/3")
        if "hints=3" not in progress_line(state, "guard"):
            fail(f"the hints are not in the progress file: {progress_line(state, 'guard')}")

        # A wrong save: the solution with an off-by-one guard.
        if "if (i >= stride)" not in solution:
            fail("the guard's solution has no `if (i >= stride)` to break")
        save(mine, solution.replace("if (i >= stride)", "if (i > stride)"))
        st = wait_checks(app, 2)
        expect(st, excheck="failed", exnext="-")
        if not st["exresult"] or st["exresult"] == "passed":
            fail(f"a wrong save: {st['exresult']!r}")
        # The solution saved: passed, the next exercise offered.
        save(mine, solution)
        st = wait_checks(app, 3)
        if not st["exresult"].startswith("passed"):
            fail(f"the pass: {st['exresult']!r}")
        expect(st, excheck="passed", exnext="any-n")
        line = progress_line(state, "guard")
        if "passed=yes" not in line or "attempts=2" not in line:
            fail(f"progress after a wrong save and a pass: {line}")

        # Asked twice: the solution shows; the student's file is unchanged.
        app.keys("a")
        st = app.state()
        expect(st, exsolution=1, exasks=2)
        with open(mine) as f:
            if f.read() != solution:
                fail("revealing the solution changed the student's file")
        if "revealed=yes" not in progress_line(state, "guard"):
            fail("the reveal is not in the progress file")

        # G: the next exercise, its starting file copied beside.
        app.keys("g")
        st = wait_checks(app, 4)
        expect(st, exercise="any-n", excheck="failed", exhints="0/3", exasks=0, exsolution=0)
        if not os.path.isfile(os.path.join(into, "any-n.cu")):
            fail("G did not copy the next exercise's starting file")
        app.quit_clean()
    finally:
        app.kill()

    # A second window on the same folder: the student's work as it is.
    with open(mine, "a") as f:
        f.write("// my notes\n")
    with open(mine) as f:
        before = f.read()
    app = App(exe, "--no-animation", "--exercise", "guard", "--into", into, env=env)
    try:
        st = wait_checks(app, 1)
        if st.get("excheck") != "passed":
            fail(f"the student's passing file, opened again: {st.get('exresult')!r}")
        expect(st, exercise="guard", excheck="passed")
        with open(mine) as f:
            if f.read() != before:
                fail("opening the exercise again overwrote the student's file")
        app.quit_clean()
    finally:
        app.kill()
    line = progress_line(state, "guard")
    if "attempts=2" not in line:
        fail(f"the check at opening counted as an attempt: {line}")
    shutil.rmtree(into, ignore_errors=True)
    shutil.rmtree(state, ignore_errors=True)


def scroll_scenario(exe, exdir, base_env):
    into = tempfile.mkdtemp(prefix="sv-ex-into-")
    state = tempfile.mkdtemp(prefix="sv-ex-state-")
    env = dict(base_env)
    env.update({"XDG_STATE_HOME": state, "SCANVIZ_EXERCISES": exdir, "NO_COLOR": "1"})
    app = App(exe, "--no-animation", "--exercise", "double-buffer", "--into", into, env=env)

    def scroll(st):
        if "/" not in st.get("exscroll", ""):
            fail(f"no exscroll=LINE/MAX in the state line: {st['raw'][-600:]}")
        at, most = st["exscroll"].split("/")
        return int(at), int(most)
    try:
        wait_checks(app, 1)
        app.keys("n")
        st = app.state()
        expect(st, exhints="1/3")
        at, most = scroll(st)
        if at != 0 or most < 4:
            fail(f"after N: exscroll={st['exscroll']} (the hint and the statement need more "
                 f"than the panel at 1280x720)")
        app.keys("ctrl+Down", "ctrl+Down")
        at, most = scroll(app.state())
        if at != 2:
            fail(f"Ctrl+Down twice: exscroll {at}/{most}")
        app.keys("ctrl+Next")
        page_at, _ = scroll(app.state())
        if page_at <= 3:
            fail(f"Ctrl+Page Down from 2: {page_at}")
        app.keys(*(["ctrl+Down"] * (most + 3)))
        at, _ = scroll(app.state())
        if at != most:
            fail(f"Ctrl+Down past the end: {at}, expected {most}")
        app.keys("ctrl+Up")
        at, _ = scroll(app.state())
        if at != most - 1:
            fail(f"Ctrl+Up at the end: {at}, expected {most - 1}")
        # The wheel over the panel: up a notch is three lines up, no zoom.
        st = app.state()
        x, y, w, h = (float(v) for v in st["expanel"].split(","))
        xdo("mousemove", "--window", app.wid, int(x + w / 2), int(y + h / 2))
        xdo("click", 4)
        st = app.state()
        at2, _ = scroll(st)
        expect(st, zoom="1.00")
        if at2 != max(0, at - 3):
            fail(f"the wheel up over the panel: {at} -> {at2}")
        app.keys(*(["ctrl+Up"] * (most + 3)))
        at, _ = scroll(app.state())
        if at != 0:
            fail(f"Ctrl+Up past the top: {at}")
        app.keys("ctrl+Down", "ctrl+Down", "a", "a")  # the solution: back to its top
        st = app.state()
        expect(st, exsolution=1)
        at, most2 = scroll(st)
        if at != 0 or most2 <= most:
            fail(f"the solution shown: exscroll={st['exscroll']} (the hint's was 0/{most})")
        app.quit_clean()
    finally:
        app.kill()
    shutil.rmtree(into, ignore_errors=True)
    shutil.rmtree(state, ignore_errors=True)


def main():
    args = run_under_xvfb()
    exe, exdir = args[0], args[1]
    sanitize = args[2] if len(args) > 2 else ""
    supp = args[3] if len(args) > 3 else None
    env = sanitizer_env(sanitize, supp)
    scenario(exe, exdir, env, poll=False)  # inotify
    scenario(exe, exdir, env, poll=True)   # the polling fallback
    scroll_scenario(exe, exdir, env)
    print("exercise window: all checks passed")


main()
