#!/bin/sh
# `roofline topn` speed and memory on generated synthetic PyTorch profiler Chrome traces of SIZE_MB
# (default 250 MB; 1000 for the gigabyte of issue 47), against the obvious Python json.load loop
# doing the same aggregation (topn_python.py) and `zcat` inflating the same .gz, interleaved in one
# run. Three traces from gen_chrome_trace.py: the plain one (nested cpu_ops with Input Dims/Input
# type, runtime launches, kernels with launch args, flow events, memcpy/memset, step annotations;
# also gzipped), the with-stack one (the same launches under nested python_function frames, every
# CPU op and frame written before the runtime calls and kernels, as PyTorch writes them), and the
# same trace without its frames (the yardstick of the with-stack speed).
# Checks first that the Top-Ns agree: the .json and the .json.gz byte for byte, the plain trace's
# numbers with the Python loop's for every kernel, the with-stack trace's with the Python loop's and
# its Top-N with the no-stack trace's (the frames add only each entry's module). Then prints median
# wall times, MB/s, peak RSS and the ratios, with issue 47's goals: the plain parse in at most 0.35x
# zcat's time, the .gz in at most 1.1x the slower of zcat and the plain parse, peak RSS at most
# 64 MB at 1 GB with and without stacks, the with-stack trace at no less than 0.8x the MB/s of the
# trace without its frames. A benchmark, not a test: nothing here fails on speed.
# Usage: tests/bench/topn_bench.sh [BUILD_DIR] [SIZE_MB] [RUNS]
#   BUILD_DIR a Release build (default build); RUNS default 5. PY_RUNS (default 3; 1 from 1000 MB:
#   json.load holds ~10x the file) Python runs; TOPN_BENCH_DIR (default /tmp/roofline-topn-bench)
#   holds the generated files, reused while their size matches.
set -eu
BUILD=${1:-build}
SIZE=${2:-250}
RUNS=${3:-5}
[ "$SIZE" -ge 1000 ] 2>/dev/null && PY_DEFAULT=1 || PY_DEFAULT=3
PY_RUNS=${PY_RUNS:-$PY_DEFAULT}
DIR=${TOPN_BENCH_DIR:-/tmp/roofline-topn-bench}
HERE=$(dirname "$0")
BIN="$BUILD/roofline"
FILE="$DIR/bench_${SIZE}mb.pt.trace.json"
STACK="$DIR/bench_${SIZE}mb_stack.pt.trace.json"
NOSTACK="$DIR/bench_${SIZE}mb_nostack.pt.trace.json"
[ -x "$BIN" ] || { echo "bench: $BIN not built (cmake -S . -B $BUILD -DCMAKE_BUILD_TYPE=Release && cmake --build $BUILD)" >&2; exit 1; }
mkdir -p "$DIR/ours" "$DIR/ours_gz" "$DIR/stack" "$DIR/nostack"
[ -s "$FILE" ] || python3 "$HERE/gen_chrome_trace.py" "$FILE" "$SIZE"
[ -s "$FILE.gz" ] || gzip -1 -k -c "$FILE" >"$FILE.gz"
[ -s "$STACK" ] || python3 "$HERE/gen_chrome_trace.py" "$STACK" "$SIZE" --stack
[ -s "$NOSTACK" ] || python3 "$HERE/gen_chrome_trace.py" "$NOSTACK" "$SIZE" --no-stack
cat "$FILE" "$FILE.gz" "$STACK" "$NOSTACK" >/dev/null # warm the page cache
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# Same numbers from all, or the comparison is meaningless.
topn() { "$BIN" topn "$1" --top 1000000 -o "$2/profile_topN.json" >/dev/null 2>&1; }
topn "$FILE" "$DIR/ours"
topn "$FILE.gz" "$DIR/ours_gz"
topn "$STACK" "$DIR/stack"
topn "$NOSTACK" "$DIR/nostack"
cmp -s "$DIR/ours/profile_topN.json" "$DIR/ours_gz/profile_topN.json" || { echo "bench: .json and .json.gz give different Top-Ns" >&2; exit 1; }
python3 "$HERE/topn_python.py" "$FILE" >"$DIR/python.json"
python3 "$HERE/topn_python.py" "$STACK" >"$DIR/python_stack.json"
python3 - "$DIR" <<'PY'
import json, sys
d = sys.argv[1]
fields = ("calls", "total_ms", "avg_us", "pct_gpu_time", "shapes", "dtypes", "phase_calls_measured",
          "calls_per_step", "base_latency_ms")
def check(topn, python):
    ours, py = json.load(open(f"{d}/{topn}/profile_topN.json")), json.load(open(f"{d}/{python}"))
    assert ours["total_gpu_time_ms"] == py["total_gpu_time_ms"], (ours["total_gpu_time_ms"], py["total_gpu_time_ms"])
    assert ours["serving"]["n_prefill_steps"] == py["steps"]["prefill"]
    assert ours["serving"]["n_decode_steps"] == py["steps"]["decode"]
    mine = {k["name"]: k for k in ours["top_kernels"]}
    assert set(mine) == set(py["kernels"]), "kernel sets differ"
    for name, p in py["kernels"].items():
        for f in fields:
            assert mine[name].get(f) == p.get(f), (name, f, mine[name].get(f), p.get(f))
    return len(py["kernels"]), sum(p["calls"] for p in py["kernels"].values())
