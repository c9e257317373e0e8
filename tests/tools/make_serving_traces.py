#!/usr/bin/env python3
"""Writes the small hand-made serving traces of the topn golden cases (docs/method.md §22.7).

Usage: make_serving_traces.py steps OUT_DIR     the step-annotation spellings (topn_step_spellings)
       make_serving_traces.py capture OUT_DIR   graph replays and capture traces (topn_graph_capture)

Each trace is a trimmed PyTorch-profiler event stream, as vLLM / SGLang / ATOM write it: CPU
`user_annotation` step spans on the launching thread (pid 7, tid 7), `cpu_op` events with Input
Dims / Input type, `cuda_runtime` launches with correlation and External id, and the GPU
`kernel` events on device 0 (pid 0), which run later than their launch (the GPU lags the CPU, so
GPU time alone would put a kernel in the wrong step). The figures are chosen so every expected
number in the case READMEs can be worked by hand. Run once; the outputs are committed.
"""
import json
import os
import sys

HIDDEN = 4096


class Trace:
    def __init__(self):
        self.events = []
        self.corr = 1000
        self.ext = 1
        self.cpu_ts = 0.0
        self.gpu_ts = 100000.0

    def ev(self, cat, name, pid, tid, ts, dur, args=None):
        e = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur}
        if args is not None:
            e["args"] = args
        self.events.append(e)
        return e

    def annotate(self, name, begin, end, gpu_too=False):
        self.ev("user_annotation", name, 7, 7, begin, end - begin)
        if gpu_too:
            self.ev("gpu_user_annotation", name, 0, 9, self.gpu_ts, 1.0)

    def launch(self, kernel, op, dims, types, gpu_us):
        """An eager launch: the op, its runtime launch and the kernel, each on its side."""
        ext, corr = self.ext, self.corr
        self.ext += 1
        self.corr += 1
        self.ev("cpu_op", op, 7, 7, self.cpu_ts, 4.0,
                {"External id": ext, "Input Dims": dims, "Input type": types})
        self.ev("cuda_runtime", "cudaLaunchKernel", 7, 7, self.cpu_ts + 1.0, 2.0,
                {"External id": ext, "correlation": corr})
        self.ev("kernel", kernel, 0, 9, self.gpu_ts, gpu_us,
                {"External id": ext, "correlation": corr, "device": 0, "stream": 9})
        self.cpu_ts += 5.0
        self.gpu_ts += gpu_us + 1.0

    def step(self, names, rows, gemm_us, attn_us):
        """One step: a GEMM at M = rows and an attention kernel, inside nested spans `names`
        (outermost first; each inner one starts 1 µs later and ends 1 µs earlier)."""
        begin = self.cpu_ts
        self.cpu_ts += len(names)
        self.launch("gemm_kernel", "aten::mm", [[rows, HIDDEN], [HIDDEN, HIDDEN]],
                    ["c10::BFloat16", "c10::BFloat16"], gemm_us)
        self.launch("attn_kernel", "vllm::unified_attention", [[rows, 32, 128]],
                    ["c10::BFloat16"], attn_us)
        end = self.cpu_ts + len(names)
        for i, n in enumerate(names):
            self.annotate(n, begin + i, end - i)
        self.cpu_ts = end + 10.0
        self.gpu_ts += 3000.0  # the GPU keeps lagging: a step's kernels run after its span

    def write(self, path):
        doc = {"schemaVersion": 1, "traceEvents": self.events, "traceName": os.path.basename(path)}
        with open(path, "w") as f:
            json.dump(doc, f, indent=None, separators=(", ", ": "))
            f.write("\n")


