#!/usr/bin/env python3
"""Writes a synthetic PyTorch profiler Chrome trace of about SIZE_MB megabytes for
tests/bench/topn_bench.sh, shaped like what torch.profiler (kineto) exports from a vLLM-style
serving loop with record_shapes=True: nested cpu_op events with Input Dims / Input type /
Input Strides / Concrete Inputs, cuda_runtime launches, kernels with launch arguments, ac2g flow
events, memcpy/memset activity, python_function frames, and vLLM step annotations (prefill and
decode steps with varying batch sizes, so kernels have several call signatures). Deterministic
(seeded). Streamed to disk: memory stays small whatever the size.

Usage: gen_chrome_trace.py OUT.json SIZE_MB
"""
import json
import random
import sys

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


if __name__ == "__main__":
    main()
