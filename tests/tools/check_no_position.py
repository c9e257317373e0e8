#!/usr/bin/env python3
"""One position or none, on every surface (docs/method.md §10.6, §5.7, §16).

Runs every golden case that writes an artifact (its `analyze` asked for the terminal table with
`--format text`) and reads each entry on every surface:

- the JSON: an entry without a verdict (headroom_class unknown) has null roofline_pct,
  attainable_speedup and expected_e2e_gain_pct; one with a verdict has a roofline_pct, above 1 only
  where `ceiling_beaten` says the measured ceiling was beaten; a band reading without a verdict
  (feasible false) and a signature without one have null figures too;
- the terminal table and the report's summary table: the roof column is that figure (`110.6%`),
  "—" without a verdict, and so are the gain and speedup columns; an infeasible entry is called
  infeasible in the table, the entry lines and the report's heading;
- the chart: an entry without a verdict is no point (no marker's tooltip names it), and a point's
  caption gives the same figure as the tables, with "ceiling beaten" where the JSON says so;
- every surface: no range whose ends agree ("21.1% to 21.1%" is a point).

Usage: check_no_position.py --binary build/roofline [--case DIR]...
"""
import argparse
import importlib.util
import json
import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("golden", os.path.join(HERE, "golden.py"))
golden = importlib.util.module_from_spec(spec)
spec.loader.exec_module(golden)

NAME_W = 48  # the terminal table's name column (text_summary.cpp: k_max_display)
SVG_NS = "{http://www.w3.org/2000/svg}"


def text_format(args):
    """analyze with --format text, whatever the case asked for."""
    if not args or args[0] != "analyze":
        return args
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "--format":
            skip = True
            continue
        if a.startswith("--format="):
            continue
        out.append(a)
    return out + ["--format", "text"]


def shown(entry):
    """The roof column as every surface must show it."""
    if entry["headroom_class"] == "unknown":
        return "—"
    return f"{100.0 * entry['roofline_pct']:.1f}%"


def json_errors(doc):
    errors = []
    for i, e in enumerate(doc["entries"]):
        where = f"entries/{i} ({e['display_name']})"
        verdict = e["headroom_class"] != "unknown"
        figures = [e["roofline_pct"], e["attainable_speedup"], e["expected_e2e_gain_pct"]]
        if not verdict and any(f is not None for f in figures):
            errors.append(f"JSON {where}: no verdict, yet figures {figures} (a place on the roof)")
        if verdict and e["roofline_pct"] is None:
            errors.append(f"JSON {where}: a verdict without a roofline_pct")
        if verdict and e["roofline_pct"] > 1 + 1e-12 and not e.get("ceiling_beaten"):
            errors.append(f"JSON {where}: roofline_pct {e['roofline_pct']} above 1, ceiling not beaten")
        for r in (e.get("band") or {}).get("readings", []):
            if not r["feasible"] and any(r[k] is not None for k in
                                         ("roofline_pct", "attainable_speedup", "expected_e2e_gain_pct")):
                errors.append(f"JSON {where}: band reading '{r['label']}' has no verdict, yet figures")
        for s in e.get("signatures", []):
            if s["headroom_class"] == "unknown" and s["roofline_pct"] is not None:
                errors.append(f"JSON {where}: signature '{s['label'][:40]}' has no verdict, yet "
                              f"roofline_pct {s['roofline_pct']}")
    return errors


def terminal_name(name):
    return "".join(" " if ord(c) < 0x20 else c for c in name)


