"""__constant__ memory in a kernel file (issue 30), on the CPU runtime, as a
user runs it: a table and a scalar (`__constant__ const` too) read by every
thread give the output computed here; the reads are no accesses of the trace
(no array of its own, no hazard); a __constant__ inside a function and a
write to one are refused before anything runs.

Usage: test_constant.py SCANVIZ_TRACE"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, report  # noqa: E402

TRACE = sys.argv[1]

KERNEL = r"""__constant__ int lut[4] = {3, -1, 4, 2};
static __constant__ const int bias = 7;
__constant__ const float scale[2] = {0.5f, 2.0f};

__global__ void table(const int *in, int *out, int n)
{
    int i = threadIdx.x;
    out[i] = in[i] * lut[i % 4] + bias + (int)(scale[i & 1] * 4.0f);
}
"""


def run(*args):
    p = subprocess.run([TRACE, *args], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "NO_COLOR": "1"})
    return p.returncode, p.stdout, p.stderr


def main():
    d = tempfile.mkdtemp(prefix="sv-constant-")
    k = os.path.join(d, "table.cu")
    with open(k, "w") as f:
        f.write(KERNEL)
    lut, scale = [3, -1, 4, 2], [0.5, 2.0]
    for n in (1, 5, 64, 1000):
        values = [(11 * i + 2) % 19 - 9 for i in range(n)]
        want = [values[i] * lut[i % 4] + 7 + int(scale[i & 1] * 4) for i in range(n)]
        rc, out, err = run("--kernel-file", k, "--input", " ".join(map(str, values)),
                           "--schedule", "random:3", "--format", "json")
        t = json.loads(out) if out.startswith("{") else {}
        check(rc in (0, 4) and t.get("output") == want,
              f"n={n}: exit {rc}, output {str(t.get('output'))[:200]}, want {str(want)[:200]}: {err[-300:]}")
        names = [a["name"] for a in t.get("arrays", [])]
        check(names == ["out"] and t.get("hazards_total") == 0,
              f"n={n}: arrays {names}, hazards {t.get('hazards_total')}")

    inside = KERNEL.replace("    int i = threadIdx.x;\n", "    int i = threadIdx.x;\n    __constant__ int no = 1;\n")
    kb = os.path.join(d, "inside.cu")
    with open(kb, "w") as f:
        f.write(inside)
    rc, out, err = run("--kernel-file", kb)
    check(rc == 2 and "inside.cu:8:" in out + err and "file scope" in out + err,
          f"inside a function: exit {rc}: {(out + err)[-300:]}")

    write = KERNEL.replace("    int i = threadIdx.x;\n", "    int i = threadIdx.x;\n    lut[0] = i;\n")
    kw = os.path.join(d, "write.cu")
    with open(kw, "w") as f:
        f.write(write)
    rc, out, err = run("--kernel-file", kw)
    check(rc == 2 and "write.cu:8" in out + err and "read-only" in out + err,
          f"a write: exit {rc}: {(out + err)[-400:]}")
    return report("__constant__ in kernel files: all checks passed")


sys.exit(main())
