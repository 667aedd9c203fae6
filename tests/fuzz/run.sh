#!/usr/bin/env bash
# run.sh — the short fuzz runs: replays every saved regression input, then fuzzes each
# target from its seeds, and prints a table of executions and coverage.
#   tests/fuzz/run.sh smoke          `make fuzz-smoke` (in `make test`): reproducible
#   tests/fuzz/run.sh SECONDS        `make fuzz`: SECONDS per target, exploring
# Exit status: non-zero when a regression input fails again or a target crashed,
# leaked, broke an invariant or timed out.
#
# Why the smoke run cannot fail at random: each target runs a pinned number of inputs
# (-runs) from a pinned random seed (-seed), starting from the seeds alone (rebuilt from
# the fixtures; a fresh empty corpus each time, never the corpus other runs grew), so
# the same commit runs the same inputs each time. Address space randomization is turned
# off for it (setarch -R, where the kernel allows it): libFuzzer also mutates with the
# operands of recent comparisons, pointers among them, so random addresses would steer
# it elsewhere. Measured: two smoke runs of a target, same corpus to the byte with
# setarch -R, different without. (Another machine's addresses may still differ; a failure
# is still a real bug, reproduced by replaying the saved input.) New bugs are the long campaigns' job
# (`make fuzz-long`, tests/fuzz/long.sh), which then add a regression input here.
# Findings are saved in build/fuzz/artifacts/TARGET/; once fixed, copy one into
# tests/fuzz/regressions/TARGET/ (see tests/fuzz/README.md).
set -uo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-${FUZZ_SECONDS:-60}}
[ "$mode" = smoke ] && FUZZ_TIMEOUT=120
. tests/fuzz/targets.sh

out=build/fuzz

# The smoke run's seed and number of inputs per target (about 10 s each on 2 shared
# cores under ASan+UBSan; -max_total_time below only bounds a very slow machine, which
# then runs a prefix of the same inputs).
declare -A SMOKE_SEED=([json]=2011 [tree]=2012 [serialize]=2013 [micro]=2014 [compact]=2015 [validate]=2016
  [text]=2017 [memory]=2018 [search]=2019)
declare -A SMOKE_RUNS=([json]=6000 [tree]=40000 [serialize]=20000 [micro]=8000 [compact]=8000 [validate]=20000
  [text]=4000 [memory]=60000 [search]=8000)

fixed=()
[ "$mode" = smoke ] && setarch -R true 2>/dev/null && fixed=(setarch -R)

fail=0
rows=()
for t in "${FUZZ_TARGETS[@]}"; do
  bin=$out/fuzz_$t
  art=$out/artifacts/$t
  log=$out/logs/$t.log
  mkdir -p "$art" "$out/logs"
  status=ok
  nreg=$(fuzz_replay_regressions "$t" "$out/logs/$t.regressions.log")
  if [ "$nreg" = FAIL ]; then
    status=REGRESSION
    nreg=$(fuzz_regression_count "$t")
    echo "fuzz: $t: a saved regression input fails again, see $out/logs/$t.regressions.log" >&2
    tail -n 30 "$out/logs/$t.regressions.log" >&2
  fi
  if [ "$mode" = smoke ]; then
    corpus=$out/smoke-corpus/$t
    rm -rf "$corpus"
    limits=(-seed="${SMOKE_SEED[$t]}" -runs="${SMOKE_RUNS[$t]}" -max_total_time=60)
  else
    corpus=$out/corpus/$t
    limits=(-max_total_time="$mode")
  fi
  mkdir -p "$corpus"
  # -reload=0: read the corpus once (nothing else writes to it here).
  args=("$corpus" "$(fuzz_seed_dir "$t")" -dict="$(fuzz_dict "$t")" "${limits[@]}" -reload=0 "${FUZZ_LIMITS[@]}"
    -print_final_stats=1 -artifact_prefix="$art/")
  "${fixed[@]}" "$bin" "${args[@]}" > "$log" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    status=CRASH
    echo "fuzz: $t: libFuzzer exited with $rc; input saved in $art/; log $log" >&2
    grep -E '==fuzz==|ERROR: |SUMMARY: |runtime error' "$log" | head -n 20 >&2
    [ "$mode" = smoke ] && echo "fuzz: $t: to run the same inputs again: rm -rf $corpus; mkdir -p $corpus; ${fixed[*]} $bin ${args[*]}" >&2
  fi
  [ "$status" = ok ] || fail=1
  read -r execs rate cov ft corp < <(fuzz_log_stats "$log")
  rows+=("$(printf '%-10s %-10s %12s %9s %7s %7s %7s %5s' "$t" "$status" "$execs" "$rate" "$cov" "$ft" "$corp" "$nreg")")
done

echo
if [ "$mode" = smoke ]; then echo "fuzz smoke: pinned seeds and input counts (logs in $out/logs/)"
else echo "fuzz summary: ${mode} s per target (logs in $out/logs/)"; fi
printf '%-10s %-10s %12s %9s %7s %7s %7s %5s\n' target status execs execs/s cov ft corpus regr
for r in "${rows[@]}"; do echo "$r"; done
exit $fail
