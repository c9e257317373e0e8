#!/usr/bin/env python3
"""Golden end-to-end test of the real `roofline` binary on one case folder.

A case folder holds:
  cmd                      arguments after `roofline`; {input} = a scratch copy of input/,
                           {out} = a fresh scratch output folder, {case} = the case folder,
                           {wild} = the shared real traces that stay out of the repository
                           (ROOFLINE_WILD_FIXTURES, else ../shared/fixtures/wild beside the
                           repository): a case that uses it and finds the folder absent is
                           skipped (exit 77) with the reason printed.
                           Several non-empty lines = several commands, run in order in the same
                           scratch folder (lines starting with # are comments)
  cwd                      optional: the folder the commands run in ({repo} = the repository
                           root, so that bundled fixtures are named by stable relative paths);
                           default the scratch folder. Outputs are only looked for in scratch
  env                      optional KEY=VALUE lines added to the environment
                           (HEAD_THRESHOLD_PCT, ANALYSIS_SKILL, ROOFLINE_LEDGER and
                           ROOFLINE_CALIBRATION are cleared unless set here); {repo} = the
                           repository root (for the shipped example), {input} and {out} as in cmd
  input/                   the evaluation folder (copied, never written)
  requires                 optional: paths ({repo} = the repository root) the case reads from
                           outside the repository, one a line; where one is absent the case is
                           skipped with the reason printed (exit 77, CTest's SKIP_RETURN_CODE).
                           Files there are read in place, never copied into the repository
  checks.json              optional targeted assertions on the artifact (see CHECKS below)
  expected/exit_code       the expected exit code (one line per command)
  expected/profile_roofline.json, expected/profile_roofline.md
                           the golden artifacts; both absent = the run must write no artifact,
                           or several (compare BEFORE AFTER writes one per round): then each is
                           an output of its folder under expected/outputs/
  expected/stderr_contains optional: each non-empty line must appear in stderr (all commands)
  expected/stdout_contains optional: each non-empty line must appear in stdout (all commands)
  expected/outputs/        every other file the commands create or change in the scratch
                           folder (path relative to it; a *.lock file left behind fails the case), e.g.
                           input/profile/round_1/roofline_compare.json: the files written must be
                           exactly these (none when the folder is absent); .json compared as
                           JSON, other files byte for byte. Files of input/ that no command
                           changed are not outputs.
  expected/profile_roofline.svg
                           optional golden chart: when present the chart must match it byte for
                           byte and must render to a PNG with rsvg-convert (create the file empty,
                           then UPDATE_GOLDEN=1, to opt a case in)

Determinism: the committed expected/ files are an earlier run, so every comparison is a second
run. With --twice the case also runs twice here and both runs must write the same bytes (the
`golden_twice.*` tests do so for one case of each command, and --update always does, so that no
expected/ file is written from a run that would not repeat). With --update (or UPDATE_GOLDEN=1)
the produced artifacts and exit code are written into expected/ instead of compared; checks.json
and the *_contains files are never rewritten and are always enforced.

Every case, golden chart or not: a run that writes the JSON also writes profile_roofline.svg,
which must parse with xmllint (libxml2-utils) and contain only the SVG elements our writer emits
(a kernel name can never inject markup); every Markdown table keeps one column count on every
row (a `|` or newline in a name can never add a cell); the report links the chart.

CHECKS: a JSON list of {"path": "/entries/0/roofline_pct", <one test>} on the artifact, or with
  "file": "<path under expected/outputs>" on that output (a JSON file), where the test is
  "equals": value | "approx": x (with optional "rel", default 1e-6) | "between": [lo, hi] |
  "contains": "text" (substring of a string, or member of a list) |
  "any_contains": "text" (substring of some string in a list) | "absent": true |
  "none_contains": "text" (no string at any depth under the path contains it; "" = the whole
  artifact) |
  "length": n
"""
import argparse
import difflib
import importlib.util
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

ARTIFACTS = ("profile_roofline.json", "profile_roofline.md")
CHART = "profile_roofline.svg"
SVG_ELEMENTS = {"svg", "defs", "clipPath", "g", "rect", "line", "polyline", "polygon", "circle",
                "text", "title"}


SKIP = 77  # CTest's SKIP_RETURN_CODE for golden tests


def repo_root():
    return os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def missing_requirements(case):
    """The paths a case's `requires` file names that do not exist ({repo} substituted)."""
    path = os.path.join(case, "requires")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        wanted = [l.strip() for l in f if l.strip() and not l.strip().startswith("#")]
    return [w for w in wanted if not os.path.exists(w.replace("{repo}", repo_root()))]


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


