#!/usr/bin/env python3
"""The compare view in a real window (issue 20), under Xvfb with xdotool:
B opens it on the shown input, Right steps both panes, Tab picks the one
that steps, M opens the Measure view from it and Esc comes back to it, B
leaves it; --compare blelloch starts on it. The state line's compare= field
says each pane's step and which steps.

usage: test_compare_window.py SCANVIZ [SANITIZE [LSAN_SUPPRESSIONS]]
(exits 77 without xvfb-run or xdotool)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xharness import App, expect, run_under_xvfb, sanitizer_env  # noqa: E402


def main():
    args = run_under_xvfb() + ["", None]
    env = sanitizer_env(args[1], args[2])
    app = App(args[0], "--no-animation", "--backend", "cpu", env=env)
    try:
        expect(app.state(), compare="off", view="scan")
        app.keys("b")
        expect(app.state(), compare="0,0:both")
        app.keys("Right", "Right")
        expect(app.state(), compare="2,2:both", step=0)
        app.keys("Tab", "Right", "Right")  # Hillis-Steele alone: its last round is 3
        expect(app.state(), compare="3,2:hs")
        app.keys("Tab", "End")  # Blelloch alone: its copy out, step 8
        expect(app.state(), compare="3,8:blelloch")
        app.keys("m")
        expect(app.state(), view="measure", compare="3,8:blelloch")
        app.keys("Escape")
        expect(app.state(), view="scan", compare="3,8:blelloch")
        app.keys("b")
        expect(app.state(), compare="off")
        app.keys("Right")
        expect(app.state(), step=1)
        app.quit_clean("Escape")
    finally:
        app.kill()
    app = App(args[0], "--no-animation", "--backend", "cpu", "--compare", "blelloch",
              "--input", "5 6 7 8 9", env=env)
    try:
        expect(app.state(), compare="0,0:both", n=5)
        app.keys("End")  # Hillis-Steele's round 3, Blelloch's m = 8: 9 steps
        expect(app.state(), compare="3,8:both")
        app.keys("m")
        expect(app.state(), view="measure")
        app.quit_clean("Escape", "Escape", "Escape")  # Measure, the compare view, quit
    finally:
        app.kill()
    print("test_compare_window: all checks passed")


if __name__ == "__main__":
    main()
