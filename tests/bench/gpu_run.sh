#!/bin/bash
# One call on the GPU machine (docs/performance.md): build, check every scan
# against the CPU, compute-sanitizer memcheck and racecheck on modest sizes,
# the hs tuning run, the full benchmark with its CSV, and the capture cost.
# Usage (repo root, after `source .device-deps/env.sh`): tests/bench/gpu_run.sh OUTDIR [steps]
# steps: any of build test tune bench capture memcheck racecheck (default: all).
set -u
out=${1:?usage: gpu_run.sh OUTDIR [steps]}
shift
steps=${*:-build test tune bench capture memcheck racecheck}
b=/tmp/b
mkdir -p "$out"
has() { [[ " $steps " == *" $1 "* ]]; }
if has build; then
  meson setup $b -Dgui=disabled -Dcuda=enabled -Dgpu_archs=90 -Dbuildtype=release >/dev/null &&
  ninja -C $b src/cli/scanviz-bench tests/bench/test_bench_scans tests/bench/tune_hs >"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; exit 1; }
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
if has test; then
  echo "== test_bench_scans"; timeout 420 $b/tests/bench/test_bench_scans 2>&1 | tail -20
fi
if has tune; then
  echo "== tune_hs"; timeout 120 $b/tests/bench/tune_hs 30 2>&1 | tee "$out/tune_hs.txt"
fi
if has bench; then
  echo "== scanviz-bench"
  (cd "$out" && timeout 300 $b/src/cli/scanviz-bench --csv h200.csv > bench.txt 2>&1; echo "rc=$?" >> bench.txt)
  cat "$out/bench.txt"
fi
if has capture; then
  echo "== capture"; timeout 60 $b/src/cli/scanviz-bench --capture 2>&1 | tee "$out/capture.txt"
fi
if has memcheck; then
  echo "== memcheck"; timeout 150 compute-sanitizer --tool memcheck --leak-check full \
    $b/tests/bench/test_bench_scans --max 70000 2>&1 | tail -6
fi
if has racecheck; then
  echo "== racecheck"; timeout 150 compute-sanitizer --tool racecheck \
    $b/tests/bench/test_bench_scans --max 17000 2>&1 | tail -6
fi
