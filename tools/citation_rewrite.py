"""Rewriting contract citations in one file's commentary into docs/method.md citations.

`Map` is the table of docs/method.md's Appendix A (contract section, optional qualifier, optional
file patterns → section of method.md). `rewrite_text(cmap, path, text)` rewrites the citations in
the spans `citation_spans.spans_for` gives: `SPEC §4` → `docs/method.md §8`, lists and bare
follow-ups (`(SPEC §5, §7 L3)` → `(docs/method.md §10, §10.6 L3)`), ranges (`MODELS.md §4–§5` →
`docs/method.md §8.5, §8.7`), a whole-file citation in a code comment (`(MODELS.md)` → `(docs/
method.md §8)`); a `step N` after a section is consumed, other qualifiers are kept. Citations of
docs/method.md are left as they are, so a second run changes nothing. A full-line comment pushed
past WIDTH columns is re-wrapped within its paragraph (never in a data table: line numbers there
are quoted by messages).
"""

import fnmatch
import os
import re

from citation_spans import is_code, spans_for

METHOD = "docs/method.md"
WIDTH = 100
DOC_RE = re.compile(r"(?:(?:\.\./)+shared/spec/|/work/shared/spec/)?\b(SPEC|MODELS|RUNS|OUTCOMES|"
                    r"REACH|SERVING|CEILINGS)(\.md)?\b")
METHOD_RE = re.compile(r"\b(?:docs/)?method\.md\b")
SEC_RE = re.compile(r"§\s?(\d+(?:\.\d+)*[a-z]?)(\([a-z]\))?")
RANGE_RE = re.compile(r"\s?[–-]\s?")
CONSUMED_QUALIFIER = re.compile(r"^step \d+[a-z]?$")


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


class Rewriter:
    def __init__(self, cmap, path, is_code, notes):
        self.map, self.path, self.is_code, self.notes = cmap, path, is_code, notes
        self.count = 0
        self.found = []  # (original, replacement)

    def item(self, seg, at, doc):
        """A `§N[(x)] [qualifier]` at `at`: (end, target); a `step N` qualifier is consumed."""
        m = SEC_RE.match(seg, at)
        if not m:
            return None
        sec = m.group(1) + (m.group(2) or "")
        end, qual = m.end(), ""
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
                    g = self.group(seg, after + sp.end(), doc)
                    if g:
                        end, target = g
                        new = f"{METHOD}{sp.group(0) or ' '}{target}"
                        self._record(seg[d.start():end], new)
                        out.append(new)
                        i = end
                        continue
                if d.group(2) and self.is_code:
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

    def _record(self, old, new):
        self.count += 1
        self.found.append((old, new))


def tidy(seg):
    """`docs/method.md §A, docs/method.md §B` → `docs/method.md §A, §B`; `§A, §A` → `§A`."""
    sec = r"§\d+(?:\.\d+)*(?:–§\d+(?:\.\d+)*)?"
    method = re.escape(METHOD)
    merge = re.compile(rf"({method} {sec}(?:, {sec})*)(,|;| and)(\s+){method} (?={sec})")
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
    """`text` with its citations rewritten, and the Rewriter that says what it found."""
    spans = spans_for(path, text)
    rw = Rewriter(cmap, path, is_code(path), notes)
    if spans is None:
        return text, rw
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
        new = rewrap(new, text, rules_only=path.endswith((".tsv", ".dict")))
    return new, rw

COMMENT_LINE = re.compile(r"^(\s*)(//+ ?|#+ ?)(\s*)(.*)$")
LIST_START = re.compile(r"^(?:[-*•]|\d+[.)]|[a-z][.)])\s")


def rewrap(text, original, rules_only=False):
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
