#!/usr/bin/env python3
"""Hostile kernel files, graded together with correct ones (issue 27).

Each hostile file is a correct scan plus one payload: read the lecturer's
secret, rewrite a classmate's file, a socket to a listener here, a daemon,
kill(-1), kill(getppid()), SIGALRM ignored, a constructor, a static
initializer, an asm system call, every include trick, compile bombs, a
forged trace on the runtime's pipe, output floods, an endless writer,
SIGSTOP, the runtime's macros, a serial scan in thread 0. They are graded
with --grade beside correct files (in a student's folder of an LMS export
too, one saved with a byte-order mark, a .CU), as this user and, when this
user is root, again as an unprivileged user (setpriv). Every payload must be
stopped and named on its CSV line, every correct file must pass, the grader
must end with a line per file, and nothing outside the run may change: no
marker file, the classmate's file as it was, no connection to the listener,
no process left, no secret in any output, no raw control byte on the
terminal, the cache holding only its entries. A tampered cache entry is not
loaded. Then the window's path: each hostile file through --kernel-file.

usage: test_hostile_kernels.py SCANVIZ_TRACE EXERCISES_DIR
"""
import csv
import hashlib
import io
import os
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, report  # noqa: E402

EXE, EXERCISES = sys.argv[1], sys.argv[2]
SECRET = "LECTURER-SECRET-7781"

# The guard exercise's solution, as a student writes it.
BASE = r"""__global__ void scan(const int *in, int *out, int n)
{
    extern __shared__ int buf[];
    int i = threadIdx.x;
    int pout = 0, pin = 1;
    PAYLOAD_CALL
    buf[pout * n + i] = in[i];
    __syncthreads();
    for (int stride = 1; stride < n; stride *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (i >= stride)
            buf[pout * n + i] = buf[pin * n + i - stride] + buf[pin * n + i];
        else
            buf[pout * n + i] = buf[pin * n + i];
        __syncthreads();
    }
    out[i] = buf[pout * n + i];
}
"""


def kernel(top="", call=""):
    return top + "\n" + BASE.replace("PAYLOAD_CALL", call)


def libc(*protos):
    return "".join(f'extern "C" {p};\n' for p in protos)


