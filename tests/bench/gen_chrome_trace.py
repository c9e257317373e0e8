#!/usr/bin/env python3
"""Writes a synthetic PyTorch profiler Chrome trace of about SIZE_MB megabytes for
tests/bench/topn_bench.sh, shaped like what torch.profiler (kineto) exports from a vLLM-style
serving loop with record_shapes=True: nested cpu_op events with Input Dims / Input type /
Input Strides / Concrete Inputs, cuda_runtime launches, kernels with launch arguments, ac2g flow
events, memcpy/memset activity, python_function frames, and vLLM step annotations (prefill and
decode steps with varying batch sizes, so kernels have several call signatures). Deterministic
(seeded). Streamed to disk: memory stays small whatever the size.

With --stack, the trace is recorded as with `with_stack=True`: every launch sits under the nested
python_function frames that made it (the engine's step, the runner, nn.Module calls and their
forwards, torch's dispatch), with frames that launch nothing beside them (input preparation,
built-ins), and the events are in the order PyTorch writes them: every CPU op and Python frame of
the profile (in start order, a parent before its children) before the runtime calls and kernels
they launch. --no-stack writes the same trace (the same steps and launches) in the same order
without the frames: the yardstick of the with-stack trace's speed, with the same Top-N.

Usage: gen_chrome_trace.py OUT.json SIZE_MB [--stack | --no-stack]
"""
import json
import os
import random
import sys
import tempfile

KERNELS = [
    # (name, launching op, dims(m) -> Input Dims, types)
    ("fused_moe_kernel", "vllm::fused_moe",
     lambda m: [[m, 2048], [128, 1536, 2048], [128, 2048, 768], [m, 8], [m, 8]],
     ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "float", "int"]),
    ("kernel_paged_attention_2d", "vllm::unified_attention",
     lambda m: [[m, 32, 128], [8192, 16, 4, 128], [8192, 16, 4, 128], [m, 512], [], []],
     ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "int", "Scalar", "Scalar"]),
    ("nvjet_sm90_tst_56x64_64x14_4x1_v_bz_TNN", "aten::mm",
     lambda m: [[m, 2048], [2048, 5120]], ["c10::BFloat16", "c10::BFloat16"]),
    ("nvjet_sm90_tst_64x8_64x16_2x4_h_bz_TNT", "aten::mm",
     lambda m: [[m, 4096], [4096, 2048]], ["c10::BFloat16", "c10::BFloat16"]),
    ("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float, "
     "true>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, "
     "float*, c10::BFloat16*)", "aten::_fused_rms_norm",
     lambda m: [[m, 2048], [], [2048], []], ["c10::BFloat16", "ScalarList", "c10::BFloat16", ""]),
    ("void vllm::act_and_mul_kernel<c10::BFloat16, &(c10::BFloat16 vllm::silu_kernel<c10::BFloat16>"
     "(c10::BFloat16 const&)), true>(c10::BFloat16*, c10::BFloat16 const*, int)", "_C::silu_and_mul",
     lambda m: [[m, 768], [m, 1536]], ["c10::BFloat16", "c10::BFloat16"]),
    ("void vllm::rotary_embedding_kernel<c10::BFloat16, true>(long const*, c10::BFloat16*, "
     "c10::BFloat16*, c10::BFloat16 const*, int, long, long, long, int, int, int)",
     "_C::rotary_embedding",
     lambda m: [[m], [m, 4096], [m, 512], [], [40960, 128], []],
     ["long int", "c10::BFloat16", "c10::BFloat16", "Scalar", "c10::BFloat16", "Scalar"]),
    ("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<at::native::"
     "direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()"
     "#10}::operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, c10::BFloat16 "
     "const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_"
     "kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()#10}::"
     "operator()() const::{lambda(c10::BFloat16)#1}>(at::TensorIteratorBase&, c10::BFloat16 "
     "const&)::{lambda(int)#1})", "aten::copy_",
     lambda m: [[m, 2048], [m, 2048], []], ["c10::BFloat16", "c10::BFloat16", "Scalar"]),
    ("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::ArgMaxOps<float>"
     ", unsigned int, long, 4> >(at::native::ReduceOp<float, at::native::ArgMaxOps<float>, unsigned "
     "int, long, 4>)", "aten::argmax", lambda m: [[m, 151936], [], []], ["float", "Scalar", "Scalar"]),
    ("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
     "c10d::allreduce_", lambda m: [[m, 2048]], ["c10::BFloat16"]),
]
LAYERS = 8
PER_LAYER = [0, 1, 2, 3, 4, 4, 5, 6, 9]  # kernel indices launched per layer
PER_STEP = [7, 8]  # and once per step


