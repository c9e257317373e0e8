#!/usr/bin/env python3
"""Measure the ceilings a kernel can really reach on this GPU, for roofline's peaks table.

Runs on the GPU host (PyTorch with CUDA or ROCm; roofline itself need not be installed there):

  - device-to-device copy bandwidth: read + write bytes over the copy's time, on a buffer of at
    least 1 GiB, the median of repeats after warm-up;
  - dense matrix-product throughput per dtype the device supports (bf16, fp16, tf32, fp32, and
    fp8 through torch._scaled_mm: float8_e4m3fn on NVIDIA, float8_e4m3fnuz on gfx942) at
    8192^3, and 16384^3 where the part is fast enough that 8192^3 is short, on random inputs
    (all-zero operands toggle fewer bits and can run faster than real data), median of repeats;
  - the device identity (name, arch, CU/SM count, memory).

It prints one peaks.md section to stdout: the datasheet figures of the matching built-in row,
a `measured:` block with the figures of this run, and its `source` (date, torch version,
sizes). It never writes a file; redirect stdout and add the section to a peaks file given to
`roofline analyze --peaks FILE` (check it first with `roofline peaks check FILE`).

`roofline peaks measure-script > measure_peaks.py` prints this script with roofline's built-in
peaks table written in; the packaged copy (/usr/share/roofline/measure_peaks.py) reads the
table given with --peaks, else the one installed beside it.

Exit status: 0 with the section printed; 1 with one line on stderr saying why (no PyTorch, no
GPU, a dtype asked for that the device cannot run, or a measurement that failed).
"""
import argparse
import datetime
import os
import re
import statistics
import sys

# `roofline peaks measure-script` replaces the next line with the built-in peaks.md text.
BUILTIN_PEAKS_MD = None  # @ROOFLINE_BUILTIN_PEAKS@

ALL_DTYPES = ["bf16", "fp16", "tf32", "fp32", "fp8"]
GIB = 1 << 30


class MeasureError(Exception):
    """A reason to stop, said in one line."""


# ---- the peaks table: finding the datasheet row of this device ------------------------------

def yaml_blocks(text):
    """The fenced ```yaml blocks of a peaks.md text, as lists of lines (fences excluded)."""
    blocks, cur = [], None
    for line in text.splitlines():
        if cur is None:
            if line.strip() == "```yaml":
                cur = []
        elif line.strip() == "```":
            blocks.append(cur)
            cur = None
        else:
            cur.append(line)
    return blocks


