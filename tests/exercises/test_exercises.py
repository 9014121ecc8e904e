"""The exercises (issue 19), on the CPU runtime: every exercise's starting
file fails its check with the failure its statement leads to, its reference
solution passes, the known-wrong solutions of tests/exercises/wrong (named
EXERCISE--KIND.cu) fail with that kind first; the grader prints one CSV line
per file of a folder with passing, failing, crashing, endless and
non-compiling files, within its time limits.

Usage: test_exercises.py SCANVIZ_TRACE EXERCISES_DIR TESTS_DIR"""
import csv
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, report  # noqa: E402

TRACE, EX, TESTS = sys.argv[1], sys.argv[2], sys.argv[3]
STATE = tempfile.mkdtemp(prefix="sv-ex-state-")  # the progress file goes here, not $HOME
ENV = {**os.environ, "NO_COLOR": "1", "SCANVIZ_EXERCISES": EX, "XDG_STATE_HOME": STATE}
PROGRESS = os.path.join(STATE, "scanviz", "progress")

# What each starting file's check must say first (the statement leads to it).
START = {
    "round-one": (4, "out[1] holds 1; it should hold 4, round 1's window"),
    "double-buffer": (4, "race: thread"),
    "barrier": (4, "race: thread"),
    "guard": (5, "thread 0 read buf[-1]"),
    "any-n": (4, "shown by n = 13"),
    "exclusive": (4, "out[0] holds 3; it should hold 0, the identity of sum"),
    "max": (4, "the window [0, 1] has the max -1"),
    "in-place": (4, "race: thread"),
    "race-hunt": (4, "race: thread 1 read buf[0][0] while thread 0 wrote it"),
    "float": (2, "for --type float32"),
    "warp-scan": (4, "out[0] holds"),
    "warp-blocks": (4, "race: thread 0 read sums[0] while thread 7 wrote it"),
    "ballot-flags": (4, "out[0] holds 0; it should hold 1"),
    "conflict-free": (4, "bank conflicts: 280 (175 of loads, 105 of stores) where at most 0 may be"),
    "blocks-hier": (4, "out[4] holds 4; it should hold 15"),
    "blocks-chained": (5, "deadlock: block 23 waits at line 34 for flags[22], a flag of block 22, "
                          "which has not started: blocks may start in any order"),
}
KIND = {"race": (4, "race: "), "run": (5, "out of range: thread 0 read"),
        "output": (4, "out["), "banks": (4, "bank conflicts: "), "round": (4, "round "), "refused": (2, "signature"),
        "deadlock": (5, "deadlock: ")}


def run(*args, timeout=120):
    p = subprocess.run([TRACE, *args], capture_output=True, text=True, timeout=timeout, env=ENV)
    return p.returncode, p.stdout, p.stderr


def first_failure(out):
    lines = out.splitlines()
    return lines[1].strip() if len(lines) > 1 else ""


rc, out, err = run("--exercise", "list")
check(rc == 0, f"--exercise list: exit {rc}: {err}")
names = [line.split()[1] for line in out.splitlines() if line.strip()]
check(names == list(START), f"--exercise list: {names}")
check(len(names) >= 8, "at least eight exercises")

for name, (want_rc, words) in START.items():
    folder = os.path.join(EX, name)
    for f in ("statement.txt", "start.cu", "check.txt", "hint-1.txt", "hint-2.txt", "solution.cu"):
        check(os.path.isfile(os.path.join(folder, f)), f"{name}: {f} missing")
    rc, out, err = run("--exercise", name, "--kernel-file", os.path.join(folder, "start.cu"))
    check(rc == want_rc, f"{name} start.cu: exit {rc}, expected {want_rc}: {out} {err}")
    check(words in out, f"{name} start.cu: expected {words!r} in {out!r}")
    check("failed" in out.splitlines()[0], f"{name} start.cu: {out}")
    rc, out, err = run("--exercise", name, "--kernel-file", os.path.join(folder, "solution.cu"))
    check(rc == 0, f"{name} solution.cu: exit {rc}: {out} {err}")
    check(out.startswith(f"exercise {name} ") and "passed" in out, f"{name} solution: {out}")

