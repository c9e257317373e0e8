#!/usr/bin/env python3
"""Corrupted-input corpus test: hundreds of broken variants of real evaluation folders.

Usage: corrupt_corpus.py --binary ROOFLINE --schema SCHEMA --validator validate_artifact.py
                         --case EVAL_DIR [--case EVAL_DIR ...] [--count N] [--seed S] [--jobs J]
                         [--keep DIR]

Each variant copies one evaluation folder (profile/round_1/profile_topN.json, env_report.json,
config.json, optional peaks.md) and breaks one file: truncations, byte flips, wrong JSON types,
NaN/±Infinity/huge numbers, 100 000-deep nesting, empty files, non-UTF-8 bytes, duplicate keys,
negative times and percentages, garbage, and input limits set below the file's size or entry
count. Variants are generated deterministically from --seed. Every run of `roofline analyze`
must:
  * exit 0, or with --strict (every other variant) 1 exactly when degraded[] or skill_errors[]
    is non-empty;
  * write a profile_roofline.json that validates against the JSON Schema (and key order), plus
    profile_roofline.md, and leave no temp file behind;
  * when the variant is known to be broken, name the problem: stderr names the broken file and
    the artifact's skill_errors[] or degraded[] is non-empty;
  * a NaN/Infinity/-Infinity literal in a JSON input is not a broken file (docs/method.md §2.9): the key
    reads as absent, and the artifact's notes and stderr name it.
Failures print the variant's name and what went wrong; --keep DIR keeps failing variants.

With --capture-case EXEC_TRACE CAPTURE_FILE (repeatable) it also breaks graph-capture traces
(docs/method.md §22) the same ways, plus gzip damage and a broken execution_details.json beside them,
and runs `roofline topn EXEC_TRACE --capture FOLDER`: every run must exit 0 and write a Top-N
(valid JSON with its graph_replay block) and profile_workload.json, and a truncated, empty,
garbage or otherwise unreadable capture file (or execution_details.json) must be named in a
warning on stderr ("its graphs are not joined"). Byte flips need only not crash: damage inside
an event the streaming reader skips unread can go unseen.
"""
import argparse
import concurrent.futures
import importlib.util
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

TOPN = "profile/round_1/profile_topN.json"
FILES = {"topn": TOPN, "env": "env_report.json", "config": "config.json", "peaks": "peaks.md",
         "workload": "profile/round_1/profile_workload.json"}
# Inputs whose loss costs only detail: a broken one is a warning (stderr and the artifact's notes
# name the file), never a skill error or a degraded entry. profile_workload.json only refines the
# Top-N's shapes (docs/method.md §8.2).
OPTIONAL = {"workload"}

# Fields the loaders are known to read, per file, with a JSON-pointer-like path: a wrong type or
# a bad number there must be reported. (Unknown fields are ignored by design, so a random path
# cannot be expected to produce a message.)
READ_NUMBERS = {
    "topn": ["top_kernels/0/avg_us", "top_kernels/0/calls", "top_kernels/0/total_ms",
             "top_kernels/1/avg_us", "top_kernels/0/pct_gpu_time", "top_kernels/1/pct_gpu_time",
             "top_kernels/2/calls", "serving/n_decode_steps", "serving/n_prefill_steps",
             "device/cu_count", "device/memory_bytes", "world_size",
             "top_kernels/0/input_quant/0/launches"],
    "env": ["workload/isl", "workload/osl", "workload/conc", "tp"],
    "config": ["num_hidden_layers", "hidden_size", "text_config/num_hidden_layers",
               "text_config/hidden_size", "text_config/num_experts", "text_config/head_dim"],
    "workload": ["kernels/0/cases/0/count", "kernels/0/cases/0/baseline_latency_ms",
                 "kernels/1/cases/0/count", "kernels/0/cases/0/time_us/median",
                 "kernels/0/cases/0/steps/decode", "kernels/0/cases/0/inherited",
                 "kernels/0/cases/0/order"],
}
READ_STRINGS = {
    "topn": ["top_kernels/0/name", "top_kernels/1/name", "top_kernels/0/classification",
             "top_kernels/1/op", "device/name", "device/arch", "top_kernels/0/input_quant/0/dtype"],
    "env": ["gfx", "model_dtype", "kv_cache_dtype"],
    "config": ["text_config/torch_dtype", "torch_dtype"],
    "workload": ["kernels/0/name", "kernels/1/name", "kernels/0/cases/0/op",
                 "kernels/0/cases/0/module"],
}


