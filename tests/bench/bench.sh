#!/bin/sh
# Wall time of `roofline analyze` on the bundled example: median over many runs, plus the
# process-start floor (`roofline --version`) measured in the same run for comparison.
# Usage: tests/bench/bench.sh [BUILD_DIR] [RUNS]   (a Release build; hyperfine used when installed)
set -eu
BUILD=${1:-build}
RUNS=${2:-300}
BIN="$BUILD/roofline"
EX=data/examples/qwen3.5-35b-a3b-fp8-mi355x
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
[ -x "$BIN" ] || { echo "bench: $BIN not built (cmake -S . -B $BUILD -DCMAKE_BUILD_TYPE=Release && cmake --build $BUILD)" >&2; exit 1; }
CMD="$BIN analyze --round 1 --dir $EX --out $OUT --format quiet"
if command -v hyperfine >/dev/null 2>&1; then
  hyperfine -N --warmup 30 --runs "$RUNS" --export-json "$OUT/bench.json" "$BIN --version" "$CMD" >/dev/null
  python3 - "$OUT/bench.json" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"{r['command']}\n  median {r['median']*1e3:.2f} ms, mean {r['mean']*1e3:.2f} ms, min {r['min']*1e3:.2f} ms over {len(r['times'])} runs")
PY
else
  python3 - "$BIN" "$CMD" "$RUNS" <<'PY'
import shlex, statistics, subprocess, sys, time
binary, cmd, runs = sys.argv[1], shlex.split(sys.argv[2]), int(sys.argv[3])
for label, argv in ((f"{binary} --version", [binary, "--version"]), (" ".join(cmd), cmd)):
    times = []
    for i in range(runs + 30):
        t = time.perf_counter(); subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        if i >= 30: times.append(time.perf_counter() - t)
    print(f"{label}\n  median {statistics.median(times)*1e3:.2f} ms over {runs} runs")
PY
fi