def terminal_rows(text, entries):
    """{entry index: the table row holding its figures}."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith("  kernel ") and " roof " in l), None)
    rows, k = {}, 0
    if start is None:
        return rows
    i = start + 1
    while i < len(lines) and k < len(entries):
        name = terminal_name(entries[k]["display_name"])
        line = lines[i]
        if line.rstrip() == "  " + name and i + 1 < len(lines) and not lines[i + 1][2:2 + NAME_W].strip():
            rows[k], k, i = lines[i + 1], k + 1, i + 2
            continue
        if line[2:2 + NAME_W].rstrip() == name:
            rows[k], k = line, k + 1
        i += 1
    return rows


def terminal_errors(text, doc):
    errors = []
    entries = doc["entries"]
    rows = terminal_rows(text, entries)
    for i, e in enumerate(entries):
        where = f"terminal: {e['display_name']}"
        if i not in rows:
            errors.append(f"{where}: no table row found")
            continue
        cells = rows[i][2 + NAME_W + 1:]
        roof = cells[6 + 1 + 11 + 1:6 + 1 + 11 + 1 + 6].strip()
        headroom = cells[6 + 1 + 11 + 1 + 6 + 1 + 8 + 1:][:15].strip()
        tail = cells.split()
        if roof != shown(e):
            errors.append(f"{where}: roof column {roof!r}, the JSON says {shown(e)!r}")
        if e["headroom_class"] == "unknown" and tail[-2:] != ["—", "—"]:
            errors.append(f"{where}: no verdict, yet gain/speedup {tail[-2:]}")
        if e["suspect"] and headroom != "infeasible":
            errors.append(f"{where}: infeasible, yet the headroom column says {headroom!r}")
    for i, e in enumerate(entries):
        m = re.search(rf"^  {i + 1}\. .* — (.*)$", text, re.M)
        verdict = m.group(1) if m else ""
        if e["suspect"] and "infeasible" not in verdict:
            errors.append(f"terminal: {e['display_name']}: infeasible, its line says {verdict!r}")
        if e.get("ceiling_beaten") and f"{shown(e)} of the measured ceiling (the ceiling beaten)" not in verdict:
            errors.append(f"terminal: {e['display_name']}: the ceiling beaten is not said: {verdict!r}")
    return errors


def md_cells(row):
    return [c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]]


def markdown_errors(md, doc):
    errors = []
    entries = doc["entries"]
    section = md.split("## Summary", 1)[-1].split("\n## ", 1)[0]
    rows = [l for l in section.splitlines() if l.startswith("| ") and "↳" not in l]
    rows = rows[1:]  # the header (its rule starts "|--")
    if entries and len(rows) != len(entries):
        return [f"report: {len(rows)} summary rows for {len(entries)} entries"]
    for e, row in zip(entries, rows):
        cells = md_cells(row)
        where = f"report: {e['display_name']}"
        if cells[5] != shown(e):
            errors.append(f"{where}: roof % {cells[5]!r}, the JSON says {shown(e)!r}")
        if e["headroom_class"] == "unknown" and (cells[8] != "—" or not cells[9].startswith("—")):
            errors.append(f"{where}: no verdict, yet attainable {cells[8]!r}, gain {cells[9]!r}")
        if e["suspect"] and "infeasible" not in cells[7]:
            errors.append(f"{where}: infeasible, yet headroom {cells[7]!r}")
    for i, e in enumerate(entries):
        m = re.search(rf"^### {i + 1}\. .*$", md, re.M)
        if m and e["suspect"] and "infeasible" not in m.group(0):
            errors.append(f"report: {e['display_name']}: infeasible, its heading says {m.group(0)!r}")
        if m and e["headroom_class"] == "unknown" and m.group(0).endswith(
                ("saturated", "moderate", "underperforming")):
            errors.append(f"report: {e['display_name']}: no verdict, its heading says {m.group(0)!r}")
    return errors


def svg_errors(svg, doc):
    """Entries that share one kernel name share its tooltips: they are read as a group."""
    errors = []
    root = ET.fromstring(svg)
    points = next((g for g in root.iter(SVG_NS + "g") if g.get("id") == "points"), None)
    titles = [t.text or "" for t in points.iter(SVG_NS + "title")] if points is not None else []
    groups = {}
    for e in doc["entries"]:
        groups.setdefault(e["name"], []).append(e)
    for name, entries in groups.items():
        mine = [t for t in titles if t.startswith(name + "\n")]
        judged = [e for e in entries if e["headroom_class"] != "unknown"]
        label = entries[0]["display_name"]
        if len(mine) > len(judged):
            errors.append(f"chart: {label}: {len(mine) - len(judged)} point(s) drawn for entries "
                          "without a verdict")
        figures = [f"· {shown(e)} of roof" for e in judged]
        for t in mine:
            if not any(f in t for f in figures):
                errors.append(f"chart: {label}: caption {t.splitlines()[-1]!r}, the JSON says "
                              f"{[shown(e) for e in judged]}")
            if any(e.get("ceiling_beaten") and f"· {shown(e)} of roof" in t for e in judged) and \
                    "ceiling beaten" not in t:
                errors.append(f"chart: {label}: the ceiling beaten is not said")
    return errors


RANGE = re.compile(r"(?<![\w.])([+−-]?\d[\d.]*\s?(?:%|×|x|µs|ms| MB| GB| B)?) to \1(?![\w.%×])")


def range_errors(surfaces):
    errors = []
    for name, text in surfaces.items():
        for m in RANGE.finditer(text):
            errors.append(f"{name}: a range whose ends agree, {m.group(0)!r}: it is a point")
    return errors


def check_case(binary, case):
    """The case's errors, or None when it writes no artifact or cannot run here."""
    if not os.path.exists(os.path.join(case, "expected", "profile_roofline.json")):
        return None
    if golden.missing_requirements(case):
        return None
    if any("{wild}" in l for l in golden.cmd_lines(case)) and not os.path.isdir(
            golden.wild_dir(golden.repo_root())):
        return None
    with tempfile.TemporaryDirectory() as scratch:
        procs, produced, _ = golden.run_once(binary, case, scratch, rewrite=text_format)
    if "profile_roofline.json" not in produced:
        return [f"no artifact written (exit codes {[p.returncode for p in procs]})"]
    doc = json.loads(produced["profile_roofline.json"])
    terminal = "".join(p.stdout.decode("utf-8", "replace") for p in procs)
    md = produced.get("profile_roofline.md", b"").decode("utf-8", "replace")
    svg = produced.get("profile_roofline.svg", b"").decode("utf-8", "replace")
    errors = json_errors(doc) + terminal_errors(terminal, doc) + markdown_errors(md, doc)
    if svg:
        errors += svg_errors(svg, doc)
    return errors + range_errors({"terminal": terminal, "report": md, "chart": svg})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--case", action="append", help="a case folder (default: every golden case)")
    args = ap.parse_args()
    root = os.path.join(golden.repo_root(), "tests", "golden")
    cases = args.case or [os.path.join(root, c) for c in sorted(os.listdir(root))]
    checked, failures = 0, 0
    for case in cases:
        errors = check_case(args.binary, os.path.abspath(case))
        if errors is None:
            continue
        checked += 1
        for e in errors:
            failures += 1
            print(f"FAIL: {os.path.basename(case)}: {e}")
    print(f"check_no_position: {checked} case(s) read on every surface, {failures} failure(s)")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