def note_path(path):
    """The key as the tool's note names it: top_kernels/0/avg_us -> top_kernels[0].avg_us."""
    out = ""
    for part in path.split("/"):
        out += f"[{part}]" if part.isdigit() else (("." if out else "") + part)
    return out


def get_path(doc, path):
    cur = doc
    for part in path.split("/"):
        if isinstance(cur, list):
            i = int(part)
            if i >= len(cur):
                return False, None
            cur = cur[i]
        elif isinstance(cur, dict) and part in cur:
            cur = cur[part]
        else:
            return False, None
    return True, cur


def set_path(doc, path, value):
    parts = path.split("/")
    cur = doc
    for part in parts[:-1]:
        cur = cur[int(part)] if isinstance(cur, list) else cur[part]
    last = parts[-1]
    if isinstance(cur, list):
        cur[int(last)] = value
    else:
        cur[last] = value


def shadowed(key, doc, path):
    """A top-level config field that text_config also holds is never read (docs/method.md §2.5)."""
    aliases = {"torch_dtype": ("torch_dtype", "dtype")}.get(path, (path,))
    return (key == "config" and "/" not in path and isinstance(doc.get("text_config"), dict)
            and any(a in doc["text_config"] for a in aliases))


def dumps(doc):
    return json.dumps(doc, indent=1).encode()


def is_valid_json(data):
    try:
        text = data.decode("utf-8")
        json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
        return True
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False


class Variant:
    def __init__(self, name, file_key, data=None, broken=False, args=(), base=None, noted=None):
        self.name, self.file_key, self.data = name, file_key, data
        self.broken, self.args, self.base = broken, list(args), base
        # A NaN/Infinity literal is read as absent with a note naming the key (docs/method.md §2.9,
        # docs/method.md §8): `noted` is that key's dotted path, required in the notes and on
        # stderr.
        self.noted = noted


