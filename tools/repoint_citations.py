#!/usr/bin/env python3
"""Points citations of the product contract at docs/method.md.

Code comments and documents of this repository cite sections of contract files that are not in
it: `SPEC §4`, `MODELS.md §10`, `RUNS §2b`, `OUTCOMES.md §3`, `REACH §1`, `SERVING.md §5`,
`CEILINGS.md §1`, with lists (`§5, §7 L3`), ranges (`§4–§5`) and bare follow-ups (`(§5)` after
an earlier citation of the same file). This script rewrites each of them into the section of
docs/method.md that covers the same ground (`docs/method.md §8.7`), using the table between the
`citation-map` markers of docs/method.md (Appendix A).

Only comments are rewritten (citation_spans.py says what counts): C and C++ comments, Python
comments and docstrings, CMake and data-table `#` lines, and Markdown prose outside code. String
literals are never touched: the notes the tool writes into its artifacts are compared byte for
byte by the golden tests. Running it again changes nothing.

Usage: repoint_citations.py [--repo DIR] [--check | --list | --self-test] [--verbose]
  (no option)  rewrite the files in place and print what changed
  --check      change nothing; exit 1 when a citation is left to rewrite (CTest docs.citations)
  --list       print every citation found with the section it points to
  --self-test  rewrite a few fixed snippets and compare them with what they must become
"""

import argparse
import fnmatch
import os
import subprocess
import sys

from citation_rewrite import METHOD, WIDTH, Map, overlong, rewrite_text

INCLUDE = ("src/*", "include/*", "tests/unit/*", "tests/fuzz/*", "tests/tools/*", "tests/bench/*",
           "tests/CMakeLists.txt", "data/*.tsv", "data/peaks.md", "cmake/*", "*CMakeLists.txt",
           "docs/ARCHITECTURE.md", "README.md", "tests/golden/*/README.md", "tools/*")
EXCLUDE = (METHOD, "tools/repoint_citations.py", "tools/citation_*.py", "tests/fixtures/*",
           "tests/golden/*/expected/*", "tests/golden/*/input/*")


def files(repo):
    try:
        listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                                cwd=repo, capture_output=True, text=True, check=True).stdout
        paths = listed.splitlines()
    except (OSError, subprocess.CalledProcessError):
        paths = []
        for root, dirs, names in os.walk(repo):
            dirs[:] = [d for d in dirs if not d.startswith((".", "build"))]
            for n in names:
                paths.append(os.path.relpath(os.path.join(root, n), repo))
    for p in sorted(set(paths)):
        if any(fnmatch.fnmatch(p, g) for g in EXCLUDE):
            continue
        if any(fnmatch.fnmatch(p, g) for g in INCLUDE) and os.path.isfile(os.path.join(repo, p)):
            yield p


SELF_TEST = [
    # (path, text, expected): lists, ranges, bare follow-ups, qualifiers, path rows, strings kept
    ("src/x.cpp", "// Step (SPEC §5, §7 L3): x\nauto s = \"MODELS.md §9\";\n",
     "// Step (docs/method.md §10, §10.6 L3): x\nauto s = \"MODELS.md §9\";\n"),
    ("src/x.cpp", "// (SPEC §3 step 1, §4) and (MODELS.md §4–§5)\n",
     "// (docs/method.md §5, §8) and (docs/method.md §8.5, §8.7)\n"),
    ("src/x.cpp", "// A (OUTCOMES.md §4) as\n// it (§5) is.\n",
     "// A (docs/method.md §17.4) as\n// it (§17.5) is.\n"),
    ("src/x.cpp", "// (SPEC §6, REACH §2) and RUNS §2b\n",
     "// (docs/method.md §11, §11.4) and docs/method.md §8.2\n"),
    ("src/stages/scope.cpp", "// Step 1 (SPEC §3): head\n",
     "// Step 1 (docs/method.md §4): head\n"),
    ("src/x.cpp", "/* SPEC §3.3(c) */ int a = 1; // (MODELS.md)\n",
     "/* docs/method.md §7.1 */ int a = 1; // (docs/method.md §8)\n"),
    ("t.py", "# (SPEC §1)\nx = 'SPEC §1'\n\"\"\"Doc (MODELS.md §10).\"\"\"\n",
     "# (docs/method.md §2.1)\nx = 'SPEC §1'\n\"\"\"Doc (docs/method.md §6.4).\"\"\"\n"),
    ("a.md", "Proves SPEC\n§10 and `MODELS.md §9`.\n\nThen §4.\n\n```\nSPEC §1\n```\n",
     "Proves docs/method.md\n§16.1 and `MODELS.md §9`.\n\nThen §8.\n\n```\nSPEC §1\n```\n"),
    ("src/x.cpp", "// " + "w " * 40 + "(MODELS.md §10) end\n// next line.\n",
     "// " + "w " * 39 + "w\n// (docs/method.md §6.4) end next line.\n"),
]


def self_test(cmap):
    failed = 0
    for path, text, want in SELF_TEST:
        got, _ = rewrite_text(cmap, path, text, [])
        again, rw = rewrite_text(cmap, path, got, [])
        if got != want or again != got or rw.found:
            failed += 1
            print(f"FAIL {path}: {text!r}\n  got  {got!r}\n  want {want!r}"
                  + ("" if again == got else f"\n  second run {again!r}"))
    print(f"{len(SELF_TEST) - failed} of {len(SELF_TEST)} self-test cases pass")
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--repo", default=os.path.join(here, ".."))
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true")
    mode.add_argument("--list", action="store_true")
    mode.add_argument("--self-test", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    repo = os.path.abspath(args.repo)
    cmap = Map.load(repo)
    if args.self_test:
        return self_test(cmap)
    notes, changed, total, long_lines = [], [], 0, []
    for path in files(repo):
        full = os.path.join(repo, path)
        try:
            text = open(full, encoding="utf-8").read()
        except UnicodeDecodeError:
            continue
        new, rw = rewrite_text(cmap, path, text, notes)
        if not rw.found:
            continue
        total += rw.count
        changed.append((path, rw.count))
        if args.list or args.verbose:
            for old, rep in rw.found:
                print(f"{path}: {old!r} -> {rep!r}")
        if not args.check and not args.list and new != text:
            with open(full, "w", encoding="utf-8") as f:
                f.write(new)
            long_lines += overlong(path, new, text)
    for n in notes:
        print("note: " + n, file=sys.stderr)
    if long_lines:
        print(f"note: {len(long_lines)} line(s) past {WIDTH} columns, trailing comments for "
              f"clang-format -i: " + ", ".join(long_lines), file=sys.stderr)
    verb = "to rewrite" if args.check or args.list else "rewritten"
    print(f"{total} citation(s) {verb} in {len(changed)} file(s)")
    if args.check and total:
        for path, count in changed:
            print(f"  {path}: {count}")
        print(f"run tools/repoint_citations.py to point them at {METHOD}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
