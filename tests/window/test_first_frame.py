#!/usr/bin/env python3
"""The first frame of --fullscreen on a bare X server (issue 28), before any
input: Xvfb at 1920x1080 with no window manager, scanviz started with
--fullscreen (alone, with the chapter's story script, and with --compare
blelloch); nothing is sent to the window (no key, no pointer move, no
focus), the state line is asked for by SIGUSR1, and the screen is read back
from the X server (XGetImage). The window's frame must be the whole display:
the header drawn where the layout puts it (its [?] at the state line's
helpbtn), the timeline's current dot at its place, and no black band (the
margins along the bottom and the right edge are the theme's background).
It was laid out for the display but drawn into the old 1280x720 buffer,
the header cut and black below and right of it, until the first event.

usage: test_first_frame.py SCANVIZ SOURCE_ROOT [SANITIZE [LSAN_SUPPRESSIONS]]
(exits 77 without xvfb-run or xdotool; xvfb-run starts no window manager;
a frame that fails is written as first-frame-N.png in the working folder)
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xharness import (App, fail, grab_screen, run_under_xvfb, sanitizer_env,  # noqa: E402
                      write_png, xdo)

W, H = 1920, 1080
BG = (0x15, 0x18, 0x1D)  # the dark theme's background (src/app/theme.c)


def pixel(img, x, y):
    o = (y * W + x) * 3
    return img[o], img[o + 1], img[o + 2]


def near(a, b, tol=6):
    return all(abs(p - q) <= tol for p, q in zip(a, b))


def bright_near(img, cx, cy, r):
    """How many pixels within r of (cx, cy) are much lighter than the
    background (text, a ring)."""
    n = 0
    for y in range(max(0, cy - r), min(H, cy + r + 1)):
        for x in range(max(0, cx - r), min(W, cx + r + 1)):
            p = pixel(img, x, y)
            n += sum(p) > sum(BG) + 250
    return n


def check_frame(img, st, what):
    if st.get("win") != f"{W}x{H}" or st.get("fullscreen") != "1":
        fail(f"{what}: the state line says win={st.get('win')} "
             f"fullscreen={st.get('fullscreen')}, not {W}x{H} fullscreen")
    # no black band: the bottom and right margins are the background
    off = []
    for x in range(0, W, 7):
        for y in (H - 3, H - 8):
            if not near(pixel(img, x, y), BG):
                off.append((x, y, pixel(img, x, y)))
    for y in range(0, H, 7):
        for x in (W - 3, W - 8):
            if not near(pixel(img, x, y), BG):
                off.append((x, y, pixel(img, x, y)))
    if off:
        fail(f"{what}: {len(off)} pixels of the bottom and right margins are not the "
             f"background {BG}, e.g. {off[:4]} (a band the first frame did not draw)")
    black = sum(1 for y in range(0, H, 5) for x in range(0, W, 5) if pixel(img, x, y) == (0, 0, 0))
    if black:
        fail(f"{what}: {black} sampled pixels are black (0, 0, 0): not drawn")
    # the header where the layout has it: the [?] button's glyph
    if "helpbtn" in st and st["helpbtn"]:
        hx, hy = (int(float(v)) for v in st["helpbtn"].split(","))
        if bright_near(img, hx, hy, 14) < 8:
            fail(f"{what}: nothing drawn at the [?] ({hx},{hy}): the header is cut")
    # the title: light text in the header's left part, in the top 80 px
    title = sum(1 for y in range(8, 80) for x in range(15, 500, 2)
                if sum(pixel(img, x, y)) > 600)
    if title < 40:
        fail(f"{what}: the header's title is not at the top left ({title} light pixels)")


# Per run: its flags and what to call it. --backend cpu: no GPU probe.
RUNS = [
    (("--fullscreen",), "--fullscreen"),
    (("--fullscreen", "--script", "assets/scripts/chapter-story.txt"), "--fullscreen --script"),
    (("--fullscreen", "--compare", "blelloch"), "--fullscreen --compare blelloch"),
]


def main():
    args = run_under_xvfb(f"{W}x{H}") + ["", None]
    exe, root = args[0], args[1]
    env = sanitizer_env(args[2], args[3])
    for k, (flags, what) in enumerate(RUNS):
        flags = [os.path.join(root, f) if f.endswith(".txt") else f for f in flags]
        app = App(exe, "--no-animation", "--backend", "cpu", *flags, env=env, touch=False)
        try:
            # the window the display's size (xdotool reads, it does not send)
            deadline = time.time() + 20
            while time.time() < deadline:
                geo = xdo("getwindowgeometry", app.wid)
                if f"Geometry: {W}x{H}" in geo:
                    break
                time.sleep(0.1)
            st = app.state_quiet()
            # the frames it draws by itself: give it time, then read the screen
            time.sleep(2.0)
            img = grab_screen(W, H)
            try:
                check_frame(img, st, what)
            except SystemExit:
                write_png(f"first-frame-{k}.png", img, W, H)
                raise
            if app.proc.poll() is not None:
                fail(f"{what}: scanviz exited ({app.proc.returncode})")
        finally:
            app.kill()
    print("the first fullscreen frame on a bare X server: the whole display, header drawn")


if __name__ == "__main__":
    main()
