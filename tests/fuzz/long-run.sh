#!/usr/bin/env bash
# The long fuzz run recorded in docs/reliability.md: each harness until it
# has run RUNS inputs (default 10^7) or HOURS have passed (default 3), at
# the lowest priority, one after another (or NAME... given).
#   tests/fuzz/long-run.sh [RUNS] [NAME...]
# Results: build-fuzz-long/fuzz-NAME.log and one summary line per harness
# in build-fuzz-long/summary.txt ("fuzz NAME: N executions in S s, no crash").
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=${1:-10000000}
[ $# -gt 0 ] && shift
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(values csv trace options)
out=$root/build-fuzz-long
mkdir -p "$out"
status=0
for name in "${names[@]}"; do
  # -timeout=300: at the lowest priority on a busy machine an input can wait
  # for the CPU for many seconds; a real hang still shows.
  line=$(nice -n 19 "$here/run.sh" "$name" $((3 * 3600)) "$out" -- -runs="$runs" -timeout=300 | tail -1)
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  echo "$line (commit $(git -C "$root" rev-parse --short HEAD))" | tee -a "$out/summary.txt"
done
exit $status
