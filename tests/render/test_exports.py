#!/usr/bin/env python3
"""The slide exports as a lecturer runs them (issue 10): --export-gif (read
back: GIF89a, the loop, frames, delays that add up to the animation's own
timing, the size), --export-svg (every file parses as XML; the case borders
are dashed/dotted strokes; the numbers are real text), --clean, --scale,
--overview, --script errors naming the line; round-03.svg drawn by Chromium
and Inkscape where installed, fills compared with the GL frame. No display
needed.

usage: test_exports.py SCANVIZ [hostile DATA_DIR]
"""
import json
import os
import shutil
import struct
import subprocess
import zlib
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, headless_env, report  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


def run(exe, *args, cwd=None, timeout=180):
    env = headless_env()
    env["SDL_VIDEODRIVER"] = "offscreen"
    r = subprocess.run([os.path.abspath(exe)] + list(args), capture_output=True, text=True,
                       env=env, timeout=timeout, cwd=cwd)
    return r.returncode, r.stdout, r.stderr


def gif_blocks(data):
    """(width, height, loop, [(delay_cs, left, top, w, h)]) of a GIF, parsed here."""
    assert data[:6] == b"GIF89a", data[:6]
    w = int.from_bytes(data[6:8], "little")
    h = int.from_bytes(data[8:10], "little")
    flags = data[10]
    at = 13
    if flags & 0x80:
        at += 3 * (2 << (flags & 7))
    loop = False
    frames = []
    delay = 0
    while at < len(data):
        b = data[at]
        if b == 0x3B:
            break
        if b == 0x21:
            label = data[at + 1]
            at += 2
            first = True
            while data[at] != 0:
                n = data[at]
                blk = data[at + 1:at + 1 + n]
                if label == 0xF9 and first:
                    delay = int.from_bytes(blk[1:3], "little")
                if label == 0xFF and first and blk == b"NETSCAPE2.0":
                    loop = True
                first = False
                at += 1 + n
            at += 1
        elif b == 0x2C:
            left, top, fw, fh = (int.from_bytes(data[at + k:at + k + 2], "little")
                                 for k in (1, 3, 5, 7))
            pf = data[at + 9]
            at += 10
            if pf & 0x80:
                at += 3 * (2 << (pf & 7))
            at += 1  # LZW minimum code size
            while data[at] != 0:
                at += 1 + data[at]
            at += 1
            frames.append((delay, left, top, fw, fh))
        else:
            raise ValueError(f"unexpected GIF block 0x{b:02x} at {at}")
    return w, h, loop, frames


def png_rgb(path):
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG, decoded here."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, w = 8, b"", 0
    while at < len(data):
        n, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        at += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, pos = [], bytearray(stride), 0
    for _ in range(h):
        ft, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def render_svg(tool, svg, shot):
    """The command that draws svg into the PNG shot at 1280x720 with a
    browser or Inkscape, or None where that program is missing."""
    if tool == "chromium":
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        return exe and [exe, "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", "--force-device-scale-factor=1",
                        f"--screenshot={shot}", "--window-size=1280,720", "file://" + svg]
    exe = shutil.which("inkscape")
    return exe and [exe, "--export-type=png", f"--export-filename={shot}",
                    "--export-width=1280", "--export-height=720", svg]


