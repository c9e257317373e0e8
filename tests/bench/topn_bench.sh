#!/bin/sh
# `roofline topn` speed and memory: a generated synthetic PyTorch profiler Chrome trace of SIZE_MB
# (default 250 MB; nested cpu_ops with Input Dims/Input type, runtime launches, kernels with
# launch args, flow events, memcpy/memset, step annotations) against the obvious Python
# json.load loop doing the same aggregation (topn_python.py), in the same run. Checks first that
# both give the same numbers for every kernel, then prints median wall times, peak RSS (and its
# share of the file: REACH §3 wants under a quarter), the gzip variant, and the ratios: to the
# Python loop, and to `zcat` inflating the same .gz in the same run (issue 38: the plain parse in
# at most 0.69x zcat's time, the .gz in at most 1.15x the slower of zcat and the plain parse).
# A benchmark, not a test: nothing here fails on speed.
# Usage: tests/bench/topn_bench.sh [BUILD_DIR] [SIZE_MB] [RUNS]
#   BUILD_DIR a Release build (default build); RUNS default 5. PY_RUNS (default 3) Python runs;
#   TOPN_BENCH_DIR (default /tmp/roofline-topn-bench) holds the generated files, reused while
#   their size matches.
set -eu
BUILD=${1:-build}
SIZE=${2:-250}
RUNS=${3:-5}
PY_RUNS=${PY_RUNS:-3}
DIR=${TOPN_BENCH_DIR:-/tmp/roofline-topn-bench}
HERE=$(dirname "$0")
BIN="$BUILD/roofline"
FILE="$DIR/bench_${SIZE}mb.pt.trace.json"
[ -x "$BIN" ] || { echo "bench: $BIN not built (cmake -S . -B $BUILD -DCMAKE_BUILD_TYPE=Release && cmake --build $BUILD)" >&2; exit 1; }
mkdir -p "$DIR/ours" "$DIR/ours_gz"
[ -s "$FILE" ] || python3 "$HERE/gen_chrome_trace.py" "$FILE" "$SIZE"
[ -s "$FILE.gz" ] || gzip -1 -k -c "$FILE" >"$FILE.gz"
cat "$FILE" "$FILE.gz" >/dev/null # warm the page cache
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# Same numbers from both, or the comparison is meaningless.
"$BIN" topn "$FILE" --top 1000000 -o "$DIR/ours/profile_topN.json" >/dev/null
"$BIN" topn "$FILE.gz" --top 1000000 -o "$DIR/ours_gz/profile_topN.json" >/dev/null
cmp -s "$DIR/ours/profile_topN.json" "$DIR/ours_gz/profile_topN.json" || { echo "bench: .json and .json.gz give different Top-Ns" >&2; exit 1; }
python3 "$HERE/topn_python.py" "$FILE" >"$DIR/python.json"
python3 - "$DIR/ours/profile_topN.json" "$DIR/python.json" <<'PY'
import json, sys
ours = json.load(open(sys.argv[1]))
py = json.load(open(sys.argv[2]))
assert ours["total_gpu_time_ms"] == py["total_gpu_time_ms"], (ours["total_gpu_time_ms"], py["total_gpu_time_ms"])
assert ours["serving"]["n_prefill_steps"] == py["steps"]["prefill"]
assert ours["serving"]["n_decode_steps"] == py["steps"]["decode"]
mine = {k["name"]: k for k in ours["top_kernels"]}
assert set(mine) == set(py["kernels"]), "kernel sets differ"
fields = ("calls", "total_ms", "avg_us", "pct_gpu_time", "shapes", "dtypes", "phase_calls_measured",
          "calls_per_step", "base_latency_ms")
for name, p in py["kernels"].items():
    for f in fields:
        assert mine[name].get(f) == p.get(f), (name, f, mine[name].get(f), p.get(f))
launches = sum(p["calls"] for p in py["kernels"].values())
print(f"check: {len(py['kernels'])} kernels, {launches} launches, identical fields ({', '.join(fields)})")
PY

