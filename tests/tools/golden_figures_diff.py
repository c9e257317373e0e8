#!/usr/bin/env python3
"""Did only presentation change? Compares every JSON artifact of the golden cases between a git
revision (default HEAD) and the working tree: every number and boolean, and the fields that carry
a decision (op_class, headroom_class, bound_type, regime, confidence, roof, stage, arch, gfx, …),
must be equal; keys that are new (display_name, op, module) are listed, never compared. Prose
(notes, reasons, routes, input paths) is ignored. Exit 1 when a figure, verdict or class moved.

  tests/tools/golden_figures_diff.py [--rev REV] [--ignore KEY]...
"""
import argparse
import json
import math
import os
import subprocess
import sys

DECISIONS = {"op_class", "headroom_class", "bound_type", "regime", "confidence", "roof", "stage",
             "arch", "gfx", "product", "source", "peaks_source", "class", "verdict", "status",
             "byte_model", "compute_dtype", "target_eff_source", "level"}


def walk(old, new, path, out, ignore):
    if isinstance(old, dict) and isinstance(new, dict):
        for k in old:
            if k in ignore:
                continue
            if k not in new:
                out.append(f"{path}/{k}: removed")
            else:
                walk(old[k], new[k], f"{path}/{k}", out, ignore)
        return
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new) and not all(isinstance(x, str) for x in old + new):
            out.append(f"{path}: {len(old)} items -> {len(new)}")
            return
        for i, (a, b) in enumerate(zip(old, new)):
            walk(a, b, f"{path}/{i}", out, ignore)
        return
    if isinstance(old, bool) or isinstance(new, bool):
        if old is not new:
            out.append(f"{path}: {old!r} -> {new!r}")
    elif isinstance(old, (int, float)) and isinstance(new, (int, float)):
        if not math.isclose(old, new, rel_tol=1e-9, abs_tol=1e-15):
            out.append(f"{path}: {old!r} -> {new!r}")
    elif old is None or new is None:
        if old != new:
            out.append(f"{path}: {old!r} -> {new!r}")
    elif isinstance(old, str) and path.rsplit("/", 1)[-1] in DECISIONS and old != new:
        out.append(f"{path}: {old!r} -> {new!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--ignore", action="append", default=[])
    args = ap.parse_args()
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True,
                          text=True, check=True).stdout.strip()
    files = subprocess.run(["git", "ls-tree", "-r", "--name-only", args.rev, "tests/golden"],
                           capture_output=True, text=True, check=True, cwd=root).stdout.split()
    moved, compared = 0, 0
    for rel in files:
        if "/expected/" not in rel or not rel.endswith(".json"):
            continue
        old_text = subprocess.run(["git", "show", f"{args.rev}:{rel}"], capture_output=True,
                                  text=True, cwd=root).stdout
        path = os.path.join(root, rel)
        if not os.path.exists(path):
            print(f"{rel}: gone")
            moved += 1
            continue
        with open(path, encoding="utf-8") as f:
            new = json.load(f)
        out = []
        walk(json.loads(old_text), new, "", out, set(args.ignore))
        compared += 1
        for line in out:
            print(f"{rel}: {line}")
        moved += bool(out)
    print(f"{compared} JSON files compared, {moved} with a figure, verdict or class moved")
    return 1 if moved else 0


if __name__ == "__main__":
    sys.exit(main())
