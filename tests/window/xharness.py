"""Drives a real scanviz window under Xvfb with xdotool (python3 stdlib only).

Each test script calls run_under_xvfb() first: without a display of its own
it re-runs itself inside `xvfb-run -a`, and exits 77 (skip) when xvfb-run or
xdotool is missing. App() starts scanviz with stdout on a pipe, finds its
window, sends keys and reads the state line the app prints on F12.
"""
import glob
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

SKIP = 77
INNER_FLAG = "--inside-xvfb"


def fail(msg):
    """Fails the test with the caller's file:line."""
    frame = sys._getframe(1)
    print(f"{frame.f_code.co_filename}:{frame.f_lineno}: FAIL: {msg}", flush=True)
    sys.exit(1)


def run_under_xvfb(screen="1600x1200"):
    """Returns the script's arguments once inside Xvfb (a screen of `screen`
    pixels, 24 bits); re-executes otherwise."""
    if INNER_FLAG in sys.argv:
        args = [a for a in sys.argv[1:] if a != INNER_FLAG]
        return args
    for tool in ("xvfb-run", "xdotool"):
        if not shutil.which(tool):
            print(f"SKIP: {tool} is not installed", flush=True)
            sys.exit(SKIP)
    # -noreset: by default an X server resets when its last client leaves,
    # and between the scenarios (and each xdotool call) the last one often
    # does; a scanviz connecting during the reset had its connection closed
    # and died of SIGPIPE before its window showed (CI, once, exit -13).
    cmd = ["xvfb-run", "-a", "-s", f"-screen 0 {screen}x24 -noreset",
           sys.executable, sys.argv[0], INNER_FLAG] + sys.argv[1:]
    sys.exit(subprocess.call(cmd))


def sanitizer_env(sanitize, supp):
    """The environment for scanviz in an AddressSanitizer build (-Db_sanitize
    value `sanitize`): LeakSanitizer with the suppressions file `supp`."""
    env = dict(os.environ)
    if "address" not in (sanitize or ""):
        return env
    if supp:
        env["LSAN_OPTIONS"] = f"suppressions={os.path.abspath(supp)}:print_suppressions=1"
    # Mesa's DRI driver (swrast_dri.so) is dlclose()d at exit, before
    # LeakSanitizer looks: what it still held shows as leaks from
    # "<unknown module>" that no suppression can name. Preloading it keeps it
    # mapped (and its memory reachable); ASan then must not insist on being
    # first in the preload list.
    dri = sorted(glob.glob("/usr/lib/*/dri/swrast_dri.so") +
                 glob.glob("/usr/lib*/dri/swrast_dri.so"))
    opts = ":detect_leaks=1"
    if dri:
        env["LD_PRELOAD"] = dri[0]
        opts += ":verify_asan_link_order=0"
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + opts
    return env


def sanitizer_report(stderr_text):
    """The end of stderr_text when it holds a sanitizer report, else None."""
    marks = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:")
    if any(m in stderr_text for m in marks):
        return stderr_text[-6000:]
    return None


def xdo(*args, timeout=30):
    r = subprocess.run(["xdotool"] + [str(a) for a in args], capture_output=True,
                       text=True, timeout=timeout)
    return r.stdout.strip()


