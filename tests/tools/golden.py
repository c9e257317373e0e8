#!/usr/bin/env python3
"""Golden end-to-end test of the real `roofline` binary on one case folder.

A case folder holds:
  cmd                      arguments after `roofline`; {input} = a scratch copy of input/,
                           {out} = a fresh scratch output folder, {case} = the case folder.
                           Several lines: each but the last is a setup step that must exit 0
                           (e.g. `topn` writing the Top-N that the last line `analyze`s)
  env                      optional KEY=VALUE lines added to the environment
                           (HEAD_THRESHOLD_PCT and ANALYSIS_SKILL are cleared unless set here);
                           {repo} = the repository root (for the shipped example)
  input/                   the evaluation folder (copied, never written)
  checks.json              optional targeted assertions on the artifact (see CHECKS below)
  expected/exit_code       the expected exit code
  expected/profile_roofline.json, expected/profile_roofline.md
                           the golden artifacts; both absent = the run must write no artifact
  expected/stderr_contains optional: each non-empty line must appear in stderr
  expected/stdout_contains optional: each non-empty line must appear in stdout
  expected/profile_roofline.svg
                           optional golden chart: when present the chart must match it byte for
                           byte and must render to a PNG with rsvg-convert (create the file empty,
                           then UPDATE_GOLDEN=1, to opt a case in)
  expected/profile_topN.json, expected/profile_workload.json
                           `roofline topn` output written under {out}: compared like the artifact
                           when present (UPDATE_GOLDEN=1 writes them when the run produced them)

The case runs twice; both runs must write the same bytes (determinism). With --update (or
UPDATE_GOLDEN=1) the produced artifacts and exit code are written into expected/ instead of
compared; checks.json and the *_contains files are never rewritten and are always enforced.

Every case, golden chart or not: a run that writes the JSON also writes profile_roofline.svg,
which must parse with xmllint (libxml2-utils) and contain only the SVG elements our writer emits
(a kernel name can never inject markup); every Markdown table keeps one column count on every
row (a `|` or newline in a name can never add a cell); the report links the chart.

CHECKS: a JSON list of {"path": "/entries/0/roofline_pct", <one test>} (optionally with
"file": "profile_topN.json" or "profile_workload.json" to check that output instead) where the test is
  "equals": value | "approx": x (with optional "rel", default 1e-6) | "between": [lo, hi] |
  "contains": "text" (substring of a string, or member of a list) |
  "any_contains": "text" (substring of some string in a list) | "absent": true |
  "length": n
"""
import argparse
import difflib
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

ARTIFACTS = ("profile_roofline.json", "profile_roofline.md")
TOPN_OUTPUTS = ("profile_topN.json", "profile_workload.json")  # `topn` output, under {out} only
CHART = "profile_roofline.svg"
SVG_ELEMENTS = {"svg", "defs", "clipPath", "g", "rect", "line", "polyline", "polygon", "circle",
                "text", "title"}


def fail(msgs):
    for m in msgs:
        print(f"FAIL: {m}")
    sys.exit(1)


def pointer_get(doc, path):
    cur = doc
    if path in ("", "/"):
        return True, cur
    for raw in path.lstrip("/").split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(cur, list):
            try:
                idx = int(part)
            except ValueError:
                return False, None
            if idx < 0 or idx >= len(cur):
                return False, None
            cur = cur[idx]
        elif isinstance(cur, dict):
            if part not in cur:
                return False, None
            cur = cur[part]
        else:
            return False, None
    return True, cur


def run_checks(doc, checks):
    errors = []
    for c in checks:
        path = c["path"]
        found, value = pointer_get(doc, path)
        if c.get("absent"):
            if found:
                errors.append(f"{path}: expected absent, found {value!r}")
            continue
        if not found:
            errors.append(f"{path}: missing")
            continue
        if "equals" in c and value != c["equals"]:
            errors.append(f"{path}: expected {c['equals']!r}, got {value!r}")
        if "approx" in c:
            rel = c.get("rel", 1e-6)
            if not isinstance(value, (int, float)) or not math.isclose(value, c["approx"], rel_tol=rel, abs_tol=1e-12):
                errors.append(f"{path}: expected ≈{c['approx']} (rel {rel}), got {value!r}")
        if "between" in c:
            lo, hi = c["between"]
            if not isinstance(value, (int, float)) or not (lo <= value <= hi):
                errors.append(f"{path}: expected within [{lo}, {hi}], got {value!r}")
        if "contains" in c:
            if not isinstance(value, (str, list)) or c["contains"] not in value:
                errors.append(f"{path}: expected to contain {c['contains']!r}, got {value!r}")
        if "any_contains" in c:
            if not isinstance(value, list) or not any(isinstance(v, str) and c["any_contains"] in v for v in value):
                errors.append(f"{path}: expected an item containing {c['any_contains']!r}, got {value!r}")
        if "length" in c:
            if not isinstance(value, (list, str, dict)) or len(value) != c["length"]:
                errors.append(f"{path}: expected length {c['length']}, got {value!r}")
    return errors