class Writer:
    def __init__(self, f):
        self.f, self.first, self.bytes = f, True, 0

    def event(self, e):
        text = json.dumps(e)
        self.f.write(("  " if self.first else ",\n  ") + text)
        self.first = False
        self.bytes += len(text) + 4


def main():
    if len(sys.argv) > 3:
        return main_cpu_first(sys.argv[1], float(sys.argv[2]), sys.argv[3] == "--stack")
    out, size_mb = sys.argv[1], float(sys.argv[2])
    target = size_mb * 1e6
    rng = random.Random(1234)
    with open(out, "w") as f:
        f.write('{\n  "schemaVersion": 1,\n  "deviceProperties": [{"id": 0, "name": "NVIDIA H200", '
                '"totalGlobalMem": 150109880320, "computeMajor": 9, "computeMinor": 0, '
                '"numSms": 132}],\n  "record_shapes": 1,\n  "displayTimeUnit": "ms",\n'
                '  "baseTimeNanoseconds": 1790857026000000000,\n  "traceEvents": [\n')
        w = Writer(f)
        w.event({"name": "process_name", "ph": "M", "ts": 0, "pid": 807, "tid": 0,
                 "args": {"name": "python3"}})
        ext, corr, cpu_ts, gpu_ts, step = 0, 0, 1.0e12, 1.0e12 + 500.0, 0
        while w.bytes < target:
            prefill = step % 16 == 0
            batch = rng.choice([32, 48, 64, 64, 64]) if not prefill else 0
            ntok = rng.choice([1024, 2048, 4096]) if prefill else 0
            m = ntok if prefill else batch
            name = f"execute_context_{1 if prefill else 0}({ntok})_generation_{batch}({batch})"
            step_cpu, step_gpu = cpu_ts, gpu_ts
            launches = [k for _ in range(LAYERS) for k in PER_LAYER] + PER_STEP
            for ki in launches:
                kname, opname, dims, types = KERNELS[ki]
                ext += 1
                corr += 1
                d = dims(m)
                w.event({"ph": "X", "cat": "python_function", "name": "vllm/model_executor/layers.py("
                         f"{100 + ki}): forward", "pid": 807, "tid": 807, "ts": cpu_ts, "dur": 30.0,
                         "args": {"Python parent id": ext, "Python id": ext + 1, "Ev Idx": ext}})
                w.event({"ph": "X", "cat": "cpu_op", "name": opname, "pid": 807, "tid": 807,
                         "ts": cpu_ts + 1.5, "dur": 25.25,
                         "args": {"External id": ext, "Sequence number": ext, "Fwd thread id": 0,
                                  "Record function id": 0,
                                  "Concrete Inputs": ["" if x else "1" for x in d],
                                  "Input type": types,
                                  "Input Strides": [[1] * len(x) for x in d],
                                  "Input Dims": d, "Ev Idx": ext}})
                dur = round(rng.uniform(2.0, 200.0) if ki < 2 else rng.uniform(1.0, 30.0), 3)
                w.event({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 807,
                         "tid": 807, "ts": cpu_ts + 10.0, "dur": 4.5,
                         "args": {"External id": ext, "cbid": 211, "correlation": corr}})
                w.event({"ph": "s", "id": corr, "pid": 807, "tid": 807, "ts": cpu_ts + 10.0,
                         "cat": "ac2g", "name": "ac2g"})
                w.event({"ph": "X", "cat": "kernel", "name": kname, "pid": 0, "tid": 7, "ts": gpu_ts,
                         "dur": dur,
                         "args": {"External id": ext, "queued": 0, "device": 0, "context": 1,
                                  "stream": 7, "correlation": corr, "registers per thread": 64,
                                  "shared memory": 16384, "blocks per SM": 1.5, "warps per SM": 6.0,
                                  "grid": [132, 1, 1], "block": [256, 1, 1],
                                  "est. achieved occupancy %": 25}})
                w.event({"ph": "f", "id": corr, "pid": 0, "tid": 7, "ts": gpu_ts, "cat": "ac2g",
                         "name": "ac2g", "bp": "e"})
                cpu_ts += 40.0
                gpu_ts += dur + 0.5
            if step % 4 == 1:  # a sampler copy and a fill, outside the model's kernels
                ext += 1
                w.event({"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 807, "tid": 807,
                         "ts": cpu_ts, "dur": 5.0,
                         "args": {"External id": ext, "Input type": ["long int", "long int", "Scalar"],
                                  "Input Dims": [[max(m, 1)], [max(m, 1)], []]}})
                w.event({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)",
                         "pid": 0, "tid": 7, "ts": gpu_ts, "dur": 3.25,
                         "args": {"External id": ext, "device": 0, "bytes": 8 * max(m, 1)}})
                w.event({"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0,
                         "tid": 7, "ts": gpu_ts + 4.0, "dur": 0.75,
                         "args": {"External id": ext, "device": 0, "bytes": 4}})
                gpu_ts += 5.0
            w.event({"ph": "X", "cat": "user_annotation", "name": name, "pid": 807, "tid": 807,
                     "ts": step_cpu, "dur": cpu_ts - step_cpu})
            w.event({"ph": "X", "cat": "gpu_user_annotation", "name": name, "pid": 0, "tid": 7,
                     "ts": step_gpu - 0.25, "dur": gpu_ts - step_gpu + 0.5})
            gpu_ts += 50.0
            cpu_ts += 50.0
            step += 1
        f.write('\n  ],\n  "traceName": "bench.pt.trace.json"\n}\n')