def all_strings(value):
    """Every string inside a JSON value, at any depth."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from all_strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from all_strings(v)


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
        if "none_contains" in c:
            hits = [v for v in all_strings(value) if c["none_contains"] in v]
            if hits:
                errors.append(f"{path}: expected no string containing {c['none_contains']!r}, found {hits[0]!r}")
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
    return [l.strip() for l in cmd_text(case).splitlines() if l.strip() and not l.strip().startswith("#")]


def snapshot(root):
    """{relative path: bytes} of every file under root."""
    files = {}
    for base, _, names in os.walk(root):
        for name in names:
            path = os.path.join(base, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, root)] = f.read()
    return files


SKIP_CODE = 77


def wild_dir(repo):
    """The shared real traces (see {wild} above)."""
    return os.environ.get("ROOFLINE_WILD_FIXTURES") or os.path.normpath(
        os.path.join(repo, "..", "shared", "fixtures", "wild"))


def skip_without_wild(case):
    """Exit 77 with the reason when the case reads {wild} and the folder is absent."""
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if not any("{wild}" in line for line in cmd_lines(case)):
        return
    wild = wild_dir(repo)
    if not os.path.isdir(wild):
        print(f"SKIP: {os.path.basename(case)} reads the shared real traces, and {wild} is absent "
              "(set ROOFLINE_WILD_FIXTURES to their folder)")
        sys.exit(SKIP_CODE)


def run_once(binary, case, scratch):
    work = os.path.join(scratch, "input")
    out = os.path.join(scratch, "out")
    if os.path.isdir(os.path.join(case, "input")):
        shutil.copytree(os.path.join(case, "input"), work, symlinks=True)
    else:
        os.makedirs(work)
    os.makedirs(out)
    before = snapshot(scratch)
    repo = repo_root()

    def subst(a):
        return (a.replace("{input}", work).replace("{out}", out).replace("{case}", case)
                .replace("{repo}", repo).replace("{wild}", wild_dir(repo)))

    env = dict(os.environ)
    for k in ("HEAD_THRESHOLD_PCT", "ANALYSIS_SKILL", "NO_COLOR", "ROOFLINE_LEDGER", "ROOFLINE_CALIBRATION"):
        env.pop(k, None)
    env_file = os.path.join(case, "env")
    if os.path.exists(env_file):
        with open(env_file, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    k, _, v = line.partition("=")
                    env[k] = subst(v)
    run_dir = scratch
    if os.path.exists(os.path.join(case, "cwd")):
        with open(os.path.join(case, "cwd"), encoding="utf-8") as f:
            run_dir = subst(f.read().strip())
    procs = []
    for line in cmd_lines(case):
        args = [subst(a) for a in shlex.split(line)]
        procs.append(subprocess.run([os.path.abspath(binary)] + args, cwd=run_dir, env=env, capture_output=True, timeout=60))
    produced, outputs = {}, {}
    # The shared real traces' folder and the repository differ between checkouts: outputs name
    # them {wild} and {repo}.
    wild = wild_dir(repo).encode()
    for rel, data in snapshot(scratch).items():
        path = os.path.join(scratch, rel)
        name = os.path.basename(rel)
        data = data.replace(wild, b"{wild}").replace(repo.encode(), b"{repo}")
        if ".tmp." in name:
            fail([f"temp file left behind: {path}"])
        if name.endswith(".lock"):
            fail([f"lock file left behind: {path}"])
        if before.get(rel) == data:
            continue  # an input no command changed
        if name in ARTIFACTS or name == CHART:
            produced.setdefault(name, []).append((rel, data))
        else:
            outputs[rel] = data
    if any(len(v) > 1 for v in produced.values()):
        # Several rounds' artifacts (compare BEFORE AFTER analyses two traces): each is an
        # output of its own folder, and the case has no single artifact.
        for v in produced.values():
            for rel, data in v:
                outputs[rel] = data
        return procs, {}, outputs
    return procs, {k: v[0][1] for k, v in produced.items()}, outputs


def check_outputs(outputs, expected_dir, update):
    """The extra files of expected/outputs/ (see the module doc)."""
    want_dir = os.path.join(expected_dir, "outputs")
    if update and outputs:
        shutil.rmtree(want_dir, ignore_errors=True)
        for rel, data in outputs.items():
            os.makedirs(os.path.dirname(os.path.join(want_dir, rel)), exist_ok=True)
            with open(os.path.join(want_dir, rel), "wb") as f:
                f.write(data)
    want = snapshot(want_dir) if os.path.isdir(want_dir) else {}
    errors = []
    for rel in sorted(set(want) | set(outputs)):
        if rel not in outputs:
            errors.append(f"{rel}: not written")
        elif rel not in want:
            errors.append(f"{rel}: written but not in expected/outputs/")
        elif rel.endswith(".json"):
            try:
                errs = compare_json(load_ordered(want[rel].decode()), load_ordered(outputs[rel].decode()))
            except (json.JSONDecodeError, UnicodeDecodeError) as e:
                errs = [f"not valid JSON: {e}"]
            errors += [f"{rel}: {e}" for e in errs[:20]]
        elif want[rel] != outputs[rel]:
            diff = difflib.unified_diff(want[rel].decode("utf-8", "replace").splitlines(),
                                        outputs[rel].decode("utf-8", "replace").splitlines(),
                                        "expected/" + rel, "actual/" + rel, lineterm="", n=2)
            errors.append(f"{rel} differs (UPDATE_GOLDEN=1 to accept):\n" + "\n".join(list(diff)[:80]))
    return errors


def unescaped_pipes(line):
    return sum(1 for i, c in enumerate(line) if c == "|" and (i == 0 or line[i - 1] != "\\"))


def display_name_clashes(doc):
    """Two head entries never read alike: every display_name of the artifact is distinct."""
    seen, errors = {}, []
    for i, e in enumerate(doc.get("entries") or []):
        name = e.get("display_name") if isinstance(e, dict) else None
        if name is None:
            continue
        if name in seen:
            errors.append(f"/entries/{i}/display_name {name!r} is also /entries/{seen[name]}'s")
        seen.setdefault(name, i)
    return errors


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


def same_as_committed(expected_dir, produced):
    """Whether the artifact is byte for byte the committed expected/profile_roofline.json, which
    the test docs.schema validates: then it is valid too, and jsonschema need not run here."""
    path = os.path.join(expected_dir, "profile_roofline.json")
    if not os.path.exists(path):
        return False
    with open(path, "rb") as f:
        return f.read() == produced["profile_roofline.json"]


def schema_problems(validator_path, schema_path, artifact):
    """The artifact's problems under tools/validate_artifact.py (schema, key order, strict JSON),
    run in this process: no second interpreter and no re-check of the schema itself per case (the
    test docs.schema checks it once, with every committed artifact)."""
    spec = importlib.util.spec_from_file_location("validate_artifact", validator_path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as tmp:
        tmp.write(artifact)
    try:
        found = mod.in_process(schema_path)(tmp.name)
    except ValueError as e:  # duplicate keys, NaN/Infinity: not strict JSON
        found = [("/", f"not valid JSON: {e}")]
    finally:
        os.unlink(tmp.name)
    return ["artifact fails the JSON Schema:\n" + "\n".join(f"{w}: {m}" for w, m in found)] if found else []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--schema")
    ap.add_argument("--validator")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--twice", action="store_true", help="run the case twice: same bytes")
    opts = ap.parse_args()
    case = os.path.abspath(opts.case)
    update = opts.update or os.environ.get("UPDATE_GOLDEN") == "1"
    missing = missing_requirements(case)
    if missing:
        print(f"skip: {os.path.basename(case)} reads {', '.join(missing)}, which is absent here")
        sys.exit(SKIP)
    expected_dir = os.path.join(case, "expected")
    skip_without_wild(case)

    with tempfile.TemporaryDirectory() as s1:
        procs, produced, outputs = run_once(opts.binary, case, s1)
    proc = procs[-1]
    stdout = "".join(p.stdout.decode("utf-8", "replace") for p in procs)
    stderr = "".join(p.stderr.decode("utf-8", "replace") for p in procs)
    codes = [p.returncode for p in procs]
    errors = []
    if opts.twice or update:
        with tempfile.TemporaryDirectory() as s2:
            procs2, produced2, outputs2 = run_once(opts.binary, case, s2)
        if produced != produced2 or outputs != outputs2:
            errors.append("non-deterministic: two runs wrote different bytes")
        if codes != [p.returncode for p in procs2]:
            errors.append(f"non-deterministic exit codes: {codes} then {[p.returncode for p in procs2]}")

    if update:
        os.makedirs(expected_dir, exist_ok=True)
        with open(os.path.join(expected_dir, "exit_code"), "w") as f:
            f.write("".join(f"{c}\n" for c in codes))
        for name in ARTIFACTS:
            path = os.path.join(expected_dir, name)
            if name in produced:
                with open(path, "wb") as f:
                    f.write(produced[name])
            elif os.path.exists(path):
                os.remove(path)
        print(f"updated {expected_dir} (exit {proc.returncode})")

    with open(os.path.join(expected_dir, "exit_code")) as f:
        want_codes = [int(l) for l in f.read().split()]
    if codes != want_codes:
        errors.append(f"exit code {' '.join(map(str, codes))}, expected {' '.join(map(str, want_codes))}\n--- stderr ---\n{stderr}")
    errors += check_outputs(outputs, expected_dir, update)

    for name in ARTIFACTS:
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
    checks = []
    if os.path.exists(checks_file):
        with open(checks_file, encoding="utf-8") as f:
            checks = json.load(f)
    for rel in sorted({c["file"] for c in checks if "file" in c}):
        if rel not in outputs:
            errors.append(f"checks.json: {rel} was not written")
            continue
        errors += [f"{rel}: {e}" for e in
                   run_checks(load_ordered(outputs[rel].decode()), [c for c in checks if c.get("file") == rel])]
    if "profile_roofline.json" in produced:
        doc = load_ordered(produced["profile_roofline.json"].decode())
        errors += run_checks(doc, [c for c in checks if "file" not in c])
        errors += display_name_clashes(doc)
        if opts.schema and opts.validator and (update or not same_as_committed(expected_dir, produced)):
            errors += schema_problems(opts.validator, opts.schema, produced["profile_roofline.json"])

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
