#!/usr/bin/env python3
"""The CPU runtime's hook ABI, checked on each compiler found: a kernel file
compiled with the runtime's flags (src/runtime/cpu_compile.h) and its header
(src/runtime/cuda_cpu.h) may leave undefined only the C library's names,
never a __tsan_* hook the header does not define (`nm -u`), and the header's
hooks must be what the instrumentation calls (`nm` lists them defined).

usage: test_hooks.py RT_RUN CUDA_CPU_H KERNEL.cu[:ENTRY[:TYPE]] ...
"""
import os
import shutil
import subprocess
import sys
import tempfile

FLAGS = ["-std=c++17", "-O1", "-g1", "-fPIC", "-fsanitize=thread", "-fno-exceptions",
         "-fno-rtti", "-fno-threadsafe-statics", "-fno-omit-frame-pointer"]
ALLOWED = {"memcpy", "memmove", "memset", "malloc", "free", "_GLOBAL_OFFSET_TABLE_"}


def main(argv):
    rt_run, header, kernels = argv[1], argv[2], argv[3:]
    compilers = [c for c in ("g++", "clang++") if shutil.which(c)]
    nm = shutil.which("nm")
    if not compilers or not nm:
        print("skip: no C++ compiler or no nm")
        return 77
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for cxx in compilers:
            for spec in kernels:
                k, _, rest = spec.partition(":")
                entry, _, typ = rest.partition(":")
                args = [rt_run, k, "--type", typ or "int32"]
                if entry:
                    args += ["--entry", entry]
                text = subprocess.run(args + ["--cpu-text"], capture_output=True, text=True)
                if text.returncode != 0:
                    print(f"{k}: the scan refused it: {text.stderr}")
                    failures += 1
                    continue
                cc = os.path.join(tmp, os.path.basename(k) + ".cc")
                with open(cc, "w") as f:
                    f.write(text.stdout)
                obj = os.path.join(tmp, os.path.basename(k) + "." + cxx + ".o")
                # (cpu_compile.c adds this flag for clang: every load recorded)
                fam = (["-mllvm", "-tsan-instrument-read-before-write"] if "clang" in cxx
                       else ["-fno-tree-fre"])
                r = subprocess.run([cxx] + FLAGS + fam + ["-include", header, "-x", "c++", "-c", cc,
                                                    "-o", obj], capture_output=True, text=True)
                if r.returncode != 0:
                    print(f"{cxx} {k}: does not compile:\n{r.stderr}")
                    failures += 1
                    continue
                und = subprocess.run([nm, "-u", obj], capture_output=True, text=True).stdout
                names = {line.split()[-1] for line in und.splitlines() if line.strip()}
                bad = sorted(n for n in names if n.startswith("__tsan") or
                             (n not in ALLOWED and not n.startswith("_Unwind") and
                              not n.startswith("__gcc_personality")))
                if bad:
                    print(f"{cxx} {k}: undefined {bad}")
                    failures += 1
                defined = subprocess.run([nm, "--defined-only", obj], capture_output=True,
                                         text=True).stdout
                if "__tsan_read4" not in defined or "__tsan_write4" not in defined:
                    print(f"{cxx} {k}: the header's hooks are not in the object")
                    failures += 1
    print(f"{len(compilers)} compiler(s), {len(kernels)} kernel(s), {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
