#!/usr/bin/env python3
"""Builds the mistakes lab's kernels and the kernel registry: each
kernels/mistakes/NAME.diff is a unified diff against kernels/hillis_steele.cu
(the chapter's kernel) with the mistake's own opening comment written above
its `---` line, and below that comment the mistake's registry row, one
`key: value` line per field (git apply skips these lines). This writes
OUTDIR/NAME.cu: that comment, then the chapter's kernel with its opening
comment dropped and the diff's hunks applied. The kernel runtime runs these
files (src/runtime, on the CPU and the GPU) and the source panel shows them
(src/app/meson.build), so what students read is what ran.

With --registry OUT_H BASE_ROW [--beyond ROW ...] it also writes OUT_H, the registry of
src/core/lab_registry.h as an X-macro table: one row per kernel file, the
chapter's kernel first (its row is BASE_ROW, a file of the same `key: value`
lines beside hillis_steele.cu, whose text stays the chapter's), then each
diff's in the order given (the K key's order). The fields:
  name:     the --kernel name (a mistake's is its file name, _ written -)
  alias:    another name (the chapter's kernel only: hillis-steele)
  label:    one line for captions: what was changed
  teaches:  what the kernel teaches, in a sentence
  buffers:  1 or 2            (the kernel's shape, which the lab's words and
  barrier:  yes or no          the GPU's rounds read, lab_registry.h: buffers,
  else:     yes or no          the barrier ending each round, the else copy,
  guard:    i >= stride, i > stride or none    the guard, what the add reads,
  add:      pin[i - stride] op pin[i] or pin[i - stride] op pout[i]
  racy:     yes or no          and whether the outcome depends on the schedule)
  algorithm: hillis-steele or blelloch (optional: a row with the statement
            model above is hillis-steele, the only algorithm it describes)
Text is printable ASCII; every field is required (alias only in BASE_ROW).

Each --beyond ROW (kernels/NAME.row, beside kernels/NAME.cu) is a kernel
beyond the chapter, run only through the kernel runtime (src/runtime/): its
row has name, label, teaches and algorithm (not hillis-steele), and no
statement model. They are written as a second table, SV_KERNEL_BEYOND_ROWS,
after the lab's rows: K and the lab's captures walk the lab's rows only.

usage: apply.py [--registry OUT_H BASE_ROW [--beyond ROW ...]] BASE OUTDIR STAMP DIFF [DIFF ...]
       apply.py --folder BASE OUTDIR FILE [FILE ...]

With --folder it writes a folder whose every file the build declares (an
exercise as it is installed, the tests' kernels): each FILE that is a
NAME.diff becomes OUTDIR/NAME.cu as above, NAME=PATH copies PATH as
OUTDIR/NAME, and any other FILE is copied as it is; no stamp.

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
FIELD = re.compile(r"^([a-z]+):[ \t]*(.*?)[ \t]*$")
# Each field's accepted values (None: any text), and for the model's fields
# the C value each one becomes.
FIELDS = {
    "name": None, "alias": None, "label": None, "teaches": None,
    "buffers": {"1": "false", "2": "true"},
    "barrier": {"yes": "true", "no": "false"},
    "else": {"yes": "true", "no": "false"},
    "guard": {"i >= stride": ("true", "0"), "i > stride": ("true", "1"), "none": ("false", "0")},
    "add": {"pin[i - stride] op pin[i]": "false", "pin[i - stride] op pout[i]": "true"},
    "racy": {"yes": "true", "no": "false"},
    "algorithm": {"hillis-steele": "SV_ALGORITHM_HILLIS_STEELE", "blelloch": "SV_ALGORITHM_BLELLOCH"},
}
# The statement model's fields: every lab row has them, a row beyond the
# chapter none.
MODEL = ("buffers", "barrier", "else", "guard", "add", "racy")
NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


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
    lines = read_lines(path)
    k = 0
    while k + 1 < len(lines) and not (lines[k].startswith("--- ") and
                                      lines[k + 1].startswith("+++ ")):
        k += 1
    if k + 1 >= len(lines):
        raise DiffError(f"{path}: no '--- a/...' and '+++ b/...' lines")
    preamble = lines[:k]
    n = opening_comment(preamble, path)
    fields = parse_fields(path, preamble[n:], n + 1)
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
    return preamble, hunks, fields


def parse_fields(path, lines, first):
    """The registry row in lines (`key: value` each; blank lines skipped),
    line numbers from first, checked against FIELDS."""
    row = {}
    for k, line in enumerate(lines, first):
        if not line.strip():
            continue
        m = FIELD.match(line)
        if not m:
            raise DiffError(f"{path}:{k}: expected a registry field 'key: value' (after the "
                            f"opening comment, before '---'), found {line!r}")
        key, value = m.group(1), m.group(2)
        if key not in FIELDS:
            raise DiffError(f"{path}:{k}: unknown field {key!r} (expected one of "
                            f"{', '.join(FIELDS)})")
        if key in row:
            raise DiffError(f"{path}:{k}: field {key!r} given twice")
        if not value or any(not (" " <= c <= "~") for c in value):
            raise DiffError(f"{path}:{k}: field {key!r}: the value must be printable ASCII, "
                            f"not empty")
        accepted = FIELDS[key]
        if accepted is not None and value not in accepted:
            raise DiffError(f"{path}:{k}: field {key!r} is {value!r}, expected one of "
                            + ", ".join(repr(a) for a in accepted))
        if key in ("name", "alias") and not NAME.match(value):
            raise DiffError(f"{path}:{k}: {key} {value!r}: lower-case words joined by '-'")
        row[key] = value
    return row


def check_row(path, row, base):
    missing = [k for k in FIELDS if k not in row and k not in ("alias", "algorithm")]
    if missing:
        raise DiffError(f"{path}: registry field(s) missing: {', '.join(missing)}")
    if "alias" in row and not base:
        raise DiffError(f"{path}: only the chapter's kernel has an alias")
    if not base:
        stem = os.path.splitext(os.path.basename(path))[0]
        if row["name"] != stem.replace("_", "-"):
            raise DiffError(f"{path}: name {row['name']!r} is not the file's name "
                            f"({stem.replace('_', '-')!r})")
    if row.get("algorithm", "hillis-steele") != "hillis-steele":
        raise DiffError(f"{path}: algorithm {row['algorithm']!r}: a row with the statement "
                        f"model is the chapter's algorithm, hillis-steele")


def check_beyond(path, row):
    """A kernel beyond the chapter: name (the file's), label, teaches and
    an algorithm other than the chapter's; no statement model."""
    missing = [k for k in ("name", "label", "teaches", "algorithm") if k not in row]
    if missing:
        raise DiffError(f"{path}: registry field(s) missing: {', '.join(missing)}")
    extra = [k for k in row if k in MODEL or k == "alias"]
    if extra:
        raise DiffError(f"{path}: field(s) {', '.join(extra)}: a kernel beyond the chapter has "
                        f"no statement model (its algorithm is {row['algorithm']})")
    if row["algorithm"] == "hillis-steele":
        raise DiffError(f"{path}: algorithm hillis-steele: that is the lab's rows' algorithm")
    stem = os.path.splitext(os.path.basename(path))[0]
    if row["name"] != stem.replace("_", "-"):
        raise DiffError(f"{path}: name {row['name']!r} is not the file's name "
                        f"({stem.replace('_', '-')!r})")


def c_string(text):
    """A C string literal of printable ASCII text ('?' escaped: no trigraphs)."""
    for a, b in (("\\", "\\\\"), ('"', '\\"'), ("?", "\\?")):
        text = text.replace(a, b)
    return '"' + text + '"'


def registry(rows, beyond=()):
    """The C header: SV_KERNEL_ROWS(X) calls X once per row, in order, with
    (ID, name, alias or NULL, file, label, teaches, double_buffer, barrier,
    has_else, guard, guard_offset, self_from_pout, racy);
    SV_KERNEL_BEYOND_ROWS(R) calls R once per kernel beyond the chapter with
    (ID, name, file, label, teaches, algorithm)."""
    names = set()
    out = ["/* Generated by kernels/mistakes/apply.py from kernels/hillis_steele.row and",
           " * the registry fields of each kernels/mistakes/NAME.diff: do not edit. The",
           " * registry, src/core/lab_registry.h, reads it. */",
           "#ifndef SV_LAB_KERNELS_H", "#define SV_LAB_KERNELS_H", "",
           "#define SV_KERNEL_ROWS(X) \\"]
    for path, file, row in rows:
        for name in filter(None, (row["name"], row.get("alias"))):
            if name in names:
                raise DiffError(f"{path}: name {name!r} is already a kernel's")
            names.add(name)
        guard, offset = FIELDS["guard"][row["guard"]]
        args = [row["name"].upper().replace("-", "_"), c_string(row["name"]),
                c_string(row["alias"]) if "alias" in row else "NULL", c_string(file),
                c_string(row["label"]), c_string(row["teaches"]),
                FIELDS["buffers"][row["buffers"]], FIELDS["barrier"][row["barrier"]],
                FIELDS["else"][row["else"]], guard, offset, FIELDS["add"][row["add"]],
                FIELDS["racy"][row["racy"]]]
        out.append(f"    X({', '.join(args)}) \\")
    out += ["", "#define SV_KERNEL_BEYOND_ROWS(R) \\"]
    for path, file, row in beyond:
        if row["name"] in names:
            raise DiffError(f"{path}: name {row['name']!r} is already a kernel's")
        names.add(row["name"])
        args = [row["name"].upper().replace("-", "_"), c_string(row["name"]), c_string(file),
                c_string(row["label"]), c_string(row["teaches"]),
                FIELDS["algorithm"][row["algorithm"]]]
        out.append(f"    R({', '.join(args)}) \\")
    out += ["", "#endif", ""]
    return "\n".join(out)


def apply(base_path, base, diff_path):
    preamble, hunks, _ = parse(diff_path)
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


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def folder(base_path, outdir, files):
    """--folder: the diffs applied against base_path, the other files copied."""
    base = read_lines(base_path)
    for spec in files:
        name, sep, path = spec.partition("=")
        if not sep or "/" in name:
            name, path = "", spec
        if path.endswith(".diff"):
            stem = os.path.splitext(os.path.basename(path))[0]
            write(os.path.join(outdir, stem + ".cu"), "\n".join(apply(base_path, base, path)) + "\n")
        else:
            with open(path, encoding="utf-8") as f:
                write(os.path.join(outdir, name or os.path.basename(path)), f.read())


def main(argv):
    if len(argv) > 4 and argv[1] == "--folder":
        try:
            folder(argv[2], argv[3], argv[4:])
        except (OSError, UnicodeDecodeError, DiffError) as e:
            sys.exit(f"kernels/mistakes/apply.py: {e}")
        return
    registry_out = base_row = None
    if len(argv) > 1 and argv[1] == "--registry":
        if len(argv) < 4:
            sys.exit(__doc__)
        registry_out, base_row = argv[2], argv[3]
        argv = argv[:1] + argv[4:]
    beyond_rows = []
    while registry_out and len(argv) > 2 and argv[1] == "--beyond":
        beyond_rows.append(argv[2])
        argv = argv[:1] + argv[3:]
    if len(argv) < 5:
        sys.exit(__doc__)
    base_path, outdir, stamp, diffs = argv[1], argv[2], argv[3], argv[4:]
    try:
        base = read_lines(base_path)
        rows = []
        if registry_out:
            with open(base_row, encoding="utf-8") as f:
                row = parse_fields(base_row, f.read().split("\n"), 1)
            check_row(base_row, row, True)
            rows.append((base_row, "kernels/" + os.path.basename(base_path), row))
        for d in diffs:
            name = os.path.splitext(os.path.basename(d))[0]
            write(os.path.join(outdir, name + ".cu"), "\n".join(apply(base_path, base, d)) + "\n")
            if registry_out:
                row = parse(d)[2]
                check_row(d, row, False)
                rows.append((d, f"kernels/mistakes/{name}.cu", row))
        if registry_out:
            beyond = []
            for b in beyond_rows:
                with open(b, encoding="utf-8") as f:
                    row = parse_fields(b, f.read().split("\n"), 1)
                check_beyond(b, row)
                stem = os.path.splitext(os.path.basename(b))[0]
                beyond.append((b, f"kernels/{stem}.cu", row))
            write(registry_out, registry(rows, beyond))
    except (OSError, UnicodeDecodeError, DiffError) as e:
        sys.exit(f"kernels/mistakes/apply.py: {e}")
    write(stamp, "applied: " + " ".join(os.path.basename(d) for d in diffs) + "\n")


if __name__ == "__main__":
    main(sys.argv)
