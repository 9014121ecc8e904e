#!/usr/bin/env python3
"""nvcc_agree.py: the warp-level kernel files (issue 30) as nvcc builds them on
the GPU, against scanviz's two runtimes: the CPU runtime (fibers) and the GPU
runtime (NVRTC, --backend cuda).

For each case of CASES below it writes seeded values, builds the kernel file
with nvcc_driver.cu (one binary per file, type and operator), runs it, and
asks scanviz-trace for the same run on both backends. It checks that
  - the three outputs are equal, bit for bit (a case the CPU runtime finds
    racy is reported, not failed: its output is the schedule's);
  - the kernel's printf lines are the same three times (as multisets);
  - a run the CPU runtime stops (exit 5) fails on nvcc too where CUDA
    reports it (assert), and fails on --backend cuda;
  - with --ncu, the CPU runtime's bank conflicts equal ncu's
    l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum / _st.sum for
    the cases marked "banks", and differ by what nvcc's 64-bit accesses
    explain for "banks-v2" (see CASES).
nvcc builds with --fmad=false, as both of scanviz's runtimes do (NVRTC is
given it; the CPU runtime never contracts): with nvcc's default, a * b + c
becomes one fused multiply-add, rounded once, and float outputs differ in
the last bit (ho_shfl_idx.cu's first * 1000.0f + rot did on the H200).

Usage: nvcc_agree.py SCANVIZ-TRACE KERNELS-DIR OUTDIR [--ncu]
(SV_AGREE_ONLY=TEXT: only the cases whose kernel's name holds TEXT)
(KERNELS-DIR: the build's tests/kernels; the exercises' solutions are the
same build's assets/exercises/NAME/solution.cu, the held-out files heldout/
here). Exit 0: all agree;
1: a difference (listed); 77: no nvcc or no GPU here.
"""
import concurrent.futures as cf
import json
import os
import random
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NVCC = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
NCU = os.environ.get("NCU", shutil.which("ncu") or "/usr/local/cuda/bin/ncu")
OPS = {"sum": 0, "max": 1, "min": 2, "product": 3, "xor": 4}