RSS_KB=$(/usr/bin/time -f %M "$BIN" topn "$FILE" -o "$DIR/ours/profile_topN.json" 2>&1 >/dev/null | tail -1)
RSS_GZ_KB=$(/usr/bin/time -f %M "$BIN" topn "$FILE.gz" -o "$DIR/ours_gz/profile_topN.json" 2>&1 >/dev/null | tail -1)
PY_RSS_KB=$(/usr/bin/time -f %M python3 "$HERE/topn_python.py" "$FILE" 2>&1 >/dev/null | tail -1)
python3 - "$DIR" "$BIN topn $FILE -o $DIR/ours/profile_topN.json" "$RUNS" \
  "$BIN topn $FILE.gz -o $DIR/ours_gz/profile_topN.json" \
  "python3 $HERE/topn_python.py $FILE" "$PY_RUNS" "zcat $FILE.gz" <<'PY'
import json, resource, subprocess, sys, time
d = sys.argv[1]
specs = (("ours_t", sys.argv[2], int(sys.argv[3])), ("gz_t", sys.argv[4], int(sys.argv[3])),
         ("zcat_t", sys.argv[7], int(sys.argv[3])), ("py_t", sys.argv[5], int(sys.argv[6])))
got = {name: {"times": [], "cpu": []} for name, _, _ in specs}
# Interleaved (one run of each in turn): a shared machine's load moves all of them alike.
for i in range(max(runs for _, _, runs in specs)):
    for name, cmd, runs in specs:
        if i >= runs:
            continue
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        got[name]["times"].append(time.perf_counter() - t)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        got[name]["cpu"].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
for name, _, _ in specs:
    json.dump(got[name], open(f"{d}/{name}.json", "w"))
PY
python3 - "$FILE" "$DIR" "$RSS_KB" "$RSS_GZ_KB" "$PY_RSS_KB" <<'PY'
import json, os, statistics, sys
path, d = sys.argv[1], sys.argv[2]
rss, rss_gz, py_rss = (int(x) / 1024 for x in sys.argv[3:6])
size, gz_size = os.path.getsize(path), os.path.getsize(path + ".gz")
runs = {n: json.load(open(f"{d}/{n}.json")) for n in ("ours_t", "gz_t", "zcat_t", "py_t")}
ours, gz, zc, py = (runs[n]["times"] for n in ("ours_t", "gz_t", "zcat_t", "py_t"))
mo, mg, mz, mp = (statistics.median(t) for t in (ours, gz, zc, py))
co, cg, cp = (statistics.median(runs[n]["cpu"]) for n in ("ours_t", "gz_t", "py_t"))
info = open("/proc/cpuinfo").read().split("\n")
model = next((l.split(":", 1)[1].strip() for l in info if l.startswith("model name")), "?")
print(f"file: {size / 1e6:.0f} MB ({path}); gzip -1: {gz_size / 1e6:.0f} MB; cpu: {model}, {os.cpu_count()} cpus")
print(f"roofline topn .json:    median {mo:.2f} s wall (min {min(ours):.2f}, max {max(ours):.2f}, {len(ours)} runs) = {size / mo / 1e6:.0f} MB/s; cpu (user+sys) {co:.2f} s = {size / co / 1e6:.0f} MB/s")
print(f"roofline topn .json.gz: median {mg:.2f} s wall ({len(gz)} runs) = {size / mg / 1e6:.0f} MB/s of JSON; cpu {cg:.2f} s")
print(f"zcat (inflating the .gz to /dev/null): median {mz:.2f} s wall ({len(zc)} runs) = {size / mz / 1e6:.0f} MB/s")
print(f"ratio to zcat: .json {mo / mz:.2f}x zcat's time [goal <= 0.69]; .json.gz {mg / max(mz, mo):.2f}x the slower of zcat and .json [goal <= 1.15]")
print(f"peak RSS: {rss:.1f} MB (.json), {rss_gz:.1f} MB (.json.gz) = {rss * 2**20 / size * 100:.1f}% of the uncompressed size  [REACH §3: < 25%]")
print(f"python json.load loop: median {mp:.2f} s wall ({len(py)} runs), cpu {cp:.2f} s, peak RSS {py_rss:.0f} MB")
print(f"ratio python/roofline: {mp / mo:.1f}x wall time, {cp / co:.1f}x cpu time, {py_rss / rss:.0f}x memory")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
