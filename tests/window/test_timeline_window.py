#!/usr/bin/env python3
"""The look-back timeline in a real window (issue 32), under Xvfb with
xdotool: --timeline FILE opens the Measure view on it; Down/Up, Page
Down/Up, Home/End scroll its tiles, ] and [ show fewer and more of them, L
switches to the plots and back, M leaves the Measure view and comes back to
it. The state line's lookback= field says the tiles shown. A bad file is
refused by name, with exit status 2, before any window opens.

usage: test_timeline_window.py SCANVIZ FIXTURE.json [SANITIZE [LSAN_SUPPRESSIONS]]
(exits 77 without xvfb-run or xdotool)
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xharness import App, expect, fail, run_under_xvfb, sanitizer_env  # noqa: E402


def main():
    args = run_under_xvfb() + ["", None]
    exe, fixture = args[0], args[1]
    env = sanitizer_env(args[2], args[3])
    tiles = json.load(open(fixture))["tiles"]["count"]
    last = tiles - 1

    # A bad file: exit 2, the field named, nothing drawn.
    with tempfile.TemporaryDirectory() as d:
        bad = json.load(open(fixture))
        bad["tiles"]["end"][7] = 0  # stored before it started
        path = os.path.join(d, "bad.json")
        json.dump(bad, open(path, "w"))
        r = subprocess.run([exe, "--timeline", path], capture_output=True, text=True,
                           env=env, timeout=60)
        if r.returncode != 2 or "tiles.end[7]" not in r.stderr:
            fail("a bad timeline: exit %d, stderr %r" % (r.returncode, r.stderr))

    app = App(exe, "--no-animation", "--backend", "cpu", "--timeline", fixture, env=env)
    try:
        expect(app.state(), view="measure", lookback="0-31/%d" % tiles)
        app.keys("Down", "Down")
        expect(app.state(), lookback="2-33/%d" % tiles)
        app.keys("Up")
        expect(app.state(), lookback="1-32/%d" % tiles)
        app.keys("Next")  # Page Down
        expect(app.state(), lookback="33-64/%d" % tiles)
        app.keys("End")
        expect(app.state(), lookback="%d-%d/%d" % (tiles - 32, last, tiles))
        app.keys("Home", "bracketright")
        expect(app.state(), lookback="0-15/%d" % tiles)
        app.keys("bracketright", "bracketright", "bracketright")  # 8, 4, and no fewer
        expect(app.state(), lookback="0-3/%d" % tiles)
        app.keys("bracketleft", "bracketleft", "bracketleft", "bracketleft", "bracketleft")
        expect(app.state(), lookback="0-%d/%d" % (last, tiles))  # 8 16 32 64, then all
        app.keys("l")
        expect(app.state(), view="measure", lookback="off")
        app.keys("Down")  # the plots have no tiles to scroll
        expect(app.state(), lookback="off")
        app.keys("l")
        expect(app.state(), lookback="0-%d/%d" % (last, tiles))
        app.keys("m")
        expect(app.state(), view="scan", step=0)
        app.keys("Right")  # the scan's keys are the scan's again
        expect(app.state(), step=1, lookback="0-%d/%d" % (last, tiles))
        app.keys("m")
        expect(app.state(), view="measure")
        app.quit_clean("Escape", "Escape")  # the Measure view, then quit
    finally:
        app.kill()
    print("test_timeline_window: all checks passed")


if __name__ == "__main__":
    main()
