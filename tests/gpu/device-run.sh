#!/usr/bin/env bash
# The GPU machine's run, recorded in docs/gpu-runs.md: release build, the gpu
# and core suites, scanviz-trace --verify on the GPU, the capture cost, and
# compute-sanitizer (memcheck, racecheck, synccheck, initcheck) on the kernel.
# Usage (from the project root, on the GPU machine): tests/gpu/device-run.sh [OUTDIR]
set -uo pipefail
out=${1:-/tmp/sv-gpu-run}
mkdir -p "$out"
b=/tmp/sv-gpu-build
exec > >(tee "$out/gpu-run.txt") 2>&1

step() { echo; echo "### $*"; }

step "machine"
date -u +%Y-%m-%dT%H:%M:%SZ
nvidia-smi --query-gpu=name,driver_version,memory.total,compute_cap --format=csv,noheader
nvcc --version | tail -2

step "build (release, CUDA, sm_90)"
meson setup "$b" -Dgui=disabled -Dcuda=enabled -Dgpu_archs=90 -Dbuildtype=release \
  >"$out/setup.log" 2>&1 || { tail -40 "$out/setup.log"; exit 1; }
ninja -C "$b" >"$out/build.log" 2>&1 || { tail -60 "$out/build.log"; exit 1; }
grep -Ei "warning" "$out/build.log" | head -20

step "meson test --suite gpu --suite core"
meson test -C "$b" --suite gpu --suite core --print-errorlogs 2>&1 | grep -Ev "^(ninja|Full log)"
cp "$b/meson-logs/testlog.txt" "$out/testlog.txt"
for t in test_capture test_gpu_trace test_blelloch_gpu; do step "$t"; "$b/tests/gpu/$t"; echo "exit $?"; done

T="$b/src/cli/scanviz-trace"
step "scanviz-trace --backend cuda --verify --random 1000 --seed 7"
"$T" --backend cuda --verify --random 1000 --seed 7; echo "exit $?"
step "scanviz-trace --backend cuda --verify --random 1000 --seed 7 --type float32 --exclusive"
"$T" --backend cuda --verify --random 1000 --seed 7 --type float32 --exclusive; echo "exit $?"
step "scanviz-trace --backend cuda --verify --random 1024 --seed 3 --op product"
"$T" --backend cuda --verify --random 1024 --seed 3 --op product; echo "exit $?"
step "chapter example on the GPU"
"$T" --backend cuda --format json -o "$out/chapter-cuda.json"; echo "exit $?"
"$T" --open "$out/chapter-cuda.json" | head -24

CS=$(command -v compute-sanitizer || echo /usr/local/cuda/compute-sanitizer/compute-sanitizer)
san() { local tool=$1; shift; step "compute-sanitizer --tool $tool $*";
        "$CS" --tool "$tool" --error-exitcode 9 "$@" >"$out/san-$tool.log" 2>&1; local rc=$?;
        tail -n 3 "$out/san-$tool.log"; echo "exit $rc"; }
san memcheck "$b/tests/gpu/test_gpu_trace" 64
san racecheck "$b/tests/gpu/test_gpu_trace" 40
san synccheck "$b/tests/gpu/test_gpu_trace" 40
san initcheck "$T" --backend cuda --verify --random 1024 --seed 7
step "compute-sanitizer --tool racecheck at n = 1024"
"$CS" --tool racecheck --error-exitcode 9 "$T" --backend cuda --verify --random 1024 --seed 5 \
  --type float32 2>&1 | tail -n 3; echo "exit $?"
step "done"
