#!/bin/sh
# Stage C ingest speed: `roofline counters` on a generated ~500 MB rocprofv3 counter CSV shaped
# like real output (gen_counters_csv.py: floating-point values, comma-bearing quoted kernel
# names, 9 counters per dispatch of which 4 are used; page cache warm) against the obvious
# Python csv.DictReader loop doing the same aggregation, in the same run. Prints medians, GB/s
# (wall and CPU time; the ingest is single-threaded, so it runs on one core), peak RSS and the
# ratio, and checks that both agree on every kernel. A benchmark, not a test: nothing here fails
# on speed.
#
# Usage: tests/bench/counters_bench.sh [BUILD_DIR] [SIZE_MB] [RUNS]
#   BUILD_DIR a Release build (default build-rel); SIZE_MB default 500; RUNS default 7.
#   BASE_BIN=path/to/other/roofline: also time that binary, runs interleaved with ours
#     (base, ours, base, ours, ...) so both see the same machine load; prints both medians and
#     the median of the paired ratios. The way to measure a change on a busy machine.
#   PY_RUNS (default 3) Python runs (0: skip the Python loop and the ratio);
#   COUNTERS_BENCH_DIR (default /tmp/roofline-counters-bench) holds the generated file, named
#   after the generator's checksum and reused while it exists.
set -eu
BUILD=${1:-build-rel}
SIZE=${2:-500}
RUNS=${3:-7}
PY_RUNS=${PY_RUNS:-3}
BASE_BIN=${BASE_BIN:-}
DIR=${COUNTERS_BENCH_DIR:-/tmp/roofline-counters-bench}
HERE=$(dirname "$0")
BIN="$BUILD/roofline"
GEN_SUM=$(cksum <"$HERE/gen_counters_csv.py" | cut -d' ' -f1)
FILE="$DIR/bench_${SIZE}mb_${GEN_SUM}_counter_collection.csv"
[ -x "$BIN" ] || { echo "bench: $BIN not built (cmake -S . -B $BUILD -DCMAKE_BUILD_TYPE=Release && cmake --build $BUILD)" >&2; exit 1; }
[ -z "$BASE_BIN" ] || [ -x "$BASE_BIN" ] || { echo "bench: BASE_BIN=$BASE_BIN is not executable" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: needs GNU time (apt-get install time)" >&2; exit 1; }
mkdir -p "$DIR"
if [ ! -s "$FILE" ]; then
  echo "generating $FILE"
  python3 "$HERE/gen_counters_csv.py" "$FILE.tmp" "$SIZE"
  mv "$FILE.tmp" "$FILE"
fi
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
    per = lambda c: o["counters"][c]["sum"] / o["counters"][c]["dispatches"]
    for what, a, b in (("bytes", o["bytes_per_dispatch"], p["bytes_per_dispatch"]),
                       ("time", o["time_us_per_dispatch"], p["time_us_per_dispatch"]),
                       ("flops", o["flops_per_dispatch"], p["flops_per_dispatch"]),
                       ("mfma_f8", per("SQ_INSTS_VALU_MFMA_MOPS_F8"), p["mfma_f8_per_dispatch"]),
                       ("bf16", per("MfmaFlopsBF16"), p["mfma_bf16_per_dispatch"])):
        assert a == b or math.isclose(a, b, rel_tol=1e-12), (name, what, a, b)
print(f"check: {len(py)} kernels, {sum(p['dispatches'] for p in py.values())} dispatches, identical per-dispatch numbers")
PY

python3 - "$FILE" "$RUNS" "$PY_RUNS" "$HERE/counters_python.py" "$BIN" "$BASE_BIN" <<'PY'
import os, statistics, subprocess, sys, time
path, runs, py_runs, py_script, ours_bin, base_bin = sys.argv[1:7]
runs, py_runs = int(runs), int(py_runs)
size = os.path.getsize(path)

def run(cmd):
    """Wall time, CPU time (user + sys) and peak RSS (KiB) of one command. GNU time reports the
    CPU time and RSS: a child forked from this Python process would count Python's pages in its
    peak RSS."""
    out = os.path.join(os.path.dirname(path), "time.txt")
    t = time.perf_counter()
    subprocess.run(["/usr/bin/time", "-f", "%U %S %M", "-o", out] + cmd,
                   stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - t
    user, system, rss = open(out).read().split()[-3:]
    return wall, float(user) + float(system), int(rss)

bins = [("base", base_bin)] if base_bin else []
bins.append(("ours", ours_bin))
res = {name: [] for name, _ in bins}
for b in bins:  # one warm-up each
    run([b[1], "counters", "--format", "json", path])
for _ in range(runs):  # interleaved: both see the same load
    for name, b in bins:
        res[name].append(run([b, "counters", "--format", "json", path]))

info = open("/proc/cpuinfo").read().split("\n")
model = next((l.split(":", 1)[1].strip() for l in info if l.startswith("model name")), "?")
flags = next((l.split(":", 1)[1].split() for l in info if l.startswith("flags")), [])
simd = "avx512bw" if "avx512bw" in flags else "avx2" if "avx2" in flags else "sse2"
print(f"file: {size / 1e6:.0f} MB ({path}); cpu: {model}, {os.cpu_count()} cpus, {simd}")
med = {}
for name, b in bins:
    walls = [r[0] for r in res[name]]
    cpus = [r[1] for r in res[name]]
    rss = max(r[2] for r in res[name]) / 1024
    med[name] = statistics.median(walls)
    print(f"{name} ({b}): median {med[name] * 1e3:.0f} ms (min {min(walls) * 1e3:.0f}, max "
          f"{max(walls) * 1e3:.0f}, {runs} runs) = {size / med[name] / 1e9:.2f} GB/s "
          f"(best {size / min(walls) / 1e9:.2f})  [target >= 2 GB/s]")
    print(f"  cpu time (user + sys): median {statistics.median(cpus) * 1e3:.0f} ms = "
          f"{size / statistics.median(cpus) / 1e9:.2f} GB/s; peak RSS {rss:.1f} MB  [target < 32 MB]")
if base_bin:
    ratios = sorted(b[0] / o[0] for b, o in zip(res["base"], res["ours"]))
    print(f"paired speedup base/ours (wall): median {statistics.median(ratios):.3f}x "
          f"(range {ratios[0]:.3f}..{ratios[-1]:.3f})")
if py_runs > 0:
    # Each Python run sits between two runs of ours: the ratio is paired like the speedup.
    py, ratios = [], []
    for _ in range(py_runs):
        a = run([ours_bin, "counters", "--format", "json", path])[0]
        p = run([sys.executable, py_script, path])[0]
        b = run([ours_bin, "counters", "--format", "json", path])[0]
        py.append(p)
        ratios.append(p / ((a + b) / 2))
    mp = statistics.median(py)
    print(f"python csv.DictReader: median {mp:.2f} s ({py_runs} runs) = {size / mp / 1e6:.0f} MB/s")
    print(f"ratio python/ours (each Python run against the ours runs around it): median "
          f"{statistics.median(ratios):.0f}x (range {min(ratios):.0f}..{max(ratios):.0f})  "
          f"[target >= 35x]")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
