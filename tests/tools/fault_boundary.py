#!/usr/bin/env python3
"""The L5 boundary (docs/method.md §13): an exception anywhere in a run still writes the artifacts.

Usage: fault_boundary.py --binary ROOFLINE --schema SCHEMA --validator validate_artifact.py
                         --case EVAL_DIR

The test build's fault hook ROOFLINE_TEST_THROW=<point> (src/roofline/analyze/test_hooks.hpp)
makes one point of the run throw, as a bug there would: each pass of the driver
(src/roofline/analyze/analyze.cpp), `entry` (inside every entry's analysis) and each renderer. For every
point the real binary, run on the evaluation folder (round 1):
  * exits 0 (1 with --strict: skill_errors is not empty);
  * writes all three artifacts; the JSON passes the schema (and its key order), the SVG parses;
  * names the L5 error in skill_errors[], in the report's Skill errors and on stderr;
  * keeps what the steps before the fault found: a fault before the per-entry pass keeps every
    head entry, without a verdict, each degraded at L5, and ranking_by_pct is the no-fault run's
    (the pct order their route falls back to); a fault after it keeps the entries' verdicts.
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

PASSES = ["inputs", "scope", "peaks", "layer_plan", "evidence", "classify", "steps",
          "calibration", "entries", "coverage", "rankings", "problems", "summary"]
RENDERERS = {"render_json": "profile_roofline.json", "render_md": "profile_roofline.md",
             "render_svg": "profile_roofline.svg"}
# The passes before the per-entry pass that run after the head exists: their fault leaves every
# entry unanalysed. The per-entry pass and those after it keep the verdicts.
BEFORE_ENTRIES = ["peaks", "layer_plan", "evidence", "classify", "steps", "calibration"]
AFTER_ENTRIES = ["coverage", "rankings", "problems", "summary", "render_md", "render_svg"]


def load_validator(path, schema_path):
    """The repository's validator (schema, key order, strict JSON), loaded once in this process:
    the problems it finds, as lines."""
    spec = importlib.util.spec_from_file_location("validate_artifact", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    validate_file = mod.in_process(schema_path)

    def validate(artifact):
        try:
            return [f"{where}: {msg}" for where, msg in validate_file(artifact)]
        except ValueError as e:
            return [f"not strict JSON: {e}"]
    return validate


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--validator", required=True)
    ap.add_argument("--case", required=True)
    opts = ap.parse_args()
    validate = load_validator(opts.validator, opts.schema)
    errors = []

    def expect(cond, msg):
        if not cond:
            errors.append(msg)

    def run(out, point=None, strict=False):
        env = {k: v for k, v in os.environ.items()
               if k not in ("ROOFLINE_TEST_THROW", "ANALYSIS_SKILL", "HEAD_THRESHOLD_PCT",
                            "ROOFLINE_CALIBRATION")}
        if point:
            env["ROOFLINE_TEST_THROW"] = point
        cmd = [os.path.abspath(opts.binary), "analyze", "--round", "1", "--dir", opts.case,
               "--out", out, "--format", "quiet"] + (["--strict"] if strict else [])
        return subprocess.run(cmd, env=env, capture_output=True, timeout=120)

    def artifacts(out):
        docs = {}
        for name in RENDERERS.values():
            path = os.path.join(out, name)
            docs[name] = open(path, "rb").read() if os.path.isfile(path) else None
        return docs

    with tempfile.TemporaryDirectory(prefix="fault-boundary-") as scratch:
        ref_out = os.path.join(scratch, "reference")
        ref = run(ref_out)
        expect(ref.returncode == 0, f"no fault: exit {ref.returncode}: {ref.stderr!r}")
        reference = json.loads(artifacts(ref_out)["profile_roofline.json"])
        expect(reference["skill_errors"] == [], "no fault: the reference run has skill errors")
        expect(len(reference["entries"]) >= 2, "no fault: the case should have a head to keep")

        for point in PASSES + ["entry"] + list(RENDERERS):
            out = os.path.join(scratch, point)
            r = run(out, point)
            stderr = r.stderr.decode("utf-8", "replace")
            where = f"ROOFLINE_TEST_THROW={point}"
            expect(r.returncode == 0, f"{where}: exit {r.returncode}, expected 0: {stderr}")
            docs = artifacts(out)
            missing = [n for n, d in docs.items() if d is None]
            if missing:
                errors.append(f"{where}: not written: {missing}")
                continue
            problems = validate(os.path.join(out, "profile_roofline.json"))
            expect(not problems, f"{where}: the artifact is not schema-valid: {problems[:3]}")
            try:
                ET.fromstring(docs["profile_roofline.svg"])
            except ET.ParseError as e:
                errors.append(f"{where}: the chart does not parse: {e}")
            art = json.loads(docs["profile_roofline.json"])
            if point in RENDERERS:
                named = f"internal error while rendering {RENDERERS[point]}"
            elif point == "entry":
                named = "analysis failed: injected fault"
            else:
                named = f"internal error in step '{point}'"
            expect(any(named in e and f"ROOFLINE_TEST_THROW={point}" in e
                       for e in art["skill_errors"]),
                   f"{where}: skill_errors does not name the fault: {art['skill_errors']}")
            expect(named in stderr, f"{where}: stderr does not name the fault: {stderr}")
            md = docs["profile_roofline.md"].decode("utf-8", "replace")
            expect("## Skill errors" in md and "injected fault" in md,
                   f"{where}: the report does not name the fault")
            if point == "render_json":
                expect(art["entries"] == [] and "(L5)" in art["skill_errors"][0],
                       f"{where}: the minimal artifact keeps entries or hides the level")
            if point in BEFORE_ENTRIES:
                expect(len(art["entries"]) == len(reference["entries"]),
                       f"{where}: {len(art['entries'])} entries kept, "
                       f"{len(reference['entries'])} in the head")
                expect(all(e["headroom_class"] == "unknown" for e in art["entries"]),
                       f"{where}: an entry has a verdict the run never reached")
                expect(sum(d["level"] == "L5" for d in art["degraded"]) == len(art["entries"]),
                       f"{where}: not every unanalysed entry is degraded at L5")
                expect(art["ranking_by_pct"] == reference["ranking_by_pct"],
                       f"{where}: ranking_by_pct {art['ranking_by_pct']} is not the pct order")
            if point in AFTER_ENTRIES:
                expect([e["headroom_class"] for e in art["entries"]] ==
                       [e["headroom_class"] for e in reference["entries"]],
                       f"{where}: the verdicts found before the fault were lost")
            if point == "rankings":
                expect(art["ranking_by_pct"] == [], f"{where}: a ranking that threw was kept")

        strict = run(os.path.join(scratch, "strict"), "classify", strict=True)
        expect(strict.returncode == 1,
               f"--strict with a fault: exit {strict.returncode}, expected 1 (SPEC §1)")

    for e in errors:
        print(f"FAIL: {e}")
    if errors:
        return 1
    print(f"ok: {len(PASSES) + 1 + len(RENDERERS)} fault points, every artifact written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
