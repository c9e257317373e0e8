#!/usr/bin/env python3
"""Points citations of the product contract at docs/method.md.

Code comments and documents of this repository cite sections of contract files that are not in
it: `SPEC §4`, `MODELS.md §10`, `RUNS §2b`, `OUTCOMES.md §3`, `REACH §1`, `SERVING.md §5`,
`CEILINGS.md §1`, with lists (`§5, §7 L3`), ranges (`§4–§5`) and bare follow-ups (`(§5)` after
an earlier citation of the same file). This script rewrites each of them into the section of
docs/method.md that covers the same ground (`docs/method.md §8.7`), using the table between the
`citation-map` markers of docs/method.md (Appendix A).

Only comments are rewritten: `//` and `/* */` comments of C and C++ files, `#` comments and
docstrings of Python, `#` comments of CMake files, `#` lines of the data tables and the fuzz
dictionary, and the prose of Markdown documents (fenced code blocks and inline code left alone).
String literals are never touched: the notes the tool writes into its artifacts are compared byte
for byte by the golden tests. A C++ comment line pushed past 100 columns is re-wrapped within its
paragraph. Running it again changes nothing (citations of docs/method.md are left as they are).

Usage: repoint_citations.py [--repo DIR] [--check | --list | --self-test] [--verbose]
  (no option)  rewrite the files in place and print what changed
  --check      change nothing; exit 1 when a citation is left to rewrite (CTest docs.citations)
  --list       print every citation found with the section it points to
  --self-test  rewrite a few fixed snippets and compare them with what they must become
"""

import argparse
import fnmatch
import os
import re
import subprocess
import sys

METHOD = "docs/method.md"
WIDTH = 100

DOCS = ("SPEC", "MODELS", "RUNS", "OUTCOMES", "REACH", "SERVING", "CEILINGS")
DOC_RE = re.compile(r"(?:(?:\.\./)+shared/spec/|/work/shared/spec/)?\b(SPEC|MODELS|RUNS|OUTCOMES|"
                    r"REACH|SERVING|CEILINGS)(\.md)?\b")
METHOD_RE = re.compile(r"\b(?:docs/)?method\.md\b")
SEC_RE = re.compile(r"§\s?(\d+(?:\.\d+)*[a-z]?)(\([a-z]\))?")
RANGE_RE = re.compile(r"\s?[–-]\s?")
CONSUMED_QUALIFIER = re.compile(r"^step \d+[a-z]?$")

# ---------------------------------------------------------------------------------------------
# The map


class Map:
    def __init__(self, rows, sections):
        self.rows = rows  # (doc, sec or None, qualifier, target, globs)
        self.sections = sections

    @staticmethod
    def load(repo):
        text = open(os.path.join(repo, METHOD), encoding="utf-8").read()
        begin = text.index("<!-- citation-map:begin -->")
        end = text.index("<!-- citation-map:end -->")
        rows = []
        for line in text[begin:end].splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 2 or not cells[0] or cells[0] in ("contract", "---") or \
                    set(cells[0]) <= set("-"):
                continue
            key, target = cells[0], cells[1]
            globs = [g.strip() for g in cells[2].split(",")] if len(cells) > 2 and cells[2] else []
            m = re.match(r"^(SPEC|MODELS|RUNS|OUTCOMES|REACH|SERVING|CEILINGS)(?:\.md)?"
                         r"(?:\s?§(\d+(?:\.\d+)*[a-z]?(?:\([a-z]\))?))?(.*)$", key)
            if not m:
                raise SystemExit(f"{METHOD}: citation map row '{key}' is not a contract section")
            rows.append((m.group(1), m.group(2), m.group(3).strip(), target, globs))
        sections = set(re.findall(r"^#+ (§\d+(?:\.\d+)*)", text, flags=re.M))
        for row in rows:
            if row[3] not in sections:
                raise SystemExit(f"{METHOD}: citation map row {row[:3]} points at {row[3]}, "
                                 "which is no heading of the file")
        return Map(rows, sections)

    def qualifiers(self, doc, sec):
        quals = {r[2] for r in self.rows if r[0] == doc and r[1] == sec and r[2]}
        return sorted(quals, key=len, reverse=True)

    def resolve(self, doc, sec, qual, path):
        keys = []
        if sec is not None:
            if qual:
                keys.append((sec, qual))
            s = sec
            while s:
                keys.append((s, ""))
                s = parent(s)
        keys.append((None, ""))
        for k_sec, k_qual in keys:
            generic = None
            for r_doc, r_sec, r_qual, target, globs in self.rows:
                if r_doc != doc or r_sec != k_sec or r_qual != k_qual:
                    continue
                if globs:
                    if any(fnmatch.fnmatch(path, g) for g in globs):
                        return target
                elif generic is None:
                    generic = target
            if generic is not None:
                return generic
        raise SystemExit(f"no citation map row for {doc} §{sec} (and no row for {doc})")


