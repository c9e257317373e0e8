#!/usr/bin/env python3
"""No function of src/ over the line limit (docs/ARCHITECTURE.md, "Size").

A function is a definition at namespace scope: it starts on a line at column 0 that is not a
comment, a preprocessor line, a namespace, a type or a closing brace, and ends at the next line
that is exactly `}` (clang-format puts a namespace-scope function's closing brace there). Its
length is the count of lines from its first to its closing brace, both included. Prints each
function over the limit as `file:line: name (N lines)` and fails.

Usage: check_function_length.py REPO_ROOT [--max 60]
"""
import argparse
import pathlib
import re
import sys

NOT_START = re.compile(r"^(//|/\*|\*|#|namespace\b|}|struct\b|class\b|enum\b|union\b|using\b|"
                       r"template\s*<[^>]*>\s*$|typedef\b|extern\b|static_assert\b|\s|$)")
NAME = re.compile(r"([A-Za-z_~][\w:~]*(?:operator\W+)?)\s*\(")


def functions(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if NOT_START.match(line) or line.rstrip().endswith(";"):
            i += 1
            continue
        # The signature runs to the line that opens the body; a declaration ends with `;` first.
        j, body = i, None
        while j < len(lines) and j < i + 12:
            text = lines[j].rstrip()
            if text.endswith(";") and "{" not in text:
                break
            if text.endswith("{") or text.endswith("{}"):
                body = j
                break
            j += 1
        if body is None:
            i = j + 1
            continue
        if lines[body].rstrip().endswith("}"):
            i = body + 1
            continue
        end = body + 1
        while end < len(lines) and lines[end] != "}" and not lines[end].startswith("};"):
            end += 1
        if end < len(lines) and lines[end] == "}":
            m = NAME.search(" ".join(lines[i:body + 1]))
            yield (i + 1, m.group(1) if m else lines[i].strip(), end - i + 1)
        i = end + 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root")
    ap.add_argument("--max", type=int, default=60)
    ap.add_argument("--list", action="store_true", help="print every function over the limit")
    args = ap.parse_args()
    root = pathlib.Path(args.root)
    over, count = [], 0
    for path in sorted((root / "src").rglob("*.cpp")) + sorted((root / "tools").glob("*.cpp")):
        for line, name, length in functions(path):
            count += 1
            if length > args.max:
                over.append(f"{path.relative_to(root)}:{line}: {name} ({length} lines)")
    for o in over:
        print(o)
    print(f"check_function_length: {count} functions, {len(over)} over {args.max} lines")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
