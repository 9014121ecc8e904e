#!/usr/bin/env python3
"""Blelloch's exports and its trace file (issue 20), from the command line,
no display needed:
  - `scanviz --kernel blelloch --exclusive --export DIR --export-svg SVG
    --export-gif GIF` writes one PNG and one SVG a step (9 at n = 8) and the
    overview, and a GIF89a of 9 frames; the SVGs parse as XML and hold the
    picture's words as text: the up-sweep's caption and ranges at stride 2,
    the root cleared, the down-sweep's swap;
  - `scanviz-trace --kernel blelloch --format json` writes a version 3 trace
    file that `scanviz --trace FILE` opens as Blelloch (its own words again)
    and exports, alone and in a deck beside a chapter trace;
  - the table of `scanviz-trace --kernel blelloch` reads the sweeps in their
    own words and claims no chapter round; `--backend cuda` exits 3 saying
    that it is traced on the CPU runtime (the GPU runtime compiles kernel
    files; a GPU there used to take it to a child that had no source).

usage: test_blelloch_exports.py SCANVIZ SCANVIZ_TRACE
"""
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, headless_env, report  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


def run(exe, *args):
    env = headless_env()
    env["SDL_VIDEODRIVER"] = "offscreen"
    r = subprocess.run([os.path.abspath(exe)] + list(args), capture_output=True, text=True,
                       env=env, timeout=180)
    return r.returncode, r.stdout, r.stderr


def svg_text(path):
    """Every text of an SVG file, joined (tspans included)."""
    root = ET.parse(path).getroot()
    return "\n".join("".join(t.itertext()) for t in root.iter(SVG + "text"))


def gif_frames(data):
    """How many image descriptors a GIF has (its frames)."""
    check(data[:6] == b"GIF89a", f"GIF header {data[:6]!r}")
    flags = data[10]
    i = 13 + (3 * (2 << (flags & 7)) if flags & 0x80 else 0)
    frames = 0
    while i < len(data):
        b = data[i]
        if b == 0x3B:
            break
        if b == 0x21:  # extension: label, then sub-blocks
            i += 2
            while data[i]:
                i += data[i] + 1
            i += 1
        elif b == 0x2C:  # image: descriptor, local table, LZW size, sub-blocks
            frames += 1
            f = data[i + 9]
            i += 10 + (3 * (2 << (f & 7)) if f & 0x80 else 0) + 1
            while data[i]:
                i += data[i] + 1
            i += 1
        else:
            check(False, f"GIF: unexpected block 0x{b:02x} at {i}")
            break
    return frames


def exports(scanviz, d):
    png, svg, gif = os.path.join(d, "png"), os.path.join(d, "svg"), os.path.join(d, "run.gif")
    rc, out, err = run(scanviz, "--kernel", "blelloch", "--exclusive", "--backend", "cpu",
                       "--export", png, "--export-svg", svg, "--export-gif", gif)
    check(rc == 0, f"--kernel blelloch exports: rc {rc}: {err}")
    pngs = sorted(f for f in os.listdir(png)) if os.path.isdir(png) else []
    check(pngs[:9] == [f"round-{k:02d}.png" for k in range(9)], f"PNGs: {pngs}")
    for f in pngs:
        with open(os.path.join(png, f), "rb") as fh:
            check(fh.read(8) == b"\x89PNG\r\n\x1a\n", f"{f} is a PNG")
    svgs = sorted(os.listdir(svg)) if os.path.isdir(svg) else []
    check(len([f for f in svgs if f.startswith("round-")]) == 9 and "overview.svg" in svgs,
          f"SVGs: {svgs}")
    if len(svgs) < 10:
        return
    up2 = svg_text(os.path.join(svg, "round-02.svg"))
    check("up-sweep, stride 2: each right child takes the sum of its pair" in up2,
          f"round-02.svg has the up-sweep's words: {up2[:400]!r}")
    check("[0..3]" in up2 and "[4..7]" in up2, "round-02.svg marks the subtrees [0..3] and [4..7]")
    root = svg_text(os.path.join(svg, "round-04.svg"))
    check("root cleared" in root and "the root cleared: t[7]" in root,
          "round-04.svg: the root cleared, marked and said")
    down = svg_text(os.path.join(svg, "round-05.svg"))
    check("swap: 0 \u2190" in down and "+ 11 \u2192" in down, "round-05.svg draws the swap")
    ov = svg_text(os.path.join(svg, "overview.svg"))
    check("[0..7]" in ov and "[0..6]" in ov and "root" in ov,
          "overview.svg stacks the steps with the tree's ranges ([0..7] up, [0..6] at the end)")
    check(os.path.isfile(gif), "the GIF is written")
    if os.path.isfile(gif):
        with open(gif, "rb") as fh:
            check(gif_frames(fh.read()) == 9, "the GIF has one frame a step")


def trace_file(scanviz, trace, d):
    path = os.path.join(d, "blelloch.json")
    rc, out, err = run(trace, "--kernel", "blelloch", "--exclusive", "--format", "json",
                       "-o", path)
    check(rc == 0 and os.path.isfile(path), f"scanviz-trace -o: rc {rc}: {err}")
    rc, out, err = run(trace, "--kernel", "blelloch", "--exclusive")
    check(rc == 0 and "up-sweep, stride 2: each right child takes the sum of its pair" in out,
          "the table reads the up-sweep in its own words")
    check("no chapter round" not in out and "invariant: broken" not in out,
          "the table claims no chapter round of Blelloch")
    check("7 combines up and 7 down" in out, "the table counts the tree's combines")
    # On the GPU runtime like any kernel file: it runs where there is a GPU,
    # and without one says why (exit 3).
    rc, out, err = run(trace, "--kernel", "blelloch", "--backend", "cuda")
    check((rc == 0 and "up-sweep" in out) or (rc == 3 and "--backend cuda: " in err),
          f"--backend cuda with Blelloch: the GPU runtime, or exit 3 saying why ({rc}: {err!r})")
    chapter = os.path.join(d, "chapter.json")
    run(trace, "--format", "json", "-o", chapter)
    for deck in ([path], [chapter, path]):
        svg = os.path.join(d, f"deck{len(deck)}")
        args = []
        for f in deck:
            args += ["--trace", f]
        rc, out, err = run(scanviz, *args, "--export-svg", svg)
        check(rc == 0, f"--trace {deck}: rc {rc}: {err}")
        if rc == 0 and len(deck) == 1:
            text = svg_text(os.path.join(svg, "round-06.svg"))
            check("down-sweep, stride 2" in text and "swap: " in text,
                  "the trace file opens as Blelloch: round-06.svg's down-sweep and swaps")


def main():
    scanviz, trace = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="sv-blelloch-") as d:
        exports(scanviz, d)
        trace_file(scanviz, trace, d)
    return report("Blelloch exports and trace file")


if __name__ == "__main__":
    sys.exit(main())