def steps_case(out):
    t = Trace()  # vLLM detailed (v0.26+), nested in ProfilerStep#k which is never a step
    t.annotate("ProfilerStep#7", 0, 1)
    t.step(["execute_8192_context_9(sq8155sk8430sqsq7475785sqsk7671310)_generation_37("
            "sq37sk34489sqsq37sqsk34489)"], 8192, 900.0, 400.0)
    t.step(["execute_64_context_0(sq0sk0sqsq0sqsk0)_generation_64(sq64sk65600sqsq64sqsk65600)"],
           64, 40.0, 30.0)
    t.step(["execute_64_context_0(sq0sk0sqsq0sqsk0)_generation_64(sq64sk66000sqsq64sqsk66000)"],
           64, 40.0, 32.0)
    t.write(os.path.join(out, "vllm_detailed.json"))

    t = Trace()  # vLLM native
    t.step(["execute_context_2(6144)_generation_3(3)"], 6147, 700.0, 300.0)
    t.step(["execute_context_0(0)_generation_16(16)"], 16, 20.0, 10.0)
    t.write(os.path.join(out, "vllm_native.json"))

    t = Trace()  # the B200 spelling: Σq and Σq² of the context part
    t.step(["execute_context_1(888_788544)_generation_0(0)"], 888, 100.0, 50.0)
    t.write(os.path.join(out, "b200.json"))

    t = Trace()  # SGLang: step[...] nested in TraceLens's execute_… (decode), and plain
    t.step(["execute_32_context_0(sq0sk0sqsq0sqsk0)_generation_32(sq32sk32785sqsq32sqsk32785)",
            "step[DECODE bs=32]"], 32, 30.0, 50.0)
    t.step(["step[EXTEND bs=2 toks=14721]"], 14721, 1500.0, 900.0)
    t.step(["step[MIXED bs=2 c=1 g=1 c_sq=5 c_sk=8 c_sqsq=25 c_sqsk=40 g_sq=1 g_sk=12 "
            "g_sqsq=1 g_sqsk=12]"], 6, 10.0, 8.0)
    t.step(["step[DECODE bs=32]"], 32, 30.0, 52.0)
    t.write(os.path.join(out, "sglang.json"))

    t = Trace()  # ATOM: real/padded batch
    t.step(["prefill[bs=2 tok=14721 ctx=[7803, 6918]]"], 14721, 1500.0, 900.0)
    t.step(["decode[bs=117/128 tok=117 d=117 sqsq=117 sqsk=119808 sk=119808]"], 117, 60.0, 90.0)
    t.write(os.path.join(out, "atom.json"))

    t = Trace()  # names that start like a step but do not parse; a capture annotation
    t.step(["step[DECODE bs=32"], 32, 30.0, 50.0)
    t.step(["execute_context_1(2)"], 2, 10.0, 5.0)
    t.step(["capture_32_DECODE"], 32, 30.0, 50.0)
    t.step(["step[DECODE bs=8]"], 8, 12.0, 20.0)
    t.write(os.path.join(out, "malformed.json"))


# ---- graph capture -----------------------------------------------------------------------------
# A decode layer's kernels (name, op, operand dims at M rows) as a graph captures them.
LAYER = [
    ("rmsnorm_kernel", "aiter::rmsnorm", lambda m: [[m, HIDDEN], [HIDDEN]]),
    ("gemm_qkv_kernel", "aten::mm", lambda m: [[m, HIDDEN], [HIDDEN, 6144]]),
    ("attn_decode_kernel", "vllm::unified_attention", lambda m: [[m, 32, 128]]),
    ("gemm_o_kernel", "aten::mm", lambda m: [[m, HIDDEN], [HIDDEN, HIDDEN]]),
]


def capture_trace(path, windows, runtime="hip", named=True, marks=True, warmup=False):
    """A capture trace: per window (size, kernels as (name, op, dims)) a capture_<size>_DECODE
    annotation around *StreamBeginCapture ... *StreamEndCapture on thread 7, each launch a
    runtime event with correlation and External id (ROCm: args.kernel) and its cpu_op."""
    t = Trace()
    t.gpu_ts = 5.0
    ts = 10.0
    if warmup:  # an eager launch before the capture, as the real capture traces hold
        t.cpu_ts = 1.0
        t.launch("fill_kernel", "aten::fill_", [[1]], ["long int"], 2.0)
    for size, kernels in windows:
        begin = ts
        ts += 1.0
        t.ev("cuda_runtime", f"{runtime}StreamBeginCapture", 7, 7, ts, 1.0,
             {"correlation": t.corr})
        t.corr += 1
        ts += 2.0
        for name, op, dims in kernels:
            ext, corr = t.ext, t.corr
            t.ext += 1
            t.corr += 1
            t.ev("cpu_op", op, 7, 7, ts, 3.0, {"External id": ext, "Input Dims": dims,
                                              "Input type": ["c10::BFloat16"] * len(dims)})
            args = {"External id": ext, "correlation": corr}
            if named:
                args["kernel"] = name
            launch = "hipLaunchKernel" if runtime == "hip" else "cudaLaunchKernel"
            t.ev("cuda_runtime", launch, 7, 7, ts + 1.0, 1.0, args)
            ts += 4.0
        t.ev("cuda_runtime", f"{runtime}StreamEndCapture", 7, 7, ts, 1.0, {"correlation": t.corr})
        t.corr += 1
        ts += 2.0
        if marks:
            t.annotate(f"capture_{size}_DECODE", begin, ts)
        ts += 10.0
    t.write(path)


