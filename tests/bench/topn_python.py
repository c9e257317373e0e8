#!/usr/bin/env python3
"""The obvious Python version of `roofline topn` on a PyTorch Chrome trace: json.load the whole
document, index the cpu_ops by External id, then one loop over the GPU events (kernel,
gpu_memcpy, gpu_memset) summing per name, joining each launch to its op's Input Dims / Input type
and to its step (docs/method.md §22): the CPU user_annotation step span holding its launch (the
runtime event of its correlation, else its op), or — when no CPU span holds a launch — the
gpu_user_annotation span its GPU time falls in. The baseline of tests/bench/topn_bench.sh and a
cross-check of its numbers: prints, per kernel, the Top-N fields both compute.

Usage: topn_python.py TRACE.json[.gz]
"""
import bisect
import gzip
import json
import re
import sys

NON_TENSOR = {"", "Scalar", "ScalarList", "TensorList", "GenericList", "None", "Device", "Layout",
              "MemoryFormat", "String"}
STEP = re.compile(r"^execute.*?context_(\d+)\((\d+)\).*?generation_(\d+)\(")


def main():
    path = sys.argv[1]
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        events = json.load(f)["traceEvents"]
    ops, op_ts, launch_ts, gpu_steps, cpu_steps = {}, {}, {}, [], []
    for e in events:
        cat = e.get("cat")
        if cat == "cpu_op":
            ext = e.get("args", {}).get("External id")
            if ext is not None and ext not in ops:
                ops[ext] = e["args"]
                op_ts[ext] = e["ts"]
        elif cat == "cuda_runtime":
            corr = e.get("args", {}).get("correlation")
            if corr is not None:
                launch_ts.setdefault(corr, e["ts"])
        elif cat in ("gpu_user_annotation", "user_annotation"):
            m = STEP.match(e.get("name", ""))
            if m:
                (gpu_steps if cat == "gpu_user_annotation" else cpu_steps).append(
                    (e["ts"], e["ts"] + e["dur"], int(m.group(2)) > 0))
    # One thread here (the generator's): the CPU spans are used when any holds a launch.
    cpu_steps.sort()
    cpu_starts = [s[0] for s in cpu_steps]

    def find(steps, starts, ts):
        i = bisect.bisect_right(starts, ts) - 1
        return steps[i] if i >= 0 and ts < steps[i][1] else None

    by_launch = any(find(cpu_steps, cpu_starts, t) for t in launch_ts.values())
    steps = cpu_steps if by_launch or not gpu_steps else sorted(gpu_steps)
    starts = [s[0] for s in steps]
    kernels = {}
    for e in events:
        if e.get("cat") not in ("kernel", "gpu_memcpy", "gpu_memset") or e.get("ph") != "X":
            continue
        k = kernels.setdefault(e["name"], {"calls": 0, "us": 0.0, "sigs": {}, "dtypes": set(),
                                          "regime": {"prefill": [0, 0.0], "decode": [0, 0.0]}})
        k["calls"] += 1
        k["us"] += e["dur"]
        args = e.get("args", {})
        if by_launch:
            t = launch_ts.get(args.get("correlation"), op_ts.get(args.get("External id")))
            step = find(steps, starts, t) if t is not None else None
        else:
            step = find(steps, starts, e["ts"])
        if step:
            r = k["regime"]["prefill" if step[2] else "decode"]
            r[0] += 1
            r[1] += e["dur"]
        op = ops.get(e.get("args", {}).get("External id"))
        if op is None:
            continue
        dims = [d for d in op.get("Input Dims", []) if d]
        types = op.get("Input type", [])
        k["dtypes"].update(t for t in types if t not in NON_TENSOR)
        if dims:
            sig = json.dumps(dims)
            k["sigs"][sig] = k["sigs"].get(sig, 0) + 1
    total = sum(k["us"] for k in kernels.values())
    n_steps = {"prefill": sum(1 for s in steps if s[2]), "decode": sum(1 for s in steps if not s[2])}
    out = {}
    for name, k in kernels.items():
        top = sorted(k["sigs"].items(), key=lambda kv: (-kv[1], kv[0]))[:5]
        entry = {"calls": k["calls"], "total_ms": round(k["us"] / 1000, 4),
                 "avg_us": round(k["us"] / k["calls"], 3),
                 "pct_gpu_time": round(100 * k["us"] / total, 2),
                 "shapes": [json.loads(s) for s in sorted(s for s, _ in top)],
                 "dtypes": sorted(k["dtypes"])}
        for r, (calls, us) in k["regime"].items():
            if calls:
                entry.setdefault("phase_calls_measured", {})[r] = calls
                entry.setdefault("calls_per_step", {})[r] = round(calls / n_steps[r], 3)
                entry.setdefault("base_latency_ms", {})[r] = round(us / calls / 1000, 6)
        out[name] = entry
    json.dump({"total_gpu_time_ms": round(total / 1000, 4), "steps": n_steps, "kernels": out},
              sys.stdout)


if __name__ == "__main__":
    main()