def payloads(tmp, port):
    m = os.path.join(tmp, "markers")
    secret = os.path.join(tmp, "lecturer", "secret.txt")
    zed = os.path.join(tmp, "subs", "zed.cu")
    cache = os.path.join(tmp, "cache")
    t0 = "if (threadIdx.x == 0) "
    return {
        # name: (source, what the CSV's first_failure must say)
        "read_secret.cu": (kernel(libc("int open(const char *, int, ...)",
                                       "long read(int, void *, unsigned long)"),
                                  t0 + f'{{ char b[64]; int fd = open("{secret}", 0); '
                                  'read(fd, b, 64); }'), ("calls `open`", "calls `read`")),
        "rewrite.cu": (kernel(libc("int open(const char *, int, ...)",
                                   "long write(int, const void *, unsigned long)"),
                              t0 + f'{{ int fd = open("{zed}", 577, 0644); write(fd, "x", 1); }}'),
                       ("calls `open`", "calls `write`")),
        "socket.cu": (kernel(libc("int socket(int, int, int)",
                                  "int connect(int, const void *, unsigned)"),
                             t0 + "{ unsigned char a[16] = {2, 0, %d, %d, 127, 0, 0, 1}; "
                             "int s = socket(2, 1, 0); connect(s, a, 16); }" %
                             (port >> 8, port & 255)), ("calls `socket`", "calls `connect`")),
        "daemon.cu": (kernel(libc("int fork()", "int open(const char *, int, ...)"),
                             t0 + f'{{ if (fork() == 0) {{ open("{m}/daemon", 65, 0644); '
                             'for (;;) {} } }'), ("calls `fork`", "calls `open`")),
        "kill_all.cu": (kernel(libc("int kill(int, int)"), t0 + "kill(-1, 9);"), "calls `kill`"),
        "kill_parent.cu": (kernel(libc("int kill(int, int)", "int getppid()"),
                                  t0 + "kill(getppid(), 9);"), "calls `"),
        "no_alarm.cu": (kernel(libc("void *signal(int, void *)"),
                               t0 + "{ signal(14, (void *)1); for (;;) {} }"), "calls `signal`"),
        "sigstop.cu": (kernel(libc("int raise(int)"), t0 + "raise(19);"), "calls `raise`"),
        "ctor.cu": (kernel(libc("int open(const char *, int, ...)") +
                           f'__attribute__((constructor)) static void c() {{ open("{m}/ctor", 65, 0644); }}\n'),
                    "__attribute__ is refused"),
        "ctor_std.cu": (kernel("[[gnu::constructor]] static void c() {}\n"), "[[gnu"),
        "static_init.cu": (kernel(libc("int open(const char *, int, ...)") +
                                  f'static int grab = open("{m}/static", 65, 0644);\n'),
                           "calls `open`"),
        "static_init2.cu": (kernel('extern "C" int twice(int v) { return 2 * v; }\n'
                                   "int boot = twice(21);\n"),
                            "code that runs when it is loaded"),
        "asm.cu": (kernel("", t0 + 'asm volatile("syscall" :: "a"(62), "D"(-1), "S"(9));'),
                   "asm is refused"),
        "import.cu": (kernel(f'#import "{secret}"\n'), "#import"),
        "include_next.cu": (kernel(f'#include_next "{secret}"\n'), "#include_next"),
        "digraph.cu": (kernel(f'%:include "{secret}"\n'), "digraph"),
        "comment.cu": (kernel(f'#/**/include "{secret}"\n'), "#include"),
        "splice.cu": (kernel(f'#inc\\\nlude "{secret}"\n'), "#include"),
        "incbin.cu": (kernel(f'asm(".incbin \\"{secret}\\"");\n'), "asm is refused"),
        "has_include.cu": (kernel(f'#if __has_include("{secret}")\n#endif\n'),
                           "__has_include is refused"),
        "dev_zero.cu": (kernel("#import </dev/zero>\n"), "#import"),
        "dev_stdin.cu": (kernel('#include "/dev/stdin"\n'), "#include"),
        "macro_bomb.cu": (kernel("#define A0 x x\n" +
                                 "".join(f"#define A{k} A{k - 1} A{k - 1}\n" for k in range(1, 41)) +
                                 "__device__ void bomb() { A40; }\n"), "does not compile"),
        "forge.cu": (kernel(libc("long write(int, const void *, unsigned long)"),
                            t0 + 'write(4, "SVRT", 4);'), "calls `write`"),
        "flood.cu": (kernel(libc("long write(int, const void *, unsigned long)"),
                            t0 + '{ for (;;) write(2, "\\x1b]0;pwned\\x07passed\\n", 18); }'),
                     "calls `write`"),
        "ifdef.cu": (kernel("#ifdef SV_CUDA_CPU_H\n#define CHEAT 1\n#endif\n"), "runtime's own"),
        "ifdef_global.cu": (kernel("#ifdef __global__\n#endif\n"), "runtime's own"),
        "cache_poison.cu": (kernel(libc("int open(const char *, int, ...)"),
                                   t0 + f'open("{cache}/scanviz/k-0.so", 65, 0644);'),
                            "calls `open`"),
        "hooks.cu": (kernel("", t0 + "sv_rt_hooks_ptr = 0;"), "runtime's own name"),
        "serial.cu": (r"""__global__ void scan(const int *in, int *out, int n)
{
    if (threadIdx.x == 0) {
        int acc = 0;
        for (int i = 0; i < n; i++) {
            acc += in[i];
            out[i] = acc;
        }
    }
}
""", "thread 0 did the scan alone"),
    }


CORRECT = ["alice.cu", "zed.cu"]


def listing(root, skip):
    out = {}
    for d, dirs, files in os.walk(root):
        if any(os.path.commonpath([d, s]) == s for s in skip):
            continue
        for f in files:
            p = os.path.join(d, f)
            st = os.lstat(p)
            out[p] = (st.st_size, st.st_mtime_ns)
    return out


