#!/usr/bin/env python3
"""Writes the constructed traces of issue 45's golden cases (every launch placed); their READMEs
work out the truth from what is written here.

    sglang-mla:
        SGLang serving a DeepSeek-V3/R1-shaped model (the real DeepSeek-R1 config, trimmed to 4
        layers: 1 dense + 3 MoE) on 8 MI300X under tensor parallelism 8, one eager prefill
        (`forward_extend`) of TOKENS tokens in REQUESTS requests, recorded with `with_stack=True`
        and without shapes, as SGLang's profiler writes it: no cpu_op for aiter's and sgl-kernel's
        ops, every launch a `hipLaunchKernel` (Tensile's a `hipExtModuleLaunchKernel`, whose grid
        counts work-items) under the Python frames and `nn.Module` spans that made it. The linears
        are aiter's fp8 block-scaled CK GEMMs (`kernel_gemm_xdl_cshuffle_v3<GridwiseGemmMultiD_
        ABScale…>`, tile 16×128×256), after aiter's per-token-group quantization; the norms are CK
        tile `Rmsnorm2dFwd` (one or four rows a block), the activation sgl_hip's `act_and_mul`, the
        attention CK tile FMHA, the router and lm_head Tensile GEMMs in bf16, the experts aiter's
        assembly fused MoE (`fmoe_bf16_blockscaleFp8_g1u1…`: both stages in one launch), the
        all-reduces RCCL under `tensor_model_parallel_all_reduce`.
        Kernel times are set from each kernel's roof on the MI300X datasheet (5.3 TB/s, fp8 2.6149
        PFLOP/s, bf16 1.3074 PFLOP/s) at a fixed efficiency, so a reader can check the verdicts.
    nvfp4-hybrid:
        vLLM serving a Nemotron-H-56B-shaped hybrid model (the real config) in NVFP4 (W4A4) on a B200 under
        full CUDA graphs (no capture trace), 4 decode steps of 8 requests with vLLM's step
        annotations: every linear of the step — Mamba in_proj and out_proj, attention qkv and o,
        the MLP up and down, lm_head — runs one mangled CUTLASS 3 block-scaled GemmUniversal
        (tile 128×128×256, StreamK scheduler), in five grid signatures: out_proj, o_proj and down
        share one (their N is the hidden size), lm_head's is persistent (the 148 SMs). vLLM's
        RMSNorm launches one block per row.

Usage: synthetic_stack_traces.py sglang-mla TOKENS REQUESTS OUT.json.gz
       synthetic_stack_traces.py nvfp4-hybrid OUT.json.gz
"""
import gzip
import json
import math
import sys

# --- the trace ----------------------------------------------------------------------------------


class Trace:
    """Python frames on thread 7 (pid 100), launches on the same thread, kernels on device 2's
    stream 9. `frame` opens a span that closes when its body returns."""

    def __init__(self, runtime="hipLaunchKernel"):
        self.events, self.t, self.corr, self.runtime = [], 1000.0, 0, runtime
        self.gpu_t = 1000.0

    def frame(self, name, body):
        start = self.t
        self.t += 1
        body()
        self.t += 1
        self.events.append({"ph": "X", "cat": "python_function", "name": name, "pid": 100,
                            "tid": 7, "ts": round(start, 3), "dur": round(self.t - start, 3),
                            "args": {"Python id": len(self.events)}})

    def kernel(self, name, dur_us, grid, block, runtime=None):
        self.corr += 1
        self.events.append({"ph": "X", "cat": "cuda_runtime", "name": runtime or self.runtime,
                            "pid": 100, "tid": 7, "ts": round(self.t, 3), "dur": 2,
                            "args": {"correlation": self.corr, "kernel": name}})
        self.gpu_t = max(self.gpu_t, self.t + 5)
        self.events.append({"ph": "X", "cat": "kernel", "name": name, "pid": 2, "tid": 9,
                            "ts": round(self.gpu_t, 3), "dur": round(dur_us, 3),
                            "args": {"device": 2, "stream": 9, "correlation": self.corr,
                                     "kind": "Dispatch Kernel", "grid": grid, "block": block}})
        self.gpu_t += dur_us + 1
        self.t += 3

    def write(self, path, doc):
        doc["traceEvents"] = self.events
        with open(path, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=0) as z:
            z.write(json.dumps(doc, separators=(",", ":")).encode())


