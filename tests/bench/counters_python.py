#!/usr/bin/env python3
"""The obvious Python version of `roofline counters` on a rocprofv3 counter_collection.csv:
csv.DictReader, per kernel the set of dispatches, per counter the sum and the dispatches that
reported it, each dispatch's duration once. The baseline of tests/bench/counters_bench.sh, and
a cross-check of its numbers. Prints JSON: kernel name -> dispatches, bytes, FLOPs, time.

Usage: counters_python.py FILE.csv
"""
import csv
import json
import sys


def main():
    kernels = {}
    with open(sys.argv[1], newline="", encoding="utf-8-sig") as f:
        for row in csv.DictReader(f):
            name = row["Kernel_Name"]
            k = kernels.get(name)
            if k is None:
                k = kernels[name] = {"dispatches": set(), "counters": {}, "ns": 0, "timed": set()}
            d = (row["Process_Id"], row["Dispatch_Id"])
            k["dispatches"].add(d)
            c = k["counters"].setdefault(row["Counter_Name"], [0.0, set()])
            c[0] += float(row["Counter_Value"])
            c[1].add(d)
            if d not in k["timed"]:
                k["timed"].add(d)
                k["ns"] += int(row["End_Timestamp"]) - int(row["Start_Timestamp"])
    out = {}
    for name, k in kernels.items():
        cs = k["counters"]

        def mean(c):
            return cs[c][0] / len(cs[c][1]) if c in cs else None

        fetch, write, f8 = mean("FETCH_SIZE"), mean("WRITE_SIZE"), mean("SQ_INSTS_VALU_MFMA_MOPS_F8")
        bf16 = mean("MfmaFlopsBF16")
        # measure(): the MfmaFlops counters, unless absent or zero while fp8 MFMA ran (x 512).
        flops = bf16
        if f8 is not None and (flops is None or (flops == 0 and f8 > 0)):
            flops = f8 * 512
        out[name] = {
            "dispatches": len(k["dispatches"]),
            "bytes_per_dispatch": (fetch + write) * 1024 if fetch is not None and write is not None else None,
            "flops_per_dispatch": flops,
            "mfma_f8_per_dispatch": f8,
            "mfma_bf16_per_dispatch": bf16,
            "time_us_per_dispatch": k["ns"] / len(k["timed"]) / 1000 if k["timed"] else None,
        }
    json.dump(out, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
