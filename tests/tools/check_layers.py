#!/usr/bin/env python3
"""The dependency rule of docs/ARCHITECTURE.md, checked on every #include of the project:
util <- inputs <- classify <- pipeline <- render <- outcomes <- cli, with topn on classify alone
(beside pipeline, render and outcomes, which it never includes). A file may include headers of
its own layer or of a layer below it; anything else is printed as
`file:line: includes X (layer) from layer Y` and fails.

The build enforces the same rule (each layer compiles with only its own and lower include folders
and src/ folders on its path, and links only the layers below it); this check also names the
layer of every file, so a new file or folder that is in no layer fails here.

Usage: check_layers.py REPO_ROOT
"""
import pathlib
import re
import sys

# The layers each layer stands on directly.
BELOW = {
    "util": [],
    "inputs": ["util"],
    "classify": ["inputs"],
    "pipeline": ["classify"],
    "render": ["pipeline"],
    "outcomes": ["render"],
    "topn": ["classify"],
    "cli": ["outcomes", "topn"],
}
# Source folders by layer (private headers inside them belong to the same layer).
FOLDERS = {"src/util": "util", "src/core": "inputs", "src/tools": "inputs",
           "src/classify": "classify", "src/stages": "pipeline", "src/pipeline": "pipeline",
           "src/output": "render", "src/outcomes": "outcomes", "src/topn": "topn",
           "src/cli": "cli"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def reachable(layer):
    """The layers `layer` may include: itself and everything below it."""
    seen, todo = set(), [layer]
    while todo:
        cur = todo.pop()
        if cur not in seen:
            seen.add(cur)
            todo.extend(BELOW[cur])
    return seen


def header_layers(root):
    """roofline/<name>.hpp -> the layer whose include folder holds it."""
    out = {}
    for path in root.glob("include/*/roofline/*.hpp"):
        layer = path.parent.parent.name
        out[f"roofline/{path.name}"] = layer
    return out


def layer_of_include(inc, headers):
    if inc.startswith("roofline/"):
        return headers.get(inc)
    for folder, layer in FOLDERS.items():
        if inc.startswith(folder[len("src/"):] + "/"):
            return layer
    return None


def layer_of_file(rel):
    m = re.fullmatch(r"include/(\w+)/roofline/\w+\.hpp", rel)
    if m:
        return m.group(1) if m.group(1) in BELOW else None
    for folder, layer in FOLDERS.items():
        if rel.startswith(folder + "/"):
            return layer
    return None


def main():
    root = pathlib.Path(sys.argv[1])
    headers = header_layers(root)
    problems, unknown = [], []
    files = sorted(list(root.glob("include/**/*.hpp")) + list(root.glob("src/**/*.[ch]pp")) +
                   list(root.glob("src/**/*.inc")))
    for path in files:
        rel = path.relative_to(root).as_posix()
        own = layer_of_file(rel)
        if own is None:
            unknown.append(f"{rel}: in no layer (add it to check_layers.py)")
            continue
        allowed = reachable(own)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m or "/" not in m.group(1):
                continue
            other = layer_of_include(m.group(1), headers)
            if other is None:
                if m.group(1).startswith("roofline/"):
                    unknown.append(f"{rel}:{n}: {m.group(1)} is in no layer")
                continue
            if other not in allowed:
                problems.append(f"{rel}:{n}: includes {m.group(1)} ({other}) from layer {own}")
    for p in problems + unknown:
        print(p)
    print(f"check_layers: {len(files)} files, {len(problems)} wrong-way includes, "
          f"{len(unknown)} unplaced")
    return 1 if problems or unknown else 0


if __name__ == "__main__":
    sys.exit(main())