def setup(tmp, port):
    for d in ("markers", "lecturer", "subs", "cache", "home"):
        os.makedirs(os.path.join(tmp, d), exist_ok=True)
    with open(os.path.join(tmp, "lecturer", "secret.txt"), "w") as f:
        f.write(SECRET + "\n")
    subs = os.path.join(tmp, "subs")
    for name in CORRECT:
        with open(os.path.join(subs, name), "w") as f:
            f.write(kernel())
    for name, (src, _) in payloads(tmp, port).items():
        with open(os.path.join(subs, name), "w") as f:
            f.write(src)
    # an LMS export: a student's folder; a byte-order mark; .CU; a name with a CR
    lms = os.path.join(subs, "Ana Li_1234_assignsubmission_file_")
    os.makedirs(lms)
    with open(os.path.join(lms, "guard.cu"), "w") as f:
        f.write(kernel())
    with open(os.path.join(subs, "bom.cu"), "wb") as f:
        f.write(b"\xef\xbb\xbf" + kernel().encode())
    with open(os.path.join(subs, "UPPER.CU"), "w") as f:
        f.write(kernel())
    with open(os.path.join(subs, "cr\rname.cu"), "w") as f:
        f.write(kernel())
    with open(os.path.join(subs, "notes.txt"), "w") as f:
        f.write("not a kernel\n")
    os.symlink(os.path.join(tmp, "lecturer", "secret.txt"), os.path.join(subs, "link.cu"))
    os.mkfifo(os.path.join(subs, "fifo.cu"))


def grade(tmp, as_user):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.path.join(tmp, "home"),
           "XDG_CACHE_HOME": os.path.join(tmp, "cache"), "SCANVIZ_EXERCISES": EXERCISES,
           "XDG_STATE_HOME": os.path.join(tmp, "home", "state")}
    for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "LD_LIBRARY_PATH"):
        if k in os.environ:
            env[k] = os.environ[k]
    cmd = [EXE, "--exercise", "guard", "--grade", os.path.join(tmp, "subs"), "--time-limit", "2"]
    if as_user:
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
    t0 = time.monotonic()
    r = subprocess.run(cmd, capture_output=True, env=env, timeout=900)
    return r, time.monotonic() - t0


def run_suite(tmp, as_user, who):
    lis = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    lis.bind(("127.0.0.1", 0))
    lis.listen(8)
    lis.setblocking(False)
    port = lis.getsockname()[1]
    setup(tmp, port)
    if as_user:
        for d, dirs, files in os.walk(tmp):
            for x in dirs + files + [""]:
                p = os.path.join(d, x)
                if not os.path.islink(p):
                    os.chown(p, 65534, 65534)
    zed = os.path.join(tmp, "subs", "zed.cu")
    zed_hash = hashlib.sha256(open(zed, "rb").read()).hexdigest()
    before = listing(tmp, [os.path.join(tmp, "cache"), os.path.join(tmp, "home")])
    r, took = grade(tmp, as_user)
    out, err = r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")
    check(r.returncode == 0, f"{who}: --grade exit {r.returncode}: {err[-2000:]}")
    rows = list(csv.reader(io.StringIO(out)))
    check(rows and rows[0] == ["file", "result", "first_failure", "hazards", "seconds",
                               "student", "sandbox"], f"{who}: header {rows[:1]}")
    got = {}
    for row in rows[1:]:
        got[os.path.basename(row[0])] = row
    want = payloads(tmp, port)
    for name, (_, words) in want.items():
        row = got.get(name)
        check(row is not None, f"{who}: no line for {name}")
        words = words if isinstance(words, tuple) else (words,)
        if row:
            check(row[1] == "failed" and any(w in row[2] for w in words),
                  f"{who}: {name}: {row[1]} {row[2][:300]!r}, expected {words!r}")
    for name in CORRECT + ["bom.cu", "UPPER.CU", "guard.cu"]:
        row = got.get(name)
        check(row is not None and row[1] == "passed", f"{who}: {name} did not pass: {row}")
    lms = got.get("guard.cu")
    check(lms is not None and lms[5] == "Ana Li_1234_assignsubmission_file_",
          f"{who}: the student column: {lms}")
    cr = [row for row in rows[1:] if "cr" in os.path.basename(row[0]) and "name" in row[0]]
    check(len(cr) == 1 and cr[0][1] == "passed" and "\\r" in cr[0][0] and "\r" not in cr[0][0],
          f"{who}: the name with a CR: {cr}")
    check(len(rows) - 1 == len(want) + len(CORRECT) + 4,
          f"{who}: {len(rows) - 1} lines for {len(want) + len(CORRECT) + 4} files")
    for skipped in ("notes.txt", "link.cu", "fifo.cu"):
        check(f"skipped" in err and skipped in err, f"{who}: {skipped} not said skipped")
        check(skipped not in got, f"{who}: {skipped} was graded")
    check("graded " in err and " files in " in err, f"{who}: no total time: {err[-300:]}")
    # nothing escaped the runs
    everything = r.stdout + r.stderr
    check(SECRET.encode() not in everything, f"{who}: the secret reached the output")
    for raw in (b"\x1b", b"\x07", b"\r", b"\x7f"):
        check(raw not in everything, f"{who}: a raw {raw!r} reached the terminal")
    check(os.listdir(os.path.join(tmp, "markers")) == [], f"{who}: markers made: "
          f"{os.listdir(os.path.join(tmp, 'markers'))}")
    check(hashlib.sha256(open(zed, "rb").read()).hexdigest() == zed_hash,
          f"{who}: the classmate's file changed")
    try:
        c, _ = lis.accept()
        check(False, f"{who}: a kernel connected to the listener")
        c.close()
    except BlockingIOError:
        pass
    lis.close()
    after = listing(tmp, [os.path.join(tmp, "cache"), os.path.join(tmp, "home")])
    check(before == after, f"{who}: files outside the runs changed: "
          f"{sorted(set(before) ^ set(after))[:5]}")
    cache = os.path.join(tmp, "cache", "scanviz")
    extra = [f for f in os.listdir(cache) if not (f.startswith("k-") and
                                                  f.rsplit(".", 1)[-1] in ("so", "lines", "sum"))]
    check(extra == [], f"{who}: the cache holds {extra}")
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    check(tmp not in ps, f"{who}: a process of the runs is left")
    check(took < 600, f"{who}: grading took {took:.0f} s")
    return got