def others_match_gl(exe, tmp):
    """Chromium and Inkscape, where installed, draw round-03.svg like the GL
    renderer draws round-03.png: each case cell's fill, sampled inside the
    rect the SVG names, agrees."""
    d = os.path.join(tmp, "agree")
    rc, out, err = run(exe, "--export", d, "--export-svg", d)
    check(rc == 0, f"export for the browser check: {err}")
    svg = os.path.join(d, "round-03.svg")
    gw, gh, gb, gl = png_rgb(os.path.join(d, "round-03.png"))
    check((gw, gh) == (1280, 720), f"GL frame {gw}x{gh}")
    root = ET.parse(svg).getroot()
    cells = [r for r in root.iter(SVG + "rect") if r.get("class") in ("dashed", "dotted")
             and float(r.get("width")) > 60]
    check(len(cells) == 7, f"{len(cells)} patterned cells in round-03.svg")
    for tool in ("chromium", "inkscape"):
        shot = os.path.join(tmp, tool + ".png")
        argv = render_svg(tool, svg, shot)
        if not argv:
            print(f"note: no {tool}: the SVG-in-{tool} check is skipped")
            continue
        r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
        if r.returncode != 0 or not os.path.exists(shot):
            check(False, f"{tool} could not render the SVG: {r.stderr[-300:]}")
            continue
        cw, ch, cb, cr = png_rgb(shot)
        check((cw, ch) == (1280, 720), f"{tool} drew {cw}x{ch}")
        worst = 0
        for c in cells:
            x = int(float(c.get("x")) + float(c.get("width")) * 0.15)
            y = int(float(c.get("y")) + float(c.get("height")) * 0.5)
            a = gl[y][x * gb:x * gb + 3]
            b = cr[y][x * cb:x * cb + 3]
            worst = max(worst, max(abs(a[k] - b[k]) for k in range(3)))
        check(worst <= 6, f"{tool} and GL fills differ by up to {worst}")
        print(f"{tool} renders round-03.svg like the GL frame (fills within {worst}/255)")


def texts(root):
    return ["".join(t.itertext()) for t in root.iter(SVG + "text")]


def hostile(exe, data):
    """Issue 21, section 4: hostile files and shared folders against the
    exports (`test_exports.py SCANVIZ hostile DATA_DIR`)."""
    tmp = tempfile.mkdtemp(prefix="scanviz-hostile-")
    os.chmod(tmp, 0o755)
    # A round-00.png planted by another user (uid 65534) in a shared folder:
    # refused naming the link and its owner, exit 1, its target untouched.
    if os.geteuid() == 0 and shutil.which("setpriv"):
        slides = os.path.join(tmp, "slides")
        os.mkdir(slides)
        os.chmod(slides, 0o1777)
        victim = os.path.join(tmp, "victim")
        with open(victim, "w") as f:
            f.write("precious\n")
        link = os.path.join(slides, "round-00.png")
        subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "ln",
                        "-s", victim, link], check=True)
        rc, out, err = run(exe, "--export", slides)
        check(rc == 1 and link in err and "owned by" in err and "uid 65534" in err and
              "no image was replaced" in err, f"planted round-00.png: {rc} {err}")
        with open(victim, "rb") as f:
            check(f.read() == b"precious\n", "the planted link's target was overwritten")
        check(os.path.islink(link), "the planted link was replaced")
    else:
        print("planted link: skipped (needs root and setpriv)")
    # U+FFFE/U+FFFF in a device name: the SVG still parses as XML.
    with open(os.path.join(data, "correct-64-h200.scanviz.json")) as f:
        doc = json.load(f)
    doc["device"] = "H200 \ufffe\uffff\u0085 <&>"
    bad_dev = os.path.join(tmp, "device.json")
    with open(bad_dev, "w") as f:
        json.dump(doc, f)
    svg = os.path.join(tmp, "svg")
    rc, out, err = run(exe, "--trace", bad_dev, "--export-svg", svg)
    check(rc == 0, f"--export-svg of a hostile device name: {rc} {err}")
    for n in sorted(os.listdir(svg)) if os.path.isdir(svg) else []:
        try:
            ET.parse(os.path.join(svg, n))
        except ET.ParseError as e:
            check(False, f"{n} with U+FFFE in the device name is not XML: {e}")
    # A good trace, then a bad one: exit 2 (and nothing leaked: the
    # sanitizer build exited 1 here).
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w") as f:
        f.write("{")
    rc, out, err = run(exe, "--trace", os.path.join(data, "correct-64-h200.scanviz.json"),
                       "--trace", bad, "--export", os.path.join(tmp, "deck"))
    check(rc == 2 and "bad.json" in err, f"--trace good --trace bad: {rc} {err}")
    # DISPLAY with escape bytes: escaped in the message.
    env = headless_env()
    env["DISPLAY"] = "\x1b]0;pwned\x07\x1b[2J:99"
    env.pop("SDL_VIDEODRIVER", None)
    r = subprocess.run([os.path.abspath(exe)], capture_output=True, env=env, timeout=120)
    check(b"\x1b" not in r.stderr and b"\x07" not in r.stderr and r.returncode != 0,
          f"hostile DISPLAY: {r.returncode} {r.stderr!r}")
    # A named pipe with no writer: refused after a while, not waited on forever.
    fifo = os.path.join(tmp, "pipe")
    os.mkfifo(fifo)
    for flag in ("--file", "--trace", "--script"):
        try:
            rc, out, err = run(exe, flag, fifo, "--export", os.path.join(tmp, "fifo"), timeout=60)
            check(rc == 2 and "named pipe" in err and fifo in err, f"{flag} FIFO: {rc} {err}")
        except subprocess.TimeoutExpired:
            check(False, f"{flag} FIFO: still waiting after 60 s")
    # A C1 control in a caption: refused, naming the line.
    script = os.path.join(tmp, "talk.txt")
    with open(script, "w", encoding="utf-8") as f:
        f.write("round 1 : fine\nround 2 : \u009b31m red\n")
    rc, out, err = run(exe, "--script", script, "--export", os.path.join(tmp, "c1"))
    check(rc == 2 and "talk.txt:2" in err and "control character" in err, f"C1 caption: {rc} {err}")
    # A values file with a UTF-8 byte order mark; n = 1 said right.
    bom = os.path.join(tmp, "bom.txt")
    with open(bom, "wb") as f:
        f.write(b"\xef\xbb\xbf" b"3 1 7\n")
    rc, out, err = run(exe, "--file", bom, "--export", os.path.join(tmp, "bom"))
    check(rc == 0 and "n = 3" in out, f"--file with a BOM: {rc} {out} {err}")
    one = os.path.join(tmp, "one")
    rc, out, err = run(exe, "--input", "5", "--export", one)
    check(rc == 0 and f"wrote 1 image: {one}/round-00.png" in out and "images" not in out,
          f"--export n = 1: {out}")
    rc, out, err = run(exe, "--input", "5", "--export-svg", one)
    check(rc == 0 and "round-00.svg, overview.svg" in out and ".. round-00" not in out,
          f"--export-svg n = 1: {out}")
    return report("all hostile export checks passed")


