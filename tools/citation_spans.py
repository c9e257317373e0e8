"""Where a citation may be rewritten in a file: its comments, or a document's prose.

`spans_for(path, text)` returns `[start, end, block]` triples, in file order, for the parts of
`text` that are commentary: `//` and `/* */` comments of C and C++ (string, character and raw
string literals skipped), `#` comments and docstrings of Python (other strings skipped), `#`
comments of CMake files, `#` lines of the data tables and the fuzz dictionary, and the paragraphs
of a Markdown document outside fenced code blocks. Consecutive line comments share one block (a
bare `§5` in a block belongs to the file cited earlier in it); each paragraph is a block.
"""

import os
import re

CPP = (".cpp", ".hpp", ".h", ".cc", ".inc", ".c")
CODE = CPP + (".py", ".cmake", ".tsv", ".dict")
RAW_STRING = re.compile(r'(?:u8|[uUL])?R"([^()\\\s]{0,16})\(')


def is_code(path):
    """Files whose comments are code comments (a whole-file citation like `MODELS.md` counts)."""
    return path.endswith(CODE) or os.path.basename(path) == "CMakeLists.txt"


def spans_for(path, text):
    name = os.path.basename(path)
    if path.endswith(CPP):
        return cpp_spans(text)
    if name.endswith(".py"):
        return python_spans(text)
    if name.endswith(".cmake") or name == "CMakeLists.txt":
        return hash_line_spans(text, anywhere=True)
    if name.endswith((".tsv", ".dict")):
        return hash_line_spans(text, anywhere=False)
    if name.endswith(".md"):
        return markdown_spans(text)
    return None


def cpp_spans(text):
    spans, i, n = [], 0, len(text)
    line_of = _line_index(text)
    while i < n:
        c = text[i]
        raw = RAW_STRING.match(text, i) if c in "uULR" else None
        if raw and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            j = text.find(")" + raw.group(1) + '"', raw.end())
            i = n if j < 0 else j + len(raw.group(1)) + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            spans.append([i, j, ("line", line_of(i))])
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            spans.append([i, j, ("block", i)])
            i = j
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            i = _skip_quoted(text, i, c)  # a digit separator (1'000) is not a character literal
        else:
            i += 1
    return _blocks(spans)


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
            j = text.find(quote, i + 3)
            j = n if j < 0 else j + 3
            if not re.search(r"[fFrRbB]$", text[max(0, i - 2):i]):  # a docstring, not a template
                spans.append([i, j, ("block", i)])
            i = j
        elif c in "\"'":
            i = _skip_quoted(text, i, c)
        else:
            i += 1
    return _blocks(spans)


def hash_line_spans(text, anywhere):
    """`#` comments: anywhere on a line outside quotes (CMake), or whole lines only (tables)."""
    spans, pos = [], 0
    for number, line in enumerate(text.splitlines(keepends=True)):
        body = line.rstrip("\n")
        if anywhere:
            quoted = False
            for k, ch in enumerate(body):
                if ch == '"':
                    quoted = not quoted
                elif ch == "#" and not quoted:
                    spans.append([pos + k, pos + len(body), ("line", number)])
                    break
        elif body.lstrip().startswith("#"):
            spans.append([pos, pos + len(body), ("line", number)])
        pos += len(line)
    return _blocks(spans)


def markdown_spans(text):
    """Paragraphs of prose (fenced code blocks left out); inline code is masked when rewriting."""
    spans, pos, fence, start, para = [], 0, None, None, 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        ends_paragraph = False
        if fence:
            if stripped.startswith(fence):
                fence = None
        elif stripped.startswith(("```", "~~~")):
            fence, ends_paragraph = stripped[:3], True
        elif not stripped:
            ends_paragraph = True
        elif start is None:
            start = pos
        if ends_paragraph and start is not None:
            spans.append([start, pos, ("b", para)])
            start, para = None, para + 1
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


def _blocks(spans):
    """Consecutive lines with a line comment form one block; a block comment is its own."""
    out, block, last_line = [], 0, None
    for start, end, (kind, where) in spans:
        if kind != "line" or last_line is None or where != last_line + 1:
            block += 1
        last_line = where if kind == "line" else None
        out.append([start, end, ("b", block)])
    return out
