#!/usr/bin/env python3
"""Builds the mistakes lab's kernels: each kernels/mistakes/NAME.diff is a
unified diff against kernels/hillis_steele.cu (the chapter's kernel) with the
mistake's own opening comment written above its `---` line. This writes
OUTDIR/NAME.cu: that comment, then the chapter's kernel with its opening
comment dropped and the diff's hunks applied. nvcc compiles these files
(kernels/lab_runs.cu) and the source panel shows them (src/app/meson.build),
so what students read is what ran.

usage: apply.py BASE OUTDIR STAMP DIFF [DIFF ...]

Strict on purpose, so that a diff can never silently rot when the chapter's
kernel changes: every hunk must apply at exactly the line it names, every
context and removed line must equal the base's line to the letter, the
line counts in each @@ header must match the hunk, and no hunk may touch the
base's opening comment. Anything else fails the build with the diff, the
hunk and the line named. Each output is written to a temporary file and
renamed; STAMP is written last (the kernels library waits for it).
"""
import os
import re
import sys

HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class DiffError(Exception):
    pass


def opening_comment(lines, what):
    """How many lines the file's opening /* ... */ comment takes."""
    if not lines or not lines[0].startswith("/*"):
        raise DiffError(f"{what}: does not open with a /* comment */")
    for k, line in enumerate(lines):
        if "*/" in line:
            return k + 1
    raise DiffError(f"{what}: its opening comment is never closed")


def parse(path):
    """(preamble lines, [(old_start, old_lines, new_lines, header, diff line)])."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    k = 0
    while k + 1 < len(lines) and not (lines[k].startswith("--- ") and
                                      lines[k + 1].startswith("+++ ")):
        k += 1
    if k + 1 >= len(lines):
        raise DiffError(f"{path}: no '--- a/...' and '+++ b/...' lines")
    preamble = lines[:k]
    n = opening_comment(preamble, path)
    if any(line.strip() for line in preamble[n:]):
        raise DiffError(f"{path}:{n + 1}: text after the opening comment, before '---'")
    preamble = preamble[:n]
    hunks = []
    k += 2
    while k < len(lines):
        m = HUNK.match(lines[k])
        if not m:
            raise DiffError(f"{path}:{k + 1}: expected a hunk header '@@ -a,b +c,d @@', "
                            f"found {lines[k]!r}")
        head, at = lines[k], k + 1
        old_start = int(m.group(1))
        old_count = int(m.group(2)) if m.group(2) is not None else 1
        new_count = int(m.group(4)) if m.group(4) is not None else 1
        old, new = [], []
        k += 1
        while k < len(lines) and not HUNK.match(lines[k]):
            line = lines[k]
            if line.startswith("\\"):      # "\ No newline at end of file"
                raise DiffError(f"{path}:{k + 1}: the base and the mistake end with a newline")
            tag, text = (line[0], line[1:]) if line else (" ", "")
            if tag not in " -+":
                raise DiffError(f"{path}:{k + 1}: a hunk line starts with ' ', '-' or '+', "
                                f"not {tag!r}")
            if tag != "+":
                old.append(text)
            if tag != "-":
                new.append(text)
            k += 1
        if len(old) != old_count or len(new) != new_count:
            raise DiffError(f"{path}:{at}: {head} promises {old_count} old and {new_count} new "
                            f"lines, the hunk has {len(old)} and {len(new)}")
        hunks.append((old_start, old, new, head, at))
    if not hunks:
        raise DiffError(f"{path}: no hunks: a mistake changes at least one line")
    return preamble, hunks


def apply(base_path, base, diff_path):
    preamble, hunks = parse(diff_path)
    keep = opening_comment(base, base_path)
    out, pos = [], 0                       # pos: 0-based line of base copied up to
    for old_start, old, new, head, at in hunks:
        start = old_start - 1 if old else old_start
        if start < pos:
            raise DiffError(f"{diff_path}:{at}: {head} overlaps the hunk before it")
        if start < keep:
            raise DiffError(f"{diff_path}:{at}: {head} changes the opening comment of "
                            f"{base_path} (lines 1-{keep}); the diff's own comment replaces it")
        for j, want in enumerate(old):
            got = base[start + j] if start + j < len(base) else None
            if got != want:
                raise DiffError(
                    f"{diff_path}:{at}: {head} does not apply: line {start + j + 1} of "
                    f"{base_path} is {got!r}, the diff expects {want!r} (update the diff "
                    f"to the chapter's kernel)")
        out += base[pos:start] + new
        pos = start + len(old)
    out += base[pos:]
    return preamble + out[keep:]


def write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    base_path, outdir, stamp, diffs = argv[1], argv[2], argv[3], argv[4:]
    try:
        with open(base_path, encoding="utf-8") as f:
            base = f.read().split("\n")
        if base and base[-1] == "":
            base.pop()
        for d in diffs:
            name = os.path.splitext(os.path.basename(d))[0]
            write(os.path.join(outdir, name + ".cu"), "\n".join(apply(base_path, base, d)) + "\n")
    except (OSError, UnicodeDecodeError, DiffError) as e:
        sys.exit(f"kernels/mistakes/apply.py: {e}")
    write(stamp, "applied: " + " ".join(os.path.basename(d) for d in diffs) + "\n")


if __name__ == "__main__":
    main(sys.argv)