# (file, entry as nvcc calls it, type, op, exclusive, sizes, what to check)
# what: "out" outputs (and printf), "fail" the run stops (in[3] = 1000), "banks"
# also ncu's counts, equal; "banks-v2" ncu's n / 32 fewer loads and stores: nvcc
# joins the two 32-bit accesses of temp[2 * thid] and temp[2 * thid + 1] (the
# staging and the final read of GPU Gems 3's kernel) into one 64-bit access,
# which takes two wavefronts and no conflict, where scanviz counts each 32-bit
# access as written, a 2-way conflict in each of the n / 64 warps
CASES = [
    ("warp_scan.cu", "warp_scan", "int32", "sum", False, [1, 5, 32], "out"),
    ("block_warp_scan.cu", "block_warp_scan", "int32", "sum", False, [32, 100, 1024], "out"),
    ("ballot_popc.cu", "ballot_popc", "int32", "sum", False, [32, 64, 1024], "out"),
    ("atomic_hist.cu", "atomic_hist", "int32", "sum", False, [32, 256, 1024], "out"),
    ("atomic_ops.cu", "atomic_ops", "int32", "sum", False, [32, 256], "out"),
    ("syncthreads_count.cu", "syncthreads_count", "int32", "sum", False, [32, 300, 1024], "out"),
    ("warp_misc.cu", "warp_misc", "int32", "sum", False, [32, 64], "out"),
    ("warp_syncwarp.cu", "warp_syncwarp", "int32", "sum", False, [5, 32], "out"),
    ("printf_scan.cu", "printf_scan", "int32", "sum", False, [8, 40], "out"),
    ("warp_scan_skip.cu", "warp_scan_skip", "int32", "sum", False, [32], "out"),
    ("bank_pairs.cu", "bank_pairs", "int32", "sum", False, [8, 64], "banks"),
    ("assert_fails.cu", "assert_fails", "int32", "sum", False, [32], "fail"),
    # the held-out set of this check: a student's week of warp-level CUDA
    ("ho_butterfly.cu", "ho_butterfly", "int32", "sum", False, [32, 256, 1024], "out"),
    ("ho_seg16.cu", "ho_seg16", "int32", "sum", False, [16, 32, 1024], "out"),
    ("ho_block_scan.cu", "ho_block_scan<int>", "int32", "sum", False, [32, 40, 1024], "out"),
    ("ho_block_scan.cu", "ho_block_scan<int>", "int32", "max", False, [1000], "out"),
    ("ho_block_scan.cu", "ho_block_scan<float>", "float32", "sum", False, [33, 1024], "out"),
    ("ho_block_scan.cu", "ho_block_scan<float>", "float32", "product", False, [64], "out"),
    ("ho_reduce_atomic.cu", "ho_reduce_atomic", "int32", "sum", False, [32, 512], "out"),
    ("ho_compact.cu", "ho_compact", "int32", "sum", False, [32, 96, 1024], "out"),
    ("ho_cas_fmax.cu", "ho_cas_fmax", "float32", "sum", False, [32, 1024], "out"),
    ("ho_votes.cu", "ho_votes", "int32", "sum", False, [32, 64, 1024], "out"),
    ("ho_sync_or.cu", "ho_sync_or", "int32", "sum", False, [1, 37, 1024], "out"),
    ("ho_bits.cu", "ho_bits", "int32", "sum", False, [32, 1024], "out"),
    ("ho_fscan.cu", "ho_fscan", "float32", "sum", False, [32, 1024], "out"),
    ("ho_ctable.cu", "ho_ctable", "int32", "sum", False, [32, 100], "out"),
    ("ho_shfl_idx.cu", "ho_shfl_idx", "float32", "sum", False, [32, 64], "out"),
    ("ho_active.cu", "ho_active", "int32", "sum", False, [40, 77, 1024], "out"),
    ("ho_active_branch.cu", "ho_active_branch", "int32", "sum", False, [8, 40, 1024], "out"),
    ("ho_reduce.cu", "ho_reduce", "int32", "sum", False, [32, 64, 1024], "out"),
    ("ho_intops.cu", "ho_intops", "int32", "sum", False, [32, 1024], "out"),
    ("ho_syncwarp_ws.cu", "ho_syncwarp_ws", "int32", "sum", False, [32, 1024], "banks"),
    ("ho_stride.cu", "ho_stride", "int32", "sum", False, [32, 64, 1024], "banks"),
    ("ho_bl_nopad.cu", "ho_bl_nopad", "int32", "sum", True, [64, 256, 1024], "banks-v2"),
    ("ho_bl_pad.cu", "ho_bl_pad", "int32", "sum", True, [64, 256, 1024], "banks"),
    ("ho_bl_macro.cu", "ho_bl_macro", "int32", "sum", True, [64, 256, 1024], "banks"),
    # the exercises' solutions (issue 30's three; the files the grader checks)
    ("ex:warp-scan", None, "int32", "sum", False, [32], "out"),
    ("ex:warp-blocks", None, "int32", "sum", False, [64, 1024], "out"),
    # (one warp: past 32 lanes its 0xffffffffu >> (31 - i) shifts by a negative
    # count, which C++ leaves undefined: PTX's shr clamps it, x86 takes it
    # mod 32, and the outputs differ from lane 32 on)
    ("ex:ballot-flags", None, "int32", "sum", False, [20, 32], "out"),
    ("ex:conflict-free", None, "int32", "sum", True, [64, 1024], "banks"),
    ("exs:conflict-free", None, "int32", "sum", True, [256, 1024], "banks"),
    # the lecture's shuffle scan (assets/scripts/shuffle-scan.txt shows it beside the chapter's)
    ("src:assets/scripts/shuffle-scan.cu", None, "int32", "sum", False, [8, 32, 1024], "out"),
]


def values(n, ty, seed):
    r = random.Random(seed * 7919 + n)
    if ty == "int32":
        v = [r.randint(-20, 99) for _ in range(n)]
        return v, [str(x) for x in v], ["%08x" % (x & 0xFFFFFFFF) for x in v]
    v = [struct.unpack("<f", struct.pack("<f", r.uniform(-4, 9)))[0] for _ in range(n)]
    return v, ["%.9g" % x for x in v], ["%08x" % struct.unpack("<I", struct.pack("<f", x))[0] for x in v]


def bits_of(x, ty):
    if x is None:
        return None
    if ty == "int32":
        return "%08x" % (int(x) & 0xFFFFFFFF)
    if isinstance(x, str):
        x = float(x)
    return "%08x" % struct.unpack("<I", struct.pack("<f", x))[0]


