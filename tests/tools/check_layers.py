#!/usr/bin/env python3
"""The dependency rule of docs/ARCHITECTURE.md on every #include of src/ and tools/.

A file of src/roofline/<layer>/ spells the project's headers with their path,
"roofline/<layer>/x.hpp", and may include only its own layer and the layers below it. Which
layers stand on which is read from the `roofline_layer(<layer> BELOW ...)` line of each folder's
CMakeLists.txt, the same line that builds the library, so this check has no table of its own.
The build tools of tools/ stand on base and inputs. Anything else is printed as
`file:line: includes roofline/X/... from layer Y` and fails.

Usage: check_layers.py REPO_ROOT
"""
import pathlib
import re
import sys

LAYER_RE = re.compile(r"roofline_layer\((\w+)(?:\s+BELOW\s+([\w\s]+))?\)")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layer_graph(root):
    below = {}
    for cm in sorted((root / "src/roofline").glob("*/CMakeLists.txt")):
        m = LAYER_RE.search(cm.read_text())
        if m:
            below[m.group(1)] = (m.group(2) or "").split()
    below["tools"] = ["inputs"]
    return below


def reachable(layer, below):
    seen, todo = set(), [layer]
    while todo:
        cur = todo.pop()
        if cur not in seen:
            seen.add(cur)
            todo.extend(below.get(cur, []))
    return seen


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    below = layer_graph(root)
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
    for p in problems:
        print(p)
    print(f"check_layers: {checked} files, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
