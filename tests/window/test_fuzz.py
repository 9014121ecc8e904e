#!/usr/bin/env python3
"""Robustness: thousands of random key, mouse (motion, clicks, wheel, drags),
text, resize (down to 1x1) and unmap/map events on a real scanviz window
under Xvfb, then quit. Passes when scanviz neither crashes nor hangs, exits 0,
still answers with a sane state line at the end, and, in an AddressSanitizer
build, reports no error and no leak (LeakSanitizer runs at exit; lsan.supp
in this folder suppresses leaks inside Mesa, LLVM, X11, fontconfig and SDL's
own drivers, never in scanviz's code).

usage: test_fuzz.py SCANVIZ [SANITIZE [LSAN_SUPPRESSIONS]] [--seed N] [--events N]
"""
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xharness import (App, expect, fail, run_under_xvfb, sanitizer_env,  # noqa: E402
                      sanitizer_report, xdo)

# Every key the app knows, and some it does not. Escape is sent only while the
# input box is likely open (it would quit otherwise), see below.
KEYS = ["Right", "Left", "Home", "End", "space", "plus", "minus", "equal", "e", "r", "i",
        "o", "t", "h", "question", "m", "z", "bracketleft", "bracketright", "shift+Left",
        "shift+Right", "ctrl+plus", "ctrl+minus", "ctrl+0", "ctrl+1", "ctrl+2", "ctrl+3",
        "ctrl+4", "ctrl+v", "ctrl+a", "Return", "BackSpace", "Delete", "F12", "f", "F11",
        "a", "x", "1", "comma", "period", "Tab", "Up", "Down", "Page_Up", "F1",
        "KP_Add", "KP_Subtract", "KP_Enter", "alt+x", "p", "q", "y", "Next", "Prior",
        "shift+Tab", "8", "KP_5"]
# (Ctrl+Q quits at once, so the storm leaves it out.)
TEXTS = ["3 1 7 0", "1,2,3", "x3", "-5 6", "1e3", "0.5", "99999999999", "", "# c", "7"]


def main():
    args = run_under_xvfb()
    seed, events = 1, 2500
    pos = []
    i = 0
    while i < len(args):
        if args[i] == "--seed":
            seed = int(args[i + 1]); i += 2
        elif args[i] == "--events":
            events = int(args[i + 1]); i += 2
        else:
            pos.append(args[i]); i += 1
    exe = pos[0]
    sanitize = pos[1] if len(pos) > 1 else "none"
    supp = pos[2] if len(pos) > 2 else None
    env = sanitizer_env(sanitize, supp)
    rnd = random.Random(seed)
    start = time.time()

    # --random 64 gives zoom and pan room; animations on, so events land
    # mid-animation too; autoplay keeps frames coming.
    app = App(exe, "--random", "64", "--seed", str(seed), "--speed", "4", env=env)
    wid = app.wid
    try:
        sent = 0
        batch = []
        while sent < events:
            r = rnd.random()
            if r < 0.35:
                k = rnd.choice(KEYS)
                batch += ["key", "--delay", "1", k]
                if k == "e":  # the box is open: type, then close it sometimes with Esc
                    batch += ["type", "--delay", "1", rnd.choice(TEXTS)]
                    if rnd.random() < 0.5:
                        batch += ["key", "--delay", "1", "Escape"]
            elif r < 0.65:
                batch += ["mousemove", "--window", wid, str(rnd.randint(-20, 1300)),
                          str(rnd.randint(-20, 740))]
            elif r < 0.80:
                batch += ["click", str(rnd.choice([1, 1, 3, 4, 4, 5, 5, 6, 7]))]
            elif r < 0.92:  # a drag
                batch += ["mousedown", "1"]
                for _ in range(rnd.randint(1, 5)):
                    batch += ["mousemove", "--window", wid, str(rnd.randint(0, 1280)),
                              str(rnd.randint(0, 720))]
                batch += ["mouseup", "1"]
            elif r < 0.985:
                w, h = rnd.choice([(1, 1), (7, 5), (50, 30), (160, 90), (320, 200),
                                   (rnd.randint(1, 1600), rnd.randint(1, 1200)), (1280, 720)])
                batch += ["windowsize", wid, str(w), str(h)]
            else:  # minimise-like: unmap and map again
                batch += ["windowunmap", wid, "sleep", "0.05", "windowmap", wid]
            sent += 1
            if len(batch) > 400:
                xdo(*batch, timeout=60)
                batch = []
                if app.proc.poll() is not None:
                    break
                if time.time() - start > 35:
                    print(f"time bound: stopping after {sent} events", flush=True)
                    break
        if batch and app.proc.poll() is None:
            xdo(*batch, timeout=60)
        if app.proc.poll() is not None:
            fail(f"scanviz died during the event storm (status {app.proc.returncode}):\n"
                 + "".join(app.stderr_lines)[-4000:])

        # Back to a known shape, still alive and sane.
        xdo("windowmap", wid)
        xdo("windowsize", wid, 1280, 720)
        xdo("mousemove", "--window", wid, 5, 5)
        xdo("windowfocus", wid)
        time.sleep(0.3)
        st = app.state(timeout=30)  # it may still be working through the storm
        if st.get("editing") == "1":
            app.keys("Escape")
        if st.get("view") == "measure":
            app.keys("m")
        app.keys("ctrl+1")
        st = app.state()
        expect(st, n=8, input="3,1,7,0,4,1,6,3", editing=0)
        if not 0 <= int(st["step"]) < int(st["steps"]):
            fail(f"step out of range: {st['raw'][:300]}")
        print(f"{sent} events in {time.time() - start:.1f} s; state: {st['raw'][:160]}",
              flush=True)

        # Quit: Esc closes whatever is open (help, Measure view, fullscreen,
        # a half-typed answer), asks once (the array was made here), quits.
        for _ in range(7):
            if app.proc.poll() is not None:
                break
            app.keys("Escape")
            time.sleep(0.3)
        rc = app.wait_exit(timeout=30)
    finally:
        app.kill()
    time.sleep(0.2)
    err = "".join(app.stderr_lines)
    report = sanitizer_report(err)
    if report:
        fail("sanitizer report:\n" + report)
    if rc != 0:
        fail(f"exit status {rc}; stderr:\n{err[-4000:]}")
    if "Suppressions used" in err:
        print("LeakSanitizer " + err[err.index("Suppressions used"):].strip(), flush=True)
    print("fuzz test: no crash, no sanitizer report, exit 0")


if __name__ == "__main__":
    main()