n, launches = check("ours", "python.json")
print(f"check: {n} kernels, {launches} launches, identical fields ({', '.join(fields)}); .json.gz byte-identical")
n, launches = check("stack", "python_stack.json")
stack, nostack = (json.load(open(f"{d}/{t}/profile_topN.json")) for t in ("stack", "nostack"))
for e in stack["top_kernels"]:
    e["module"] = None  # the one field the frames add
assert stack == nostack, "with-stack and no-stack Top-Ns differ beyond the module"
print(f"check: with-stack {n} kernels, {launches} launches, identical fields; its Top-N the no-stack one's but for the module")
PY

rss() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1; }
RSS_KB=$(rss "$BIN" topn "$FILE" -o "$DIR/ours/profile_topN.json")
RSS_GZ_KB=$(rss "$BIN" topn "$FILE.gz" -o "$DIR/ours_gz/profile_topN.json")
RSS_STACK_KB=$(rss "$BIN" topn "$STACK" -o "$DIR/stack/profile_topN.json")
PY_RSS_KB=$(rss python3 "$HERE/topn_python.py" "$FILE")
python3 - "$DIR" "$RUNS" "$PY_RUNS" \
  "$BIN topn $FILE -o $DIR/ours/profile_topN.json" \
  "$BIN topn $FILE.gz -o $DIR/ours_gz/profile_topN.json" \
  "zcat $FILE.gz" \
  "$BIN topn $STACK -o $DIR/stack/profile_topN.json" \
  "$BIN topn $NOSTACK -o $DIR/nostack/profile_topN.json" \
  "python3 $HERE/topn_python.py $FILE" <<'PY'
import json, resource, subprocess, sys
import time
d, runs, py_runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
names = ("ours_t", "gz_t", "zcat_t", "stack_t", "nostack_t", "py_t")
specs = [(n, c, runs) for n, c in zip(names[:5], sys.argv[4:9])] + [("py_t", sys.argv[9], py_runs)]
got = {name: {"times": [], "cpu": []} for name, _, _ in specs}
# Interleaved (one run of each in turn): a shared machine's load moves all of them alike.
for i in range(max(n for _, _, n in specs)):
    for name, cmd, n in specs:
        if i >= n:
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
python3 - "$FILE" "$STACK" "$NOSTACK" "$DIR" "$RSS_KB" "$RSS_GZ_KB" "$RSS_STACK_KB" "$PY_RSS_KB" <<'PY'
import json, os, statistics, sys
path, stack, nostack, d = sys.argv[1:5]
rss, rss_gz, rss_stack, py_rss = (int(x) / 1024 for x in sys.argv[5:9])
size, gz_size = os.path.getsize(path), os.path.getsize(path + ".gz")
s_size, n_size = os.path.getsize(stack), os.path.getsize(nostack)
runs = {n: json.load(open(f"{d}/{n}.json")) for n in ("ours_t", "gz_t", "zcat_t", "stack_t", "nostack_t", "py_t")}
med = {n: statistics.median(r["times"]) for n, r in runs.items()}
cpu = {n: statistics.median(r["cpu"]) for n, r in runs.items()}
mo, mg, mz, ms, mn, mp = (med[n] for n in ("ours_t", "gz_t", "zcat_t", "stack_t", "nostack_t", "py_t"))
ours = runs["ours_t"]["times"]
info = open("/proc/cpuinfo").read().split("\n")
model = next((l.split(":", 1)[1].strip() for l in info if l.startswith("model name")), "?")
print(f"file: {size / 1e6:.0f} MB ({path}); gzip -1: {gz_size / 1e6:.0f} MB; cpu: {model}, {os.cpu_count()} cpus")
print(f"roofline topn .json:    median {mo:.2f} s wall (min {min(ours):.2f}, max {max(ours):.2f}, {len(ours)} runs) = {size / mo / 1e6:.0f} MB/s; cpu (user+sys) {cpu['ours_t']:.2f} s = {size / cpu['ours_t'] / 1e6:.0f} MB/s")
print(f"roofline topn .json.gz: median {mg:.2f} s wall = {size / mg / 1e6:.0f} MB/s of JSON; cpu {cpu['gz_t']:.2f} s")
print(f"zcat (inflating the .gz to /dev/null): median {mz:.2f} s wall = {size / mz / 1e6:.0f} MB/s")
print(f"ratio to zcat: .json {mo / mz:.2f}x zcat's time [goal <= 0.35]; .json.gz {mg / max(mz, mo):.2f}x the slower of zcat and .json [goal <= 1.1]")
print(f"with stacks: {s_size / 1e6:.0f} MB in {ms:.2f} s = {s_size / ms / 1e6:.0f} MB/s; without its frames {n_size / 1e6:.0f} MB in {mn:.2f} s = {n_size / mn / 1e6:.0f} MB/s; ratio {s_size / ms / (n_size / mn):.2f} [goal >= 0.8]")
print(f"peak RSS: {rss:.1f} MB (.json), {rss_gz:.1f} MB (.json.gz), {rss_stack:.1f} MB (with stacks) [goal at 1 GB: <= 64 MB]")
print(f"python json.load loop: median {mp:.2f} s wall ({len(runs['py_t']['times'])} runs), cpu {cpu['py_t']:.2f} s, peak RSS {py_rss:.0f} MB")
print(f"ratio python/roofline: {mp / mo:.1f}x wall time, {cpu['py_t'] / cpu['ours_t']:.1f}x cpu time, {py_rss / rss:.0f}x memory")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
