"""The assertion kit of the Python tests that run scanviz without a window
(render/test_exports.py, window/test_cli.py), as tests/expect.h is the C
tests': check() prints the caller's file:line and the message when the
condition fails, counts it and carries on; report() says how it went and
gives main's exit status. headless_env() is the environment without a
display. (The window tests stop at the first failure: window/xharness.py.)"""
import os
import sys

failures = 0


def check(cond, msg):
    global failures
    if not cond:
        frame = sys._getframe(1)
        print(f"{frame.f_code.co_filename}:{frame.f_lineno}: FAIL: {msg}", flush=True)
        failures += 1


def report(passed):
    """0 and passed printed when every check passed, else 1."""
    if failures:
        print(f"{failures} check(s) failed", flush=True)
        return 1
    print(passed)
    return 0


def headless_env():
    """This process's environment without DISPLAY and WAYLAND_DISPLAY."""
    return {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
