#!/usr/bin/env bash
set -uo pipefail
out=${OUT:-/tmp/o}; b=/tmp/b1
source .device-deps/env.sh
s() { echo; echo "### $* ($(date +%T))"; }
s build
[ -d $b ] || meson setup $b -Dgui=disabled -Dcuda=enabled -Dgpu_archs=90 -Dbuildtype=release >$out/setup.log 2>&1 || { tail -30 $out/setup.log; exit 1; }
ninja -C $b -j16 all test_kernels_starter test_kernels_double_buffer test_kernels_in_place_race >$out/build.log 2>&1 || { tail -40 $out/build.log; exit 1; }
T=$b/src/cli/scanviz-trace; K=$b/tests/kernels; ls $K | head -40 | tr '\n' ' '
s test_runtime_gpu; timeout 200 $b/tests/gpu/test_runtime_gpu $K kernels/hillis_steele.cu > $out/rt.txt 2>&1; echo "exit $?"; grep -v "^  waits" $out/rt.txt | tail -30
s racecheck dumps
for k in correct in-place; do SV_GPU_RC_KEEP=$out/rc-$k-1024.txt timeout 200 $T --kernel $k --backend cuda --random 1024 --seed 3 --racecheck > $out/cli-$k.txt 2>&1; echo "$k exit $?"; tail -3 $out/cli-$k.txt; ls -la $out/rc-$k-1024.txt; tail -c 600 $out/rc-$k-1024.txt; done
s done
