#!/usr/bin/env python3
"""Help that teaches: every subcommand's --help shows its own examples, never the program's.

For each subcommand: its --help must not carry the program-wide footer (the global examples,
exit statuses and environment of `roofline --help`); the subcommands that read inputs (analyze,
topn, peaks, calc, counters) must have an "Examples:" block whose every line runs that very
subcommand; and the help must name the input formats the subcommand accepts.
"""
import argparse
import subprocess
import sys

OWN_EXAMPLES = ("analyze", "topn", "peaks", "calc", "counters")
ALL = OWN_EXAMPLES + ("compare", "outcomes", "calibrate")
# What each help must name (formats it accepts, classes it knows).
MUST_NAME = {
    "analyze": ["Nsight Compute", "rocprofv3", "results.csv", "PyTorch profiler trace", "--capture",
                "TRACE"],
    "calc": ["gemm", "moe", "attn", "linear_attn", "ssm", "comm", "elementwise", "unknown"],
    "counters": ["Nsight Compute", "rocprofv3", "results.csv"],
    "topn": ["PyTorch profiler", "rocprofv3", "Nsight"],
}
GLOBAL_MARK = "man roofline says what each one does"


def help_text(binary, sub):
    p = subprocess.run([binary, sub, "--help"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: roofline {sub} --help exited {p.returncode}: {p.stderr}")
    return p.stdout


def examples(text):
    lines = text.splitlines()
    if "Examples:" not in lines:
        return None
    out = []
    for line in lines[lines.index("Examples:") + 1:]:
        if not line.startswith("  "):
            break
        out.append(line.strip())
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    args = ap.parse_args()
    errors = []
    for sub in ALL:
        text = help_text(args.binary, sub)
        if GLOBAL_MARK in text:
            errors.append(f"{sub} --help repeats the program's footer")
        ex = examples(text)
        if sub in OWN_EXAMPLES:
            if not ex:
                errors.append(f"{sub} --help has no Examples: block")
            else:
                errors += [f"{sub} --help example runs another command: {e}" for e in ex
                           if not e.startswith(f"roofline {sub}")]
        flat = " ".join(text.split())
        errors += [f"{sub} --help does not name {w!r}" for w in MUST_NAME.get(sub, []) if w not in flat]
    for e in errors:
        print(f"FAIL: {e}")
    print(f"{len(ALL)} subcommand help pages checked, {len(errors)} problem(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
