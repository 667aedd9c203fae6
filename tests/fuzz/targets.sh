# targets.sh — what run.sh and long.sh share (sourced, from the repository root): the
# targets, their dictionaries and seeds, the per-input limits, the regression replay
# and the figures read from a libFuzzer log.

FUZZ_TARGETS=(json tree serialize micro compact validate text memory search)
FUZZ_OUT=${FUZZ_OUT:-build/fuzz}

# -timeout: one input may take at most FUZZ_TIMEOUT s (a hang is a finding). Inputs run
# in milliseconds, but a campaign saw one stall for 21 s on the loaded 2-core machine
# (it reran in 0.1 s): 25 s for campaigns, 120 s for the smoke run, which must not fail
# on a busy machine (a real hang still never ends). -rss_limit_mb: the inputs are at
# most 64 KiB, so 2 GB means a runaway allocation.
FUZZ_LIMITS=(-timeout="${FUZZ_TIMEOUT:-25}" -rss_limit_mb=2048 -max_len=65536)

fuzz_dict() {
  case $1 in
    json | tree | text | memory | search) echo "tests/fuzz/$1.dict" ;;
    *) echo "$FUZZ_OUT/doc.dict" ;; # the document targets: JSON and tree tokens together
  esac
}

fuzz_seed_dir() { echo "$FUZZ_OUT/seeds/$1"; }

fuzz_regression_count() {
  local reg=tests/fuzz/regressions/$1
  if [ -d "$reg" ]; then find "$reg" -maxdepth 1 -type f | wc -l; else echo 0; fi
}

# Runs every saved input of target $1 once (log in $2); prints how many, or FAIL.
fuzz_replay_regressions() {
  local t=$1 log=$2 reg=tests/fuzz/regressions/$1 n
  n=$(fuzz_regression_count "$t")
  if [ "$n" -eq 0 ]; then echo 0; : > "$log"; return; fi
  if find "$reg" -maxdepth 1 -type f -print0 | xargs -0 "$FUZZ_OUT/fuzz_$t" -runs=1 "${FUZZ_LIMITS[@]}" > "$log" 2>&1
  then echo "$n"; else echo FAIL; fi
}

# "execs execs/s cov ft corpus" from a libFuzzer log ("?" for what it lacks): executions
# and speed from -print_final_stats, coverage from the last status line.
fuzz_log_stats() {
  local log=$1 execs rate cov ft corp
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n1 | awk '{print $2}')
  ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -n1 | awk '{print $2}')
  corp=$(grep -oE 'corp: [0-9]+' "$log" | tail -n1 | awk '{print $2}')
  echo "${execs:-?} ${rate:-?} ${cov:-?} ${ft:-?} ${corp:-?}"
}