class App:
    """touch=False: finds the window but sends it nothing (no pointer move,
    no focus), so that what it shows is what it drew by itself."""

    def __init__(self, exe, *flags, env=None, touch=True):
        self.lines = queue.Queue()
        self.stderr_lines = []
        self.proc = subprocess.Popen([exe] + list(flags), stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env)
        threading.Thread(target=self._read, args=(self.proc.stdout, True), daemon=True).start()
        threading.Thread(target=self._read, args=(self.proc.stderr, False), daemon=True).start()
        self.wid = None
        # 90 s: on a loaded 2-core machine (the ASan build beside the normal
        # one) llvmpipe's first frame has taken over 30 s.
        deadline = time.time() + 90
        while time.time() < deadline and not self.wid:
            if self.proc.poll() is not None:
                fail(f"scanviz exited with {self.proc.returncode} before its window showed: "
                     + "".join(self.stderr_lines))
            out = xdo("search", "--name", "^scanviz$")
            self.wid = out.split()[0] if out else None
            time.sleep(0.2)
        if not self.wid:
            names = [xdo("getwindowname", w) for w in xdo("search", "--name", ".").split()]
            fail(f"no scanviz window within 90 s ({' '.join(self.proc.args[1:])}); windows: "
                 f"{names}; stderr: {''.join(self.stderr_lines)[-2000:]}")
        if not touch:
            return
        xdo("windowmap", "--sync", self.wid)
        xdo("mousemove", "--window", self.wid, 5, 5)
        xdo("windowfocus", "--sync", self.wid)
        time.sleep(0.3)

    def _read(self, stream, is_stdout):
        for line in stream:
            if is_stdout:
                self.lines.put(line.rstrip("\n"))
            else:
                self.stderr_lines.append(line)

    def keys(self, *names):
        xdo("key", "--delay", 15, *names)

    def type(self, text):
        xdo("type", "--delay", 25, text)

    def state(self, timeout=10, settled=True):
        """Presses F12 and returns the state line as a dict (keys after the
        'state' word; quoted values unquoted), with 'raw' the whole line.
        settled: while the lab's worker runs a capture (labjob=running:...),
        asks again until it has landed (within timeout); False: the line as
        it is now."""
        deadline = time.time() + timeout
        while True:
            d = self.state_now(timeout)
            if not settled or not d.get("labjob", "idle").startswith("running") \
                    or time.time() > deadline:
                return d
            time.sleep(0.05)

    def state_now(self, timeout=10):
        """One F12 and its state line (state() without waiting)."""
        while not self.lines.empty():  # drop older lines
            self.lines.get_nowait()
        self.keys("F12")
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.proc.poll() is not None:
                    fail(f"scanviz exited ({self.proc.returncode}) while asked for its state; "
                         "stderr:\n" + "".join(self.stderr_lines)[-3000:])
                continue
            if line.startswith("state "):
                d = {"raw": line}
                for m in re.finditer(r'(\w+)=("([^"]*)"|\S*)', line):
                    d[m.group(1)] = m.group(3) if m.group(3) is not None else m.group(2)
                return d
        fail("no state line within %d s after F12; scanviz's stderr:\n%s"
             % (timeout, "".join(self.stderr_lines)[-3000:]))

    def wait_exit(self, timeout=15):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            fail(f"scanviz did not exit within {timeout} s")

    def quit_clean(self, *keys):
        """Presses keys (Esc with nothing open quits): the app must exit with
        status 0 and no sanitizer report."""
        self.keys(*(keys or ("Escape",)))
        rc = self.wait_exit()
        time.sleep(0.2)
        report = sanitizer_report("".join(self.stderr_lines))
        if report:
            fail("sanitizer report:\n" + report)
        if rc != 0:
            fail(f"exit status {rc} after {' '.join(keys or ('Escape',))}; "
                 f"stderr: {''.join(self.stderr_lines)}")

    def state_quiet(self, timeout=10):
        """The state line asked for by SIGUSR1, not by a key: nothing reaches
        the window, so it draws nothing for it."""
        while not self.lines.empty():
            self.lines.get_nowait()
        self.proc.send_signal(signal.SIGUSR1)
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                continue
            if line.startswith("state "):
                d = {"raw": line}
                for m in re.finditer(r'(\w+)=("([^"]*)"|\S*)', line):
                    d[m.group(1)] = m.group(3) if m.group(3) is not None else m.group(2)
                return d
        fail(f"no state line within {timeout} s after SIGUSR1")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def grab_screen(width, height):
    """The X screen's top-left width x height pixels as the server holds them
    (XGetImage of the root window through ctypes and Xlib: what is on the
    display, not what the app believes it drew), as bytes of RGB rows."""
    import ctypes
    import ctypes.util

    class XImage(ctypes.Structure):
        _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int),
                    ("xoffset", ctypes.c_int), ("format", ctypes.c_int),
                    ("data", ctypes.c_void_p), ("byte_order", ctypes.c_int),
                    ("bitmap_unit", ctypes.c_int), ("bitmap_bit_order", ctypes.c_int),
                    ("bitmap_pad", ctypes.c_int), ("depth", ctypes.c_int),
                    ("bytes_per_line", ctypes.c_int), ("bits_per_pixel", ctypes.c_int),
                    ("red_mask", ctypes.c_ulong), ("green_mask", ctypes.c_ulong),
                    ("blue_mask", ctypes.c_ulong)]

    name = ctypes.util.find_library("X11")
    if not name:
        fail("libX11 not found for the screen grab")
    x = ctypes.CDLL(name)
    x.XOpenDisplay.restype = ctypes.c_void_p
    x.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x.XDefaultRootWindow.restype = ctypes.c_ulong
    x.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x.XGetImage.restype = ctypes.POINTER(XImage)
    x.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                            ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
    x.XCloseDisplay.argtypes = [ctypes.c_void_p]
    d = x.XOpenDisplay(None)
    if not d:
        fail("cannot open the display for the screen grab")
    ZPIXMAP, ALL_PLANES = 2, 0xFFFFFFFF
    p = x.XGetImage(d, x.XDefaultRootWindow(d), 0, 0, width, height, ALL_PLANES, ZPIXMAP)
    if not p:
        fail("XGetImage of the root window failed")
    img = p.contents
    if img.bits_per_pixel != 32:
        fail(f"the screen grab has {img.bits_per_pixel} bits a pixel, not 32")
    raw = ctypes.string_at(img.data, img.bytes_per_line * height)
    bpl = img.bytes_per_line
    x.XCloseDisplay(d)
    out = bytearray(width * height * 3)
    for y in range(height):  # B, G, R, pad -> R, G, B
        row = raw[y * bpl:y * bpl + width * 4]
        o = y * width * 3
        out[o:o + width * 3:3] = row[2::4]
        out[o + 1:o + width * 3:3] = row[1::4]
        out[o + 2:o + width * 3:3] = row[0::4]
    return bytes(out)


