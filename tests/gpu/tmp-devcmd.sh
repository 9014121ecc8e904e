#!/usr/bin/env bash
set -uo pipefail
out=${OUT:-/tmp/o}; b=/tmp/b1
source .device-deps/env.sh
s() { echo; echo "### $* ($(date +%T))"; }
s build
[ -d $b ] || meson setup $b -Dgui=disabled -Dcuda=enabled -Dgpu_archs=90 -Dbuildtype=release >$out/setup.log 2>&1 || { tail -30 $out/setup.log; exit 1; }
ninja -C $b -j16 all test_kernels_starter test_kernels_double_buffer test_kernels_in_place_race >$out/build.log 2>&1 || { tail -40 $out/build.log; exit 1; }
( meson setup /tmp/b2 -Dgui=disabled -Dcuda=disabled -Dbuildtype=release >$out/setup2.log 2>&1 && ninja -C /tmp/b2 -j8 src/cli/scanviz-trace >$out/build2.log 2>&1; echo "nvcc-less build: $?" ) &
T=$b/src/cli/scanviz-trace; K=$b/tests/kernels
s printf on the GPU and the CPU
for be in cpu cuda; do $T --kernel-file tests/gpu/tmp-printf.cu --backend $be --random 64 --seed 3 --format json > $out/pf-$be.json 2>$out/pf-$be.err; echo "$be exit $?"; done
python3 -c "
import json,sys
a=json.load(open('$out/pf-cpu.json')); b=json.load(open('$out/pf-cuda.json'))
print('cpu', a.get('printf')); print('gpu', b.get('printf')); print('console', repr(b.get('console')))
print('EQUAL' if a.get('printf')==b.get('printf') else 'DIFFERENT')"
s test_runtime_gpu; timeout 200 $b/tests/gpu/test_runtime_gpu $K kernels/hillis_steele.cu > $out/rt.txt 2>&1; echo "exit $?"; grep -v "^  waits" $out/rt.txt | tail -30
s racecheck dumps
for k in correct in-place; do SV_GPU_RC_KEEP=$out/rc-$k-1024.txt timeout 200 $T --kernel $k --backend cuda --random 1024 --seed 3 --racecheck > $out/cli-$k.txt 2>&1; echo "$k exit $?"; tail -3 $out/cli-$k.txt; ls -la $out/rc-$k-1024.txt; tail -c 400 $out/rc-$k-1024.txt; done
wait
s nvcc-less GPU capture
/tmp/b2/src/cli/scanviz-trace --version; /tmp/b2/src/cli/scanviz-trace --backend cuda | head -3; echo "exit ${PIPESTATUS[0]}"
/tmp/b2/src/cli/scanviz-trace --backend cuda --verify --random 500 --seed 4; echo "verify exit $?"
/tmp/b2/src/cli/scanviz-trace --kernel no-barrier --backend cuda --runs 100 --shake --random 256 | grep -E "runs|wrong" | head -3
s done