wrong = sorted(os.listdir(os.path.join(TESTS, "wrong")))
per = {}
for f in wrong:
    name, kind = f[:-3].split("--")
    per[name] = per.get(name, 0) + 1
    want_rc, words = KIND[kind]
    rc, out, err = run("--exercise", name, "--kernel-file", os.path.join(TESTS, "wrong", f))
    check(rc == want_rc, f"{f}: exit {rc}, expected {want_rc}: {out} {err}")
    check(first_failure(out).startswith(words) or (kind == "refused" and words in out),
          f"{f}: expected the first failure to start {words!r}: {out!r}")
for name in START:
    check(per.get(name, 0) >= 2, f"{name}: fewer than two known-wrong solutions")

# Each check of a file is an attempt: the start fails, the solution passes.
rc, out, err = run("--exercise", "list")
lines = {line.split()[1]: line for line in out.splitlines() if line.strip()}
ones = 2 + per["round-one"]  # the start, the solution, the known-wrong ones
check("passed 2" in lines["round-one"] and f"{ones} attempts, 0 hints" in lines["round-one"],
      f"--exercise list with progress: {lines['round-one']!r}")
check(f"{2 + per['guard']} attempts" in lines["guard"], f"guard's attempts: {lines['guard']!r}")
with open(PROGRESS) as f:
    before = f.read()
check(f"round-one passed=yes hints=0 attempts={ones} first-pass=" in before, before)

# The grader on a folder of five kinds of submission.
t0 = time.monotonic()
rc, out, err = run("--exercise", "guard", "--grade", os.path.join(TESTS, "grade"),
                   "--time-limit", "1", timeout=60)
took = time.monotonic() - t0
check(rc == 0, f"--grade: exit {rc}: {err}")
rows = list(csv.reader(io.StringIO(out)))
check(rows[0] == ["file", "result", "first_failure", "hazards", "seconds", "student", "sandbox"],
      f"header {rows[0]}")
got = {os.path.basename(r[0]): r for r in rows[1:]}
check(sorted(got) == ["alice.cu", "bob.cu", "carol.cu", "dave.cu", "erin.cu"], f"rows {list(got)}")
check(got["alice.cu"][1:3] == ["passed", ""], f"alice {got['alice.cu']}")
check(got["bob.cu"][1] == "failed" and "buf[-1]" in got["bob.cu"][2], f"bob {got['bob.cu']}")
check(got["carol.cu"][1] == "failed" and got["carol.cu"][2].startswith("race: ")
      and int(got["carol.cu"][3]) > 0, f"carol {got['carol.cu']}")
check(got["dave.cu"][1] == "failed" and "time" in got["dave.cu"][2], f"dave {got['dave.cu']}")
check(got["erin.cu"][1] == "failed" and float(got["erin.cu"][4]) < 30, f"erin {got['erin.cu']}")
check(took < 30, f"--grade took {took:.1f} s")
with open(PROGRESS) as f:
    check(f.read() == before, "--grade changed the student's progress file")
# one slash between the folder and the file, however the folder is given
check(all("//" not in r[0] for r in rows[1:]), f"a doubled slash: {[r[0] for r in rows[1:]]}")
check("graded 5 files in" in err and "skipped" in err and "notes.txt" in err,
      f"--grade's stderr: {err[-500:]}")

# The grader, as a class's export is (issue 28): an endless file names the
# same thread every time; a printf debug line (printf runs, issue 30) does
# not stop a right file; a folder with nothing to grade is exit 2; -o writes
# the CSV whole.
grade2 = tempfile.mkdtemp(prefix="sv-ex-grade-")
shutil.copy(os.path.join(TESTS, "grade", "dave.cu"), os.path.join(grade2, "d1.cu"))
shutil.copy(os.path.join(TESTS, "grade", "dave.cu"), os.path.join(grade2, "d2.cu"))
with open(os.path.join(TESTS, "grade", "alice.cu")) as f:
    alice = f.read()
