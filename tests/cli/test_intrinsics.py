"""CUDA's integer intrinsics and the sm_80 warp reductions in a kernel file,
as a user runs them: tests/gpu/heldout/ho_intops.cu and ho_reduce.cu through
scanviz-trace on the CPU runtime, under three schedules, at n = 32, 64 and
1024, against each intrinsic computed here from CUDA's math API reference
(__umulhi, __mulhi, __mul24, __umul24, __sad, __usad, __hadd, __rhadd,
__uhadd, __urhadd, __byte_perm, the funnel shifts, __umul64hi, __mul64hi,
__saturatef; __reduce_add/min/max/and/or/xor_sync over a warp and over a
mask of 8 lanes), and ho_votes.cu and ho_active_branch.cu (__activemask in
straight-line code and in a branch, as a converged warp runs it) at n = 8,
40 and 64. The same files are in the GPU check (nvcc_agree.py).

Usage: test_intrinsics.py SCANVIZ_TRACE HELDOUT_DIR"""
import json
import os
import random
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from expect import check, report  # noqa: E402

TRACE, HELD = sys.argv[1], sys.argv[2]
M32, M64 = (1 << 32) - 1, (1 << 64) - 1


def s32(x):
    x &= M32
    return x - (1 << 32) if x >> 31 else x


def s64(x):
    x &= M64
    return x - (1 << 64) if x >> 63 else x


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def byte_perm(x, y, s):
    b = (y << 32) | x
    return sum(((b >> (8 * ((s >> (4 * k)) & 7))) & 0xFF) << (8 * k) for k in range(4))


def fsl(lo, hi, sh):
    return ((((hi << 32) | lo) << (sh & 31)) >> 32) & M32


def fsr(lo, hi, sh):
    return (((hi << 32) | lo) >> (sh & 31)) & M32


def saturate(x):
    return 1.0 if x >= 1.0 else (x if x > 0.0 else 0.0)


def intops(inp):
    out = []
    for i, x in enumerate(inp):
        v = s32(x * 40503 - 1000000)
        u = v & M32
        r = ((u * 0x9E3779B9) >> 32) ^ (((v * -77777) >> 32) & M32)
        m24 = lambda a: ((a & 0xFFFFFF) ^ 0x800000) - 0x800000
        r += ((m24(v) * m24(-3000)) & M32) ^ (((u & 0xFFFFFF) * 0xFFFFF1) & M32)
        r += ((abs(v + 5) + 1) & M32) ^ ((abs(u - 123456) + 2) & M32)
        r += (((v + 2147483000) >> 1) & M32) ^ (((v - 2147483000 + 1) >> 1) & M32) \
            ^ ((u + 0xFFFFFFF0) >> 1) ^ ((u + 3 + 1) >> 1)
        r += byte_perm(u, 0x11223344, (0x7531 + i) & M32) ^ byte_perm(u, ~u & M32, 0x3210)
        r += fsl(u, 0xABCD, i) ^ fsr(u, 0xABCD, i * 3)
        sh = i * 2
        r += (u if sh >= 32 else fsl(u, 0x1234, sh)) ^ (0x1234 if sh >= 32 else fsr(u, 0x1234, sh))
        r += ((0xFEDCBA9876543210 * ((u * 977) & M64)) >> 64 >> 7) & M32
        r += ((-0x123456789ABCD * s64(v * 31)) >> 64) & M32
        q = f32(f32(f32(float(x)) / 50.0) - 0.5)
        r += int(f32(saturate(q) * 1000.0))
        out.append(s32(r))
    return out


def reduce_ref(inp):
    out = []
    for i, v in enumerate(inp):
        w = inp[i - i % 32:i - i % 32 + 32]
        base = i - i % 32
        s = sum(w)
        mn = min(w)
        mx = max(x & M32 for x in w)
        x = 0
        o = 0
        a = M32
        for k, y in enumerate(w):
            x ^= y & M32
            o |= base + k
            a &= (y & M32) | 0x100
        part = max(w[:8]) if i % 32 < 8 else 0
        out.append(s32(s + 1000 * mn + (mx & 0xFF) + (x ^ o) + a + 7 * part))
    return out


def votes_ref(inp):
    """ho_votes.cu: __any_sync, __all_sync and __activemask (a converged warp: all its lanes)."""
    out = []
    for i, v in enumerate(inp):
        w = inp[i - i % 32:i - i % 32 + 32]
        a = any(x > 90 for x in w)
        b = all(x >= 0 for x in w)
        out.append(a * 100 + b * 10 + (len(w) == 32))
    return out


def branch_ref(inp):
    """ho_active_branch.cu: __activemask on each side of a branch: that side's lanes."""
    out = []
    for i, v in enumerate(inp):
        w = inp[i - i % 32:i - i % 32 + 32]
        side = sum(1 << k for k, x in enumerate(w) if x % 2 == v % 2)
        out.append(s32(side if v % 2 == 0 else ~side))
    return out


def run(name, inp, sched):
    p = subprocess.run([TRACE, "--kernel-file", os.path.join(HELD, name), "--input",
                        " ".join(map(str, inp)), "--schedule", sched, "--format", "json"],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 4, f"{name} n={len(inp)} {sched}: exit {p.returncode} (want 4: not a "
          f"scan), {p.stderr.strip()[:300]}")
    try:
        return json.loads(p.stdout)
    except ValueError:
        return None


def main():
    rnd = random.Random(30)
    for n in (32, 64, 1024):
        inp = [rnd.randint(-60, 99) for _ in range(n)]
        for name, ref in (("ho_intops.cu", intops), ("ho_reduce.cu", reduce_ref)):
            want = ref(inp)
            for sched in ("sequential", "reverse", "random:5"):
                d = run(name, inp, sched)
                if not d:
                    continue
                got = d.get("output")
                first = next((k for k in range(n) if got[k] != want[k]), None)
                check(first is None, f"{name} n={n} {sched}: cell {first}: {got[first] if first is not None else ''} "
                      f"where CUDA gives {want[first] if first is not None else ''}")
                check(d.get("hazards_total") == 0, f"{name} n={n} {sched}: hazards {d.get('hazards_total')}")
    for n in (8, 40, 64):
        inp = [rnd.randint(-5, 99) for _ in range(n)]
        for name, ref in (("ho_votes.cu", votes_ref), ("ho_active_branch.cu", branch_ref)):
            want = ref(inp)
            for sched in ("sequential", "reverse", "random:5", "lockstep"):
                d = run(name, inp, sched)
                if d:
                    check(d.get("output") == want, f"{name} n={n} {sched}: {d.get('output')} where "
                          f"a converged warp gives {want}")
    return report("the integer intrinsics, the warp reductions and __activemask as CUDA defines them")


if __name__ == "__main__":
    sys.exit(main())