HEADER = ('{\n  "schemaVersion": 1,\n  "deviceProperties": [{"id": 0, "name": "NVIDIA H200", '
          '"totalGlobalMem": 150109880320, "computeMajor": 9, "computeMinor": 0, '
          '"numSms": 132}],\n  "record_shapes": 1,\n  "displayTimeUnit": "ms",\n'
          '  "baseTimeNanoseconds": 1790857026000000000,\n  "traceEvents": [\n')
# The module each kernel's op is called from, and the library file of its forward.
MODULES = ["FusedMoE", "Attention", "QKVParallelLinear", "RowParallelLinear", "RMSNorm",
           "RMSNorm", "SiluAndMul", "Sampler", "Sampler", "RowParallelLinear"]
LIB_FILES = ["vllm/model_executor/layers/fused_moe/layer.py(1520): forward",
             "vllm/attention/layer.py(280): forward",
             "vllm/model_executor/layers/linear.py(540): forward",
             "vllm/model_executor/layers/linear.py(1360): forward",
             "vllm/model_executor/layers/layernorm.py(250): forward_cuda",
             "vllm/model_executor/layers/layernorm.py(250): forward_cuda",
             "vllm/model_executor/layers/activation.py(90): forward_cuda",
             "vllm/v1/sample/sampler.py(60): forward",
             "vllm/v1/sample/sampler.py(120): greedy_sample",
             "vllm/distributed/communication_op.py(14): tensor_model_parallel_all_reduce"]


