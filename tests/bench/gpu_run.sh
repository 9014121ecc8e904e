#!/bin/bash
# One call on the GPU machine (docs/performance.md): build, check every scan
# against the CPU, the rest of the gpu suite, compute-sanitizer memcheck and
# racecheck on modest sizes, the hs tuning runs, the full benchmark with its
# CSV (the shipped one), the goal table (copy, cub, hs, hs-lookback at
# 2^16 .. 2^30 and odd sizes, int32 and float32), the lab's host-side times,
# the capture cost, and ncu's view of hs and cub at 2^21 and 2^28.
# Usage (repo root, after `source .device-deps/env.sh`): tests/bench/gpu_run.sh OUTDIR [steps]
# steps: any of build test gpusuite tune sweep bench goal labtime capture
# memcheck racecheck ncu timeline (default: all but sweep and timeline).
# sweep: tune_hs in int32 and float32 at the sizes of SV_SWEEP_SIZES (the
# data behind hs's size-dependent choice). timeline: hs's look-back recorded
# (scanviz-bench --timeline) at the sizes of SV_TIMELINE_SIZES, int32, and
# at 2^24 in float32, as OUTDIR/tl-N.json. SV_BUILD=DIR uses binaries built elsewhere (leave
# out build); SV_TEST_MAX=N passes --max N to the test (default: every size,
# to 2^31 - 1).
set -u
out=${1:?usage: gpu_run.sh OUTDIR [steps]}
shift
steps=${*:-build test gpusuite tune bench goal labtime capture memcheck racecheck ncu}
b=${SV_BUILD:-/tmp/b}
b=$(cd "$(dirname "$b")" && pwd)/$(basename "$b")
mkdir -p "$out"
has() { [[ " $steps " == *" $1 "* ]]; }
if has build; then
  meson setup $b -Dgui=disabled -Dcuda=enabled -Dgpu_archs=90 -Dbuildtype=release >/dev/null &&
  ninja -C $b src/cli/scanviz-bench tests/bench/test_bench_scans tests/bench/tune_hs \
    tests/bench/lab_time tests/gpu/test_gpu_trace tests/gpu/test_capture \
    tests/gpu/test_blelloch_gpu tests/gpu/test_lab_gpu tests/gpu/test_runtime_gpu \
    >"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; exit 1; }
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
if has test; then
  echo "== test_bench_scans ${SV_TEST_MAX:+--max $SV_TEST_MAX}"
  timeout 420 $b/tests/bench/test_bench_scans ${SV_TEST_MAX:+--max "$SV_TEST_MAX"} 2>&1 | tail -20
fi
if has gpusuite; then
  # The gpu suite's other tests (bench_scans is the step above).
  for t in tests/gpu/test_gpu_trace tests/gpu/test_capture tests/gpu/test_blelloch_gpu \
           tests/gpu/test_lab_gpu; do
    echo "== $t"; (cd $b && timeout 300 ./$t 2>&1 | tail -4; echo "rc=${PIPESTATUS[0]}")
  done
  echo "== tests/gpu/test_runtime_gpu"
  timeout 300 $b/tests/gpu/test_runtime_gpu $b/tests/kernels kernels/hillis_steele.cu 2>&1 |
    tee "$out/runtime_gpu.txt" | tail -40; echo "rc=${PIPESTATUS[0]}"
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
if has goal; then
  for ty in int32 float32; do
    echo "== goal $ty"
    (cd "$out" && timeout 200 $b/src/cli/scanviz-bench --algo copy,cub,hs,hs-lookback \
      --sizes 2^16..2^30,1000003,123456789,268435455 --type $ty --reps 30 \
      --csv goal_$ty.csv > goal_$ty.txt 2>&1; echo "rc=$?" >> goal_$ty.txt)
    cat "$out/goal_$ty.txt"
  done
fi
if has timeline; then
  for n in ${SV_TIMELINE_SIZES:-2^20 2^21 2^24 2^26 2^28 3000017} f2^24; do
    ty=int32; [ "${n#f}" != "$n" ] && { ty=float32; n=${n#f}; }
    echo "== timeline $n $ty"
    (cd "$out" && timeout 60 $b/src/cli/scanviz-bench --algo copy,cub,hs --sizes $n --reps 30 \
      --type $ty --timeline "tl-$n-$ty.json" 2>&1 | grep -E '^# timeline|^(copy|cub|hs) ';
     echo "rc=${PIPESTATUS[0]}")
  done
fi
if has labtime; then
  echo "== lab_time"; timeout 120 $b/tests/bench/lab_time 2>&1 | tee "$out/lab_time.txt"
fi
if has capture; then
  echo "== capture"; timeout 60 $b/src/cli/scanviz-bench --capture 2>&1 | tee "$out/capture.txt"
fi
if has memcheck; then
  echo "== memcheck"; timeout 150 compute-sanitizer --tool memcheck --leak-check full \
    $b/tests/bench/test_bench_scans --max 70000 2>&1 | tail -6
fi
if has racecheck; then
  echo "== racecheck"; timeout 200 compute-sanitizer --tool racecheck \
    $b/tests/bench/test_bench_scans --max 17000 2>&1 | tail -6
fi
if has ncu; then
  # The check run (the first launch) of each at 2^21 and 2^28, int32; clocks left alone.
  : > "$out/ncu.txt"
  for n in 2^21 2^28; do
    for a in cub hs; do
      k='hs_pipe|hs_scan'; [ $a = cub ] && k=DeviceScanKernel
      echo "#### $a n=$n" >> "$out/ncu.txt"
      timeout 100 ncu --clock-control none --section SpeedOfLight --section Occupancy \
        --section WarpStateStats --section LaunchStats --section MemoryWorkloadAnalysis \
        --metrics dram__bytes_read.sum.per_second,dram__bytes_write.sum.per_second,lts__t_sector_hit_rate.pct \
        -k regex:"$k" -c 1 \
        $b/src/cli/scanviz-bench --algo $a --sizes $n --reps 1 >> "$out/ncu.txt" 2>&1
    done
  done
  grep -E '^####|hs_pipe|hs_scan|DeviceScanKernel|Duration|DRAM Throughput|dram__bytes|lts__t_sector_hit|Memory Throughput|L2 Cache Throughput|Achieved Occupancy|Warp Cycles Per Issued|Registers Per|Grid Size|Block Size|Stall|CTA barrier' "$out/ncu.txt" | cut -c1-150
fi