def compare_json(expected, actual, path="", errors=None):
    """Structural compare: same keys in the same order, numbers within 1e-9 relative."""
    if errors is None:
        errors = []
    if isinstance(expected, dict) and isinstance(actual, dict):
        if list(expected.keys()) != list(actual.keys()):
            errors.append(f"{path or '/'}: keys differ\n  expected {list(expected.keys())}\n  actual   {list(actual.keys())}")
            return errors
        for k in expected:
            compare_json(expected[k], actual[k], f"{path}/{k}", errors)
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            errors.append(f"{path}: list length {len(actual)}, expected {len(expected)}")
            return errors
        for i, (e, a) in enumerate(zip(expected, actual)):
            compare_json(e, a, f"{path}/{i}", errors)
    elif isinstance(expected, bool) or isinstance(actual, bool):
        if expected is not actual:
            errors.append(f"{path}: expected {expected!r}, got {actual!r}")
    elif isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        if not math.isclose(expected, actual, rel_tol=1e-9, abs_tol=1e-15):
            errors.append(f"{path}: expected {expected!r}, got {actual!r}")
    elif expected != actual:
        errors.append(f"{path}: expected {expected!r}, got {actual!r}")
    return errors


def load_ordered(text):
    return json.loads(text, object_pairs_hook=lambda pairs: dict(pairs))


def cmd_text(case):
    with open(os.path.join(case, "cmd"), encoding="utf-8") as f:
        return f.read().strip()


def cmd_lines(case):
    return [line for line in cmd_text(case).splitlines() if line.strip()]


def run_once(binary, case, scratch):
    work = os.path.join(scratch, "input")
    out = os.path.join(scratch, "out")
    if os.path.isdir(os.path.join(case, "input")):
        shutil.copytree(os.path.join(case, "input"), work, symlinks=True)
    else:
        os.makedirs(work)
    os.makedirs(out)
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    steps = [[a.replace("{input}", work).replace("{out}", out).replace("{case}", case).replace("{repo}", repo)
              for a in shlex.split(line)] for line in cmd_lines(case)]
    env = dict(os.environ)
    for k in ("HEAD_THRESHOLD_PCT", "ANALYSIS_SKILL", "NO_COLOR"):
        env.pop(k, None)
    env_file = os.path.join(case, "env")
    if os.path.exists(env_file):
        with open(env_file, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    k, _, v = line.partition("=")
                    env[k] = v
    for setup in steps[:-1]:
        pre = subprocess.run([os.path.abspath(binary)] + setup, cwd=scratch, env=env, capture_output=True, timeout=60)
        if pre.returncode != 0:
            fail([f"setup step {shlex.join(setup)} exited {pre.returncode}:\n{pre.stderr.decode('utf-8', 'replace')}"])
    proc = subprocess.run([os.path.abspath(binary)] + steps[-1], cwd=scratch, env=env, capture_output=True, timeout=60)
    produced = {}
    for root, _, files in os.walk(scratch):
        for name in files:
            if name in ARTIFACTS or name == CHART:
                if name in produced:
                    fail([f"two {name} files written: {produced[name][0]} and {os.path.join(root, name)}"])
                with open(os.path.join(root, name), "rb") as f:
                    produced[name] = (os.path.join(root, name), f.read())
            elif name.startswith(".profile_roofline") and ".tmp" in name:
                fail([f"temp file left behind: {os.path.join(root, name)}"])
    for root, _, files in os.walk(out):
        for name in files:
            if name in TOPN_OUTPUTS:
                with open(os.path.join(root, name), "rb") as f:
                    produced[name] = (os.path.join(root, name), f.read())
            elif name.startswith(".") and ".tmp" in name:
                fail([f"temp file left behind: {os.path.join(root, name)}"])
    return proc, {k: v[1] for k, v in produced.items()}


def unescaped_pipes(line):
    return sum(1 for i, c in enumerate(line) if c == "|" and (i == 0 or line[i - 1] != "\\"))


def check_md_tables(md):
    """Every row of a Markdown table has as many cells as its header row."""
    errors, header, lineno = [], None, 0
    for lineno, line in enumerate(md.splitlines(), 1):
        if line.startswith("|"):
            n = unescaped_pipes(line)
            if header is None:
                header = n
            elif n != header:
                errors.append(f"profile_roofline.md:{lineno}: {n - 1} cells in a {header - 1}-column table: {line!r}")
        else:
            header = None
    return errors


def label_overlaps(root, ns):
    """The point labels' background boxes of a golden chart must not overlap."""
    boxes = []
    for g in root.iter(ns + "g"):
        if g.get("class") == "label":
            r = g.find(ns + "rect")
            boxes.append((float(r.get("x")), float(r.get("y")), float(r.get("width")), float(r.get("height")),
                          "".join(g.find(ns + "text").itertext())))
    errors = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]:
                errors.append(f"{CHART}: labels overlap: {a[4]!r} and {b[4]!r}")
    return errors