def module(tr, name, body):
    tr.frame(f"nn.Module: {name}", body)


# --- SGLang DeepSeek MLA prefill on MI300X, TP 8 --------------------------------------------------

MI300X_BW, MI300X_FP8, MI300X_BF16 = 5.3e12, 2.6149e15, 1.3074e15
H, QL, KVL, ROPE, NOPE, VD, HEADS, INTER, MOE_I, E, TOPK, VOCAB = (
    7168, 1536, 512, 64, 128, 128, 128, 18432, 2048, 256, 8, 129280)
TP = 8
SGL = "/sgl-workspace/sglang/python/sglang/srt"
CK_SCALE = ("_ZN2ck27kernel_gemm_xdl_cshuffle_v3INS_42GridwiseGemmMultiD_ABScale_xdl_cshuffle_v3INS_"
            "13tensor_layout4gemm8RowMajorENS3_11ColumnMajorENS_5TupleIJEEES4_DB8_S8_ffS7_tNS_16tens"
            "or_operation12element_wise11PassThroughESB_SB_LNS9_6device18GemmSpecializationE{spec}ELi"
            "256ELi1ELi128ELi128ELi16ELi128ELi256ELi16ELi16ELi16ELi16ELi1ELi2ENS_8SequenceIJLi16ELi16E"
            "Li1EEEENSE_IJLi1ELi0ELi2EEEESG_Li2ELi16ELi16ELb0ELi0ESF_SG_SG_Li2ELi16ELi16ELb0ELi0ELi1E"
            "Li2ENSE_IJLi1ELi16ELi1ELi16EEEENSE_IJLi8EEEELNS_26BlockGemmPipelineSchedulerE0ELNS_24Bl"
            "ockGemmPipelineVersionE0ES8_S8_S8_S8_EELb{loop}ELNS_25InMemoryDataOperationEnumE0ELi2EL"
            "NS_10TailNumberE{tail}EEEvNT_8ArgumentE")
QUANT = "_ZN5aiter37dynamic_per_group_scaled_quant_kernelIDF16bDB8_Li32EEEvPT0_PfPKT_PKfiliibPKii"
NORM = ("_ZN7ck_tile6kentryILi1ENS_12Rmsnorm2dFwdINS_27Rmsnorm2dFwdPipelineOnePassINS_27Rmsnorm2dFwd"
        "PipelineProblemIDF16bDF16bfDF16bDF16bDF16bffNS_19Generic2dBlockShapeINS_8sequenceIJLi{rows}"
        "ELi{width}EEEENS5_IJLi{rows}ELi{per}EEEENS5_IJLi1ELi512EEEENS5_IJLi1ELi8EEEEEENS_18Rmsnorm2d"
        "FwdTraitsILb1ELb0ELb0ELb0ELNS_21Rmsnorm2dFusedAddEnumE0ELNS_23Rmsnorm2dFusedQuantEnumE0ELN"
        "S_22Rmsnorm2dSensitiveEnumE0EEEEENS_33Rmsnorm2dFwdPipelineDefaultPolicyEEENS_17Default2DEpi"
        "logueINS_24Default2DEpilogueProblemIfDF16bLb0ELb1ELb0ELNS_21memory_operation_enumE0EEEvEEEEJ"
        "NSO_5KargsEEEEvDpT1_")