def tamper(tmp):
    """A cache entry whose .so was changed is not loaded: the file still
    passes, and the entry is made again."""
    cache = os.path.join(tmp, "cache", "scanviz")
    sos = [f for f in os.listdir(cache) if f.endswith(".so")]
    check(sos, "no cache entry to tamper with")
    for f in sos:
        with open(os.path.join(cache, f), "r+b") as fh:
            fh.seek(64)
            fh.write(b"\x90" * 64)
    r, _ = grade(tmp, False)
    rows = {os.path.basename(row[0]): row for row in csv.reader(io.StringIO(r.stdout.decode()))}
    check(rows.get("alice.cu", [None, None])[1] == "passed", f"tampered cache: {rows.get('alice.cu')}")
    for f in sos:
        with open(os.path.join(cache, f), "rb") as fh:
            fh.seek(64)
            check(fh.read(64) != b"\x90" * 64, f"the tampered {f} is still there")


def one_by_one(tmp):
    """The window's path, --kernel-file on the CPU runtime (where the file's
    own code runs: on a GPU machine too): each hostile file refused, exit 2
    or 4 or 5 as the CLI says, nothing raw on the terminal."""
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cache"))
    for name, (_, words) in payloads(tmp, 9).items():
        if name == "serial.cu":  # (right, without an exercise's rounds to hold it to)
            continue
        words = words if isinstance(words, tuple) else (words,)
        p = os.path.join(tmp, "subs", name)
        r = subprocess.run([EXE, "--kernel-file", p, "--backend", "cpu", "--time-limit", "2"],
                           capture_output=True, env=env, timeout=120)
        text = r.stdout + r.stderr
        check(r.returncode in (2, 4, 5), f"--kernel-file {name}: exit {r.returncode}")
        check(any(w.encode() in text for w in words), f"--kernel-file {name}: {text[-300:]!r}")
        check(SECRET.encode() not in text and b"\x1b" not in text, f"--kernel-file {name}: raw")


def main():
    global EXE, EXERCISES
    with tempfile.TemporaryDirectory(prefix="sv-hostile-") as tmp:
        os.chmod(tmp, 0o755)
        me = os.path.join(tmp, "self")
        os.makedirs(me)
        run_suite(me, False, "as this user")
        tamper(me)
        one_by_one(me)
        if os.geteuid() == 0 and shutil.which("setpriv"):
            # as an unprivileged user: the program and the exercises copied
            # where that user can read them (the build tree may not be)
            nb = os.path.join(tmp, "nobody")
            os.makedirs(os.path.join(nb, "bin"))
            shutil.copy2(EXE, os.path.join(nb, "bin", "scanviz-trace"))
            shutil.copytree(EXERCISES, os.path.join(nb, "exercises"))
            EXE = os.path.join(nb, "bin", "scanviz-trace")
            EXERCISES = os.path.join(nb, "exercises")
            run_suite(nb, True, "as nobody")
        elif os.geteuid() == 0:
            check(False, "setpriv is missing: cannot grade as an unprivileged user")
    return report("hostile kernels: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
