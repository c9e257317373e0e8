#!/usr/bin/env python3
"""The dependency rule of docs/ARCHITECTURE.md on every #include of src/ and tools/.

A file of src/roofline/<layer>/ spells the project's headers with their path,
"roofline/<layer>/x.hpp", and may include only its own layer and the layers below it. Which
layers stand on which is read from the `roofline_layer(<layer> BELOW ...)` line of each folder's
CMakeLists.txt, the same line that builds the library, so this check has no table of its own.
The build tools of tools/ stand on base and inputs. Anything else is printed as
`file:line: includes roofline/X/... from layer Y` and fails.

Inside a layer the same line may order its sub-folders, bottom first:
`roofline_layer(analyze BELOW classify INSIDE entry evidence models steps)`. A file then includes
only its own sub-folder and those before it in the list; the layer's own files (its folder
itself) stand above every sub-folder, except its layer.hpp, which stands below them all. A
sub-folder the list does not name fails too, as does an include that runs up:
`file:line: includes roofline/analyze/steps/x.hpp (steps) from models: ...`.

Usage: check_layers.py REPO_ROOT
"""
import pathlib
import re
import sys

LAYER_RE = re.compile(r"roofline_layer\((\w+)((?:\s+(?:BELOW|INSIDE)(?:\s+\w+)+)*)\s*\)")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_graph(root):
    """Per layer: the layers directly below it, and its sub-folders bottom first."""
    below, inside = {}, {}
    for cm in sorted((root / "src/roofline").glob("*/CMakeLists.txt")):
        m = LAYER_RE.search(cm.read_text())
        if not m:
            continue
        args = {"BELOW": [], "INSIDE": []}
        key = None
        for word in m.group(2).split():
            if word in args:
                key = word
            else:
                args[key].append(word)
        below[m.group(1)] = args["BELOW"]
        inside[m.group(1)] = args["INSIDE"]
    below["tools"] = ["inputs"]
    return below, inside


def reachable(layer, below):
    seen, todo = set(), [layer]
    while todo:
        cur = todo.pop()
        if cur not in seen:
            seen.add(cur)
            todo.extend(below.get(cur, []))
    return seen


def inner_place(rest, layer, order):
    """Where a path inside a layer (the parts after roofline/<layer>/) stands in the layer's order:
    (rank, name); rank None for a sub-folder the order does not name."""
    if len(rest) == 1:
        return (-1, "layer.hpp") if rest[0] == "layer.hpp" else (len(order), f"{layer}/")
    folder = rest[0]
    return (order.index(folder) if folder in order else None), folder


def order_text(layer, order):
    return f"inside {layer}, layer.hpp < " + " < ".join(order) + f" < {layer}/ itself"


def inner_problems(rel, no, inc, layer, own, order):
    """An include of the file's own layer that runs up the layer's INSIDE order."""
    rank, folder = inner_place(inc.split("/")[2:], layer, order)
    if rank is None:
        return [f"{rel}:{no}: includes {inc}: {folder}/ is not in roofline_layer({layer} INSIDE ...)"]
    if own[0] is not None and rank > own[0]:
        return [f"{rel}:{no}: includes {inc} ({folder}) from {own[1]}: {order_text(layer, order)}"]
    return []


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    below, inside = layer_graph(root)
    problems, checked = [], 0
    files = [p for p in (root / "src").rglob("*") if p.suffix in (".cpp", ".hpp", ".inc")]
    files += [p for p in (root / "tools").glob("*.cpp")]
    for path in sorted(files):
        rel = path.relative_to(root)
        parts = rel.parts
        if parts[0] == "tools":
            layer = "tools"
        elif len(parts) >= 4 and parts[:2] == ("src", "roofline"):
            layer = parts[2]
        else:
            problems.append(f"{rel}: outside src/roofline/<layer>/")
            continue
        if layer not in below:
            problems.append(f"{rel}: folder {layer} is no layer (no roofline_layer line)")
            continue
        allowed = reachable(layer, below)
        order = inside.get(layer, [])
        own = inner_place(parts[3:], layer, order) if order else None
        if own and own[0] is None:
            problems.append(f"{rel}: {own[1]}/ is not in roofline_layer({layer} INSIDE ...)")
        checked += 1
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            inc = m.group(1)
            if inc.endswith(".inc") and "/" not in inc:
                continue  # a generated table (build/generated/)
            head = inc.split("/")
            if head[0] != "roofline" or len(head) < 3:
                problems.append(f"{rel}:{no}: includes \"{inc}\": spell it roofline/<layer>/...")
            elif head[1] not in allowed:
                problems.append(f"{rel}:{no}: includes {inc} ({head[1]}) from layer {layer}")
            elif head[1] == layer and order:
                problems += inner_problems(rel, no, inc, layer, own, order)
    for p in problems:
        print(p)
    print(f"check_layers: {checked} files, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
