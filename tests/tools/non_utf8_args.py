#!/usr/bin/env python3
"""Command-line values that are not UTF-8 reach the JSON output as U+FFFD, never a crash.

Usage: non_utf8_args.py --binary ROOFLINE

`calc --format json` and `peaks show --format json` echo the gfx and product they were given. A
byte that is not UTF-8 there (a Latin-1 `é`, a stray byte) used to end the run with exit 3
(json.exception.type_error.316); every JSON the tool prints now goes through the replacing dump
of the artifacts (json_text). Each command must exit 0, print strict UTF-8 JSON, and show the
value with U+FFFD in place of each bad byte. (The golden cases cannot hold such a byte in their
cmd file, which is UTF-8 text; counters_non_utf8_name covers the kernel names of a counter CSV.)
"""
import argparse
import json
import os
import subprocess
import sys

CASES = [
    (["calc", "--bytes", "1e9", "--flops", "1e9", "--time-us", "100", "--gfx", "gfx950",
      "--product", b"caf\xe9", "--dtype", "bf16", "--class", "gemm", "--format", "json"],
     ("peaks", "product"), "caf\ufffd"),
    (["peaks", "show", b"gfx9\xff50", "--format", "json"], ("arch",), "gfx9\ufffd50"),
    (["peaks", "show", "gfx950", "--product", b"caf\xe9", "--format", "json"], ("product",),
     "caf\ufffd"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    opts = ap.parse_args()
    errors = []
    for args, path, want in CASES:
        argv = [os.fsencode(os.path.abspath(opts.binary))] + [
            a if isinstance(a, bytes) else a.encode() for a in args]
        shown = " ".join(a.decode("utf-8", "backslashreplace") for a in argv[1:])
        p = subprocess.run(argv, capture_output=True, timeout=60)
        if p.returncode != 0:
            errors.append(f"{shown}: exit {p.returncode}: {p.stderr.decode('utf-8', 'replace')}")
            continue
        try:
            doc = json.loads(p.stdout.decode("utf-8"))  # strict: the output must be UTF-8
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            errors.append(f"{shown}: not UTF-8 JSON: {e}")
            continue
        value = doc
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        if value != want:
            errors.append(f"{shown}: {'.'.join(path)} is {value!r}, expected {want!r}")
    for e in errors:
        print(f"FAIL: {e}")
    if errors:
        return 1
    print(f"ok: {len(CASES)} commands with non-UTF-8 values print UTF-8 JSON")
    return 0


if __name__ == "__main__":
    sys.exit(main())