ACT = "_ZN7sgl_hip10activation18act_and_mul_kernelI14__hip_bfloat16TnPFT_RKS3_EXadL_Z4siluIS2_ES3_S5_EEEEvPS3_PS4_i"
FMHA = ("_ZN7ck_tile6kentryILi2ENS_13FmhaFwdKernelINS_28BlockFmhaPipelineQRKSVSAsyncINS_24BlockFmha"
        "PipelineProblemIDF16bDF16bDF16bffDF16bhfDF16bfDF16bNS_13TileFmhaShapeINS_8sequenceIJLi128E"
        "Li128ELi32ELi128ELi32ELi192EEEENS5_IJLi4ELi1ELi1EEEENS5_IJLi32ELi32ELi16EEEES7_S8_Lb1EEELb1"
        "ENS_17ComposedAttentionILj0ELb1EEENS_30SimplifiedGenericAttentionMaskILb1EEELb0ENS_14Tile"
        "FmhaTraitsILb1ELb1ELb1ELb1ELb0ELNS_22BlockAttentionBiasEnumE0ELb0ELb0ELb0ELb0ELin1ELb0EEEE"
        "ENS_35BlockFmhaPipelineQXKSVSCustomPolicyILb1ELb1ELi3ELi3EEEEENS_17Default2DEpilogueINS_24"
        "Default2DEpilogueProblemIfDF16bLb1ELb1ELb1ELNS_21memory_operation_enumE0EEEvEEEEJNSQ_21Fmha"
        "FwdGroupModeKargsEEEEvDpT1_")
ROUTER = ("Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x192x64_MI16x16x1_SN_LDSB1_AFC1_AFEM1_"
          "AFEM1_ASEM1_CLR1_CADS0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA8_GRVWB8_GSUAMB_GLS0_ISA942_IU1_"
          "K1_LBSPPA512_LBSPPB512_LBSPPM0_LPA16_LPB16_LPM0_LRVW8_LWPMn1_MIAV0_MIWT4_12_MO40_NTn1_NTA0"
          "_NTB4_NTC0_NTD4_NTM0_NEPBS16_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW"
          "4_SK0_SKXCCM0_TLDS1_ULSGRO0_USL1_UIOFGRO0_USFGROn1_VSn1_VWA4_VWB4_WSGRA0_WSGRB0_WS64_WG64_4_1")
LM_HEAD = ROUTER.replace("MT256x192x64", "MT64x64x128").replace("MIWT4_12", "MIWT2_2")
GATE = "void moe_fused_gate_kernel<float, 32, 256, 8, 8, 8, 1>(void*, void*, float*, int*, long, long, long, long, double)"
FMOE = "aiter::fmoe_bf16_blockscaleFp8_g1u1_novs_silu_1tg_ps_32x256"
RCCL = "void rcclGenericKernel<2, false>(ncclDevKernelArgsStorage<4096ul>)"
ADD = ("void at::native::vectorized_elementwise_kernel<8, at::native::CUDAFunctor_add<c10::BFloat16>, "
       "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, "
       "3ul>)")


def roof_us(nbytes, flops, peak, eff):
    return max(nbytes / MI300X_BW, flops / peak) / eff * 1e6


def linear(tr, cls, index, t, n, k, eff, spec=0, tail=0):
    """aiter's w8a8 block-scaled linear: quantize the input per 128-group, then the CK GEMM."""
    tr.kernel(QUANT, roof_us(t * k * 2 + t * k + t * k / 128 * 4, 0, 1, 0.5),
              [math.ceil(t * k / 128 / 4), 1, 1], [64, 1, 1])
    nbytes = t * k + k * n + t * n * 2 + t * (k / 128) * 4 + (k / 128) * (n / 128) * 4
    grid = math.ceil(t / 16) * math.ceil(n / 128)

    def body():
        tr.frame(f"{SGL}/layers/linear.py(415): forward", lambda: tr.frame(
            f"{SGL}/layers/quantization/fp8_utils.py(260): aiter_w8a8_block_fp8_linear",
            lambda: tr.kernel(CK_SCALE.format(spec=spec, loop=1, tail=tail),
                              roof_us(nbytes, 2 * t * n * k, MI300X_FP8, eff), [grid, 1, 1],
                              [256, 1, 1])))
    module(tr, f"{cls}_{index}", body)