def exec_trace(path, steps, runtime="hip"):
    """An execution trace: per step (annotation, replays) a CPU step span holding one
    *GraphLaunch per replay; each replay's kernels (names, GPU order) carry only its
    correlation. `replays` is a list of kernel-name lists."""
    t = Trace()
    for name, replays in steps:
        begin = t.cpu_ts
        for kernels in replays:
            corr = t.corr
            t.corr += 1
            t.ev("cuda_runtime", f"{runtime}GraphLaunch", 7, 7, t.cpu_ts + 1.0, 5.0,
                 {"correlation": corr})
            t.cpu_ts += 10.0
            for k in kernels:
                dur = 20.0 if "gemm" in k else 8.0
                t.ev("kernel", k, 0, 9, t.gpu_ts, dur, {"correlation": corr, "device": 0,
                                                       "stream": 9})
                t.gpu_ts += dur + 1.0
        t.cpu_ts += 5.0
        t.annotate(name, begin, t.cpu_ts)
        t.cpu_ts += 10.0
        t.gpu_ts += 500.0
    t.write(path)


def layer(m, layers=2):
    return [(n, op, dims(m)) for _ in range(layers) for n, op, dims in LAYER]


def names(kernels):
    return [k[0] for k in kernels]


def capture_case(out):
    # Several batch sizes in one capture folder (SGLang writes one file per size): a step of 6
    # requests replays the graph of 8, one of 16 the graph of 16, one of 20 finds none.
    sizes = os.path.join(out, "sizes_capture")
    os.makedirs(sizes, exist_ok=True)
    for bs in (8, 16):
        capture_trace(os.path.join(sizes, f"bs_{bs}_rank0.json"), [(bs, layer(bs))])
    exec_trace(os.path.join(out, "sizes_exec.json"),
               [("step[DECODE bs=6]", [names(layer(8))]), ("step[DECODE bs=16]", [names(layer(16))]),
                ("step[DECODE bs=20]", [names(layer(16))])])

    # A window that does not match: the replay runs one more kernel than was captured.
    capture_trace(os.path.join(out, "mismatch_capture.json"), [(32, layer(32))])
    exec_trace(os.path.join(out, "mismatch_exec.json"),
               [("step[DECODE bs=32]", [names(layer(32)) + ["extra_kernel"]]),
                ("step[DECODE bs=32]", [names(layer(32))]),
                ("step[DECODE bs=32]",
                 [[n.replace("gemm_o_kernel", "gemm_o_v2_kernel") for n in names(layer(32))]])])

    # CUDA-style capture: the launch runtime events name no kernel; windows of 4 and 8
    # launches, told apart by their launch count.
    capture_trace(os.path.join(out, "cuda_capture.json"),
                  [(64, layer(64, 1)), (64, layer(64, 2))], runtime="cuda", named=False,
                  warmup=True)
    exec_trace(os.path.join(out, "cuda_exec.json"),
               [("execute_context_0(0)_generation_64(64)",
                 [names(layer(64, 2)), names(layer(64, 1))])], runtime="cuda")

    # Piecewise graphs: three windows of one size, the middle two with the same kernel names
    # (as vLLM's identical middle graphs) but their own shapes: taken in capture order. The
    # second replay runs its two streams interleaved in GPU order (names still pair).
    a = [("embed_kernel", "aten::embedding", [[512], [1000, HIDDEN]])]
    mid1 = [("gemm_qkv_kernel", "aten::mm", [[512, HIDDEN], [HIDDEN, 6144]]),
            ("rmsnorm_kernel", "aiter::rmsnorm", [[512, HIDDEN], [HIDDEN]])]
    mid2 = [("gemm_qkv_kernel", "aten::mm", [[512, HIDDEN], [HIDDEN, 7168]]),
            ("rmsnorm_kernel", "aiter::rmsnorm", [[512, HIDDEN], [HIDDEN]])]
    capture_trace(os.path.join(out, "piecewise_capture.json"),
                  [(512, a), (512, mid1), (512, mid2)])
    exec_trace(os.path.join(out, "piecewise_exec.json"),
               [("execute_512_context_2(sq500sk500sqsq125000sqsk125000)_generation_12("
                 "sq12sk6000sqsq12sqsk6000)",
                 [names(a), names(mid1), ["rmsnorm_kernel", "gemm_qkv_kernel"]])])

    # A broken capture file beside a good one, and the capture trace given as the main trace.
    broken = os.path.join(out, "broken_capture")
    os.makedirs(broken, exist_ok=True)
    capture_trace(os.path.join(broken, "bs_32_rank0.json"), [(32, layer(32))], marks=False)
    good = open(os.path.join(broken, "bs_32_rank0.json")).read()
    with open(os.path.join(broken, "bs_64_rank0.json"), "w") as f:
        f.write(good[: len(good) // 2])
    with open(os.path.join(broken, "execution_details.json"), "w") as f:
        f.write('[{"file": "bs_32_rank0.json", "batch_size": 32, "mode": "DECODE"}]\n')


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("steps", "capture"):
        sys.exit(__doc__)
    os.makedirs(sys.argv[2], exist_ok=True)
    {"steps": steps_case, "capture": capture_case}[sys.argv[1]](sys.argv[2])


if __name__ == "__main__":
    main()
