#!/bin/sh
# Stage C ingest speed: `roofline counters` on a generated ~500 MB rocprofv3 counter CSV (19
# columns, page cache warm) against the obvious Python csv.DictReader loop doing the same
# aggregation, in the same run. Prints medians, GB/s, peak RSS and the ratio, and checks that
# both agree on every kernel. A benchmark, not a test: nothing here fails on speed.
# Usage: tests/bench/counters_bench.sh [BUILD_DIR] [SIZE_MB] [RUNS]
#   BUILD_DIR a Release build (default build-rel); SIZE_MB default 500; RUNS default 7.
#   PY_RUNS (default 3) Python runs; COUNTERS_BENCH_DIR (default /tmp/roofline-counters-bench)
#   holds the generated file, reused while its size matches.
set -eu
BUILD=${1:-build-rel}
SIZE=${2:-500}
RUNS=${3:-7}
PY_RUNS=${PY_RUNS:-3}
DIR=${COUNTERS_BENCH_DIR:-/tmp/roofline-counters-bench}
HERE=$(dirname "$0")
BIN="$BUILD/roofline"
FILE="$DIR/bench_${SIZE}mb_counter_collection.csv"
[ -x "$BIN" ] || { echo "bench: $BIN not built (cmake -S . -B $BUILD -DCMAKE_BUILD_TYPE=Release && cmake --build $BUILD)" >&2; exit 1; }
mkdir -p "$DIR"
[ -s "$FILE" ] || python3 "$HERE/gen_counters_csv.py" "$FILE" "$SIZE"
cat "$FILE" >/dev/null # warm the page cache
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# Same numbers from both, or the comparison is meaningless.
"$BIN" counters --format json "$FILE" >"$DIR/ours.json"
python3 "$HERE/counters_python.py" "$FILE" >"$DIR/python.json"
python3 - "$DIR/ours.json" "$DIR/python.json" <<'PY'
import json, math, sys
ours = {k["name"]: k for k in json.load(open(sys.argv[1]))["kernels"]}
py = json.load(open(sys.argv[2]))
assert set(ours) == set(py), "kernel sets differ"
for name, p in py.items():
    o = ours[name]
    assert o["dispatches"] == p["dispatches"], name
    for a, b in ((o["bytes_per_dispatch"], p["bytes_per_dispatch"]),
                 (o["time_us_per_dispatch"], p["time_us_per_dispatch"]),
                 (o["counters"]["SQ_INSTS_VALU_MFMA_MOPS_F8"]["sum"] / o["counters"]["SQ_INSTS_VALU_MFMA_MOPS_F8"]["dispatches"], p["mfma_f8_per_dispatch"])):
        assert math.isclose(a, b, rel_tol=1e-9), (name, a, b)
print(f"check: {len(py)} kernels, {sum(p['dispatches'] for p in py.values())} dispatches, identical per-dispatch numbers")
PY

RSS_KB=$(/usr/bin/time -f %M "$BIN" counters --format json "$FILE" 2>&1 >/dev/null | tail -1)
OURS="$BIN counters --format json $FILE"
PYCMD="python3 $HERE/counters_python.py $FILE"
if command -v hyperfine >/dev/null 2>&1; then
  hyperfine -N --warmup 1 --runs "$RUNS" --export-json "$DIR/ours_t.json" "$OURS" >/dev/null
  hyperfine -N --runs "$PY_RUNS" --export-json "$DIR/py_t.json" "$PYCMD" >/dev/null
else
  python3 - "$DIR" "$OURS" "$RUNS" "$PYCMD" "$PY_RUNS" <<'PY'
import json, shlex, subprocess, sys, time
d = sys.argv[1]
for name, cmd, runs in (("ours_t", sys.argv[2], int(sys.argv[3])), ("py_t", sys.argv[4], int(sys.argv[5]))):
    times = []
    for _ in range(runs):
        t = time.perf_counter(); subprocess.run(shlex.split(cmd), stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - t)
    json.dump({"results": [{"times": times}]}, open(f"{d}/{name}.json", "w"))
PY
fi
python3 - "$FILE" "$DIR/ours_t.json" "$DIR/py_t.json" "$RSS_KB" <<'PY'
import json, os, statistics, sys
size = os.path.getsize(sys.argv[1])
ours_r = json.load(open(sys.argv[2]))["results"][0]
ours = ours_r["times"]
py = json.load(open(sys.argv[3]))["results"][0]["times"]
mo, mp = statistics.median(ours), statistics.median(py)
rss_mb = int(sys.argv[4]) / 1024
info = open("/proc/cpuinfo").read().split("\n")
model = next((l.split(":", 1)[1].strip() for l in info if l.startswith("model name")), "?")
flags = next((l.split(":", 1)[1].split() for l in info if l.startswith("flags")), [])
simd = "avx512bw" if "avx512bw" in flags else "avx2" if "avx2" in flags else "sse2"
print(f"file: {size / 1e6:.0f} MB ({sys.argv[1]}); cpu: {model}, {os.cpu_count()} cpus, {simd}")
print(f"roofline counters: median {mo * 1e3:.0f} ms (min {min(ours) * 1e3:.0f}, max {max(ours) * 1e3:.0f}, {len(ours)} runs) = {size / mo / 1e9:.2f} GB/s (best {size / min(ours) / 1e9:.2f})  [target >= 2 GB/s]")
if "user" in ours_r:  # hyperfine: CPU time is steadier than wall time on a busy machine
    cpu = ours_r["user"] + ours_r["system"]
    print(f"  cpu time (user + sys, mean): {cpu * 1e3:.0f} ms = {size / cpu / 1e9:.2f} GB/s")
print(f"peak RSS: {rss_mb:.1f} MB  [target < 32 MB]")
print(f"python csv.DictReader: median {mp:.2f} s ({len(py)} runs) = {size / mp / 1e6:.0f} MB/s")
print(f"ratio python/roofline: {mp / mo:.0f}x  [target >= 35x]")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
