#!/usr/bin/env bash
# long.sh — the fuzzing campaigns (`make fuzz-long`), never part of `make test`.
#   tests/fuzz/long.sh [TARGET...]     run the campaigns (every target by default)
#   tests/fuzz/long.sh --table         print the ledgers' totals as a Markdown table
# Settings (environment): FUZZ_LONG_SECONDS (3600) per target per run, FUZZ_LONG_GOAL
# (10^7) executions per target in total, FUZZ_CORPUS (fuzz-corpus), FUZZ_NICE (19).
#
# Each target fuzzes, one after another on one core, until its ledger holds
# FUZZ_LONG_GOAL executions or the run's FUZZ_LONG_SECONDS end. Its corpus grows in
# FUZZ_CORPUS/TARGET/ (ignored by git, outside build/ so `make clean` keeps it); each
# run starts from that corpus plus the seeds, with a fresh random seed that the ledger
# records. A finding stops that target's run: the input is minimized
# (-minimize_crash=1) and copied into tests/fuzz/regressions/TARGET/, which the smoke run
# replays from then on — so it fails until the bug is fixed, as it should.
#
# The ledger, tests/fuzz/ledger/TARGET.tsv, is committed: one line per run (date,
# commit, seconds, seed, executions, cov, ft, corpus size, findings, regression files).
# Committed because every session works in a fresh clone or worktree, where an ignored
# file would start again from zero; the corpus can be rebuilt, the executions already
# spent cannot. Lines are only ever appended (.gitattributes merges them as a union).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/fuzz/targets.sh

secs=${FUZZ_LONG_SECONDS:-3600}
goal=${FUZZ_LONG_GOAL:-10000000}
corpus_root=${FUZZ_CORPUS:-fuzz-corpus}
nice_level=${FUZZ_NICE:-19}
ledgers=${FUZZ_LEDGER:-tests/fuzz/ledger}
out=$FUZZ_OUT
header=$'date\tcommit\tseconds\tseed\texecs\tcov\tft\tcorpus\tfindings\tregressions'

# "total_execs runs findings last_cov last_ft last_corpus last_date" of a ledger.
ledger_totals() {
  local f=$ledgers/$1.tsv
  [ -f "$f" ] || { echo "0 0 0 ? ? ? -"; return; }
  awk -F'\t' 'NR > 1 { e += $5; n++; k += $9; cov = $6; ft = $7; c = $8; d = $1 }
    END { printf "%d %d %d %s %s %s %s\n", e, n, k, (n ? cov : "?"), (n ? ft : "?"), (n ? c : "?"), (n ? substr(d, 1, 10) : "-") }' "$f"
}

if [ "${1:-}" = --table ]; then
  echo "| target | executions (total) | runs | cov | ft | corpus | findings | last run |"
  echo "|---|---:|---:|---:|---:|---:|---:|---|"
  for t in "${FUZZ_TARGETS[@]}"; do
    read -r e n k cov ft c d < <(ledger_totals "$t")
    printf '| `%s` | %s | %s | %s | %s | %s | %s | %s |\n' "$t" "$e" "$n" "$cov" "$ft" "$c" "$k" "$d"
  done
  exit 0
fi

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${FUZZ_TARGETS[@]}")
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- src tests/fuzz 2>/dev/null || commit+="+changes"
mkdir -p "$ledgers" "$out/logs"

rows=()
fail=0
stop=0
for t in "${targets[@]}"; do
  bin=$out/fuzz_$t
  [ -x "$bin" ] || { echo "fuzz-long: no target $t (build it with make fuzz-long)" >&2; exit 2; }
  read -r total _ found_before _ _ _ _ < <(ledger_totals "$t")
  if [ "$stop" = 1 ] || [ "$total" -ge "$goal" ]; then
    read -r _ _ _ cov ft c _ < <(ledger_totals "$t")
    why="goal reached"; [ "$stop" = 1 ] && why="not run (interrupted)"
    rows+=("$(printf '%-10s %14s %12s %7s %7s %7s %8s  %s' "$t" "$total" 0 "$cov" "$ft" "$c" "$found_before" "$why")")
    continue
  fi
  corpus=$corpus_root/$t
  art=$out/artifacts/$t
  log=$out/logs/$t.long.log
  mkdir -p "$corpus" "$art"
  seed=$(( (RANDOM << 15 | RANDOM) + 1 ))
  before=$(ls "$art" 2>/dev/null | sort)
  start=$(date +%s)
  # -runs caps the run at what the goal still needs.
  nice -n "$nice_level" "$bin" "$corpus" "$(fuzz_seed_dir "$t")" -dict="$(fuzz_dict "$t")" \
    -max_total_time="$secs" -runs=$((goal - total)) -seed="$seed" "${FUZZ_LIMITS[@]}" \
    -print_final_stats=1 -artifact_prefix="$art/" > "$log" 2>&1
  rc=$?
  took=$(( $(date +%s) - start ))
  read -r execs rate cov ft corp < <(fuzz_log_stats "$log")
  if [ "$execs" = "?" ]; then # no final stats: the last status line's count
    execs=$(grep -oE '^#[0-9]+' "$log" | tail -n1 | tr -d '#')
    execs=${execs:-0}
  fi
  corp=$(find "$corpus" -type f | wc -l)
  findings=0
  saved=()
  status=ok
  if [ $rc -eq 72 ]; then
    status="interrupted"
    stop=1
  elif [ $rc -ne 0 ]; then
    status="FINDING"
    fail=1
    findings=1
    new=$(comm -13 <(echo "$before") <(ls "$art" | sort) | grep -E '^(crash|leak|timeout|oom)-' | head -n1)
    if [ -n "$new" ]; then
      min=$art/minimized-$new
      nice -n "$nice_level" "$bin" -minimize_crash=1 -max_total_time=300 -runs=100000 "${FUZZ_LIMITS[@]}" \
        -exact_artifact_path="$min" "$art/$new" > "$log.minimize" 2>&1
      [ -s "$min" ] || min=$art/$new
      dest=tests/fuzz/regressions/$t/long-$(date -u +%Y%m%d)-$(sha1sum "$min" | cut -c1-10)
      mkdir -p "tests/fuzz/regressions/$t"
      cp "$min" "$dest"
      saved+=("$dest")
      echo "fuzz-long: $t: a finding, minimized into $dest (log $log):" >&2
      grep -E '==fuzz==|ERROR: |SUMMARY: |runtime error' "$log" | head -n 12 >&2
    else
      echo "fuzz-long: $t: libFuzzer exited with $rc and saved no input; log $log" >&2
    fi
  fi
  [ -f "$ledgers/$t.tsv" ] || echo "$header" > "$ledgers/$t.tsv"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%MZ)" "$commit" "$took" "$seed" "$execs" \
    "$cov" "$ft" "$corp" "$findings" "${saved[*]:--}" >> "$ledgers/$t.tsv"
  rows+=("$(printf '%-10s %14s %12s %7s %7s %7s %8s  %s' "$t" "$((total + execs))" "$execs" "$cov" "$ft" "$corp" \
    "$((found_before + findings))" "$status, ${took} s, ${rate}/s")")
done

echo
echo "fuzz-long: goal $goal executions per target, $secs s per target per run (ledgers in $ledgers/)"
printf '%-10s %14s %12s %7s %7s %7s %8s  %s\n' target "execs total" "this run" cov ft corpus findings status
for r in "${rows[@]}"; do echo "$r"; done
exit $fail