def norm(tr, t, width, rows, eff=0.7):
    per = 4 if rows == 1 else 1
    tr.kernel(NORM.format(rows=rows, width=8192 if rows == 1 else width, per=per),
              roof_us(t * width * 4 + width * 2, 0, 1, eff), [math.ceil(t / rows), 1, 1],
              [256, 1, 1])


def all_reduce(tr, t, eff=0.6):
    def body():
        tr.frame(f"{SGL}/distributed/parallel_state.py(474): all_reduce", lambda: tr.kernel(
            RCCL, (2 * 7 / 8 * t * H * 2) / (64e9 * 7 * eff) * 1e6, [112, 1, 1], [256, 1, 1]))
    tr.frame(f"{SGL}/distributed/communication_op.py(11): tensor_model_parallel_all_reduce", body)


def mla_attention(tr, t, seqs, layer):
    nq = HEADS // TP

    def prepare():
        linear(tr, "ReplicatedLinear", 0, t, QL + KVL + ROPE, H, 0.12, spec=7, tail=10)
        norm(tr, t, QL, 4)
        norm(tr, t, KVL, 4)
        linear(tr, "ColumnParallelLinear", 0, t, nq * (NOPE + ROPE), QL, 0.30)
        linear(tr, "ColumnParallelLinear", 1, t, nq * (NOPE + VD), KVL, 0.20)

    def core():
        s = t // seqs
        attn_bytes = t * nq * (NOPE + ROPE) * 2 * 2 + t * nq * VD * 2 * 2
        attn_flops = 4 * seqs * (s * (s + 1) / 2) * nq * (NOPE + ROPE)
        module(tr, "RadixAttention_0", lambda: tr.kernel(
            FMHA, roof_us(attn_bytes, attn_flops, MI300X_BF16, 0.5),
            [nq, math.ceil(s / 128), seqs], [256, 1, 1]))
        linear(tr, "RowParallelLinear", 0, t, H, nq * VD, 0.35)

    def body():
        tr.frame(f"{SGL}/models/deepseek_v2.py(1277): forward_normal_prepare", prepare)
        tr.frame(f"{SGL}/models/deepseek_v2.py(1337): forward_normal_core", core)
    module(tr, f"DeepseekV2AttentionMLA_{layer}", body)


def mlp(tr, t, inter, shared):
    i = inter // TP

    def body():
        tr.frame(f"{SGL}/models/deepseek_v2.py(240): forward", lambda: (
            linear(tr, "MergedColumnParallelLinear", 0, t, 2 * i, H, 0.40),
            tr.kernel(ACT, roof_us(t * 2 * i * 2 + t * i * 2, 0, 1, 0.6), [t, 1, 1], [32, 1, 1]),
            linear(tr, "RowParallelLinear", 1, t, H, i, 0.40)))
    module(tr, "DeepseekV2MLP_0", body)
    if not shared:
        all_reduce(tr, t)


def moe(tr, t):
    i = MOE_I // TP
    hit = E * (1 - (1 - TOPK / E) ** t)
    weights = hit * (2 * i * H + H * i) * (1 + 4 / (128 * 128))
    acts = t * H * 1 + t * H / 128 * 4 + t * H * 2 + t * TOPK * 8

    def body():
        module(tr, "ReplicatedLinear_1", lambda: tr.kernel(
            ROUTER, roof_us(t * H * 2 + H * E * 2 + t * E * 2, 2 * t * E * H, MI300X_BF16, 0.5),
            [math.ceil(t / 192) * 256, 1, 1], [256, 1, 1], runtime="hipExtModuleLaunchKernel"))
        tr.kernel(GATE, 20.0, [math.ceil(t / 8), 1, 1], [64, 1, 1])
        tr.kernel(QUANT, roof_us(t * H * 3, 0, 1, 0.5), [math.ceil(t * H / 128 / 4), 1, 1],
                  [64, 1, 1])
        module(tr, "FusedMoE_0", lambda: tr.kernel(
            FMOE, roof_us(weights + acts, 2 * t * TOPK * 3 * i * H, MI300X_FP8, 0.45), [304, 1, 1],
            [256, 1, 1]))
        mlp(tr, t, MOE_I, True)
        tr.kernel(ADD, roof_us(t * H * 2 * 3, 0, 1, 0.7), [math.ceil(t * H / 2048), 1, 1],
                  [256, 1, 1])
        all_reduce(tr, t)
    tr.frame(f"{SGL}/models/deepseek_v2.py(820): forward_normal", lambda: module(
        tr, "DeepseekV2MoE_0", body))