def parent(sec):
    if "(" in sec:
        return sec[:sec.index("(")]
    if "." in sec:
        return sec[:sec.rindex(".")]
    if sec[-1].isalpha():
        return sec[:-1]
    return ""


def section_key(target):
    return tuple(int(x) for x in target.lstrip("§").split("."))


def render_set(targets):
    """Targets of one range: two or fewer listed, more as their common section or a span."""
    uniq = sorted(set(targets), key=section_key)
    if len(uniq) <= 2:
        return ", ".join(uniq)
    tops = {section_key(t)[0] for t in uniq}
    if len(tops) == 1:
        return f"§{tops.pop()}"
    return f"{uniq[0]}–{uniq[-1]}"

# ---------------------------------------------------------------------------------------------
# Comment spans: (start, end, block) where rewriting is allowed


def cpp_spans(text):
    spans, i, n = [], 0, len(text)
    line_of = _line_index(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            spans.append([i, j, ("line", line_of(i))])
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            spans.append([i, j, ("block", i)])
            i = j
        elif c == '"' or (c == "R" and text.startswith('R"', i)) or \
                (text[i:i + 3] in ('u8R',) and text.startswith('u8R"', i)):
            raw = text.find('R"', i, i + 4) == i or text.startswith('u8R"', i)
            if raw:
                q = text.index('"', i)
                paren = text.find("(", q)
                delim = text[q + 1:paren]
                j = text.find(")" + delim + '"', paren)
                i = n if j < 0 else j + len(delim) + 2
            else:
                i = _skip_quoted(text, i, '"')
        elif c == "'" and not (i > 0 and text[i - 1].isalnum()):
            i = _skip_quoted(text, i, "'")
        else:
            i += 1
    return _merge_line_blocks(spans, text)


def python_spans(text):
    spans, i, n = [], 0, len(text)
    line_of = _line_index(text)
    while i < n:
        c = text[i]
        if c == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
            spans.append([i, j, ("line", line_of(i))])
            i = j
        elif text.startswith('"""', i) or text.startswith("'''", i):
            quote = text[i:i + 3]
            prefix = text[max(0, i - 2):i]
            j = text.find(quote, i + 3)
            j = n if j < 0 else j + 3
            if not re.search(r"[fFrRbB]$", prefix):  # a docstring, not an f-string template
                spans.append([i, j, ("block", i)])
            i = j
        elif c in "\"'":
            i = _skip_quoted(text, i, c)
        else:
            i += 1
    return _merge_line_blocks(spans, text)


def hash_line_spans(text, anywhere):
    """`#` comments: anywhere on a line outside quotes (CMake), or whole lines only (tables)."""
    spans, pos = [], 0
    for number, line in enumerate(text.splitlines(keepends=True)):
        body = line.rstrip("\n")
        if anywhere:
            k, quoted = 0, False
            while k < len(body):
                if body[k] == '"':
                    quoted = not quoted
                elif body[k] == "#" and not quoted:
                    spans.append([pos + k, pos + len(body), ("line", number)])
                    break
                k += 1
        elif body.lstrip().startswith("#"):
            spans.append([pos, pos + len(body), ("line", number)])
        pos += len(line)
    return _merge_line_blocks(spans, text)


def markdown_spans(text):
    """Paragraphs of prose (fenced code blocks left out); inline code is masked when rewriting."""
    spans, pos, fence, start, para = [], 0, None, None, 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if fence:
            if stripped.startswith(fence):
                fence = None
        elif stripped.startswith("```") or stripped.startswith("~~~"):
            if start is not None:
                spans.append([start, pos, ("b", para)])
                start, para = None, para + 1
            fence = stripped[:3]
        elif not stripped:
            if start is not None:
                spans.append([start, pos, ("b", para)])
                start, para = None, para + 1
        elif start is None:
            start = pos
        pos += len(line)
    if start is not None:
        spans.append([start, pos, ("b", para)])
    return spans


def _skip_quoted(text, i, quote):
    j = i + 1
    while j < len(text) and text[j] != quote and text[j] != "\n":
        j += 2 if text[j] == "\\" else 1
    return j + 1


def _line_index(text):
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_of(pos):
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= pos:
                lo = mid
            else:
                hi = mid - 1
        return lo
    return line_of


def _merge_line_blocks(spans, text):
    """Consecutive lines with a line comment form one block (a citation's context)."""
    out, block, last_line = [], 0, None
    for start, end, (kind, where) in spans:
        if kind == "line":
            if last_line is None or where != last_line + 1:
                block += 1
            last_line = where
            out.append([start, end, ("b", block)])
        else:
            block += 1
            last_line = None
            out.append([start, end, ("b", block)])
    return out


def spans_for(path, text):
    name = os.path.basename(path)
    ext = os.path.splitext(name)[1]
    if ext in (".cpp", ".hpp", ".h", ".cc", ".inc", ".c"):
        return cpp_spans(text), True
    if ext == ".py":
        return python_spans(text), False
    if ext == ".cmake" or name == "CMakeLists.txt":
        return hash_line_spans(text, anywhere=True), False
    if ext in (".tsv", ".dict"):
        return hash_line_spans(text, anywhere=False), False
    if ext == ".md":
        return markdown_spans(text), False
    return None, False

# ---------------------------------------------------------------------------------------------
# Rewriting one file


class Rewriter:
    def __init__(self, cmap, path, is_code, notes):
        self.map, self.path, self.is_code, self.notes = cmap, path, is_code, notes
        self.count = 0
        self.found = []  # (original, replacement)

    def item(self, seg, at, doc):
        """A `§N[(x)] [qualifier]` at `at`: (end, target, kept qualifier text)."""
        m = SEC_RE.match(seg, at)
        if not m:
            return None
        sec = m.group(1) + (m.group(2) or "")
        end, qual, kept = m.end(), "", ""
        for q in self.map.qualifiers(doc, sec) + self.map.qualifiers(doc, m.group(1)):
            lead = "" if q.startswith(":") else " "
            if seg.startswith(lead + q, end):
                qual = q
                if CONSUMED_QUALIFIER.match(q):
                    end += len(lead + q)
                break
        return end, self.map.resolve(doc, sec, qual, self.path)

    def group(self, seg, at, doc):
        """One item, or a range `§A–§B` of the same file, from `at`: (end, rendered target)."""
        first = self.item(seg, at, doc)
        if not first:
            return None
        r = RANGE_RE.match(seg, first[0])
        if not (r and SEC_RE.match(seg, r.end())):
            return first
        second = self.item(seg, r.end(), doc)
        expanded = _expand(SEC_RE.match(seg, at).group(1), SEC_RE.match(seg, r.end()).group(1))
        targets = [self.map.resolve(doc, sec, "", self.path) for sec in expanded] \
            if expanded else [first[1], second[1]]
        return second[0], render_set(targets)

    def rewrite_segment(self, seg, ctx):
        out, i = [], 0
        while i < len(seg):
            d = DOC_RE.search(seg, i)
            mm = METHOD_RE.search(seg, i)
            s = SEC_RE.search(seg, i)
            cands = [x for x in (d, mm, s) if x]
            if not cands:
                break
            first = min(cands, key=lambda x: x.start())
            out.append(seg[i:first.start()])
            if first is mm:
                ctx["doc"] = "method"
                out.append(seg[mm.start():mm.end()])
                i = mm.end()
                continue
            if first is d:
                doc = d.group(1)
                after = d.end()
                ctx["doc"] = ctx["last_contract"] = doc
                sp = re.match(r"\s?(?=§)", seg[after:])
                if sp is not None:
                    ctx["doc"] = doc
                    g = self.group(seg, after + sp.end(), doc)
                    if g:
                        end, target = g
                        new = f"{METHOD}{sp.group(0) or ' '}{target}"
                        self._record(seg[d.start():end], new)
                        out.append(new)
                        i = end
                        continue
                if d.group(2) and self.is_code_like():
                    ctx["doc"] = doc
                    new = f"{METHOD} " + self.map.resolve(doc, None, "", self.path)
                    self._record(seg[d.start():d.end()], new)
                    out.append(new)
                    i = d.end()
                    continue
                out.append(seg[d.start():d.end()])
                i = d.end()
                continue
            # a bare §
            doc = ctx.get("doc") or ctx.get("fallback")
            if doc == "method":
                out.append(seg[s.start():s.end()])
                i = s.end()
                continue
            if doc is None:
                if not self.is_code:  # prose: a bare § may well be this file's own numbering
                    out.append(seg[s.start():s.end()])
                    i = s.end()
                    continue
                end, target = self.group(seg, s.start(), "SPEC")
                new = f"{METHOD} {target}"
                self.notes.append(f"{self.path}: bare '{seg[s.start():end]}' read as SPEC")
                self._record(seg[s.start():end], new)
                out.append(new)
                ctx["doc"] = "method"
                i = end
                continue
            end, new = self.group(seg, s.start(), doc)
            self._record(seg[s.start():end], new)
            out.append(new)
            i = end
        out.append(seg[i:])
        return tidy("".join(out))

    def is_code_like(self):
        return self.is_code or not self.path.endswith(".md")

    def _record(self, old, new):
        self.count += 1
        self.found.append((old, new))


def tidy(seg):
    """`docs/method.md §A, docs/method.md §B` → `docs/method.md §A, §B`; `§A, §A` → `§A`."""
    sec = r"§\d+(?:\.\d+)*(?:–§\d+(?:\.\d+)*)?"
    merge = re.compile(rf"({re.escape(METHOD)} {sec}(?:, {sec})*)(,|;| and)(\s+){re.escape(METHOD)} "
                       rf"(?={sec})")
    dup = re.compile(rf"({sec}), \1(?![\d.])")
    while True:
        new = dup.sub(r"\1", merge.sub(r"\1\2\3", seg))
        if new == seg:
            return seg
        seg = new


def _expand(lo, hi):
    """`4`–`5` → ['4', '5']; only plain section numbers expand."""
    if lo.isdigit() and hi.isdigit() and int(lo) < int(hi) <= int(lo) + 20:
        return [str(k) for k in range(int(lo), int(hi) + 1)]
    return None


def rewrite_text(cmap, path, text, notes):
    spans, _ = spans_for(path, text)
    if spans is None:
        return text, Rewriter(cmap, path, False, notes)
    rw = Rewriter(cmap, path, path.endswith((".cpp", ".hpp", ".h", ".cc", ".inc", ".c", ".py",
                                             ".cmake", ".tsv", ".dict")) or
                  os.path.basename(path) == "CMakeLists.txt", notes)
    out, pos, contexts, last_doc = [], 0, {}, None
    markdown = path.endswith(".md")
    for start, end, block in spans:
        ctx = contexts.setdefault(block, {})
        if markdown and last_doc:
            ctx["fallback"] = last_doc  # a bare § in a later paragraph: the file's last cited doc
        out.append(text[pos:start])
        seg, codes = text[start:end], []
        if markdown:
            seg = re.sub(r"`+[^`]*?`+", lambda m: codes.append(m.group(0)) or
                         f"\x00{len(codes) - 1}\x00", seg)
        seg = rw.rewrite_segment(seg, ctx)
        if markdown:
            seg = re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], seg)
        out.append(seg)
        last_doc = ctx.get("last_contract", last_doc)
        pos = end
    out.append(text[pos:])
    new = "".join(out)
    if not markdown and new != text:
        new = rewrap_cpp(new, text, rules_only=path.endswith((".tsv", ".dict")))
    return new, rw

