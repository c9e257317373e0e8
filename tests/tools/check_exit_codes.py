#!/usr/bin/env python3
"""The exit-code table, row by row: what the man page's EXIT STATUS states is what the binary does.

The man page has exactly the rows 0, 1, 2 and 3. Each case below names its row, a phrase of that
row's text (so a case whose row no longer says it fails here) and a command run on bundled inputs;
the command must exit with the row's code. Every row has at least one case, and every subcommand
appears in some case of row 2 (usage errors apply to all of them).

Usage: check_exit_codes.py --binary build/roofline --man build/roofline.1
"""
import argparse
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLE = os.path.join(REPO, "data/examples/qwen3.5-35b-a3b-fp8-mi355x")
SERVING = os.path.join(REPO, "tests/fixtures/serving/sglang_qwen3_8b_decode_mi300x")
TRACE = os.path.join(SERVING, "sglang_Qwen3-8B_decode.json.gz")
GOLDEN = os.path.join(REPO, "tests/golden")


def man_rows(man_path):
    """{code: text} of the EXIT STATUS section (.TP items), roff escapes removed."""
    text = open(man_path, encoding="utf-8").read()
    section = re.search(r"^\.SH EXIT STATUS\n(.*?)^\.SH ", text, re.S | re.M).group(1)
    rows = {}
    for m in re.finditer(r"^\.TP\n\\fB(\d)\\fR\n(.*?)(?=^\.TP|\Z)", section, re.S | re.M):
        rows[m.group(1)] = m.group(2).replace("\\-", "-").replace("\n", " ").strip()
    return rows