def sglang_mla(path, t, seqs):
    tr = Trace()

    def layer(i):
        def body():
            norm(tr, t, H, 1)
            mla_attention(tr, t, seqs, i)
            all_reduce(tr, t)
            norm(tr, t, H, 1)
            if i == 0:
                mlp(tr, t, INTER, False)
            else:
                moe(tr, t)
        tr.frame(f"{SGL}/models/deepseek_v2.py(2068): forward",
                 lambda: module(tr, f"DeepseekV2DecoderLayer_{i}", body))

    def model():
        module(tr, "DeepseekV2Model_0", lambda: [layer(i) for i in range(4)])
        norm(tr, t, H, 1)
        v = VOCAB // TP
        module(tr, "LogitsProcessor_0", lambda: tr.kernel(
            LM_HEAD, roof_us(seqs * H * 2 + H * v * 2 + seqs * v * 2, 2 * seqs * v * H,
                             MI300X_BF16, 0.6),
            [math.ceil(v / 64) * math.ceil(seqs / 64) * 256, 1, 1], [256, 1, 1],
            runtime="hipExtModuleLaunchKernel"))

    tr.frame(f"{SGL}/model_executor/model_runner.py(1968): forward_extend",
             lambda: tr.frame(f"{SGL}/models/deepseek_v2.py(2493): forward", model))
    tr.write(path, {"schemaVersion": 1, "with_stack": 1, "record_shapes": 1,
                    "deviceProperties": [{"id": 2, "name": "", "totalGlobalMem": 206141652992,
                                          "computeMajor": 9, "computeMinor": 4, "warpSize": 64,
                                          "numSms": 304}],
                    "roctracer_version": "4.1", "hip_runtime_version": 60342134,
                    "distributedInfo": {"backend": "nccl", "rank": 2, "world_size": 8}})


# --- vLLM Nemotron-H NVFP4 decode on B200 ---------------------------------------------------------

B200_BW, B200_FP4 = 8.0e12, 9.0e15
NV_H, NV_VOCAB, NV_ROWS = 8192, 131072, 8
# The projections of one decode step (N, K, launches), Nemotron-H-56B at tp 1.
NV_INNER = 256 * 64
NV_PROJ = {"in_proj": (2 * NV_INNER + 2 * 8 * 256 + 256, NV_H, 54),
           "out_proj": (NV_H, NV_INNER, 54), "qkv": ((64 + 2 * 8) * 128, NV_H, 10),
           "o_proj": (NV_H, 64 * 128, 10), "up": (32768, NV_H, 54), "down": (NV_H, 32768, 54),
           "lm_head": (NV_VOCAB, NV_H, 1)}
NV_GEMM = ("_ZN7cutlass13device_kernelINS_4gemm6kernel13GemmUniversalIN4cute5tupleIJiiiiEEENS1_10col"
           "lective13CollectiveMmaINS1_46MainloopSm100TmaUmmaWarpSpecializedBlockScaledILi3ENS5_IJNS4"
           "_1CILi1EEESB_SB_EEENS1_36KernelTmaWarpSpecialized1SmNvf4Sm100EEENS5_IJNSA_ILi128EEESF_NSA_"
           "ILi256EEEEEENS_11nv_float4_tINS_12float_e2m1_tEEENS5_IJlSB_lEEESK_SL_EENS_8epilogue10coll"
           "ective18CollectiveEpilogueINS_10bfloat16_tESH_EENS1_16StreamKSchedulerEEEEEvNT_6ParamsE")