def tool(name):
    path = shutil.which(name)
    if not path:
        fail([f"{name} not found: run .ci/install-deps.sh (libxml2-utils, librsvg2-bin)"])
    return path


def check_chart(produced, expected_dir, update):
    errors = []
    if ("profile_roofline.json" in produced) != (CHART in produced):
        return [f"{CHART} must be written exactly when the JSON artifact is"]
    if CHART not in produced:
        return errors
    svg = produced[CHART]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, CHART)
        with open(path, "wb") as f:
            f.write(svg)
        lint = subprocess.run([tool("xmllint"), "--noout", path], capture_output=True, text=True)
        if lint.returncode != 0:
            return [f"{CHART} is not well-formed XML:\n{lint.stderr}"]
        import xml.etree.ElementTree as ET
        root = ET.fromstring(svg)
        ns = "{http://www.w3.org/2000/svg}"
        if root.tag != ns + "svg":
            errors.append(f"{CHART}: root element {root.tag}, expected svg")
        for el in root.iter():
            local = el.tag[len(ns):] if el.tag.startswith(ns) else el.tag
            if local not in SVG_ELEMENTS:
                errors.append(f"{CHART}: unexpected element <{el.tag}> (markup injected?)")
        golden = os.path.join(expected_dir, CHART)
        if not os.path.exists(golden):
            return errors
        errors += label_overlaps(root, ns)
        if update:
            with open(golden, "wb") as f:
                f.write(svg)
        with open(golden, "rb") as f:
            want = f.read()
        if want != svg:
            diff = difflib.unified_diff(want.decode().splitlines(), svg.decode().splitlines(),
                                        "expected/" + CHART, "actual/" + CHART, lineterm="", n=1)
            errors.append(f"{CHART} differs (UPDATE_GOLDEN=1 to accept):\n" + "\n".join(list(diff)[:60]))
        png = os.path.join(tmp, "chart.png")
        render = subprocess.run([tool("rsvg-convert"), "-o", png, path], capture_output=True, text=True)
        if render.returncode != 0:
            errors.append(f"rsvg-convert failed on {CHART}:\n{render.stderr}")
        else:
            with open(png, "rb") as f:
                data = f.read()
            if len(data) < 10000 or not data.startswith(b"\x89PNG\r\n\x1a\n"):
                errors.append(f"rsvg-convert wrote no usable PNG ({len(data)} bytes)")
            else:
                width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
                if (width, height) != (1040, 660):
                    errors.append(f"chart rendered at {width}x{height}, expected 1040x660")
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--schema")
    ap.add_argument("--validator")
    ap.add_argument("--update", action="store_true")
    opts = ap.parse_args()
    case = os.path.abspath(opts.case)
    update = opts.update or os.environ.get("UPDATE_GOLDEN") == "1"
    expected_dir = os.path.join(case, "expected")

    with tempfile.TemporaryDirectory() as s1, tempfile.TemporaryDirectory() as s2:
        proc, produced = run_once(opts.binary, case, s1)
        proc2, produced2 = run_once(opts.binary, case, s2)
    stdout = proc.stdout.decode("utf-8", "replace")
    stderr = proc.stderr.decode("utf-8", "replace")
    errors = []
    if produced != produced2:
        errors.append("non-deterministic: two runs wrote different bytes")
    if proc.returncode != proc2.returncode:
        errors.append(f"non-deterministic exit code: {proc.returncode} then {proc2.returncode}")

    if update:
        os.makedirs(expected_dir, exist_ok=True)
        with open(os.path.join(expected_dir, "exit_code"), "w") as f:
            f.write(f"{proc.returncode}\n")
        for name in ARTIFACTS + TOPN_OUTPUTS:
            path = os.path.join(expected_dir, name)
            if name in produced:
                with open(path, "wb") as f:
                    f.write(produced[name])
            elif os.path.exists(path):
                os.remove(path)
        print(f"updated {expected_dir} (exit {proc.returncode})")

    with open(os.path.join(expected_dir, "exit_code")) as f:
        want_code = int(f.read().strip())
    if proc.returncode != want_code:
        errors.append(f"exit code {proc.returncode}, expected {want_code}\n--- stderr ---\n{stderr}")

    for name in ARTIFACTS + TOPN_OUTPUTS:
        path = os.path.join(expected_dir, name)
        if not os.path.exists(path):
            if name in produced:
                errors.append(f"{name} written but the case expects no artifact")
            continue
        if name not in produced:
            errors.append(f"{name} not written\n--- stderr ---\n{stderr}")
            continue
        with open(path, "rb") as f:
            want = f.read()
        got = produced[name]
        if name.endswith(".json"):
            try:
                errs = compare_json(load_ordered(want.decode()), load_ordered(got.decode()))
            except json.JSONDecodeError as e:
                errs = [f"not valid JSON: {e}"]
            errors += [f"{name}: {e}" for e in errs[:20]]
        elif want != got:
            diff = difflib.unified_diff(want.decode().splitlines(), got.decode().splitlines(),
                                        "expected/" + name, "actual/" + name, lineterm="", n=2)
            errors.append(f"{name} differs (UPDATE_GOLDEN=1 to accept):\n" + "\n".join(list(diff)[:80]))

    errors += check_chart(produced, expected_dir, update)
    if "profile_roofline.md" in produced:
        md = produced["profile_roofline.md"].decode("utf-8", "replace")
        errors += check_md_tables(md)
        if CHART in produced and f"]({CHART})" not in md:
            errors.append(f"profile_roofline.md does not link {CHART}")

    checks_file = os.path.join(case, "checks.json")
    if os.path.exists(checks_file):
        with open(checks_file, encoding="utf-8") as f:
            checks = json.load(f)
        for name in ("profile_roofline.json",) + TOPN_OUTPUTS:
            mine = [c for c in checks if c.get("file", "profile_roofline.json") == name]
            if mine and name in produced:
                errors += [f"{name}: {e}" if name != "profile_roofline.json" else e
                           for e in run_checks(load_ordered(produced[name].decode()), mine)]
            elif mine and name != "profile_roofline.json":
                errors.append(f"{name} not written, but checks.json checks it")
    if "profile_roofline.json" in produced:
        if opts.schema and opts.validator:
            with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as tmp:
                tmp.write(produced["profile_roofline.json"])
            try:
                v = subprocess.run([sys.executable, opts.validator, opts.schema, tmp.name], capture_output=True, text=True)
            finally:
                os.unlink(tmp.name)
            if v.returncode != 0:
                errors.append(f"artifact fails the JSON Schema:\n{v.stdout}{v.stderr}")

    if "--format json" in cmd_text(case) and "profile_roofline.json" in produced:
        if proc.stdout != produced["profile_roofline.json"]:
            errors.append("--format json: stdout is not the written profile_roofline.json")

    for stream, text in (("stderr", stderr), ("stdout", stdout)):
        path = os.path.join(expected_dir, f"{stream}_contains")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                for line in f:
                    line = line.rstrip("\n")
                    if line and line not in text:
                        errors.append(f"{stream} lacks {line!r}\n--- {stream} ---\n{text}")

    if errors:
        fail(errors)
    print(f"ok: {os.path.basename(case)} (exit {proc.returncode})")


if __name__ == "__main__":
    main()
