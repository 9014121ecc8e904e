"""printf in a kernel file (issue 30), on the CPU runtime, as a user runs it:
each call kept with its thread, step and line, in the trace file's
"printf" list (by step, then thread) and the table's printf section, the
values formatted as C formats them (the expected texts are computed here,
with Python's % operator, which follows C's printf), whatever the schedule;
only the shown run's calls with --runs; bounded (4096 kept, the rest
counted); a forged record in a kernel's text is no record; the formats a
kernel file may not use refused before anything runs, in words, at the line.

Usage: test_printf.py SCANVIZ_TRACE"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, report  # noqa: E402

TRACE = sys.argv[1]

KERNEL = r"""template <typename T>
__global__ void printing(const T *in, T *out, int n)
{
    extern __shared__ __align__(8) unsigned char smem[];
    T *buf = reinterpret_cast<T *>(smem);
    int i = threadIdx.x, pout = 0, pin = 1;
    buf[i] = in[i];
    if (i < 3)
        printf("in[%d] = %d, %5.2f %c|%-4x|\n", i, (int)in[i], in[i] / 4.0f, 'a' + i, i * 255); // LINE-A
    __syncthreads();
    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (i >= offset)
            buf[pout * n + i] = Op::apply(buf[pin * n + i - offset], buf[pin * n + i]);
        else
            buf[pout * n + i] = buf[pin * n + i];
        if (i == n - 1)
            printf("offset %d " "gives %d\n", offset, (int)buf[pout * n + i]); // LINE-B
        __syncthreads();
    }
    out[i] = buf[pout * n + i];
}
"""


def run(*args, inp=None, timeout=120):
    p = subprocess.run([TRACE, *args], capture_output=True, text=True, timeout=timeout,
                       input=inp, env={**os.environ, "NO_COLOR": "1"})
    return p.returncode, p.stdout, p.stderr


def line_of(src, tag):
    return next(k for k, l in enumerate(src.splitlines(), 1) if tag in l)


def expected(values, src):
    """The calls the kernel makes, by step then thread, computed here."""
    n = len(values)
    a, b = line_of(src, "LINE-A"), line_of(src, "LINE-B")
    calls = []
    for i in range(min(3, n)):
        v = values[i]
        calls.append({"thread": i, "step": 0, "line": a,
                      "text": "in[%d] = %d, %5.2f %c|%-4x|" % (i, v, v / 4.0, chr(97 + i), i * 255)})
    s, step, acc = 1, 1, list(values)
    while s < n:
        acc = [acc[i] + acc[i - s] if i >= s else acc[i] for i in range(n)]
        calls.append({"thread": n - 1, "step": step, "line": b,
                      "text": "offset %d gives %d" % (s, acc[n - 1])})
        s, step = s * 2, step + 1
    return calls


def main():
    d = tempfile.mkdtemp(prefix="sv-printf-")
    k = os.path.join(d, "printing.cu")
    with open(k, "w") as f:
        f.write(KERNEL)

    # the calls, exactly, for several n and schedules
    for n in (1, 2, 8, 33, 100):
        values = [(7 * i + 3) % 23 - 5 for i in range(n)]
        want = expected(values, KERNEL)
        for sched in ("lockstep", "reverse", "random:5"):
            rc, out, err = run("--kernel-file", k, "--input", " ".join(map(str, values)),
                               "--schedule", sched, "--format", "json")
            check(rc == 0, f"n={n} {sched}: exit {rc}: {err[-300:]}")
            if rc != 0:
                continue
            t = json.loads(out)
            check(t.get("printf") == want,
                  f"n={n} {sched}: printf {json.dumps(t.get('printf'))[:600]}\nwant {json.dumps(want)[:600]}")
            check("printf_dropped" not in t, f"n={n} {sched}: nothing dropped")
            check("\x1e" not in out and "\x1d" not in out and not t.get("console"),
                  f"n={n} {sched}: the records are not left in the console: {t.get('console')!r}")
            # the file opens again the same
            p = subprocess.run([TRACE, "--open", "-", "--format", "json"], input=out,
                               capture_output=True, text=True, timeout=60)
            check(p.returncode == 0 and p.stdout == out,
                  f"n={n} {sched}: the trace file does not open again the same: {p.stderr[-300:]}")

    # the table's section
    rc, out, err = run("--kernel-file", k)
    check(rc == 0 and "\nprintf\n" in out, f"table: exit {rc}, no printf section: {out[-800:]}")
    for c in expected([3, 1, 7, 0, 4, 1, 6, 3], KERNEL):
        row = "  step %d, thread %d, line %d: %s" % (c["step"], c["thread"], c["line"], c["text"])
        check(row in out, f"table: no row {row!r}")

    # --runs: the shown run's calls only (each run prints the same)
    rc, out, err = run("--kernel-file", k, "--schedule", "random:2", "--runs", "5",
                       "--format", "json")
    t = json.loads(out) if rc == 0 else {}
    check(rc == 0 and t.get("printf") == expected([3, 1, 7, 0, 4, 1, 6, 3], KERNEL),
          f"--runs 5: exit {rc}, printf {str(t.get('printf'))[:300]}")

    # bounded: 1024 threads, 5 calls each: 4096 kept, 1024 counted
    many = KERNEL.replace("if (i < 3)\n        printf(", "for (int r = 0; r < 5; r++)\n        printf(")
    many = many.replace('printf("offset', '(void)0; if (0) printf("offset')
    km = os.path.join(d, "many.cu")
    with open(km, "w") as f:
        f.write(many)
    rc, out, err = run("--kernel-file", km, "--random", "1024", "--seed", "1", "--format", "json",
                       timeout=300)
    t = json.loads(out) if rc == 0 else {}
    calls = t.get("printf", [])
    check(rc == 0 and len(calls) == 4096 and t.get("printf_dropped") == 1024,
          f"many: exit {rc}, {len(calls)} kept, {t.get('printf_dropped')} dropped: {err[-300:]}")
    order = [(c["step"], c["thread"]) for c in calls]
    check(order == sorted(order), "many: by step, then thread")
    check(calls and calls[0]["thread"] == 0 and calls[4]["thread"] == 0 and calls[5]["thread"] == 1,
          "many: each thread's calls in its order")

    # a forged record in the text is no record; control characters escaped
    forged = KERNEL.replace('printf("in[%d] = %d, %5.2f %c|%-4x|\\n", i, (int)in[i], in[i] / 4.0f, \'a\' + i, i * 255);',
                            'printf("\\x1esv 0 5 0 1\\x1f fake\\x1d\\x1b[31m%d\\t\\n", i);')
    check(forged != KERNEL, "the forged kernel was made")
    kf = os.path.join(d, "forged.cu")
    with open(kf, "w") as f:
        f.write(forged)
    rc, out, err = run("--kernel-file", kf, "--format", "json")
    t = json.loads(out) if rc == 0 else {}
    calls = t.get("printf", [])
    firsts = [c for c in calls if c["step"] == 0]
    check(rc == 0 and [c["thread"] for c in firsts] == [0, 1, 2],
          f"forged: exit {rc}, step 0's threads {[c['thread'] for c in firsts]}")
    check(all("\x1b" not in c["text"] and "\t" not in c["text"] for c in calls),
          f"forged: control characters escaped: {[c['text'] for c in firsts]}")
    rc, out, err = run("--kernel-file", kf)
    check(rc == 0 and "\x1b" not in out, "forged: no escape character reaches the terminal")

    # refused formats, in words, at the line
    line = line_of(KERNEL, "LINE-A")
    for bad, words in (('printf("%s\\n", "x");', "%s"),
                       ('const char *f = "%d"; printf(f, i);', "string literal"),
                       ('printf("\\x25n", &i);', "%n"),
                       ('printf("%*d", 3, i);', "(*)"),
                       ('int (*p)(const char *, ...) = printf;', "string literal")):
        src = KERNEL.replace('printf("in[%d] = %d, %5.2f %c|%-4x|\\n", i, (int)in[i], in[i] / 4.0f, \'a\' + i, i * 255);', bad)
        kb = os.path.join(d, "bad.cu")
        with open(kb, "w") as f:
            f.write(src)
        rc, out, err = run("--kernel-file", kb)
        check(rc == 2 and f"bad.cu:{line}:" in out + err and words in out + err,
              f"{bad}: exit {rc}, words {(out + err)[-400:]}")
    # assert beside printf: a named failure at its thread and line, exit 5,
    # with the calls made before it kept
    ka = os.path.join(d, "asserting.cu")
    with open(ka, "w") as f:
        f.write('__global__ void asserting(const int *in, int *out, int n)\n{\n'
                '    int i = threadIdx.x;\n    printf("before %d\\n", i);\n'
                '    assert(in[i] < 100);\n    out[i] = in[i];\n}\n')
    rc, out, err = run("--kernel-file", ka, "--input", "1 2 3 500 5", "--format", "json")
    t = json.loads(out) if out.startswith("{") else {}
    msg = (t.get("failure") or {}).get("message") or ""
    check(rc == 5 and "thread 3" in msg and "assert(in[i] < 100)" in msg and "line 5" in msg,
          f"assert: exit {rc}, failure {msg!r}: {err[-300:]}")
    check(any(c["text"] == "before 3" and c["thread"] == 3 for c in t.get("printf", [])),
          f"assert: the calls before it: {t.get('printf')}")
    return report("printf in kernel files: all checks passed")


sys.exit(main())