def main():
    exe = sys.argv[1]
    if len(sys.argv) > 3 and sys.argv[2] == "hostile":
        return hostile(exe, sys.argv[3])
    tmp = tempfile.mkdtemp(prefix="scanviz-exports-")

    # GIF of the chapter's example at 1280x720: 3 moves of 9 frames (4 cs)
    # and 4 rounds held 1.6 s each: 7.48 s a loop.
    gif = os.path.join(tmp, "chapter.gif")
    rc, out, err = run(exe, "--export-gif", gif)
    check(rc == 0, f"--export-gif: {rc} {err}")
    with open(gif, "rb") as f:
        data = f.read()
    w, h, loop, frames = gif_blocks(data)
    check((w, h) == (1280, 720), f"GIF is {w}x{h}")
    check(loop, "GIF does not loop")
    total = sum(d for d, *_ in frames)
    check(total == 3 * 9 * 4 + 4 * 160, f"GIF loop is {total} cs, want 748")
    check(10 <= len(frames) <= 31, f"{len(frames)} frames")
    check(all(l + fw <= w and t + fh <= h for _, l, t, fw, fh in frames), "a frame off the screen")
    check(100_000 < len(data) < 1_500_000, f"GIF is {len(data)} bytes")
    check(f"{len(data)} bytes" in out, f"the size is not reported: {out}")
    print(f"chapter GIF at 1280x720: {len(data)} bytes, {len(frames)} frames, {total / 100} s")
    # Twice the speed: half the holds, moves of 4 frames.
    rc, out, err = run(exe, "--export-gif", gif, "--speed", "2")
    with open(gif, "rb") as f:
        _, _, _, frames = gif_blocks(f.read())
    total = sum(d for d, *_ in frames)
    check(rc == 0 and total == 3 * 4 * 4 + 4 * 80, f"--speed 2: loop {total} cs, want 368")
    # A folder that does not exist: exit 1, the path named, nothing left.
    bad = os.path.join(tmp, "nope", "x.gif")
    rc, out, err = run(exe, "--export-gif", bad)
    check(rc == 1 and bad in err and not os.path.exists(bad), f"bad GIF path: {rc} {err}")

    # SVG: every round and the overview, 4:3, clean.
    svg = os.path.join(tmp, "svg")
    rc, out, err = run(exe, "--export-svg", svg, "--size", "1024x768", "--clean")
    check(rc == 0, f"--export-svg: {rc} {err}")
    names = sorted(os.listdir(svg)) if os.path.isdir(svg) else []
    check(names == ["overview.svg", "round-00.svg", "round-01.svg", "round-02.svg",
                    "round-03.svg"], f"SVG files {names}")
    roots = {}
    for n in names:
        try:
            roots[n] = ET.parse(os.path.join(svg, n)).getroot()
        except ET.ParseError as e:
            check(False, f"{n} is not XML: {e}")
    r3 = roots.get("round-03.svg")
    if r3 is not None:
        check(r3.tag == SVG + "svg" and r3.get("width") == "1024" and r3.get("height") == "768",
              "round-03.svg root")
        rects = list(r3.iter(SVG + "rect"))
        dashed = [r for r in rects if r.get("class") == "dashed"]
        dotted = [r for r in rects if r.get("class") == "dotted"]
        # pout cells 4-6 dashed, 0-3 dotted, plus one legend swatch each
        check(len(dashed) == 4 and len(dotted) == 5, f"{len(dashed)} dashed, {len(dotted)} dotted")
        check(all(r.get("stroke-dasharray") for r in dashed + dotted), "a pattern without dasharray")
        t = texts(r3)
        for v in ("3", "4", "11", "15", "16", "22", "25"):
            check(v in t, f"round-03.svg lacks the number {v}")
        check("CPU emulator" in t, "the short backend line")
        check(not any("H help" in x for x in t), "key hints on a clean slide")
        check(any(p.get("class") == "arrow" for p in r3.iter(SVG + "g")), "no arrows")
        # The header's subtitle goes on after the title in one <text> (a tspan
        # without x), so a browser drawing another font of the stack cannot
        # overlap them (issue 21 item 4).
        head = [e for e in r3.iter(SVG + "text") if (e.text or "").startswith("Hillis-Steele scan")]
        spans = list(head[0].iter(SVG + "tspan")) if head else []
        check(len(head) == 1 and spans and spans[0].get("x") is None and
              "n = 8" in "".join(spans[0].itertext()),
              f"the header's subtitle is not a tspan after its title: {[ET.tostring(e)[:200] for e in head]}")
    ov = roots.get("overview.svg")
    if ov is not None:
        t = texts(ov)
        check(sum(x.startswith("round ") for x in t) == 4, "overview: four rounds")
    # --overview with --export: the rounds and overview.png.
    png = os.path.join(tmp, "png")
    rc, out, err = run(exe, "--export", png, "--overview", "--scale", "1.4", "--size", "1600x1200")
    check(rc == 0 and os.path.exists(os.path.join(png, "overview.png")) and
          os.path.exists(os.path.join(png, "round-03.png")), f"--overview --export: {rc} {err}")

    others_match_gl(exe, tmp)

    # Refusals.
    rc, out, err = run(exe, "--scale", "0.2", "--export", png)
    check(rc == 2 and "--scale \"0.2\"" in err, f"--scale 0.2: {rc} {err}")
    rc, out, err = run(exe, "--export-plot", gif, "--export-gif", gif)
    check(rc == 2 and "--export-plot" in err, f"--export-plot with --export-gif: {rc} {err}")
    script = os.path.join(tmp, "talk.txt")
    with open(script, "w") as f:
        f.write("round 1 : ok\nround 7 : too far\n")
    rc, out, err = run(exe, "--script", script, "--export", png)
    check(rc == 2 and "line 2" in err and "rounds 0..3" in err, f"--script out of range: {err}")
    with open(script, "w") as f:
        f.write("round 1\nzoom 2\n")
    rc, out, err = run(exe, "--script", script, "--export", png)
    check(rc == 2 and "talk.txt:2" in err and "\"zoom\"" in err, f"--script bad word: {err}")
    shipped = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets",
                           "scripts", "chapter-story.txt")
    rc, out, err = run(exe, "--script", shipped, "--export", png)
    check(rc == 0, f"the shipped script: {rc} {err}")

    return report("all export checks passed")


if __name__ == "__main__":
    sys.exit(main())