# ---------------------------------------------------------------------------------------------
# Re-wrapping C++ comment paragraphs pushed past the column limit


COMMENT_LINE = re.compile(r"^(\s*)(//+ ?|#+ ?)(\s*)(.*)$")
LIST_START = re.compile(r"^(?:[-*•]|\d+[.)]|[a-z][.)])\s")


def rewrap_cpp(text, original, rules_only=False):
    """Full-line `//` and `#` comments that the rewrite pushed past WIDTH: the overflow moves to
    the next line of the same paragraph (a continuation at the same indent), or onto a new line.
    With `rules_only` (data tables, whose line numbers messages quote) only `--- title ---` rules
    are shortened and no line is added."""
    lines = text.split("\n")
    unchanged = set(original.split("\n"))
    i = 0
    while i < len(lines):
        line = lines[i]
        m = COMMENT_LINE.match(line)
        if not m or len(line) <= WIDTH or line in unchanged:
            i += 1
            continue
        lead, slashes, indent, body = m.groups()
        prefix = lead + slashes + indent
        words, keep = unbreakable(body.split(" ")), []
        if re.search(r"-{4,}$", body):  # a `--- title ---` rule: shorten the dashes instead
            lines[i] = line[:WIDTH] if len(line.rstrip("-")) + 3 <= WIDTH else line
            i += 1
            continue
        if rules_only:
            i += 1
            continue
        while words and (not keep or len(prefix + " ".join(keep + words[:1])) <= WIDTH):
            keep.append(words.pop(0))
        lines[i] = prefix + " ".join(keep)
        if not words:
            i += 1
            continue
        cont = indent + ("  " if LIST_START.match(body) else "")
        nxt = COMMENT_LINE.match(lines[i + 1]) if i + 1 < len(lines) else None
        if (nxt and nxt.group(1) == lead and nxt.group(2) == slashes and nxt.group(3) == cont and
                nxt.group(4) and not LIST_START.match(nxt.group(4))):
            lines[i + 1] = lead + slashes + cont + " ".join(words) + " " + nxt.group(4)
            unchanged.discard(lines[i + 1])
        else:
            lines.insert(i + 1, lead + slashes + cont + " ".join(words))
        i += 1
    return "\n".join(lines)