NV_NORM = "void vllm::rms_norm_kernel<c10::BFloat16, 8, 3>(c10::BFloat16*, c10::BFloat16 const*, long, c10::BFloat16 const*, float, int, int)"


def nv_bytes(n, k, m=NV_ROWS):
    # NVFP4 (W4A4): fp4 weights and inputs with one ue4m3 scale per 16 values, the output in bf16.
    return (k * n + m * k) * (0.5 + 1 / 16) + m * n * 2


def nvfp4_hybrid(path):
    tr = Trace(runtime="cudaLaunchKernel")
    pattern = ("M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-"
               "M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-")
    eff = {"in_proj": 0.70, "out_proj": 0.55, "qkv": 0.50, "o_proj": 0.40, "up": 0.75,
           "down": 0.65, "lm_head": 0.80}

    def gemm(kind):
        n, k, _ = NV_PROJ[kind]
        grid = [148, 1, 1] if kind == "lm_head" else [math.ceil(n / 128), 1, 1]
        seq.append((NV_GEMM, nv_bytes(n, k) / (B200_BW * eff[kind]) * 1e6, grid, [384, 1, 1]))

    seq = []
    for c in pattern:
        seq.append((NV_NORM, 2.0, [NV_ROWS, 1, 1], [1024, 1, 1]))
        if c == "M":
            gemm("in_proj")
            seq.append(("_mamba_chunk_scan_combined_fwd_kernel", 12.0, [16, 8, 1], [128, 1, 1]))
            gemm("out_proj")
        elif c == "*":
            gemm("qkv")
            seq.append(("void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4>>",
                        25.0, [1, 8, 64], [128, 1, 1]))
            gemm("o_proj")
        else:
            gemm("up")
            seq.append(("triton_poi_fused_relu_pow_0", 3.0, [128, 1, 1], [256, 1, 1]))
            gemm("down")
    seq.append((NV_NORM, 2.0, [NV_ROWS, 1, 1], [1024, 1, 1]))
    gemm("lm_head")
    for step in range(4):
        tr.t += 10  # steps apart: each annotation holds its own graph launch
        start = tr.t
        tr.corr += 1
        graph = tr.corr
        tr.events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 100,
                          "tid": 7, "ts": round(tr.t + 1, 3), "dur": 5,
                          "args": {"correlation": graph}})
        tr.gpu_t = max(tr.gpu_t, tr.t + 10)
        for name, dur, grid, block in seq:
            tr.events.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7,
                              "ts": round(tr.gpu_t, 3), "dur": round(dur, 3),
                              "args": {"device": 0, "stream": 7, "correlation": graph,
                                       "grid": grid, "block": block}})
            tr.gpu_t += dur + 0.5
        tr.t = tr.gpu_t + 20
        tr.events.append({"ph": "X", "cat": "user_annotation", "pid": 100, "tid": 7,
                          "name": f"execute_context_0(0)_generation_{NV_ROWS}({NV_ROWS})",
                          "ts": round(start, 3), "dur": round(tr.t - start, 3), "args": {}})
    tr.write(path, {"schemaVersion": 1, "cuda_runtime_version": 12080, "cuda_driver_version": 12080,
                    "deviceProperties": [{"id": 0, "name": "NVIDIA B200", "totalGlobalMem":
                                          191514689536, "computeMajor": 10, "computeMinor": 0,
                                          "numSms": 148, "warpSize": 32}]})


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "sglang-mla":
        sglang_mla(sys.argv[4], int(sys.argv[2]), int(sys.argv[3]))
    elif len(sys.argv) == 3 and sys.argv[1] == "nvfp4-hybrid":
        nvfp4_hybrid(sys.argv[2])
    else:
        sys.exit(__doc__)
