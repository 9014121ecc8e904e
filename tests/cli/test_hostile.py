#!/usr/bin/env python3
"""Hostile trace files against scanviz-trace --open (issue 21, items 20, 21, 23).

1. Every string field of the format (the chapter's trace, its lab object and,
   since version 3, its run, a kernel trace: each field path found in a GPU
   lab trace with racecheck hazards (version 2), an emulated float32 lab
   trace and a float32 trace holding "inf") is set to a string of terminal
   escapes, alone and after its own value: nothing raw (ESC, BEL, CR, DEL, C1
   controls, a faked "verify: OK" line: any in a refused file's words, one
   more than the clean file's own in an accepted one's)
   may reach stdout or stderr of `--open FILE` and `--open FILE --verify`.
2. Every one of those files that --open accepts, and the hostile files
   below, written again (`--open FILE --format json -o OUT`) must reopen.
3. The lab reader refuses what it used to take silently, naming the field:
   a hazard's kind that is not RAW/WAR/WAW/?, threads ["a", "b"].

usage: test_hostile.py SCANVIZ_TRACE DATA_DIR
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, report  # noqa: E402

HOSTILE = "\x1b]0;pwned\x07\x1b[2J\u009b31m\r\nverify: OK\x7f\u202e"
RAW = [b"\x1b", b"\x07", b"\r", b"\x7f", b"\xc2\x9b", b"\nverify: OK"]


def run(exe, *args):
    r = subprocess.run([exe] + list(args), capture_output=True, timeout=60)
    return r.returncode, r.stdout, r.stderr


def string_paths(node, path=()):
    """One path (a tuple of keys and indices) per string field of the format:
    list elements of the same list are one field, so the first is taken."""
    if isinstance(node, str):
        yield path
    elif isinstance(node, dict):
        for k, v in node.items():
            yield from string_paths(v, path + (k,))
    elif isinstance(node, list):
        seen = set()
        for i, v in enumerate(node):
            for p in string_paths(v, path + (i,)):
                shape = tuple("[]" if isinstance(x, int) else x for x in p[len(path) + 1:])
                if shape not in seen:
                    seen.add(shape)
                    yield p


def get(node, path):
    for k in path:
        node = node[k]
    return node


def put(node, path, value):
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value


def name(path):
    return "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path).lstrip(".")


def reopen(exe, tmp, path, what):
    """--open PATH accepted: written again as JSON, the copy must reopen."""
    out = os.path.join(tmp, "resaved.json")
    rc, _, err = run(exe, "--open", path, "--format", "json", "-o", out)
    check(rc == 0, f"{what}: re-save failed: {rc} {err[-300:]!r}")
    if rc == 0:
        rc, _, err = run(exe, "--open", out)
        check(rc == 0, f"{what}: the re-saved file does not reopen: {rc} {err[-300:]!r}")
    return rc == 0


def bases(exe, data, tmp):
    """(label, parsed JSON) of the trace kinds whose string fields are walked."""
    out = [("gpu-lab", json.load(open(os.path.join(data, "in-place-64-h200-shaken.scanviz.json"))))]
    for label, args in (("emulated-float-lab", ["--kernel", "in-place", "--type", "float32",
                                                "--runs", "4", "--random", "40"]),
                        ("float-inf", ["--input", "1e38 3e38 -0 2", "--type", "float32",
                                       "--exclusive"])):
        rc, text, err = run(exe, *args, "--format", "json")
        check(rc == 0, f"{label}: {rc} {err!r}")
        out.append((label, json.loads(text)))
    return out


def walk_strings(exe, tmp):
    files = 0
    for label, base in bases(exe, sys.argv[2], tmp):
        clean = {}  # what the unedited file prints: its own "verify: OK" line
        path = os.path.join(tmp, "clean.json")
        with open(path, "w") as f:
            json.dump(base, f)
        for extra in ([], ["--verify"]):
            _, out, err = run(exe, "--open", path, *extra)
            clean[tuple(extra)] = out + err
        for p in string_paths(base):
            orig = get(base, p)
            for value in (HOSTILE, orig + HOSTILE):
                doc = copy.deepcopy(base)
                put(doc, p, value)
                path = os.path.join(tmp, "hostile.json")
                with open(path, "w") as f:
                    json.dump(doc, f)
                files += 1
                what = f"{label} {name(p)} = {value[:8]!r}..."
                accepted = False
                for extra in ([], ["--verify"]):
                    rc, out, err = run(exe, "--open", path, *extra)
                    accepted = accepted or rc == 0
                    check(rc in (0, 2, 4), f"{what} {extra}: exit {rc}")
                    for raw in RAW:
                        own = clean[tuple(extra)].count(raw) if rc == 0 else 0
                        check(out.count(raw) + err.count(raw) <= own,
                              f"{what} {extra}: {raw!r} reached the terminal: "
                              f"{(out + err)[(out + err).find(raw) - 60:][:120]!r}")
                if accepted:
                    reopen(exe, tmp, path, what)
    print(f"{files} hostile files, every string field of the format")
    return files


def lab_refusals_and_round_trips(exe, tmp):
    base = json.load(open(os.path.join(sys.argv[2], "in-place-64-h200-shaken.scanviz.json")))
    path = os.path.join(tmp, "lab.json")

    def with_change(change):
        doc = copy.deepcopy(base)
        change(doc["lab"]["racecheck"])
        with open(path, "w") as f:
            json.dump(doc, f, ensure_ascii=False)
        return run(exe, "--open", path)

    # A kind the writer would have written unescaped: refused, naming it.
    rc, _, err = with_change(lambda rc: rc["hazards"][0].update(kind='W"R"}'))
    check(rc == 2 and b"lab.racecheck.hazards[0].kind" in err, f"kind W\"R: {rc} {err!r}")
    rc, _, err = with_change(lambda rc: rc["hazards"][0].update(kind="WARP"))
    check(rc == 2 and b"lab.racecheck.hazards[0].kind" in err, f"kind WARP: {rc} {err!r}")
    # threads ["a", "b"] used to read as 0, 0.
    rc, _, err = with_change(lambda rc: rc["hazards"][0].update(threads=["a", "b"]))
    check(rc == 2 and b"lab.racecheck.hazards[0].threads[0]" in err and b"integer" in err,
          f"threads [a, b]: {rc} {err!r}")
    rc, _, err = with_change(lambda rc: rc["hazards"][1].update(lines=[39, 1.5]))
    check(rc == 2 and b"lab.racecheck.hazards[1].lines[1]" in err, f"lines 1.5: {rc} {err!r}")
    rc, _, err = with_change(lambda rc: rc["hazards"][0].update(severity="fatal"))
    check(rc == 2 and b"lab.racecheck.hazards[0].severity" in err, f"severity: {rc} {err!r}")
    # A long note of two-byte characters (cut to the reader's buffer at a
    # whole character), C1 and control characters, a file name of non-ASCII:
    # accepted, and the re-saved file reopens.
    for label, change in (
            ("note of 300 é", lambda rc: rc.update(note="é" * 300)),
            ("note of 85 €, 1 é", lambda rc: rc.update(note="é" + "€" * 85)),
            ("note of 64 emoji", lambda rc: rc.update(note="\U0001F600" * 64)),
            ("note with controls", lambda rc: rc.update(note="a\u0085b\u009bc\x01\x1b\"\\")),
            ("file of 80 é", lambda rc: rc["hazards"][0].update(file="é" * 80)),
            ("kind ?", lambda rc: rc["hazards"][0].update(kind="?"))):
        rc, out, err = with_change(change)
        check(rc == 0, f"{label}: refused {rc} {err!r}")
        if rc == 0:
            reopen(exe, tmp, path, label)


def run_refusals(exe, tmp):
    """A version 3 chapter file's run must be the run its rounds read: a run
    of another input, another kernel's (Blelloch's, the same scan of the same
    input) or none at all is refused, naming "run"; the lab's own file keeps
    its run through a re-save."""
    rc, text, err = run(exe, "--format", "json")
    check(rc == 0, f"chapter: {rc} {err!r}")
    base = json.loads(text)
    check(base.get("version") == 3 and base.get("reading") == "hillis-steele" and
          base["run"].get("algorithm") == "kernel" and len(base["run"]["steps"]) == 5,
          "the chapter's file is version 3 with its run")
    path = os.path.join(tmp, "run.json")
    rc, other, _ = run(exe, "--input", "1 2 3 4 5 6 7 8", "--format", "json")
    rc2, bl, _ = run(exe, "--kernel", "blelloch", "--format", "json")
    check(rc == 0 and rc2 == 0, "the other runs")
    for label, run_doc, want in (
            ("another input's run", json.loads(other)["run"], b"run.input: differs"),
            ("Blelloch's run", json.loads(bl), b"run: its steps are not the chapter's rounds"),
            ("no run", None, b"run: missing")):
        doc = copy.deepcopy(base)
        if run_doc is None:
            del doc["run"]
        else:
            doc["run"] = run_doc
        with open(path, "w") as f:
            json.dump(doc, f)
        rc, _, err = run(exe, "--open", path)
        check(rc == 2 and want in err, f"{label}: {rc} {err[-200:]!r}")
    # The chapter captured on the H200 (2026-12-03, docs/gpu-runs.md), its run
    # the GPU's: opened on a machine without one, bit-identical to the emulator.
    h200 = os.path.join(sys.argv[2], "chapter-h200-v3.scanviz.json")
    rc, out, err = run(exe, "--open", h200, "--verify")
    check(rc == 0 and b"(cuda (NVIDIA H200)) vs cpu emulator: bit-identical trace" in out,
          f"the H200's version 3 file: {rc} {(out + err)[-300:]!r}")
    check(json.load(open(h200))["run"]["device"] == "NVIDIA H200", "its run is the GPU's")
    with open(path, "w") as f:
        json.dump(base, f)
    check(reopen(exe, tmp, path, "the chapter's version 3 file"), "re-saved")
    check(json.load(open(os.path.join(tmp, "resaved.json")))["run"] == base["run"],
          "the re-saved file's run is the run read")


def main():
    exe = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="scanviz-hostile-")
    run_refusals(exe, tmp)
    lab_refusals_and_round_trips(exe, tmp)
    walk_strings(exe, tmp)
    return report("all hostile-file checks passed")


if __name__ == "__main__":
    sys.exit(main())
