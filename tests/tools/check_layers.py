#!/usr/bin/env python3
"""The dependency rule of docs/ARCHITECTURE.md, checked on every #include of the project:
vocabulary <- inputs <- pipeline <- render <- {outcomes, topn} <- cli (topn needs only the
pipeline). A file may include headers of its own layer or
a lower one; anything else is printed as `file:line: includes X (layer) from layer Y` and fails.
(The libraries enforce the same rule at link time; this catches a type-only include too.)

Usage: check_layers.py REPO_ROOT
"""
import pathlib
import re
import sys

# Rank of each layer; a file may include its own layer or one of lower rank. outcomes and topn
# share a rank and do not include each other.
RANK = {"vocabulary": 0, "inputs": 1, "pipeline": 2, "render": 3, "outcomes": 4, "topn": 4,
        "cli": 5}

# Public headers by layer (include/roofline/<name>.hpp).
HEADERS = {
    "vocabulary": {"vocabulary", "units"},
    "inputs": {"inputs", "load", "counters", "probes", "dtype", "peaks", "kernel_classes",
               "embedded_data", "eval_inputs", "calibration", "layer_plan"},
    "pipeline": {"stages", "analysis", "analyze", "match", "calc"},
    "render": {"report"},
    "outcomes": {"rounds", "pairing", "predictions", "compare", "outcomes", "ledger", "calibrate"},
    "topn": {"topn"},
}
# Source folders by layer (private headers inside them belong to the same layer).
FOLDERS = {"src/core": "inputs", "src/tools": "inputs", "src/stages": "pipeline",
           "src/pipeline": "pipeline", "src/output": "render", "src/outcomes": "outcomes", "src/topn": "topn",
           "src/cli": "cli"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_of_header(inc):
    m = re.fullmatch(r"roofline/(\w+)\.hpp", inc)
    if m:
        for layer, names in HEADERS.items():
            if m.group(1) in names:
                return layer
        return None
    for folder, layer in FOLDERS.items():
        if inc.startswith(folder[len("src/"):] + "/"):
            return layer
    return None


def layer_of_file(rel):
    if rel.startswith("include/roofline/"):
        return layer_of_header(rel[len("include/"):])
    for folder, layer in FOLDERS.items():
        if rel.startswith(folder + "/"):
            return layer
    return None


def main():
    root = pathlib.Path(sys.argv[1])
    problems, unknown = [], []
    files = sorted(list(root.glob("include/roofline/*.hpp")) + list(root.glob("src/**/*.[ch]pp")) +
                   list(root.glob("src/**/*.inc")))
    for path in files:
        rel = path.relative_to(root).as_posix()
        own = layer_of_file(rel)
        if own is None:
            unknown.append(f"{rel}: in no layer (add it to check_layers.py)")
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m or not (m.group(1).startswith("roofline/") or "/" in m.group(1)):
                continue
            other = layer_of_header(m.group(1))
            if other is None:
                if m.group(1).startswith("roofline/"):
                    unknown.append(f"{rel}:{n}: {m.group(1)} is in no layer")
                continue
            if other != own and RANK[other] >= RANK[own]:
                problems.append(f"{rel}:{n}: includes {m.group(1)} ({other}) from layer {own}")
    for p in problems + unknown:
        print(p)
    print(f"check_layers: {len(files)} files, {len(problems)} wrong-way includes, "
          f"{len(unknown)} unplaced")
    return 1 if problems or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