class Cpu:
    """The CPU side of one step: python frames nested on thread 807, ops inside them; events
    gathered with their start, written in start order (a parent, which starts first or at the
    same time and lasts longer, before its children)."""

    def __init__(self, w, t, stack):
        self.w, self.t, self.stack, self.events, self.pyid = w, t, stack, [], 0

    def frame(self, name, body):
        start = self.t
        self.t += 0.5
        body()
        self.t += 0.5
        self.pyid += 1
        e = {"ph": "X", "cat": "python_function", "name": name, "pid": 807, "tid": 807,
             "ts": round(start, 3), "dur": round(self.t - start, 3),
             "args": {"Python parent id": self.pyid - 1, "Python id": self.pyid,
                      "Python thread": 0}}
        if self.stack:
            self.events.append(e)
        else:  # counted all the same: both traces end after the same steps
            self.w.bytes += len(json.dumps(e)) + 4

    def idle(self, names):  # frames that launch nothing (input preparation, built-ins)
        def nest(i):
            if i < len(names):
                self.frame(names[i], lambda: nest(i + 1))
            else:
                self.t += 2.0
        nest(0)

    def flush(self):
        self.events.sort(key=lambda e: (e["ts"], -e["dur"]))
        for e in self.events:
            self.w.event(e)
        self.events = []


def main_cpu_first(out, size_mb, stack):
    target = size_mb * 1e6
    rng = random.Random(1234)
    gpu_file = tempfile.NamedTemporaryFile("w", delete=False, dir=os.path.dirname(out) or ".")
    with open(out, "w") as f:
        f.write(HEADER)
        w, g = Writer(f), Writer(gpu_file)
        w.event({"name": "process_name", "ph": "M", "ts": 0, "pid": 807, "tid": 0,
                 "args": {"name": "python3"}})
        cpu = Cpu(w, 1.0e12, stack)
        state = {"ext": 0, "corr": 0, "gpu_ts": 1.0e12 + 500.0}
        step = 0
        while w.bytes + g.bytes < target:
            step_cpu(cpu, g, state, step, rng)
            cpu.flush()
            step += 1
        gpu_file.close()
        g.first = True
        with open(gpu_file.name) as gf:
            f.write(",\n")
            for chunk in iter(lambda: gf.read(1 << 20), ""):
                f.write(chunk)
        os.unlink(gpu_file.name)
        f.write('\n  ],\n  "traceName": "bench.pt.trace.json"\n}\n')


def launch(cpu, g, state, ki, m, rng):
    """One op and its kernel: the op under the frames of its module call; its runtime call,
    flows and kernel to the GPU side."""
    kname, opname, dims, types = KERNELS[ki]
    state["ext"] += 1
    state["corr"] += 1
    ext, corr, d = state["ext"], state["corr"], dims(m)

    def op():
        ts = cpu.t
        cpu.events.append({"ph": "X", "cat": "cpu_op", "name": opname, "pid": 807, "tid": 807,
                           "ts": round(ts, 3), "dur": 25.25,
                           "args": {"External id": ext, "Sequence number": ext,
                                    "Fwd thread id": 0, "Record function id": 0,
                                    "Concrete Inputs": ["" if x else "1" for x in d],
                                    "Input type": types, "Input Strides": [[1] * len(x) for x in d],
                                    "Input Dims": d, "Ev Idx": ext}})
        dur = round(rng.uniform(2.0, 200.0) if ki < 2 else rng.uniform(1.0, 30.0), 3)
        g.event({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 807,
                 "tid": 807, "ts": round(ts + 10.0, 3), "dur": 4.5,
                 "args": {"External id": ext, "cbid": 211, "correlation": corr}})
        g.event({"ph": "s", "id": corr, "pid": 807, "tid": 807, "ts": round(ts + 10.0, 3),
                 "cat": "ac2g", "name": "ac2g"})
        g.event({"ph": "X", "cat": "kernel", "name": kname, "pid": 0, "tid": 7,
                 "ts": state["gpu_ts"], "dur": dur,
                 "args": {"External id": ext, "queued": 0, "device": 0, "context": 1, "stream": 7,
                          "correlation": corr, "registers per thread": 64,
                          "shared memory": 16384, "blocks per SM": 1.5, "warps per SM": 6.0,
                          "grid": [132, 1, 1], "block": [256, 1, 1],
                          "est. achieved occupancy %": 25}})
        g.event({"ph": "f", "id": corr, "pid": 0, "tid": 7, "ts": state["gpu_ts"], "cat": "ac2g",
                 "name": "ac2g", "bp": "e"})
        state["gpu_ts"] = round(state["gpu_ts"] + dur + 0.5, 3)
        cpu.t += 30.0

    def forward():
        cpu.idle(["vllm/model_executor/layers/utils.py(40): dispatch_unquantized_gemm",
                  "<built-in function isinstance>"])
        cpu.frame("vllm/model_executor/custom_op.py(45): forward",
                  lambda: cpu.frame("torch/_ops.py(1123): __call__", op))

    module_call(cpu, f"nn.Module: {MODULES[ki]}_{ki}", LIB_FILES[ki], forward)