def generate(cases, count, seed):
    """At least `count` variants, deterministic for a given seed."""
    rng = random.Random(seed)
    out = []
    # Coverage, not count: a damage that depends only on the file kind and the field (a NaN at
    # top_kernels/0/avg_us, a string for hidden_size) is tried on the first case that has that
    # field; random truncations and flips are tried 6 times on the first case of each file kind
    # and twice on the others (each case still has every file broken every way).
    seen = set()
    rotation = itertools.count()

    def first(*key):
        if key in seen:
            return False
        seen.add(key)
        return True

    for ci, case in enumerate(cases):
        texts = {k: open(os.path.join(case, rel), "rb").read()
                 for k, rel in FILES.items() if os.path.exists(os.path.join(case, rel))}
        docs = {k: json.loads(v) for k, v in texts.items() if k != "peaks"}
        tag = f"c{ci}"

        def add(name, key, data, broken, args=(), noted=None):
            out.append(Variant(f"{tag}.{name}", key, data, broken, args, case, noted))

        for key, data in texts.items():
            tries = 6 if first("random", key) else 2
            for i in range(tries):  # truncations (a killed profiler)
                cut = rng.randrange(0, len(data))
                add(f"{key}.truncate{i}@{cut}", key, data[:cut],
                    key != "peaks" and not is_valid_json(data[:cut]))
            for i in range(tries):  # byte flips
                mutated = bytearray(data)
                for _ in range(rng.randint(1, 4)):
                    pos = rng.randrange(len(mutated))
                    mutated[pos] ^= 1 << rng.randrange(8)
                add(f"{key}.flip{i}", key, bytes(mutated),
                    key != "peaks" and not is_valid_json(bytes(mutated)))
            add(f"{key}.empty", key, b"", True)
            add(f"{key}.blank", key, b" \n\t\n", True)
            add(f"{key}.garbage", key, bytes(rng.randrange(256) for _ in range(512)), True)
            add(f"{key}.latin1", key, data.replace(b'"', b'"\xe9\xff', 1) if key != "peaks"
                else b"```yaml\ngfx: \xff\xfe\n```\n", key != "peaks")
            add(f"{key}.limit_size", key, data, True, ["--max-input-size", "16"])
        for key, doc in docs.items():
            deep = b"[" * 100000 + b"]" * 100000
            add(f"{key}.deep_top", key, deep, True)
            inner = dumps(doc).replace(b"{", b'{"deep": ' + b"[" * 100000 + b"]" * 100000 + b", ", 1)
            add(f"{key}.deep_field", key, inner, True)
            add(f"{key}.limit_depth", key, texts[key], True, ["--max-json-depth", "1"])
            add(f"{key}.top_array", key, b"[" + texts[key] + b"]", True)
            add(f"{key}.top_string", key, b'"just a string"', True)
            # duplicate keys: last wins in the parser; not an error, but never a crash
            first_key = next(iter(doc), None)
            if first_key is not None:
                dup = dumps(doc).replace(b"{", b'{"%s": {"dup": [1, 2]}, ' % first_key.encode(), 1)
                add(f"{key}.dup_key", key, dup, False)
            for path in READ_NUMBERS.get(key, []):
                found, _ = get_path(doc, path)
                if not found or shadowed(key, doc, path) or not first("number", key, path):
                    continue
                # Each field gets one kept non-finite literal, one out-of-range one, a negative
                # and one wrong type; which of each kind rotates over the fields, so every kind
                # is still tried, on a third to a half of them (the reader of a kind is shared,
                # the reaction to it is the field's).
                turn = next(rotation)
                literals = (("nan", b"NaN"), ("inf", b"Infinity"), ("ninf", b"-Infinity"))
                out_of_range = (("huge", b"1e400"), ("nhuge", b"-1e400"))
                for label, literal in (literals[turn % 3], out_of_range[turn % 2]):
                    marker = "@@MARK@@"
                    d = json.loads(texts[key])
                    set_path(d, path, marker)
                    data = dumps(d).replace(b'"' + marker.encode() + b'"', literal)
                    literal_kept = label in ("nan", "inf", "ninf")
                    add(f"{key}.{label}:{path}", key, data, not literal_kept,
                        noted=note_path(path) if literal_kept else None)
                wrong_types = (("str", "fast"), ("list", [1, 2]), ("obj", {"v": 1}), ("bool", True))
                for label, value in (("neg", -rng.uniform(1, 1e6)), wrong_types[turn % 4]):
                    d = json.loads(texts[key])
                    set_path(d, path, value)
                    # a negative count/time/pct is reported; a negative layer count is too
                    add(f"{key}.{label}:{path}", key, dumps(d), True)
            for path in READ_STRINGS.get(key, []):
                found, _ = get_path(doc, path)
                if not found or shadowed(key, doc, path) or not first("string", key, path):
                    continue
                turn = next(rotation)
                wrong_types = (("num", 42), ("list", ["a"]), ("obj", {"s": "x"}))
                for label, value in (wrong_types[turn % 3],):
                    d = json.loads(texts[key])
                    set_path(d, path, value)
                    add(f"{key}.{label}:{path}", key, dumps(d), True)
        # whole-structure damage to the Top-N
        d = json.loads(texts["topn"])
        d["top_kernels"] = "not a list"
        add("topn.kernels_string", "topn", dumps(d), True)
        d = json.loads(texts["topn"])
        d["top_kernels"] = [None, 3, "x"] + d["top_kernels"]
        add("topn.kernels_junk_entries", "topn", dumps(d), True)
        d = json.loads(texts["topn"])
        for k in d["top_kernels"]:
            k["pct_gpu_time"] = -abs(k.get("pct_gpu_time", 1) or 1)
        add("topn.all_pct_negative", "topn", dumps(d), True)
        d = json.loads(texts["topn"])
        for k in d["top_kernels"]:
            k["avg_us"] = -1.0
            k["total_ms"] = -1.0
        add("topn.all_times_negative", "topn", dumps(d), True)
        d = json.loads(texts["topn"])
        d["top_kernels"][0]["shapes"] = [[1e300, -5], "x", [[1]], [2**70, 3]]
        add("topn.bad_shapes", "topn", dumps(d), True)
        add("topn.limit_entries", "topn", texts["topn"], len(docs["topn"]["top_kernels"]) > 1,
            ["--max-topn-entries", "1"])
        add("peaks.deep_flow", "peaks", b"```yaml\ngfx: gfx950\nflops: " + b"[" * 100000 + b"\n```\n",
            True)
        add("peaks.missing_file", "peaks", None, True)
        # docs/method.md §5.7: a malformed measured block, and figures outside the usable band.
        head = b"```yaml\ngfx: gfx950\nhbm_bw_bytes_s: 8.0e12\nflops: {bf16: 2.5e15, fp16: 2.5e15}\n"
        add("peaks.measured_not_map", "peaks", head + b"measured: 6.4e12\n```\n", True)
        add("peaks.measured_bad_values", "peaks", head + b"measured:\n  hbm_bw: x\n"
            b"  flops: {bf16: fast, fp9: 1}\n  source: [1, 2]\n```\n", True)
        add("peaks.measured_out_of_band", "peaks", head + b"measured:\n  hbm_bw_bytes_s: 9e12\n"
            b"  flops: {bf16: 1e14, fp16: -1, fp8: 1e15}\n  source: s\n```\n", True)
        add("peaks.measured_deep", "peaks", head + b"measured: " + b"{a: " * 5000 + b"\n```\n",
            True)
    # deterministic top-up with more random truncations and flips
    while len(out) < count:
        case = rng.choice(cases)
        key = rng.choice(["topn", "env", "config"])
        data = open(os.path.join(case, FILES[key]), "rb").read()
        cut = rng.randrange(len(data))
        out.append(Variant(f"extra{len(out)}.{key}.truncate@{cut}", key, data[:cut],
                           not is_valid_json(data[:cut]), base=case))
    return out