with open(os.path.join(grade2, "p.cu"), "w") as f:
    f.write(alice.replace("int i = threadIdx.x;", 'int i = threadIdx.x;\n    printf("%d\\n", i);', 1))
csv_path = os.path.join(grade2, "out", "grades.csv")
os.mkdir(os.path.dirname(csv_path))
rc, out, err = run("--exercise", "guard", "--grade", grade2, "--time-limit", "1", "-o", csv_path,
                   timeout=120)
check(rc == 0 and out == "", f"--grade -o: exit {rc}, stdout {out!r}: {err[-300:]}")
with open(csv_path) as f:
    rows2 = {os.path.basename(r[0]): r for r in list(csv.reader(f))[1:]}
check(rows2.get("d1.cu", [""] * 3)[2] == rows2.get("d2.cu", [""] * 3)[2] and
      "thread" in rows2.get("d1.cu", [""] * 3)[2],
      f"the endless file's two lines differ: {rows2.get('d1.cu')} {rows2.get('d2.cu')}")
check(rows2.get("p.cu", [""] * 2)[1] == "passed", f"printf: {rows2.get('p.cu')}")
empty = tempfile.mkdtemp(prefix="sv-ex-empty-")
rc, out, err = run("--exercise", "guard", "--grade", empty)
check(rc == 2 and "no .cu file to grade" in err and out == "", f"an empty folder: {rc} {err}")
shutil.rmtree(grade2)
shutil.rmtree(empty)

# A bad progress file: the list says it was ignored (naming the line and the
# field) and shows no progress; a check sets it aside whole as progress.bad.
with open(PROGRESS, "w") as f:
    f.write("scanviz-progress 1\nround-one hints=7\n")
rc, out, err = run("--exercise", "list")
check(rc == 0 and "line 2, field 2 (hints)" in err and "ignored" in err, f"bad file: {rc} {err}")
check("passed" not in out and "not started" in out, f"bad file's list: {out}")
rc, out, err = run("--exercise", "round-one", "--kernel-file",
                   os.path.join(EX, "round-one", "solution.cu"))
check(rc == 0 and "kept as" in err, f"bad file set aside: {rc} {err}")
with open(PROGRESS + ".bad") as f:
    check(f.read() == "scanviz-progress 1\nround-one hints=7\n", "the bad file was not kept whole")
with open(PROGRESS) as f:
    check("round-one passed=yes hints=0 attempts=1" in f.read(), "a new progress file began")

# A named pipe at the progress path is refused at once, never waited on (issue 27):
# the list shows no progress, a check still says its verdict and says why
# nothing was saved.
os.remove(PROGRESS)
os.mkfifo(PROGRESS)
t0 = time.monotonic()
rc, out, err = run("--exercise", "list", timeout=20)
check(rc == 0 and "named pipe" in err and time.monotonic() - t0 < 3,
      f"a FIFO at the progress path: {rc} {err} {time.monotonic() - t0:.1f} s")
t0 = time.monotonic()
rc, out, err = run("--exercise", "round-one", "--kernel-file",
                   os.path.join(EX, "round-one", "solution.cu"), timeout=20)
check(rc == 0 and "named pipe" in err and time.monotonic() - t0 < 10,
      f"a check with a FIFO at the progress path: {rc} {err}")
for p in (PROGRESS, PROGRESS + ".bad"):
    if os.path.lexists(p):
        os.remove(p)

rc, out, err = run("--exercise", "no-such", "--kernel-file", os.path.join(TESTS, "grade", "alice.cu"))
check(rc == 2 and "no exercise named" in err, f"unknown exercise: {rc} {err}")
sys.exit(report("exercises: all checks passed"))