def kernel_path(kdir, name):
    if name.startswith(("ex:", "exs:")):
        build = os.path.dirname(os.path.dirname(os.path.abspath(kdir)))
        return os.path.join(build, "assets", "exercises", name.split(":")[1],
                            "start.cu" if name.startswith("exs:") else "solution.cu")
    if name.startswith("src:"):
        return os.path.join(ROOT, name[4:])
    p = os.path.join(kdir, name)
    return p if os.path.exists(p) else os.path.join(HERE, "heldout", name)


def entry_of(path):
    """The __global__ function's name (the exercises' solutions are plain ones)."""
    toks = open(path).read().split()
    for i, t in enumerate(toks):
        if t == "__global__" and i + 2 < len(toks):
            return toks[i + 2].split("(")[0]
    return None


def build(job):
    path, entry, ty, op, ex, binp = job
    ct = "int" if ty == "int32" else "float"
    cmd = [NVCC, "-arch=sm_90", "-O3", "-lineinfo", "--fmad=false", "--expt-relaxed-constexpr", "-w",
           "-I", os.path.join(ROOT, "src", "runtime"),
           "-DSV_KFILE=\"%s\"" % path, "-DSV_ENTRY=%s" % entry, "-DSV_T=%s" % ct,
           "-DSV_SCAN_OP=%d" % OPS[op], "-DSV_SCAN_EXCLUSIVE=%d" % int(ex),
           "-o", binp, os.path.join(HERE, "nvcc_driver.cu")]
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stderr[-2000:]


def ncu_counts(binp, hexfile):
    cmd = [NCU, "--csv", "--metrics",
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,"
           "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", binp, hexfile]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    ld = st = None
    for line in p.stdout.splitlines():
        cols = [c.strip('"') for c in line.split('","')]
        if len(cols) < 3:
            continue
        if cols[-3].endswith("op_ld.sum"):
            ld = int(float(cols[-1].replace(",", "")))
        elif cols[-3].endswith("op_st.sum"):
            st = int(float(cols[-1].replace(",", "")))
    return ld, st, (p.stdout + p.stderr)[-1500:]