def write_png(path, rgb, width, height):
    """rgb (RGB rows) as a PNG file, for a look at what a test saw."""
    import struct
    import zlib

    def chunk(tag, body):
        return (struct.pack(">I", len(body)) + tag + body +
                struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF))
    rows = b"".join(b"\0" + rgb[y * width * 3:(y + 1) * width * 3] for y in range(height))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" +
                chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


def wait_runs(app, runs, timeout=60):
    """The state line once the app has taken `runs` kernel results (kruns)."""
    deadline = time.time() + timeout
    while True:
        st = app.state()
        if int(st.get("kruns", "0")) >= runs:
            return st
        if time.time() > deadline:
            fail(f"no kernel result {runs} within {timeout} s: {st['raw'][-800:]}")
        time.sleep(0.2)


def script_kernel_and_back(exe, env, values, script_path, **want):
    """A presenter script of two steps whose second shows a kernel (a
    kernel-file or a kernel blelloch step): scanviz on `values` with
    `script_path` starts on step 1 with no kernel file, Right shows the kernel
    (the state fields `want` once its first result is taken), Left goes back
    to none, Esc quits cleanly."""
    app = App(exe, "--no-animation", "--backend", "cpu", "--input", values, "--script", script_path,
              env=env)
    try:
        st = app.state()
        expect(st, kfile="-", script="1/2")
        app.keys("Right")
        st = wait_runs(app, 1)
        for k, v in want.items():
            if st.get(k) != str(v):
                fail(f"after Right: {k}={st.get(k)!r}, expected {str(v)!r}\n  {st['raw'][:600]}")
        app.keys("Left")
        st = app.state()
        expect(st, kfile="-", script="1/2")
        app.quit_clean()
    finally:
        app.kill()


def expect(state, **want):
    """Fails (naming the caller's line) when a state field differs."""
    frame = sys._getframe(1)
    for k, v in want.items():
        if state.get(k) != str(v):
            print(f"{frame.f_code.co_filename}:{frame.f_lineno}: FAIL: {k}={state.get(k)!r}, "
                  f"expected {str(v)!r}\n  {state['raw'][:600]}", flush=True)
            sys.exit(1)
