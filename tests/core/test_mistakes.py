#!/usr/bin/env python3
"""The mistakes lab's kernels, as kernels/mistakes/apply.py builds them from
the chapter's kernel and kernels/mistakes/*.diff.

- Each generated file (the build's, the one nvcc compiles and the panel
  shows) is the chapter's kernel with its own opening comment, and differs
  from hillis_steele.cu in its code by the diff's + lines alone, at least
  one of which carries a `MISTAKE:` comment (how the panel marks it);
  checked here by a line alignment written in this test, not by apply.py.
- apply.py refuses a diff that no longer fits: a context or removed line
  that differs from the base, a hunk at another line, a lying @@ count, a
  hunk inside the opening comment, a diff without hunks.
- The registry the build generated (GENERATED_DIR/lab_kernels.h) has one
  row per kernel file, the chapter's kernel first, then the diffs in the
  build's order, each row's name, label and teaches as its file's fields
  say (read here on their own); the fields never reach the generated .cu.
- apply.py refuses registry fields that are wrong: one missing, an unknown
  one, a value not among a field's values, a name not the file's, a name
  given twice, text that is not printable ASCII, a line that is no field.

usage: test_mistakes.py APPLY_PY HILLIS_STEELE_CU BASE_ROW GENERATED_DIR DIFF...
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

failures = 0


def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print(f"FAIL: {what}", file=sys.stderr)


def lines_of(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def after_opening_comment(lines):
    for k, line in enumerate(lines):
        if "*/" in line:
            return lines[k + 1:]
    return lines


def plus_minus(diff):
    body = diff[next(k for k, l in enumerate(diff) if l.startswith("@@")):]
    plus = [l[1:] for l in body if l.startswith("+") and not l.startswith("+++")]
    minus = [l[1:] for l in body if l.startswith("-") and not l.startswith("---")]
    return plus, minus


def run_apply(apply_py, base, diff_text, registry=None, name="m"):
    """apply.py on one diff (written as NAME.diff); with registry (the base
    row's path) also --registry. (rc, stderr, .cu written, stamp written,
    the registry's text or None)."""
    with tempfile.TemporaryDirectory() as d:
        dp = os.path.join(d, name + ".diff")
        with open(dp, "w", encoding="utf-8") as f:
            f.write(diff_text)
        reg = os.path.join(d, "lab_kernels.h")
        args = ["--registry", reg, registry] if registry else []
        r = subprocess.run([sys.executable, apply_py] + args +
                           [base, d, os.path.join(d, "stamp"), dp], capture_output=True, text=True)
        out = os.path.join(d, name + ".cu")
        text = None
        if os.path.exists(reg):
            with open(reg, encoding="utf-8") as f:
                text = f.read()
        return (r.returncode, r.stderr, os.path.exists(out),
                os.path.exists(os.path.join(d, "stamp")), text)


def fields_of(lines):
    """The `key: value` lines after the opening comment (before '--- a/')."""
    row, in_comment = {}, False
    for line in lines:
        if line.startswith("--- a/"):
            break
        if line.startswith("/*"):
            in_comment = True
        if in_comment:
            in_comment = "*/" not in line
            continue
        if ": " in line:
            key, value = line.split(": ", 1)
            row[key] = value
    return row


def registry_rows(text):
    """[(name, alias or None, file, label, teaches)] of lab_kernels.h."""
    s = r'"((?:[^"\\]|\\.)*)"'
    pat = re.compile(r"^    X\(([A-Z_]+), " + s + r", (NULL|" + s + r"), " + s + r", " + s +
                     r", " + s + r", ", re.M)
    unescape = lambda t: re.sub(r"\\(.)", r"\1", t) if t is not None else None
    return [(unescape(m.group(2)), unescape(m.group(4)), unescape(m.group(5)),
             unescape(m.group(6)), unescape(m.group(7))) for m in pat.finditer(text)]


def check_registry(apply_py, base, base_row, gen_dir, diffs):
    with open(os.path.join(gen_dir, "lab_kernels.h"), encoding="utf-8") as f:
        rows = registry_rows(f.read())
    files = [base_row] + diffs
    check(len(rows) == len(files), f"lab_kernels.h has {len(rows)} rows for {len(files)} files")
    for (name, alias, file, label, teaches), path in zip(rows, files):
        want = fields_of(lines_of(path))
        stem = os.path.splitext(os.path.basename(path))[0]
        check(name == want.get("name"), f"{path}: row name {name!r}, file says {want.get('name')!r}")
        check(label == want.get("label") and teaches == want.get("teaches"),
              f"{path}: row label/teaches differ from the file's")
        check(alias == want.get("alias"), f"{path}: alias {alias!r}")
        if path == base_row:
            check(file == "kernels/hillis_steele.cu", f"the chapter's row names {file!r}")
        else:
            check(name == stem.replace("_", "-") and file == f"kernels/mistakes/{stem}.cu",
                  f"{path}: row {name!r} for {file!r}")
            with open(os.path.join(gen_dir, stem + ".cu"), encoding="utf-8") as f:
                gen = f.read()
            check("\nteaches: " not in gen and "\nname: " not in gen,
                  f"{stem}.cu carries no registry field")
    # Refusals, on the first diff's fields.
    text = "\n".join(lines_of(diffs[0]))
    stem = os.path.splitext(os.path.basename(diffs[0]))[0]
    rc, err, _, _, reg = run_apply(apply_py, base, text, base_row, stem)
    check(rc == 0 and reg and len(registry_rows(reg)) == 2, f"the diff's row as it is: {err}")
    label = next(l for l in text.split("\n") if l.startswith("label: "))
    name = next(l for l in text.split("\n") if l.startswith("name: "))
    bad = [
        (text.replace(label + "\n", ""), "registry field(s) missing: label"),
        (text.replace(label, label + "\ncolour: red"), "unknown field 'colour'"),
        (text.replace("\nracy: ", "\nracy: maybe\nx: "), "field 'racy' is 'maybe'"),
        (text.replace(name, "name: other-name"), "is not the file's name"),
        (text.replace(name, name + "\nname: again"), "field 'name' given twice"),
        (text.replace(label, label + " \u00e9"), "printable ASCII"),
        (text.replace(label, label + "\njust words"), "expected a registry field"),
        (text.replace(name, name + "\nalias: hillis-steele"), "only the chapter's kernel"),
    ]
    for edited, want in bad:
        rc, err, out, stamp, reg = run_apply(apply_py, base, edited, base_row, stem)
        check(rc != 0 and want in err and not stamp and reg is None,
              f"refused with {want!r}: rc {rc}, {err.strip()!r}")
    # A label with quotes, a backslash and '??=' (a trigraph in C11) reaches
    # C as written: the header compiled by the C compiler prints it back.
    tricky = 'say "x" \\ ??= y'
    rc, err, _, _, reg = run_apply(apply_py, base, text.replace(label, "label: " + tricky),
                                   base_row, stem)
    check(rc == 0 and reg and registry_rows(reg)[1][3] == tricky, f"a tricky label: {err}")
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("cc")
    if rc == 0 and reg and cc:
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "lab_kernels.h"), "w", encoding="utf-8") as f:
                f.write(reg)
            with open(os.path.join(d, "p.c"), "w", encoding="utf-8") as f:
                f.write('#include <stdbool.h>\n#include <stdio.h>\n#include "lab_kernels.h"\n'
                        '#define LABEL(id, n, a, f, label, ...) puts(label);\n'
                        'int main(void) { SV_KERNEL_ROWS(LABEL) return 0; }\n')
            r = subprocess.run([cc, "-std=c11", "-Wall", "-Werror", "-o", os.path.join(d, "p"),
                                os.path.join(d, "p.c")], capture_output=True, text=True)
            check(r.returncode == 0, f"the generated header compiles: {r.stderr}")
            if r.returncode == 0:
                out = subprocess.run([os.path.join(d, "p")], capture_output=True, text=True)
                check(out.stdout.split("\n")[1] == tricky,
                      f"C reads the label as written: {out.stdout.split(chr(10))[1]!r}")


