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

usage: test_mistakes.py APPLY_PY HILLIS_STEELE_CU GENERATED_DIR DIFF...
"""
import os
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


def run_apply(apply_py, base, diff_text):
    with tempfile.TemporaryDirectory() as d:
        dp = os.path.join(d, "m.diff")
        with open(dp, "w", encoding="utf-8") as f:
            f.write(diff_text)
        r = subprocess.run([sys.executable, apply_py, base, d, os.path.join(d, "stamp"), dp],
                           capture_output=True, text=True)
        out = os.path.join(d, "m.cu")
        return r.returncode, r.stderr, os.path.exists(out), os.path.exists(os.path.join(d, "stamp"))


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    apply_py, base, gen_dir, diffs = argv[1], argv[2], argv[3], argv[4:]
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

    # Strictness, on the first diff.
    text = "\n".join(lines_of(diffs[0]))
    plus, minus = plus_minus(lines_of(diffs[0]))
    rc, err, out, stamp = run_apply(apply_py, base, text)
    check(rc == 0 and out and stamp, f"the diff applies as it is: {err}")
    with tempfile.TemporaryDirectory() as d:
        edited = os.path.join(d, "hillis_steele.cu")
        lines = lines_of(base)
        k = lines.index(minus[0])
        lines[k] = lines[k] + " "
        with open(edited, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        rc, err, out, stamp = run_apply(apply_py, edited, text)
        check(rc != 0 and not out and not stamp, "a changed base line fails the build")
        check(f"line {k + 1} of" in err, f"the error names the line: {err}")
        lines = lines_of(base)
        lines.insert(k - 3, "")
        with open(edited, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        rc, err, _, _ = run_apply(apply_py, edited, text)
        check(rc != 0, "a hunk no longer at its line fails (no offsets, no fuzz)")
    head = next(l for l in text.split("\n") if l.startswith("@@"))
    nums = head.split(" ")[1]
    lying = text.replace(head, head.replace(nums, nums.split(",")[0] + ",99"), 1)
    rc, err, _, _ = run_apply(apply_py, base, lying)
    check(rc != 0 and "promises" in err, f"a wrong @@ count fails: {err}")
    headers = text[:text.index("@@")]
    rc, err, _, _ = run_apply(apply_py, base, headers + "@@ -2,1 +2,1 @@\n-" +
                              lines_of(base)[1] + "\n+ * changed\n")
    check(rc != 0 and "opening comment" in err, f"a hunk in the opening comment fails: {err}")
    rc, err, _, _ = run_apply(apply_py, base, headers)
    check(rc != 0 and "no hunks" in err, f"a diff without hunks fails: {err}")

    if failures:
        print(f"{failures} check(s) failed", file=sys.stderr)
        return 1
    print(f"ok: {len(diffs)} mistakes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
