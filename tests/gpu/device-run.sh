#!/usr/bin/env bash
# The GPU machine's run, recorded in docs/gpu-runs.md: release build, the gpu
# and core suites, scanviz-trace --verify on the GPU, the chapter's kernel file,
# the mistakes and Blelloch through the runtime's one GPU path, --racecheck,
# an exercise, and the capture's cost (scanviz-bench --capture).
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

K=tests/kernels
step "the chapter's kernel file, every mistake and Blelloch on the GPU (one path)"
"$T" --kernel-file kernels/hillis_steele.cu --backend cuda --random 1024 --seed 2 --op max --type float32 --exclusive | tail -4; echo "exit $?"
for k in correct in-place no-barrier in-place-no-barrier no-else no-guard off-by-one pout-accumulate; do
  echo "-- $k"; "$T" --kernel "$k" --backend cuda --random 256 --seed 4 --runs 100 --shake | grep -E "runs|wrong|first" | head -3; echo "exit ${PIPESTATUS[0]}"
done
"$T" --kernel blelloch --backend cuda --exclusive --random 1000 --seed 9 | tail -3; echo "exit $?"
step "a kernel file with --racecheck on the GPU"
"$T" --kernel-file "$b/tests/kernels/in_place_race.cu" --backend cuda --random 64 --seed 3 --racecheck | tail -6; echo "exit $?"
step "an exercise's output round on the GPU"
for e in round-one any-n float; do
  "$T" --exercise "$e" --kernel-file "$b/assets/exercises/$e/solution.cu" --backend cuda >"$out/ex-$e.txt" 2>&1; echo "$e exit $?"; tail -2 "$out/ex-$e.txt"
done
step "scanviz-bench --capture (the whole capture through the one path)"
"$b/src/cli/scanviz-bench" --capture --reps 20 2>&1 | tail -12; echo "exit $?"
step "done"