def scanviz(trace, path, ty, op, ex, decfile, backend, out):
    cmd = [trace, "--kernel-file", path, "--file", decfile, "--op", op, "--type", ty,
           "--backend", backend, "--format", "json", "-o", out]
    if ex:
        cmd.append("--exclusive")
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    d = None
    if os.path.exists(out):
        try:
            d = json.load(open(out))
        except ValueError:
            d = None
    return p.returncode, d, p.stderr.strip()[-600:]


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    trace, kdir, out = (os.path.abspath(a) for a in sys.argv[1:4])
    use_ncu = "--ncu" in sys.argv[4:] and bool(NCU) and os.access(NCU, os.X_OK)
    if not os.access(NVCC, os.X_OK):
        print("nvcc_agree: no nvcc at %s: skipped" % NVCC)
        return 77
    try:
        gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True).returncode == 0
    except OSError:
        gpu = False
    if not gpu:
        print("nvcc_agree: no GPU (nvidia-smi -L finds none): skipped")
        return 77
    if "--ncu" in sys.argv[4:] and not use_ncu:
        print("nvcc_agree: no ncu (%s): bank conflicts not compared" % NCU)
    os.makedirs(out, exist_ok=True)
    only = os.environ.get("SV_AGREE_ONLY")  # a part of the kernels' names: those cases only
    cases = [c for c in CASES if not only or only in c[0]]
    jobs, seen = [], {}
    for c in cases:
        path = kernel_path(kdir, c[0])
        entry = c[1] or entry_of(path)
        key = (path, entry, c[2], c[3], c[4])
        if key not in seen:
            binp = os.path.join(out, "bin-%d" % len(seen))
            seen[key] = binp
            jobs.append(key + (binp,))
    with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as pool:
        built = dict(zip([j[:5] for j in jobs], pool.map(build, jobs)))
    bad, rows, report = 0, [], []
    for ci, c in enumerate(cases):
        name, _, ty, op, ex, sizes, what = c
        path = kernel_path(kdir, name)
        key = (path, c[1] or entry_of(path), ty, op, ex)
        rc_b, err_b = built[key]
        if rc_b != 0:
            bad += 1
            rows.append("%-22s nvcc does not build it: %s" % (name, err_b.strip()[:400]))
            continue
        for n in sizes:
            base = os.path.join(out, "case-%d-%d" % (ci, n))
            v, dec, hx = values(n, ty, ci + 1)
            if what == "fail" and n > 3:
                dec[3], hx[3] = "1000", "%08x" % 1000
            open(base + ".txt", "w").write("\n".join(dec) + "\n")
            open(base + ".hex", "w").write("\n".join(hx) + "\n")
            p = subprocess.run([seen[key], base + ".hex"], capture_output=True, text=True, timeout=60)
            lines = p.stdout.splitlines()
            nv_out = lines[lines.index("sv-out") + 1:] if "sv-out" in lines else None
            nv_pf = sorted(lines[:lines.index("sv-out")]) if nv_out is not None else None
            rc_c, dc, err_c = scanviz(trace, path, ty, op, ex, base + ".txt", "cpu", base + "-cpu.json")
            rc_g, dg, err_g = scanviz(trace, path, ty, op, ex, base + ".txt", "cuda", base + "-gpu.json")
            cpu_out = [bits_of(x, ty) for x in dc["output"]] if dc and dc.get("output") else None
            gpu_out = [bits_of(x, ty) for x in dg["output"]] if dg and dg.get("output") else None
            racy = bool(dc and dc.get("hazards_total"))
            pf = lambda d: sorted(x["text"] for x in (d or {}).get("printf") or [])
            verdict, notes = "agree", []
            if what == "fail":
                if rc_c != 5 or rc_g != 5 or p.returncode != 5:
                    verdict = "DIFFER"
                notes.append("stops: cpu %d, cuda %d, nvcc %d" % (rc_c, rc_g, p.returncode))
            else:
                if rc_c not in (0, 4) or rc_g not in (0, 4):
                    verdict = "DIFFER"
                    notes.append("cpu exit %d (%s), cuda exit %d (%s)" % (rc_c, err_c[:200], rc_g, err_g[:200]))
                elif not (cpu_out == gpu_out == nv_out):
                    first = next((i for i in range(n) if not (
                        cpu_out and gpu_out and nv_out and cpu_out[i] == gpu_out[i] == nv_out[i])), 0)
                    verdict = "racy" if racy else "DIFFER"
                    notes.append("cell %d: cpu %s, cuda %s, nvcc %s" % (
                        first, cpu_out and cpu_out[first], gpu_out and gpu_out[first],
                        nv_out and nv_out[first] if nv_out else p.stdout[-200:]))
                if pf(dc) != nv_pf or pf(dg) != nv_pf:
                    verdict = "DIFFER"
                    notes.append("printf: cpu %d lines, cuda %d, nvcc %s" % (
                        len(pf(dc)), len(pf(dg)), None if nv_pf is None else len(nv_pf)))
                notes.append("exit %d/%d%s" % (rc_c, rc_g, ", racy" if racy else ""))
            banks = None
            if what.startswith("banks") and use_ncu and dc:
                ld, st, log = ncu_counts(seen[key], base + ".hex")
                b = dc.get("bank_conflicts") or {}
                banks = {"cpu": [b.get("loads"), b.get("stores")], "ncu": [ld, st]}
                less = n // 32 if what == "banks-v2" else 0
                if ld is None or st is None or [b.get("loads") - less, b.get("stores") - less] != [ld, st]:
                    verdict = "DIFFER"
                    if ld is None:
                        notes.append("ncu: " + log.replace("\n", " ")[-300:])
                notes.append("banks cpu %s/%s ncu %s/%s%s" % (b.get("loads"), b.get("stores"), ld, st,
                             " (64-bit pairs: %d fewer)" % less if less else ""))
            if verdict == "DIFFER":
                bad += 1
            rows.append("%-22s %-7s %-5s %-7s n=%-5d %-6s %s" % (
                name, ty, op, "excl" if ex else "incl", n, verdict, "; ".join(notes)))
            report.append({"kernel": name, "type": ty, "op": op, "exclusive": ex, "n": n,
                           "verdict": verdict, "exit": [rc_c, rc_g, p.returncode], "banks": banks})
    text = "\n".join(rows) + "\n%d cases, %d differ\n" % (len(rows), bad)
    print(text, end="")
    open(os.path.join(out, "agree.txt"), "w").write(text)
    json.dump(report, open(os.path.join(out, "agree.json"), "w"), indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
