"""The GPU suite passes as a whole only if no test that measures time shares
the GPU (issue 28: `capture cost` failed beside `bench_scans` under
`meson test --suite gpu --num-processes 4`). Reads the build's test list
(meson-info/intro-tests.json, what `meson introspect --tests` prints) and,
for every test of suite gpu whose C source (or Python script) reads a clock or asserts a
measured duration, checks that it is registered `is_parallel: false`, so
meson runs it alone. Runs without a GPU (suite core).
Usage: check_timing_tests.py SOURCE_ROOT BUILD_ROOT"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, report  # noqa: E402

# What a test that times itself calls: a clock, the capture's cost, the
# lab's wall time.
TIMING = re.compile(r"clock_gettime|now_ms\s*\(|wall_us")


def source_of(test, src_root, build_root):
    """The C file a test's executable is built from (same folder, name + .c),
    the script a Python test runs, or None for a test that is not one of
    ours (a tool)."""
    exe = test["cmd"][0]
    if len(test["cmd"]) > 1 and test["cmd"][1].endswith(".py") and os.path.isfile(test["cmd"][1]):
        return test["cmd"][1]
    if not exe.startswith(build_root + os.sep):
        return None
    c = os.path.join(src_root, os.path.relpath(exe, build_root)) + ".c"
    return c if os.path.isfile(c) else None


def main():
    src_root, build_root = (os.path.realpath(p) for p in sys.argv[1:3])
    with open(os.path.join(build_root, "meson-info", "intro-tests.json")) as f:
        tests = json.load(f)
    gpu = [t for t in tests if any(s.split(":")[-1] == "gpu" for s in t["suite"])]
    check(gpu, "no test of suite gpu in the build's test list")
    timed = 0
    for t in gpu:
        c = source_of(t, src_root, build_root)
        check(c, f"{t['name']}: no C source or script found for {t['cmd'][0]}")
        if not c:
            continue
        with open(c, encoding="utf-8") as f:
            if not TIMING.search(f.read()):
                continue
        timed += 1
        print(f"{t['name']}: measures time ({os.path.relpath(c, src_root)}), "
              f"is_parallel {t['is_parallel']}")
        check(not t["is_parallel"],
              f"{t['name']}: measures time but may run beside other GPU tests: "
              "register it with is_parallel: false")
    check(timed, "no GPU test that measures time was found (the pattern is stale?)")
    return report(f"{timed} GPU test(s) that measure time run alone")


if __name__ == "__main__":
    sys.exit(main())
