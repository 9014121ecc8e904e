#!/usr/bin/env python3
"""Save -> new trace in the window for a kernel file at n = 1024 (issue 18;
docs/performance.md). Not a test: a measurement. Starts scanviz
--kernel-file on a copy of the starting file with --random 1024, then 8
times writes the file in place (a new comment each time, so the content and
the compile cache key change) and times the write to the first F12 state
line whose kruns moved; kms is the app's own figure (the watch's event to
the result taken).

usage: bench_kernel_save.py SCANVIZ STARTER.cu   (under Xvfb by itself)
"""
import os, sys, time, tempfile, statistics
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xharness import App, run_under_xvfb
args = run_under_xvfb()
exe, starter = args[0], args[1]
good = open(starter).read()
d = tempfile.mkdtemp()
p = os.path.join(d, "scan.cu")
open(p, "w").write(good)
app = App(exe, "--no-animation", "--backend", "cpu", "--random", "1024", "--kernel-file", p)
def runs():
    return int(app.state()["kruns"])
while runs() < 1: time.sleep(0.2)
res = []
for k in range(8):
    before = runs()
    t0 = time.time()
    open(p, "w").write(good + f"\n/* save {k} {time.time()} */\n")
    while True:
        st = app.state()
        if int(st["kruns"]) > before: break
        time.sleep(0.01)
    res.append((time.time() - t0) * 1000)
    print(f"save {k}: state shows it after {res[-1]:.0f} ms (kms {st['kms']}) verdict {st['kverdict']} steps {st['ksteps']}", flush=True)
print("median", statistics.median(res))
app.quit_clean()
