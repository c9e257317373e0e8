#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, in parallel on the machine's cores, and prints the
# executions and findings per target.
#
#   tests/fuzz/run.sh SECONDS [BUILD_DIR]
#
# BUILD_DIR (default: build-fuzz) must be configured with -DROOFLINE_FUZZ=ON, e.g.
#   CXX=clang++ cmake -S . -B build-fuzz -DROOFLINE_FUZZ=ON -DROOFLINE_SANITIZE='address;undefined' \
#     -DCMAKE_BUILD_TYPE=RelWithDebInfo && cmake --build build-fuzz -j"$(nproc)"
# Each target grows its working corpus in BUILD_DIR/tests/fuzz/corpus/<name>/ (seeded from the
# fixtures, kept between runs) and also reads the regression corpus tests/fuzz/regressions/<name>/.
# A crash, leak, timeout or out-of-memory input is saved in BUILD_DIR/tests/fuzz/findings/<name>/;
# after fixing it, copy it into regressions/<name>/ so fuzz_replay.<name> keeps proving the fix.
# JOBS (default: nproc) limits how many targets run at once. Exit status: 1 when anything was
# found, 0 otherwise.
set -uo pipefail

SECONDS_EACH="${1:?usage: tests/fuzz/run.sh SECONDS [BUILD_DIR]}"
HERE="$(cd "$(dirname "$0")" && pwd)"
BUILD="$(cd "${2:-$HERE/../../build-fuzz}" && pwd)" || { echo "run.sh: no build folder" >&2; exit 2; }
FUZZ="$BUILD/tests/fuzz"
[ -s "$FUZZ/targets.txt" ] || { echo "run.sh: $FUZZ/targets.txt missing: configure with -DROOFLINE_FUZZ=ON" >&2; exit 2; }
JOBS="${JOBS:-$(nproc)}"
mapfile -t TARGETS < "$FUZZ/targets.txt"

run_one() {
  local name="$1" bin="$FUZZ/fuzz_$1"
  local corpus="$FUZZ/corpus/$name" findings="$FUZZ/findings/$name" log="$FUZZ/logs/$name.log"
  mkdir -p "$corpus" "$findings" "$FUZZ/logs"
  [ -n "$(ls -A "$corpus")" ] || cp "$FUZZ/seeds/$name"/* "$corpus"/ 2>/dev/null
  local extra=()
  [ -d "$HERE/regressions/$name" ] && extra=("$HERE/regressions/$name")
  # -rss_limit_mb: an input that makes a parser hold 2 GiB is a finding, like a crash.
  "$bin" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -dict="$HERE/inputs.dict" -artifact_prefix="$findings/" \
    "$corpus" "${extra[@]}" >"$log" 2>&1
}

running=0
for t in "${TARGETS[@]}"; do
  [ -x "$FUZZ/fuzz_$t" ] || { echo "run.sh: $FUZZ/fuzz_$t not built (ROOFLINE_FUZZ=ON?)" >&2; exit 2; }
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
done
wait

status=0
printf '%-10s %14s %8s %9s  %s\n' target executions exec/s findings corpus
for t in "${TARGETS[@]}"; do
  log="$FUZZ/logs/$t.log"
  execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)"
  rate="$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)"
  found="$(find "$FUZZ/findings/$t" -type f | wc -l)"
  corpus="$(find "$FUZZ/corpus/$t" -type f | wc -l)"
  printf '%-10s %14s %8s %9s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$found" "$corpus"
  if [ "$found" -gt 0 ] || grep -q 'ERROR: libFuzzer\|ERROR: AddressSanitizer\|runtime error:' "$log"; then
    status=1
    echo "  $t: see $log and $FUZZ/findings/$t/" >&2
  fi
done
echo "fuzz: ${#TARGETS[@]} targets, ${SECONDS_EACH}s each: $([ "$status" -eq 0 ] && echo 'no findings' || echo 'FINDINGS')"
exit "$status"
