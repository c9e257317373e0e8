#!/usr/bin/env python3
"""data/measure_peaks.py without a GPU: it is valid Python, `--help` teaches, a run without
PyTorch or without a GPU fails with exactly one line on stderr and nothing on stdout, and the
section it prints (render_section, pure) carries the matching datasheet row and the measured
figures. Where PyTorch and a GPU are present, it runs the script for real and checks the section.

Usage: check_measure_peaks.py SCRIPT PEAKS_MD
"""
import importlib.util
import py_compile
import subprocess
import sys


def fail(msg):
    print(f"check_measure_peaks: {msg}")
    sys.exit(1)


def main():
    script, peaks_md = sys.argv[1], sys.argv[2]
    py_compile.compile(script, doraise=True)
    spec = importlib.util.spec_from_file_location("measure_peaks", script)
    mp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mp)
    md = open(peaks_md, encoding="utf-8").read()

    help_run = subprocess.run([sys.executable, script, "--help"], capture_output=True, text=True)
    if help_run.returncode != 0 or "--dtypes" not in help_run.stdout or "peaks.md" not in help_run.stdout:
        fail(f"--help: rc {help_run.returncode}, stdout {help_run.stdout!r}")

    bad = subprocess.run([sys.executable, script, "--size", "100"], capture_output=True, text=True)
    if bad.returncode != 2 or "--size" not in bad.stderr:
        fail(f"--size 100 should be a usage error: rc {bad.returncode}, {bad.stderr!r}")

    try:
        import torch  # noqa: F401
        have_gpu = torch.cuda.is_available()
    except ImportError:
        have_gpu = None
    run = subprocess.run([sys.executable, script, "--repeats", "3", "--warmup", "1"],
                         capture_output=True, text=True, timeout=600)
    if have_gpu:
        if run.returncode != 0 or "measured:" not in run.stdout:
            fail(f"on a GPU host the script should print a section: rc {run.returncode}, "
                 f"{run.stderr!r}")
    else:
        lines = run.stderr.strip().splitlines()
        if run.returncode != 1 or len(lines) != 1 or run.stdout:
            fail(f"without {'PyTorch' if have_gpu is None else 'a GPU'} the script must fail with "
                 f"one line: rc {run.returncode}, stderr {run.stderr!r}, stdout {run.stdout!r}")
        want = "PyTorch is not importable" if have_gpu is None else "no GPU visible"
        if want not in lines[0]:
            fail(f"the failure line should say '{want}': {lines[0]!r}")

    # The section: the H200's datasheet row from the table, then this run's figures.
    h200 = {"name": "NVIDIA H200", "arch": "sm_90", "units": 132, "unit_word": "SMs",
            "memory_bytes": 150109880320}
    sec = mp.render_section(h200, {"hbm_bw_bytes_s": 4.19981640710367e12,
                                   "flops": {"bf16": 7.791147252618266e14}}, md, "SRC")
    for want in ["arch: sm_90", "product: h200", "hbm_bw_bytes_s: 4.8e12", "bf16: 9.894e14",
                 "measured:\n  hbm_bw_bytes_s: 4.20e12\n  flops: {bf16: 7.79e14}\n  source: \"SRC\""]:
        if want not in sec:
            fail(f"H200 section lacks {want!r}:\n{sec}")
    if sec.count("measured:") != 1 or "product: h100" in sec:
        fail(f"H200 section picked the wrong row or kept an old measured block:\n{sec}")
    # H100 shares sm_90: its own row, by device name.
    h100 = dict(h200, name="NVIDIA H100 80GB HBM3")
    if "product: h100" not in mp.render_section(h100, {"hbm_bw_bytes_s": 3e12}, md, "SRC"):
        fail("an H100 by device name should take the h100 row")
    # A device the table does not know: placeholders, said in words.
    odd = {"name": "Some GPU", "arch": "gfx9999", "units": 1, "unit_word": "CUs",
           "memory_bytes": 1 << 30}
    sec = mp.render_section(odd, {"hbm_bw_bytes_s": 1e11}, md, "SRC")
    if "No built-in datasheet row" not in sec or "gfx: gfx9999" not in sec:
        fail(f"unknown device section:\n{sec}")
    print("check_measure_peaks: ok")


if __name__ == "__main__":
    main()