def load_validator(path, schema_path):
    spec = importlib.util.spec_from_file_location("validate_artifact", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.in_process(schema_path)


def run_variant(binary, variant, index, scratch_root):
    work = tempfile.mkdtemp(prefix=f"v{index}-", dir=scratch_root)
    evaldir = os.path.join(work, "eval")
    shutil.copytree(variant.base, evaldir)
    peaks_path = os.path.join(evaldir, FILES["peaks"])
    target = os.path.join(evaldir, FILES[variant.file_key])
    if variant.data is None:
        if os.path.exists(target):
            os.remove(target)
    else:
        with open(target, "wb") as f:
            f.write(variant.data)
    out = os.path.join(work, "out")
    strict = index % 2 == 1
    args = [binary, "analyze", "--round", "1", "--dir", evaldir, "--out", out, "--format", "quiet"]
    if variant.file_key == "peaks" or os.path.exists(peaks_path):
        args += ["--peaks", peaks_path]
    if strict:
        args.append("--strict")
    args += variant.args
    proc = subprocess.run(args, capture_output=True, timeout=120)
    return work, out, strict, proc


def check(variant, work, out, strict, proc, validate):
    errors = []
    stderr = proc.stderr.decode("utf-8", "replace")
    artifact = os.path.join(out, "profile_roofline.json")
    if variant.data is None and variant.file_key == "peaks" and proc.returncode == 2:
        return errors  # an explicitly named file that is missing is a usage error (docs/method.md §2.1)
    if variant.data == b"" and variant.file_key == "peaks":
        # ... and so is one that is empty: exit 2, the file named, nothing written.
        base = os.path.basename(FILES["peaks"])
        if proc.returncode != 2 or base not in stderr or "empty" not in stderr:
            return [f"explicitly named empty {base}: exit {proc.returncode}\n{stderr[-2000:]}"]
        return errors
    if proc.returncode not in (0, 1) or (proc.returncode == 1 and not strict):
        return [f"exit {proc.returncode}{' (--strict)' if strict else ''}\n{stderr[-2000:]}"]
    if not os.path.exists(artifact) or not os.path.exists(os.path.join(out, "profile_roofline.md")):
        return [f"artifacts not written\n{stderr[-2000:]}"]
    leftovers = [n for n in os.listdir(out) if ".tmp" in n]
    if leftovers:
        errors.append(f"temp files left behind: {leftovers}")
    try:
        problems = validate(artifact)
    except ValueError as e:
        return errors + [f"artifact is not strict JSON: {e}"]
    errors += [f"schema: {where}: {msg}" for where, msg in problems[:5]]
    with open(artifact, encoding="utf-8") as f:
        doc = json.load(f)
    flagged = bool(doc.get("skill_errors")) or bool(doc.get("degraded"))
    if strict and proc.returncode != (1 if flagged else 0):
        errors.append(f"--strict exit {proc.returncode} with flagged={flagged}")
    if variant.noted:
        base = os.path.basename(FILES[variant.file_key])
        wanted = f"{variant.noted}: non-finite literal"
        if not any(wanted in n for n in doc.get("notes", [])):
            errors.append(f"non-finite literal read, but no note names {variant.noted}")
        if base not in stderr or wanted not in stderr:
            errors.append(f"non-finite literal: stderr does not name {base} and the key:\n"
                          f"{stderr[-1500:]}")
    if variant.broken:
        base = os.path.basename(FILES[variant.file_key])
        if variant.file_key in OPTIONAL:
            if not any(base in n for n in doc.get("notes", [])):
                errors.append(f"broken optional input but no note names {base}")
        elif not flagged:
            errors.append("broken input but skill_errors[] and degraded[] are empty")
        if base not in stderr:
            errors.append(f"broken input but stderr does not name {base}:\n{stderr[-1500:]}")
    return errors


def generate_capture(cases, seed):
    """Broken variants of capture traces: (name, exec trace, {file name: bytes}, broken file)."""
    import gzip as gz
    rng = random.Random(seed)
    out = []
    for ci, (exec_trace, capture) in enumerate(cases):
        data = open(capture, "rb").read()
        name = os.path.basename(capture)
        if data[:2] == b"\x1f\x8b":  # break the JSON text; the gzip variants compress it again
            data = gz.decompress(data)
            name = name[:-3] if name.endswith(".gz") else name
        tag = f"cap{ci}"

        def structural(d):
            """Valid JSON whatever its bytes' encoding (the trace reader keeps non-UTF-8 bytes
            inside strings, as it does in execution traces)."""
            try:
                json.loads(d.decode("latin-1"))
                return True
            except (ValueError, RecursionError):
                return False

        def add(label, files, broken):
            out.append((f"{tag}.{label}", exec_trace, files, broken))

        # Random truncations and flips: 6 each on the first capture, 2 on the others (as for the
        # evaluation folders: the reader is the same, the captures differ in what they hold).
        tries = 6 if ci == 0 else 2
        for i in range(tries):
            cut = rng.randrange(0, len(data))
            add(f"truncate{i}@{cut}", {name: data[:cut]},
                name if not structural(data[:cut]) else None)
        for i in range(tries):
            mutated = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                pos = rng.randrange(len(mutated))
                mutated[pos] ^= 1 << rng.randrange(8)
            # Damage inside an event the reader skips unread (python frames: brackets matched,
            # strings jumped) may go unseen: a flip must never crash, a warning is not required.
            add(f"flip{i}", {name: bytes(mutated)}, None)
        add("empty", {name: b""}, name)
        add("garbage", {name: bytes(rng.randrange(256) for _ in range(512))}, name)
        add("latin1", {name: data.replace(b'"', b'"\xe9\xff', 1)}, None)
        add("deep", {name: b"[" * 100000 + b"]" * 100000}, name)
        add("top_string", {name: b'"just a string"'}, name)
        add("no_events", {name: b'{"schemaVersion": 1}'}, name)
        add("events_object", {name: b'{"traceEvents": {"a": 1}}'}, name)
        packed = gz.compress(data, 6, mtime=0)
        add("gzip", {name + ".gz": packed}, None)
        add("gzip_truncated", {name + ".gz": packed[: len(packed) // 2]}, name + ".gz")
        add("gzip_flipped", {name + ".gz": packed[:20] + bytes(b ^ 0x55 for b in packed[20:60])
                             + packed[60:]}, name + ".gz")
        add("dims_junk", {name: data.replace(b'"Input Dims": [[', b'"Input Dims": [["x", -3], [[1e400]], [', 3)}, None)
        for label, details in (("details_truncated", b'[{"file": "'),
                               ("details_types", b'[{"file": 3, "batch_size": "x"}]'),
                               ("details_negative", b'[{"file": "' + name.encode() + b'", "batch_size": -8}]'),
                               ("details_garbage", bytes(rng.randrange(256) for _ in range(64)))):
            add(label, {name: data, "execution_details.json": details}, "execution_details.json")
    return out


def run_capture_variants(binary, variants, jobs, keep):
    def run(i, v):
        label, exec_trace, files, broken = v
        work = tempfile.mkdtemp(prefix=f"c{i}-")
        cap = os.path.join(work, "capture")
        os.makedirs(cap)
        for fname, data in files.items():
            with open(os.path.join(cap, fname), "wb") as f:
                f.write(data)
        out = os.path.join(work, "out")
        os.makedirs(out)
        proc = subprocess.run([binary, "topn", exec_trace, "--capture", cap, "-o", out],
                              capture_output=True, timeout=120)
        return work, out, proc

    failures = 0
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        futures = [pool.submit(run, i, v) for i, v in enumerate(variants)]
        for v, fut in zip(variants, futures):
            work, out, proc = fut.result()
            label, _, _, broken = v
            stderr = proc.stderr.decode("utf-8", "replace")
            errors = []
            if proc.returncode != 0:
                errors.append(f"exit {proc.returncode}\n{stderr[-1500:]}")
            else:
                try:
                    topn = json.load(open(os.path.join(out, "profile_topN.json"), encoding="utf-8"))
                    json.load(open(os.path.join(out, "profile_workload.json"), encoding="utf-8"))
                    if "graph_replay" not in topn:
                        errors.append("the Top-N has no graph_replay block")
                except (OSError, ValueError) as e:
                    errors.append(f"Top-N not written or not JSON: {e}")
                if [n for n in os.listdir(out) if ".tmp" in n]:
                    errors.append("temp files left behind")
                if broken and not any(broken in line and "warning:" in line
                                      for line in stderr.splitlines()):
                    errors.append(f"broken {broken} but no warning names it:\n{stderr[-1500:]}")
            if errors:
                failures += 1
                print(f"FAIL {label}:")
                for e in errors:
                    print("   " + e.replace("\n", "\n   "))
                if keep:
                    shutil.copytree(work, os.path.join(keep, label))
            shutil.rmtree(work, ignore_errors=True)
    print(f"capture corpus: {len(variants)} variants "
          f"({sum(1 for v in variants if v[3])} known broken), "
          f"{len(variants) - failures} passed, {failures} failed")
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--validator", required=True)
    ap.add_argument("--case", action="append", default=[])
    ap.add_argument("--capture-case", action="append", nargs=2, default=[],
                    metavar=("EXEC_TRACE", "CAPTURE_FILE"))
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--keep")
    opts = ap.parse_args()
    if not opts.case and not opts.capture_case:
        ap.error("give --case or --capture-case")
    binary = os.path.abspath(opts.binary)
    capture_failures = 0
    if opts.capture_case:
        capture_failures = run_capture_variants(
            binary, generate_capture([tuple(map(os.path.abspath, c)) for c in opts.capture_case],
                                     opts.seed), opts.jobs, opts.keep)
        if not opts.case:
            return 1 if capture_failures else 0
    validate = load_validator(opts.validator, opts.schema)
    variants = generate([os.path.abspath(c) for c in opts.case], opts.count, opts.seed)
    failures = 0
    broken = sum(v.broken for v in variants)
    with tempfile.TemporaryDirectory(prefix="corrupt-") as scratch, \
            concurrent.futures.ThreadPoolExecutor(max(1, opts.jobs)) as pool:
        futures = [pool.submit(run_variant, binary, v, i, scratch) for i, v in enumerate(variants)]
        for i, (variant, fut) in enumerate(zip(variants, futures)):
            work, out, strict, proc = fut.result()
            errors = check(variant, work, out, strict, proc, validate)
            if errors:
                failures += 1
                print(f"FAIL {variant.name}:")
                for e in errors:
                    print("   " + e.replace("\n", "\n   "))
                if opts.keep:
                    shutil.copytree(work, os.path.join(opts.keep, f"{i}-{variant.name.replace('/', '_')}"))
            shutil.rmtree(work, ignore_errors=True)
    print(f"corrupt corpus: {len(variants)} variants ({broken} known broken), "
          f"{len(variants) - failures} passed, {failures} failed")
    return 1 if failures or capture_failures else 0


if __name__ == "__main__":
    sys.exit(main())