def check_folder(apply_py, base, diff):
    """--folder (an exercise's folder, the tests' kernels): a diff becomes
    NAME.cu as without it, a text is copied, NAME=PATH copies PATH as NAME,
    and a diff that does not fit fails it."""
    name = os.path.splitext(os.path.basename(diff))[0]
    with tempfile.TemporaryDirectory() as d:
        text = os.path.join(d, "statement.txt")
        with open(text, "w", encoding="utf-8") as f:
            f.write("one line\n")
        out, alone = os.path.join(d, "out"), os.path.join(d, "alone")
        os.mkdir(out)
        os.mkdir(alone)
        r = subprocess.run([sys.executable, apply_py, "--folder", base, out, diff, text,
                            f"copy.cu={base}"], capture_output=True, text=True)
        check(r.returncode == 0, f"--folder: exit {r.returncode}: {r.stderr}")
        got = sorted(os.listdir(out))
        check(got == sorted([name + ".cu", "statement.txt", "copy.cu"]),
              f"--folder writes the files it is given: {got}")
        subprocess.run([sys.executable, apply_py, base, alone, os.path.join(alone, "stamp"), diff],
                       capture_output=True)
        if got == sorted([name + ".cu", "statement.txt", "copy.cu"]):
            check(lines_of(os.path.join(out, name + ".cu")) ==
                  lines_of(os.path.join(alone, name + ".cu")), "--folder applies as without it")
            check(lines_of(os.path.join(out, "copy.cu")) == lines_of(base), "NAME=PATH copies")
            check(lines_of(os.path.join(out, "statement.txt")) == ["one line", ""], "a text is copied")
        _, minus = plus_minus(lines_of(diff))
        lines = lines_of(base)
        k = lines.index(minus[0])
        lines[k] += " "
        edited = os.path.join(d, "base.cu")
        with open(edited, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        r = subprocess.run([sys.executable, apply_py, "--folder", edited, out, diff],
                           capture_output=True, text=True)
        check(r.returncode != 0 and f"line {k + 1} of" in r.stderr,
              f"--folder: a diff that does not fit fails, naming the line: {r.stderr}")


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    if len(argv) < 6:
        sys.exit(__doc__)
    apply_py, base, base_row, gen_dir, diffs = argv[1], argv[2], argv[3], argv[4], argv[5:]
    base_code = after_opening_comment(lines_of(base))

    for dp in diffs:
        name = os.path.splitext(os.path.basename(dp))[0]
        diff = lines_of(dp)
        gen = lines_of(os.path.join(gen_dir, name + ".cu"))
        check(gen[0].startswith(f"/* mistakes/{name.replace('_', '-')}:"),
              f"{name}.cu opens with its own comment, not {gen[0]!r}")
        code = after_opening_comment(gen)
        plus, minus = plus_minus(diff)
        # Align: walk both; a line of the base missing from the mistake must
        # be a - line, a line of the mistake missing from the base a + line.
        i = j = 0
        removed, added = [], []
        while i < len(base_code) or j < len(code):
            if i < len(base_code) and j < len(code) and base_code[i] == code[j]:
                i += 1
                j += 1
            elif i < len(base_code) and base_code[i] in minus and base_code[i] not in removed:
                removed.append(base_code[i])
                i += 1
            elif j < len(code) and code[j] in plus and code[j] not in added:
                added.append(code[j])
                j += 1
            else:
                check(False, f"{name}.cu: line {j + 1} after the opening comment "
                             f"({code[j] if j < len(code) else 'end'!r}) is neither the "
                             f"chapter's line ({base_code[i] if i < len(base_code) else 'end'!r}) "
                             f"nor a line of the diff")
                break
        check(sorted(added) == sorted(plus), f"{name}.cu has every + line of {name}.diff")
        check(sorted(removed) == sorted(minus), f"{name}.cu lacks every - line of {name}.diff")
        check(any("MISTAKE:" in l for l in plus), f"{name}.diff marks its change with MISTAKE:")

    check_registry(apply_py, base, base_row, gen_dir, diffs)
    check_folder(apply_py, base, diffs[0])

    # Strictness, on the first diff.
    text = "\n".join(lines_of(diffs[0]))
    plus, minus = plus_minus(lines_of(diffs[0]))
    rc, err, out, stamp, _ = run_apply(apply_py, base, text)
    check(rc == 0 and out and stamp, f"the diff applies as it is: {err}")
    with tempfile.TemporaryDirectory() as d:
        edited = os.path.join(d, "hillis_steele.cu")
        lines = lines_of(base)
        k = lines.index(minus[0])
        lines[k] = lines[k] + " "
        with open(edited, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        rc, err, out, stamp, _ = run_apply(apply_py, edited, text)
        check(rc != 0 and not out and not stamp, "a changed base line fails the build")
        check(f"line {k + 1} of" in err, f"the error names the line: {err}")
        lines = lines_of(base)
        lines.insert(k - 3, "")
        with open(edited, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        rc, err, _, _, _ = run_apply(apply_py, edited, text)
        check(rc != 0, "a hunk no longer at its line fails (no offsets, no fuzz)")
    head = next(l for l in text.split("\n") if l.startswith("@@"))
    nums = head.split(" ")[1]
    lying = text.replace(head, head.replace(nums, nums.split(",")[0] + ",99"), 1)
    rc, err, _, _, _ = run_apply(apply_py, base, lying)
    check(rc != 0 and "promises" in err, f"a wrong @@ count fails: {err}")
    headers = text[:text.index("@@")]
    rc, err, _, _, _ = run_apply(apply_py, base, headers + "@@ -2,1 +2,1 @@\n-" +
                              lines_of(base)[1] + "\n+ * changed\n")
    check(rc != 0 and "opening comment" in err, f"a hunk in the opening comment fails: {err}")
    rc, err, _, _, _ = run_apply(apply_py, base, headers)
    check(rc != 0 and "no hunks" in err, f"a diff without hunks fails: {err}")

    if failures:
        print(f"{failures} check(s) failed", file=sys.stderr)
        return 1
    print(f"ok: {len(diffs)} mistakes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