def module_call(cpu, module, forward_name, body):
    """An nn.Module call as PyTorch 2 records it: its two dispatch frames, its span, its forward."""
    cpu.frame("torch/nn/modules/module.py(1751): _wrapped_call_impl",
              lambda: cpu.frame("torch/nn/modules/module.py(1762): _call_impl",
                                lambda: cpu.frame(module, lambda: cpu.frame(forward_name, body))))


def step_cpu(cpu, g, state, step, rng):
    prefill = step % 16 == 0
    batch = rng.choice([32, 48, 64, 64, 64]) if not prefill else 0
    ntok = rng.choice([1024, 2048, 4096]) if prefill else 0
    m = ntok if prefill else batch
    name = f"execute_context_{1 if prefill else 0}({ntok})_generation_{batch}({batch})"
    step_start, step_gpu = cpu.t, state["gpu_ts"]

    def layer(i):
        def body():
            for ki in PER_LAYER:
                launch(cpu, g, state, ki, m, rng)
        module_call(cpu, f"nn.Module: Qwen3MoeDecoderLayer_{i}",
                    "vllm/model_executor/models/qwen3_moe.py(390): forward", body)

    def model():
        for i in range(LAYERS):
            layer(i)

    def runner():
        cpu.idle(["vllm/v1/worker/gpu_model_runner.py(700): _prepare_inputs",
                  "vllm/v1/attention/backends/utils.py(80): build",
                  "<built-in method cumsum of numpy.ndarray object at 0x7f00>"])
        module_call(cpu, "nn.Module: Qwen3MoeForCausalLM_0",
                    "vllm/model_executor/models/qwen3_moe.py(520): forward", model)
        for ki in PER_STEP:
            launch(cpu, g, state, ki, m, rng)

    cpu.frame("vllm/v1/engine/core.py(250): step",
              lambda: cpu.frame("vllm/v1/worker/gpu_model_runner.py(1500): execute_model", runner))
    if step % 4 == 1:  # a sampler copy and a fill, outside the model's kernels
        state["ext"] += 1
        ext = state["ext"]
        cpu.events.append({"ph": "X", "cat": "cpu_op", "name": "aten::copy_", "pid": 807,
                           "tid": 807, "ts": round(cpu.t, 3), "dur": 5.0,
                           "args": {"External id": ext,
                                    "Input type": ["long int", "long int", "Scalar"],
                                    "Input Dims": [[max(m, 1)], [max(m, 1)], []]}})
        g.event({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)",
                 "pid": 0, "tid": 7, "ts": state["gpu_ts"], "dur": 3.25,
                 "args": {"External id": ext, "device": 0, "bytes": 8 * max(m, 1)}})
        g.event({"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0,
                 "tid": 7, "ts": round(state["gpu_ts"] + 4.0, 3), "dur": 0.75,
                 "args": {"External id": ext, "device": 0, "bytes": 4}})
        state["gpu_ts"] = round(state["gpu_ts"] + 5.0, 3)
        cpu.t += 6.0
    cpu.events.append({"ph": "X", "cat": "user_annotation", "name": name, "pid": 807,
                       "tid": 807, "ts": round(step_start, 3),
                       "dur": round(cpu.t - step_start, 3)})
    g.event({"ph": "X", "cat": "gpu_user_annotation", "name": name, "pid": 0, "tid": 7,
             "ts": round(step_gpu - 0.25, 3), "dur": round(state["gpu_ts"] - step_gpu + 0.5, 3)})
    state["gpu_ts"] = round(state["gpu_ts"] + 50.0, 3)
    cpu.t += 50.0


if __name__ == "__main__":
    main()
