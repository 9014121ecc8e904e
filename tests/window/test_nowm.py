#!/usr/bin/env python3
"""Fullscreen on a bare X server (Xvfb with no window manager, as in some
lecture halls): F makes the window really the display's size (a borderless
window scanviz places itself, since nobody answers SDL's request), the
layout follows the window's real size, and Esc gives back the window and
its layout at the window's size. --fullscreen at start does the same.

usage: test_nowm.py SCANVIZ [SANITIZE [LSAN_SUPPRESSIONS]]
(exits 77 without xvfb-run or xdotool; xvfb-run starts no window manager)
"""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xharness import App, fail, run_under_xvfb, sanitizer_env, xdo  # noqa: E402

SCREEN = (1600, 1200)  # run_under_xvfb's screen


def real_size(app):
    """The window's size as the X server has it (xdotool), not as SDL says."""
    out = xdo("getwindowgeometry", app.wid)
    m = re.search(r"Geometry: (\d+)x(\d+)", out)
    if not m:
        fail(f"no geometry for the window: {out!r}")
    return int(m.group(1)), int(m.group(2))


def settled(app, want_fullscreen, want_size):
    """Waits (up to 5 s) for the window to be want_size; then the state line
    must say the same size for the layout, and fullscreen as wanted."""
    deadline = time.time() + 5
    while time.time() < deadline and real_size(app) != want_size:
        time.sleep(0.1)
    size = real_size(app)
    if size != want_size:
        fail(f"the window is {size[0]}x{size[1]}, expected {want_size[0]}x{want_size[1]}")
    st = app.state()
    win = "%dx%d" % size
    if st["win"] != win or st["fb"] != win or st["fullscreen"] != str(int(want_fullscreen)):
        fail(f"the layout is win={st['win']} fb={st['fb']} fullscreen={st['fullscreen']}, "
             f"the window {win} (fullscreen expected {int(want_fullscreen)})")


WINDOW = (1280, 720)  # scanviz's default window
# Per run: its flags, then (key, fullscreen, size) steps; None: no key.
RUNS = [
    ((), [(None, False, WINDOW), ("f", True, SCREEN), ("Escape", False, WINDOW),
          ("F11", True, SCREEN), ("F11", False, WINDOW)]),
    (("--fullscreen",), [(None, True, SCREEN), ("Escape", False, WINDOW)]),
]


def main():
    args = run_under_xvfb() + ["", None]
    env = sanitizer_env(args[1], args[2])
    for flags, steps in RUNS:
        app = App(args[0], "--no-animation", *flags, env=env)
        try:
            for key, fullscreen, size in steps:
                if key:
                    app.keys(key)
                settled(app, fullscreen, size)
            app.quit_clean("Escape")
        finally:
            app.kill()
    print("fullscreen without a window manager: the window and its layout agree")


if __name__ == "__main__":
    main()
