#!/usr/bin/env python3
"""`roofline peaks measure-script` (docs/method.md §5.8): it prints data/measure_peaks.py byte for byte
except its BUILTIN_PEAKS_MD line, which carries the built-in data/peaks.md, and the printed copy
passes check_measure_peaks.py on its own (no --peaks: the written-in table is the one it reads).

Usage: check_measure_script.py ROOFLINE SCRIPT PEAKS_MD CHECKER
"""
import importlib.util
import os
import subprocess
import sys
import tempfile

PLACEHOLDER = "BUILTIN_PEAKS_MD = None  # @ROOFLINE_BUILTIN_PEAKS@"


def fail(msg):
    print(f"check_measure_script: {msg}")
    sys.exit(1)


def main():
    roofline, script, peaks_md, checker = sys.argv[1:5]
    run = subprocess.run([roofline, "peaks", "measure-script"], capture_output=True)
    if run.returncode != 0 or run.stderr:
        fail(f"rc {run.returncode}, stderr {run.stderr!r}")
    printed = run.stdout.decode("utf-8")
    source = open(script, encoding="utf-8").read()
    head, _, tail = source.partition(PLACEHOLDER)
    if not tail or PLACEHOLDER in printed:
        fail("the placeholder line was not replaced")
    if not printed.startswith(head) or not printed.endswith(tail):
        fail("the printed script differs from data/measure_peaks.py beyond the placeholder line")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "measure_peaks.py")  # no peaks.md beside it
        with open(path, "w", encoding="utf-8") as f:
            f.write(printed)
        spec = importlib.util.spec_from_file_location("printed", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        if mod.BUILTIN_PEAKS_MD != open(peaks_md, encoding="utf-8").read():
            fail("BUILTIN_PEAKS_MD is not data/peaks.md")
        if mod.peaks_text(None) != mod.BUILTIN_PEAKS_MD:
            fail("the printed copy does not read its written-in table")
        check = subprocess.run([sys.executable, checker, path, peaks_md], capture_output=True,
                               text=True)
        if check.returncode != 0:
            fail(f"the printed copy fails check_measure_peaks.py: {check.stdout}{check.stderr}")
    print("check_measure_script: ok")


if __name__ == "__main__":
    main()
