#!/usr/bin/env bash
# run.sh — runs every fuzz target for FUZZ_SECONDS each (after building them), replays
# the saved regression inputs first, and prints a table of executions and coverage.
#   tests/fuzz/run.sh [SECONDS]      (default: $FUZZ_SECONDS, else 60)
# Exit status: non-zero when any target crashed, leaked, hit an invariant or timed out.
# Findings are saved in build/fuzz/artifacts/TARGET/; copy one into
# tests/fuzz/regressions/TARGET/ once fixed (see tests/fuzz/README.md).
set -uo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-${FUZZ_SECONDS:-60}}
out=build/fuzz
targets=(json tree serialize micro compact validate text memory)
declare -A dict=([json]=tests/fuzz/json.dict [tree]=tests/fuzz/tree.dict [text]=tests/fuzz/text.dict [memory]=tests/fuzz/memory.dict)
declare -A seeds=([json]=json [tree]=tree [text]=text)

fail=0
rows=()
for t in "${targets[@]}"; do
  bin=$out/fuzz_$t
  d=${dict[$t]:-$out/doc.dict}
  s=$out/seeds/${seeds[$t]:-$t}
  corpus=$out/corpus/$t
  art=$out/artifacts/$t
  log=$out/logs/$t.log
  mkdir -p "$corpus" "$art" "$out/logs"
  status=ok
  # Regressions: every saved input must now pass (libFuzzer runs each file once).
  reg=tests/fuzz/regressions/$t
  nreg=0
  if [ -d "$reg" ] && [ -n "$(ls -A "$reg" 2>/dev/null)" ]; then
    nreg=$(ls "$reg" | wc -l)
    if ! "$bin" -runs=1 "$reg"/* > "$out/logs/$t.regressions.log" 2>&1; then
      status=REGRESSION
      echo "fuzz: $t: a saved regression input fails again, see $out/logs/$t.regressions.log" >&2
      tail -n 30 "$out/logs/$t.regressions.log" >&2
    fi
  fi
  # -timeout: one input may take at most 10 s (a hang is a finding);
  # -rss_limit_mb: the library's inputs here are small, 2 GB means a runaway allocation.
  "$bin" "$corpus" "$s" -dict="$d" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -max_len=65536 -print_final_stats=1 -artifact_prefix="$art/" > "$log" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    status=CRASH
    echo "fuzz: $t: libFuzzer exited with $rc; input saved in $art/; log $log" >&2
    grep -E '==fuzz==|ERROR: |SUMMARY: |runtime error' "$log" | head -n 20 >&2
  fi
  [ "$status" = ok ] || fail=1
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n1 | awk '{print $2}')
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -n1 | awk '{print $2}')
  corp=$(grep -oE 'corp: [0-9]+' "$log" | tail -n1 | awk '{print $2}')
  rows+=("$(printf '%-10s %-10s %12s %9s %7s %7s %7s %5s' "$t" "$status" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$nreg")")
done

echo
echo "fuzz summary: ${secs} s per target (logs in $out/logs/)"
printf '%-10s %-10s %12s %9s %7s %7s %7s %5s\n' target status execs execs/s cov ft corpus regr
for r in "${rows[@]}"; do echo "$r"; done
exit $fail
