#!/bin/bash
# One call on the GPU machine (docs/performance.md): build, check every scan
# against the CPU, compute-sanitizer memcheck and racecheck on modest sizes,
# the hs tuning run, the full benchmark with its CSV, the capture cost, and
# ncu's view of hs and cub at 2^28.
# Usage (repo root, after `source .device-deps/env.sh`): tests/bench/gpu_run.sh OUTDIR [steps]
# steps: any of build test tune sweep bench capture memcheck racecheck ncu
# (default: all but sweep). sweep: tune_hs in int32 and float32 at the sizes
# of SV_SWEEP_SIZES (the data behind hs's size-dependent choice). SV_BUILD=DIR uses binaries built elsewhere (leave out build);
# SV_TEST_MAX=N passes --max N to the test (default: every size, to 2^31 - 1).
set -u
out=${1:?usage: gpu_run.sh OUTDIR [steps]}
shift
steps=${*:-build test tune bench capture memcheck racecheck ncu}
b=${SV_BUILD:-/tmp/b}
b=$(cd "$(dirname "$b")" && pwd)/$(basename "$b")
mkdir -p "$out"
has() { [[ " $steps " == *" $1 "* ]]; }
if has build; then
  meson setup $b -Dgui=disabled -Dcuda=enabled -Dgpu_archs=90 -Dbuildtype=release >/dev/null &&
  ninja -C $b src/cli/scanviz-bench tests/bench/test_bench_scans tests/bench/tune_hs >"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; exit 1; }
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
if has test; then
  echo "== test_bench_scans ${SV_TEST_MAX:+--max $SV_TEST_MAX}"
  timeout 420 $b/tests/bench/test_bench_scans ${SV_TEST_MAX:+--max "$SV_TEST_MAX"} 2>&1 | tail -20
fi
if has tune; then
  echo "== tune_hs"; timeout 120 $b/tests/bench/tune_hs ${SV_TUNE_REPS:-30} 2>&1 | tee "$out/tune_hs.txt"
fi
if has sweep; then
  sz=${SV_SWEEP_SIZES:-65536,262144,1000003,1048576,2097152,4194304,8388608,16777216,33554432,67108864,268435456}
  for ty in int32 float32; do
    echo "== tune_hs $ty"
    timeout 200 $b/tests/bench/tune_hs ${SV_TUNE_REPS:-20} $ty $sz 2>&1 | tee "$out/sweep_$ty.txt"
  done
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
if has ncu; then
  # The check run of each (the first launch) at 2^28, int32; clocks left alone.
  echo "== ncu"; timeout 120 ncu --clock-control none --section SpeedOfLight --section Occupancy \
    --section WarpStateStats --section LaunchStats \
    --metrics dram__bytes_read.sum.per_second,dram__bytes_write.sum.per_second \
    -k regex:'hs_pipe|DeviceScanKernel' -c 2 \
    $b/src/cli/scanviz-bench --algo cub,hs --sizes 2^28 --reps 1 > "$out/ncu.txt" 2>&1
  grep -E 'hs_pipe|DeviceScanKernel|Duration|DRAM Throughput|dram__bytes|Achieved Occupancy|Warp Cycles Per Issued|CTA barrier|Registers Per|Grid Size|Block Size' "$out/ncu.txt" | cut -c1-140
fi
