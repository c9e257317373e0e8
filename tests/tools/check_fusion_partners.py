#!/usr/bin/env python3
"""Every fusion partner in every golden artifact is the trace's own neighbour of its kernel.

For each golden case whose artifact names fusion partners (entries[].fusion_partners), the trace
its command read is loaded, its kernels put in launch order per device and stream, and for each
partner some launch of the entry's kernel must have the partner as its nearest kernel on the named
side. Kernels that `topn` looks through (quantization and collectives: they carry the tensor on)
may stand between them, nothing else. A partner the trace does not show beside the kernel is a
claim the trace contradicts, and fails here. A trace the repository holds that is absent, or a
case whose command names none, fails; without the shared traces ({wild}) their cases are not
checked and the test reports a skip (77), never a pass.

Usage: check_fusion_partners.py [--wild DIR]
"""
import argparse
import gzip
import json
import os
import re
import shlex
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(REPO, "tests", "golden")
SKIP = 77  # CTest's SKIP_RETURN_CODE: a fixture the check reads is absent
LOOKED_THROUGH = re.compile(r"nccl|all_?reduce|allgather|cross_device_reduce|quant|scaled_fp8|"
                            r"Float8|fp8_quant|segmented_max", re.I)


def load_events(path, cache):
    if path not in cache:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8", errors="replace") as f:
            doc = json.load(f)
        events = doc.get("traceEvents", doc) if isinstance(doc, dict) else doc
        streams = {}
        for e in events:
            if not isinstance(e, dict) or e.get("ph") != "X":
                continue
            if str(e.get("cat", "")).lower() != "kernel":
                continue
            streams.setdefault((e.get("pid"), e.get("tid")), []).append(e)
        for launches in streams.values():
            launches.sort(key=lambda e: float(e.get("ts", 0)))
        cache[path] = streams
    return cache[path]


def trace_of(case, wild):
    """The trace the case's command reads (the first .json/.json.gz argument) and whether it lies
    in the shared traces ({wild}); the path is None when the command names no trace, and names a
    file that may be absent."""
    cmd = [l for l in open(os.path.join(case, "cmd"), encoding="utf-8").read().splitlines()
           if l.strip() and not l.startswith("#")]
    cwd = open(os.path.join(case, "cwd")).read().strip() if os.path.exists(os.path.join(case, "cwd")) else ""
    for line in cmd:
        args = shlex.split(line)
        if not args or args[0] not in ("analyze", "topn"):
            continue
        for a in args[1:]:
            if a.startswith("-"):
                break
            if ".json" not in a:
                continue
            shared = "{wild}" in a
            a = a.replace("{repo}", REPO).replace("{wild}", wild)
            if not os.path.isabs(a):
                a = os.path.join(REPO if cwd == "{repo}" else case, a)
            return a, shared
    return None, False


def looked_through(name):
    """A quantization or collective kernel, by its own name (not its template arguments: a norm
    whose pipeline is called `…SmoothQuant…` is a norm), or by a float8 output type."""
    head = name.split("<", 1)[0] if not name.startswith("_Z") else name[:48]
    return LOOKED_THROUGH.search(head) is not None or "Float8" in name and "reduction" in head


def neighbour(launches, i, step):
    j = i + step
    while 0 <= j < len(launches) and looked_through(launches[j].get("name", "")):
        j += step
    return launches[j].get("name", "") if 0 <= j < len(launches) else None


def partner_named(partner, name):
    """The short name `partner` is the kernel `name`: its identifier inside the full name, or in a
    mangled one as the Itanium ABI spells it (`12Rmsnorm2dFwd`)."""
    if name.startswith("_Z") and f"{len(partner)}{partner}" in name:
        return True
    return name == partner or re.search(r"(^|[^A-Za-z0-9_])" + re.escape(partner) + r"($|[^A-Za-z0-9_])",
                                        name) is not None


def check_entry(entry, streams):
    errors = []
    for p in entry["fusion_partners"]:
        step = -1 if p["side"] == "before" else 1
        beside = 0
        for launches in streams.values():
            for i, e in enumerate(launches):
                if e.get("name") == entry["name"]:
                    n = neighbour(launches, i, step)
                    beside += n is not None and partner_named(p["partner_kernel"], n)
        if beside == 0:
            errors.append(f"{entry.get('display_name')}: '{p['partner_kernel']}' is never the kernel "
                          f"right {p['side']} it in the trace")
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--wild", default=os.environ.get("ROOFLINE_WILD_FIXTURES",
                                                     os.path.join(REPO, "..", "shared", "fixtures", "wild")))
    args = ap.parse_args()
    cache, errors, checked, skipped = {}, [], 0, []
    for name in sorted(os.listdir(GOLDEN)):
        case = os.path.join(GOLDEN, name)
        artifact = os.path.join(case, "expected", "profile_roofline.json")
        if not os.path.exists(artifact):
            continue
        doc = json.load(open(artifact, encoding="utf-8"))
        entries = [e for e in doc.get("entries", []) if e.get("fusion_partners")]
        if not entries:
            continue
        trace, shared = trace_of(case, args.wild)
        if trace is None:
            errors.append(f"{name}: its artifact names fusion partners, and its command reads no "
                          "trace to check them against")
            continue
        if not os.path.exists(trace):
            if shared and not os.path.isdir(args.wild):
                skipped.append(name)
            else:
                errors.append(f"{name}: the trace it reads is absent: {trace}")
            continue
        streams = load_events(trace, cache)
        for e in entries:
            checked += len(e["fusion_partners"])
            errors += [f"{name}: {m}" for m in check_entry(e, streams)]
    for e in errors:
        print("FAIL:", e)
    print(f"check_fusion_partners: {checked} partner(s) checked against their traces, "
          f"{len(errors)} failure(s)")
    if errors or checked == 0:
        return 1
    if skipped:  # a check that could not read its fixtures did not pass: CTest reports a skip
        print(f"SKIP: the shared traces ({args.wild}) are absent, so the partners of "
              f"{', '.join(skipped)} were not checked (set ROOFLINE_WILD_FIXTURES)")
        return SKIP
    return 0


if __name__ == "__main__":
    sys.exit(main())