def top_level(block):
    """The top-level `key: value` pairs of a block (values as written, comments removed)."""
    out = {}
    for line in block:
        m = re.match(r"^([A-Za-z_]\w*):\s*(.*?)\s*(#.*)?$", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def device_names(value):
    """`[NVIDIA H200, NVIDIA H200 141GB HBM3e]` -> the case-folded names."""
    value = value.strip()
    if value.startswith("[") and value.endswith("]"):
        value = value[1:-1]
    return [v.strip().strip("'\"").casefold() for v in value.split(",") if v.strip()]


def find_row(peaks_md, arch, name):
    """The block of `peaks_md` for this device: same arch (`gfx:` or `arch:`), and where
    several share it, the one whose device_names or product the device name matches, else the
    one without a product. None when nothing matches."""
    same = []
    for block in yaml_blocks(peaks_md):
        keys = top_level(block)
        if keys.get("gfx") == arch or keys.get("arch") == arch:
            same.append((block, keys))
    folded = name.strip().casefold()
    for block, keys in same:
        if folded and folded in device_names(keys.get("device_names", "")):
            return block
    for block, keys in same:
        product = keys.get("product", "").casefold()
        if product and product in folded.replace(" ", ""):
            return block
    plain = [block for block, keys in same if "product" not in keys]
    if len(plain) == 1:
        return plain[0]
    return same[0][0] if len(same) == 1 else None


# ---- the section printed --------------------------------------------------------------------

def fmt_rate(v):
    """A rate as peaks.md writes it: three significant digits, e.g. 4.20e12."""
    return f"{v:.2e}".replace("e+", "e")


def datasheet_lines(block):
    """The block's lines without a `measured:` block it may already carry."""
    out, skipping = [], False
    for line in block:
        if line.startswith("measured:"):
            skipping = True
            continue
        if skipping and (line.startswith(" ") or not line.strip()):
            continue
        skipping = False
        out.append(line)
    return out


def render_section(identity, measured, peaks_md, source):
    """The peaks.md section for `identity` (name, arch, units, memory_bytes) and the measured
    figures (`hbm_bw_bytes_s`, `flops` {dtype: FLOP/s}), with the datasheet row of `peaks_md`
    when one matches. Pure: the tests call it without a GPU."""
    row = find_row(peaks_md, identity["arch"], identity["name"]) if peaks_md else None
    lines = [f"## {identity['name']} (measured)", ""]
    lines.append(f"{identity['name']}, {identity['arch']}, {identity['units']} "
                 f"{identity['unit_word']}, {identity['memory_bytes'] / GIB:.1f} GiB. "
                 f"Measured by {source}.")
    if row is None:
        lines.append("No built-in datasheet row matches this device: fill in the datasheet "
                     "figures (hbm_bw_bytes_s, flops) before `roofline peaks check`.")
    lines += ["", "```yaml"]
    if row is None:
        key = "arch" if identity["arch"].startswith("sm_") else "gfx"
        lines += [f"{key}: {identity['arch']}", f"cu: {identity['units']}",
                  "# hbm_bw_bytes_s: <datasheet>", "# flops: {bf16: <datasheet>, ...}"]
    else:
        lines += datasheet_lines(row)
    lines.append("measured:")
    if measured.get("hbm_bw_bytes_s"):
        lines.append(f"  hbm_bw_bytes_s: {fmt_rate(measured['hbm_bw_bytes_s'])}")
    flops = measured.get("flops", {})
    if flops:
        body = ", ".join(f"{k}: {fmt_rate(v)}" for k, v in flops.items())
        lines.append(f"  flops: {{{body}}}")
    lines.append(f'  source: "{source}"')
    lines.append("```")
    return "\n".join(lines) + "\n"


# ---- measuring (needs PyTorch and a GPU) ----------------------------------------------------

def import_torch():
    try:
        import torch  # noqa: PLC0415 (only here: the pure parts above run without it)
    except ImportError as e:
        raise MeasureError(f"PyTorch is not importable ({e}); run this on the GPU host, in the "
                           "environment that serves the model")
    if not torch.cuda.is_available():
        raise MeasureError("no GPU visible to PyTorch (torch.cuda.is_available() is False; "
                           "check CUDA_VISIBLE_DEVICES / HIP_VISIBLE_DEVICES and the driver)")
    return torch


def identify(torch, index):
    p = torch.cuda.get_device_properties(index)
    amd = getattr(torch.version, "hip", None) is not None
    if amd:
        arch = getattr(p, "gcnArchName", "").split(":")[0] or "unknown"
    else:
        arch = f"sm_{p.major}{p.minor}"
    return {"name": p.name, "arch": arch, "units": p.multi_processor_count,
            "unit_word": "CUs" if amd else "SMs", "memory_bytes": p.total_memory, "amd": amd}


def timed(torch, fn, repeats, warmup):
    """The median time of `fn` in seconds over `repeats` runs after `warmup`."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1000.0)
    return statistics.median(times)


def copy_bandwidth(torch, nbytes, repeats, warmup):
    src = torch.randint(0, 255, (nbytes,), dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    t = timed(torch, lambda: dst.copy_(src), repeats, warmup)
    return 2.0 * nbytes / t


def matmul_rate(torch, dtype_key, n, repeats, warmup, amd):
    """FLOP/s of one n×n×n product in `dtype_key` on random inputs."""
    torch.backends.cuda.matmul.allow_tf32 = dtype_key == "tf32"
    if dtype_key == "fp8":
        f8 = torch.float8_e4m3fnuz if amd else torch.float8_e4m3fn
        a = torch.randn(n, n, device="cuda").to(f8)
        b = torch.randn(n, n, device="cuda").to(f8).t()  # column-major, as _scaled_mm wants
        one = torch.tensor(1.0, device="cuda")
        fn = lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)  # noqa: E731
    else:
        dt = {"bf16": torch.bfloat16, "fp16": torch.float16, "tf32": torch.float32,
              "fp32": torch.float32}[dtype_key]
        a = torch.randn(n, n, device="cuda", dtype=dt)
        b = torch.randn(n, n, device="cuda", dtype=dt)
        fn = lambda: torch.mm(a, b)  # noqa: E731
    t = timed(torch, fn, repeats, warmup)
    del a, b
    torch.cuda.empty_cache()
    return 2.0 * n ** 3 / t, t


def supported(torch, dtype_key, ident):
    if dtype_key == "fp8":
        f8 = "float8_e4m3fnuz" if ident["amd"] else "float8_e4m3fn"
        if not hasattr(torch, f8) or not hasattr(torch, "_scaled_mm"):
            return False
        if ident["amd"]:
            return ident["arch"] in ("gfx942", "gfx950")
        major = int(ident["arch"][3:-1] or 0)
        return major >= 9 or ident["arch"] == "sm_89"
    if dtype_key == "tf32":
        return not ident["amd"] and int(ident["arch"][3:-1] or 0) >= 8
    if dtype_key == "bf16" and not ident["amd"]:
        return int(ident["arch"][3:-1] or 0) >= 8
    return True


def measure(args):
    torch = import_torch()
    torch.cuda.set_device(args.device)
    ident = identify(torch, args.device)
    wanted = ALL_DTYPES if args.dtypes == "all" else [d.strip() for d in args.dtypes.split(",")]
    for d in wanted:
        if d not in ALL_DTYPES:
            raise MeasureError(f"--dtypes: '{d}' is not one of {', '.join(ALL_DTYPES)}")
        if args.dtypes != "all" and not supported(torch, d, ident):
            raise MeasureError(f"{ident['name']} ({ident['arch']}) cannot run {d} matrix "
                               "products with this PyTorch; leave it out of --dtypes")
    nbytes = max(int(args.copy_gib * GIB), GIB)
    measured = {"hbm_bw_bytes_s": copy_bandwidth(torch, nbytes, args.repeats, args.warmup),
                "flops": {}}
    sizes = set()
    for d in wanted:
        if not supported(torch, d, ident):
            print(f"measure_peaks: {d}: not supported on {ident['arch']}, skipped",
                  file=sys.stderr)
            continue
        rate, t = matmul_rate(torch, d, args.size, args.repeats, args.warmup, ident["amd"])
        sizes.add(args.size)
        big = 2 * args.size
        # A short product is dominated by its tails: take the larger size where it fits.
        if t < 2e-3 and 3 * big * big * 4 < 0.5 * ident["memory_bytes"]:
            rate2, _ = matmul_rate(torch, d, big, args.repeats, args.warmup, ident["amd"])
            if rate2 > rate:
                rate = rate2
                sizes.add(big)
        measured["flops"][d] = rate
    gemm = " and ".join(f"{s}^3" for s in sorted(sizes)) or "none"
    source = (f"data/measure_peaks.py {datetime.date.today().isoformat()}, torch "
              f"{torch.__version__}, copy {nbytes / GIB:g} GiB, GEMM {gemm}, random inputs, "
              f"median of {args.repeats}")
    return ident, measured, source


def peaks_text(path):
    if path:
        with open(path, encoding="utf-8") as f:
            return f.read()
    if BUILTIN_PEAKS_MD is not None:
        return BUILTIN_PEAKS_MD
    beside = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peaks.md")
    if os.path.exists(beside):
        with open(beside, encoding="utf-8") as f:
            return f.read()
    return ""


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="measure_peaks.py",
        description="Measure copy bandwidth and dense matrix throughput on this GPU and print "
                    "a peaks.md section (datasheet row + measured figures) to stdout.")
    p.add_argument("--dtypes", default="all",
                   help="comma-separated subset of bf16,fp16,tf32,fp32,fp8 (default: all the "
                        "device supports; naming one it cannot run is an error)")
    p.add_argument("--size", type=int, default=8192, help="matrix size n of the n^3 products")
    p.add_argument("--copy-gib", type=float, default=1.0, help="copy buffer in GiB (>= 1)")
    p.add_argument("--repeats", type=int, default=20, help="timed runs per figure (median)")
    p.add_argument("--warmup", type=int, default=5, help="untimed runs before them")
    p.add_argument("--device", type=int, default=0, help="GPU index")
    p.add_argument("--peaks", help="peaks.md to take the datasheet row from (default: the "
                                   "table written in by `roofline peaks measure-script`)")
    args = p.parse_args(argv)
    if args.size < 256 or args.size % 16:
        p.error("--size must be a multiple of 16 and at least 256")
    if args.repeats < 1 or args.warmup < 0:
        p.error("--repeats must be >= 1 and --warmup >= 0")
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        md = peaks_text(args.peaks)
        ident, measured, source = measure(args)
    except (MeasureError, OSError) as e:
        print(f"measure_peaks: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # a CUDA/HIP error mid-measurement: one line, not a traceback
        print(f"measure_peaks: the measurement failed: {type(e).__name__}: "
              f"{str(e).splitlines()[0] if str(e) else ''}", file=sys.stderr)
        return 1
    sys.stdout.write(render_section(ident, measured, md, source))
    return 0


if __name__ == "__main__":
    sys.exit(main())
