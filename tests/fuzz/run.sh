#!/usr/bin/env bash
# Builds one libFuzzer harness with clang and runs it.
#   tests/fuzz/run.sh NAME SECONDS [OUTDIR] [-- more libFuzzer flags]
# NAME: trace | ktrace | values | csv | options (tests/fuzz/fuzz_NAME.c). SECONDS: how long to
# fuzz (0: only build and replay the seed corpus). OUTDIR (default
# build-fuzz/): the binary, the grown corpus (OUTDIR/corpus-NAME, seeded from
# tests/fuzz/corpus/NAME, which is only read) and any crash-* input.
# Prints "fuzz NAME: N executions in S s, no crash" and exits 0, or exits 1
# on a crash, a leak, undefined behaviour or a broken property (the harness
# aborts), with libFuzzer's report and the input that did it.
# docs/reliability.md says how the long runs were made.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
name=${1:?usage: run.sh NAME SECONDS [OUTDIR] [-- libFuzzer flags]}
secs=${2:?usage: run.sh NAME SECONDS [OUTDIR] [-- libFuzzer flags]}
out=${3:-$root/build-fuzz}
shift 2; [ $# -gt 0 ] && [ "$1" != "--" ] && shift
[ "${1:-}" = "--" ] && shift
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
cc=${CLANG:-clang}
bin=$out/fuzz_$name
src=$here/fuzz_$name.c
[ -f "$src" ] || { echo "run.sh: no harness $src" >&2; exit 2; }

# core's kernel registry includes lab_kernels.h, which the build generates
# from the kernel files (kernels/mistakes/meson.build): meson passes its
# folder in SV_GEN_INC; run by hand, the header is generated here the same
# way, in the order kernels/mistakes/order gives (K's order).
mk=$root/kernels/mistakes
gen=${SV_GEN_INC:-}
if [ -z "$gen" ]; then
  gen=$out/gen
  mkdir -p "$gen" || exit 1
  diffs=()
  while read -r m; do
    case $m in ''|'#'*) ;; *) diffs+=("$mk/$m.diff") ;; esac
  done <"$mk/order"
  python3 "$mk/apply.py" --registry "$gen/lab_kernels.h" \
    "$root/kernels/hillis_steele.row" --beyond "$root/kernels/blelloch.row" \
    "$root/kernels/hillis_steele.cu" "$gen" "$gen/stamp" \
    "${diffs[@]}" >"$out/gen.log" 2>&1 || { cat "$out/gen.log"; exit 1; }
fi

# Rebuild when the harness, any core source or the registry's rows are newer
# than the binary.
if [ ! -x "$bin" ] || [ -n "$(find "$src" "$here/fuzz.h" "$root/src/core" "$gen/lab_kernels.h" -newer "$bin" -name '*.[ch]' 2>/dev/null | head -1)" ]; then
  # shellcheck disable=SC2046
  if ! "$cc" -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L \
      -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
      -I"$root/src/core" -I"$gen" $(pkg-config --cflags jansson) \
      "$src" "$root"/src/core/*.c $(pkg-config --libs jansson) -lm -o "$bin.new" \
      >"$out/build-$name.log" 2>&1; then
    cat "$out/build-$name.log"
    echo "fuzz $name: cannot build with $cc -fsanitize=fuzzer (clang and libclang-rt-14-dev, .ci/install-deps)"
    exit 1
  fi
  mv "$bin.new" "$bin"
fi

mkdir -p "$out/corpus-$name"
log=$out/fuzz-$name.log
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if [ "$secs" = 0 ]; then
  args=(-runs=0)
else
  args=(-max_total_time="$secs")
fi
start=$(date +%s)
"$bin" "${args[@]}" -rss_limit_mb=2048 -timeout=10 -max_len=65536 -print_final_stats=1 \
  -artifact_prefix="$out/crash-$name-" "$@" "$out/corpus-$name" "$here/corpus/$name" >"$log" 2>&1
rc=$?
end=$(date +%s)
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
if [ $rc -ne 0 ]; then
  tail -n 60 "$log"
  echo "fuzz $name: FAILED after ${runs:-?} executions (exit $rc); the input is in $out/crash-$name-*"
  exit 1
fi
echo "fuzz $name: ${runs:-?} executions in $((end - start)) s, no crash ($(date -u +%Y-%m-%d), $(basename "$bin"), corpus $(ls "$out/corpus-$name" | wc -l) + $(ls "$here/corpus/$name" | wc -l) files)"
