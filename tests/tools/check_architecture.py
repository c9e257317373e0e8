#!/usr/bin/env python3
"""docs/ARCHITECTURE.md stays a true map of the tree.

- Every folder the map names in bold (`**`path/`**`) exists, and every folder of src/roofline/
  (at any depth) and every top-level folder of the repository is named (in a git checkout, the
  folders that hold a tracked file: an untracked one is output, such as the folder the README's
  main command writes).
- The passes the map lists under analyze/steps/ are exactly the headers of that folder, and the
  driver (analyze.cpp) includes each of them.
- The map stays short (at most 150 lines).

Prints each mismatch and fails.

Usage: check_architecture.py REPO_ROOT
"""
import pathlib
import re
import subprocess
import sys

MAX_LINES = 150


def tracked_top_folders(root):
    """The top-level folders holding a file git tracks; None outside a git checkout."""
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z"], capture_output=True,
                             check=True, timeout=60).stdout.decode("utf-8", "replace")
    except (OSError, subprocess.SubprocessError):
        return None
    return {f.split("/", 1)[0] for f in out.split("\0") if "/" in f}


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    doc_path = root / "docs/ARCHITECTURE.md"
    doc = doc_path.read_text(encoding="utf-8")
    problems = []
    named = set(re.findall(r"\*\*`([^`]+)/`\*\*", doc))
    for folder in sorted(named):
        if not (root / folder).is_dir():
            problems.append(f"ARCHITECTURE.md names {folder}/, which does not exist")
    present = {str(p.relative_to(root)) for p in (root / "src/roofline").rglob("*") if p.is_dir()}
    present |= {p.name for p in root.iterdir()
                if p.is_dir() and not p.name.startswith((".", "build"))}
    # Only what the repository holds is its map's business: an untracked folder is output (the
    # README's main command writes its artifacts into a folder named after the trace, here).
    tracked = tracked_top_folders(root)
    if tracked is not None:
        present = {f for f in present if f.split("/", 1)[0] in tracked or f.startswith("src/")}
    for folder in sorted(present - named):
        problems.append(f"{folder}/ exists but ARCHITECTURE.md does not name it")
    steps_dir = root / "src/roofline/analyze/steps"
    section = doc.split("**`src/roofline/analyze/steps/`**", 1)
    listed = set(re.findall(r"^- `(\w+)` — ", section[1].split("\n**", 1)[0], re.M)) \
        if len(section) == 2 else set()
    headers = {p.stem for p in steps_dir.glob("*.hpp")}
    for name in sorted(listed - headers):
        problems.append(f"ARCHITECTURE.md lists the pass {name}, but steps/{name}.hpp does not exist")
    for name in sorted(headers - listed):
        problems.append(f"steps/{name}.hpp exists, but ARCHITECTURE.md does not list the pass")
    driver = (root / "src/roofline/analyze/analyze.cpp").read_text(encoding="utf-8")
    for name in sorted(headers):
        if f'#include "roofline/analyze/steps/{name}.hpp"' not in driver:
            problems.append(f"the driver analyze.cpp does not include steps/{name}.hpp")
    lines = doc.count("\n")
    if lines > MAX_LINES:
        problems.append(f"ARCHITECTURE.md has {lines} lines (at most {MAX_LINES}): a map, not a manual")
    for p in problems:
        print(p)
    print(f"check_architecture: {len(named)} folders, {len(listed)} passes, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
