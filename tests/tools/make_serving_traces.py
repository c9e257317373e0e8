#!/usr/bin/env python3
"""Writes the small hand-made serving traces of the topn golden cases (SERVING.md §1, §2).

Usage: make_serving_traces.py steps OUT_DIR     the step-annotation spellings (topn_step_spellings)

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


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("steps",):
        sys.exit(__doc__)
    os.makedirs(sys.argv[2], exist_ok=True)
    {"steps": steps_case}[sys.argv[1]](sys.argv[2])


if __name__ == "__main__":
    main()