def cases(t):
    """(row, phrase of the row, argv after the binary, extra environment) for every case."""
    out = os.path.join(t, "out")
    blocker = os.path.join(t, "a_file")
    open(blocker, "w").write("not a folder\n")
    empty = os.path.join(t, "empty.json")
    open(empty, "w").close()
    truncated = os.path.join(t, "truncated.json.gz")
    with gzip.open(TRACE, "rb") as f:
        data = f.read()
    with open(truncated, "wb") as f:
        f.write(gzip.compress(data)[: 4000])
    config = os.path.join(SERVING, "config.json")
    strict_dir = os.path.join(GOLDEN, "l5_broken_env/input")
    compare_dir = os.path.join(t, "compare")
    shutil.copytree(os.path.join(GOLDEN, "compare_fail_on/input"), compare_dir)
    bad_peaks = os.path.join(GOLDEN, "ceilings_bad_measured/input/peaks.md")
    counters_ok = os.path.join(GOLDEN, "counters_broken_file/input/rocm63_counter_collection.csv")
    counters_empty = os.path.join(GOLDEN, "counters_broken_file/input/empty_counter_collection.csv")
    calc = ["calc", "--bytes", "1e9", "--flops", "1e9", "--time-us", "100", "--dtype", "bf16",
            "--class", "gemm"]
    after = os.path.join(t, "after.json.gz")  # the trace again under another name: compare's AFTER
    shutil.copy(TRACE, after)
    return [
        ("0", "the artifacts or output files were written",
         ["analyze", TRACE, "--config", config, "--out", f"{out}/a0", "--format", "quiet"], {}),
        ("0", "even when entries are degraded",
         ["analyze", "--round", "1", "--dir", strict_dir, "--out", f"{out}/a1", "--format", "quiet"], {}),
        ("0", "the artifacts or output files were written",
         ["topn", TRACE, "-o", f"{out}/t0/"], {}),
        ("0", "calc computed", calc + ["--product", "mi300x"], {}),
        ("0", "counters: every file usable", ["counters", counters_ok], {}),
        ("0", "peaks check: the table is sound", ["peaks", "check"], {}),
        ("0", "analyze switched off by ANALYSIS_SKILL",
         ["analyze", "--round", "1", "--dir", EXAMPLE, "--out", f"{out}/skill"], {"ANALYSIS_SKILL": "none"}),
        ("0", "the artifacts or output files were written", ["compare", "--round", "0", "--round", "tuning", "--dir", compare_dir,
                                "--format", "quiet"], {}),
        ("0", "the artifacts or output files were written",
         ["compare", TRACE, after, "--config", config, "--format", "quiet"], {}),
        ("1", "analyze --strict when something is degraded",
         ["analyze", "--round", "1", "--dir", strict_dir, "--out", f"{out}/s", "--strict", "--format",
          "quiet"], {}),
        ("1", "compare --fail-on when its condition holds",
         ["compare", "--round", "0", "--round", "1", "--dir", compare_dir, "--fail-on", "regression",
          "--format", "quiet"], {}),
        ("1", "peaks check when the table is not sound", ["peaks", "check", bad_peaks], {}),
        ("2", "a bad option or option value", ["analyze", "--no-such-option"], {}),
        ("2", "a bad option or option value", ["topn", TRACE, "--top", "0"], {}),
        ("2", "a bad option or option value", ["compare", "--round", "0"], {}),
        ("2", "a bad option or option value", ["outcomes", "--no-such-option"], {}),
        ("2", "a bad option or option value", ["calibrate", "--no-such-option"], {}),
        ("2", "a bad option or option value", ["peaks", "show"], {}),
        ("2", "a bad option or option value", ["counters"], {}),
        ("2", "a round that does not exist",
         ["analyze", "--round", "no_such_round", "--dir", EXAMPLE, "--out", f"{out}/r"], {}),
        ("2", "missing", ["analyze", TRACE, "--config", os.path.join(t, "no_such.json")], {}),
        ("2", "empty", ["analyze", TRACE, "--config", empty, "--out", f"{out}/e"], {}),
        ("2", "empty", ["topn", empty, "-o", f"{out}/e/"], {}),
        ("2", "truncated", ["topn", truncated, "-o", f"{out}/tr/"], {}),
        ("2", "truncated", ["analyze", truncated, "--out", f"{out}/tr2"], {}),
        ("2", "a config given as a trace", ["topn", config, "-o", f"{out}/c/"], {}),
        ("2", "a config given as a trace", ["analyze", config, "--out", f"{out}/c2"], {}),
        ("2", "a config given as a trace", ["compare", TRACE, config], {}),
        ("2", "a trace as a config", ["analyze", TRACE, "--config", TRACE, "--out", f"{out}/c3"], {}),
        ("2", "counters: a file with no usable row", ["counters", counters_empty], {}),
        ("2", "calc: a part the peaks table lacks", calc + ["--gfx", "gfx999"], {}),
        ("2", "calc: a part the peaks table lacks", calc + ["--product", "zz9000"], {}),
        ("3", "a path through a file",
         ["analyze", TRACE, "--config", config, "--out", f"{blocker}/sub", "--format", "quiet"], {}),
        ("3", "a path through a file", ["topn", TRACE, "-o", f"{blocker}/sub/"], {}),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--man", required=True)
    args = ap.parse_args()
    args.binary = os.path.abspath(args.binary)
    rows = man_rows(args.man)
    errors = []
    if sorted(rows) != ["0", "1", "2", "3"]:
        errors.append(f"EXIT STATUS rows are {sorted(rows)}, expected 0, 1, 2, 3")
    with tempfile.TemporaryDirectory() as t:
        all_cases = cases(t)
        for code in rows:
            if not any(c[0] == code for c in all_cases):
                errors.append(f"row {code} has no case")
        for code, phrase, argv, extra in all_cases:
            if phrase not in rows.get(code, ""):
                errors.append(f"row {code} does not say {phrase!r}: {rows.get(code)!r}")
            env = dict(os.environ)
            for k in ("ANALYSIS_SKILL", "HEAD_THRESHOLD_PCT", "ROOFLINE_LEDGER", "ROOFLINE_CALIBRATION"):
                env.pop(k, None)
            env.update(extra)
            p = subprocess.run([args.binary] + argv, cwd=t, env=env, capture_output=True, text=True)
            shown = " ".join(os.path.relpath(a, REPO) if a.startswith(REPO) else a for a in argv)
            if str(p.returncode) != code:
                errors.append(f"row {code} ({phrase}): `roofline {shown}` exited {p.returncode}: "
                              f"{p.stderr.strip()[-300:]}")
        # Row 3's last clause: a folder that does not exist yet is created, not an error.
        deep = os.path.join(t, "new", "deeper", "still")
        p = subprocess.run([args.binary, "analyze", TRACE, "--config", os.path.join(SERVING, "config.json"),
                            "--out", deep, "--format", "quiet"], cwd=t, capture_output=True, text=True)
        if p.returncode != 0 or not os.path.exists(os.path.join(deep, "profile_roofline.json")):
            errors.append(f"--out with a folder that does not exist yet: exit {p.returncode}")
    for e in errors:
        print("FAIL:", e)
    print(f"check_exit_codes: {len(all_cases) + 1} cases, {len(errors)} failure(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