def unbreakable(words):
    """`docs/method.md` stays on one line with the section that follows it."""
    out = []
    for w in words:
        if out and out[-1].endswith(METHOD) and w.startswith("§"):
            out[-1] += " " + w
        else:
            out.append(w)
    return out


def overlong(path, new, old):
    """C and C++ lines the rewrite pushed past WIDTH that the re-wrap left (trailing comments)."""
    if not path.endswith((".cpp", ".hpp", ".h", ".cc", ".inc", ".c")):
        return []
    before = set(old.split("\n"))
    return [f"{path}:{n}" for n, line in enumerate(new.split("\n"), 1)
            if len(line) > WIDTH and line not in before]

# ---------------------------------------------------------------------------------------------
# The files


INCLUDE = ("src/*", "include/*", "tests/unit/*", "tests/fuzz/*", "tests/tools/*", "tests/bench/*",
           "tests/CMakeLists.txt", "data/*.tsv", "data/peaks.md", "cmake/*", "*CMakeLists.txt",
           "docs/ARCHITECTURE.md", "README.md", "tests/golden/*/README.md", "tools/*")
EXCLUDE = (METHOD, "tools/repoint_citations.py", "tests/fixtures/*", "tests/golden/*/expected/*",
           "tests/golden/*/input/*")


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
    ("src/stages/scope.cpp", "// Step 1 (SPEC §3): head\n", "// Step 1 (docs/method.md §4): head\n"),
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
    ap.add_argument("--repo", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
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
