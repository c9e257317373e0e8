#!/usr/bin/env python3
"""Writes a synthetic rocprofv3 *_counter_collection.csv (ROCm 6.4+/7.x, 19 columns) of about
SIZE_MB megabytes for tests/bench/counters_bench.sh, shaped like real output (docs/method.md §2.8):

- counter values printed as floating point, the way rocprofv3 prints them: `16384.000000`
  (integer counts), `13.271172` (fractions, percentages, derived KiB), `4.34259040e-02` (small
  fractions);
- kernel names quoted, about half of the rows carrying commas in them (template arguments,
  argument lists), names 40 to 650 bytes long;
- nine counters per dispatch, as a real collection asks for more than this tool uses: four that
  `roofline` reads (FETCH_SIZE, WRITE_SIZE, MfmaFlopsBF16, SQ_INSTS_VALU_MFMA_MOPS_F8) and five it
  does not (MemUnitStalled, MfmaUtil, OccupancyPercent, GRBM_GUI_ACTIVE, SQ_WAVES);
- one row per (dispatch, counter), the rows of a dispatch adjacent, deterministic (fixed seed).

Usage: gen_counters_csv.py OUT.csv [SIZE_MB]
"""
import random
import sys

HEADER = ('"Correlation_Id","Dispatch_Id","Agent_Id","Queue_Id","Process_Id","Thread_Id",'
          '"Grid_Size","Kernel_Id","Kernel_Name","Workgroup_Size","LDS_Block_Size","Scratch_Size",'
          '"VGPR_Count","Accum_VGPR_Count","SGPR_Count","Counter_Name","Counter_Value",'
          '"Start_Timestamp","End_Timestamp"\n')

# (name, relative frequency, grid, workgroup, lds, typical duration ns, matrix kind)
# matrix kind: "bf16" (MfmaFlopsBF16 counts), "f8" (SQ_INSTS_VALU_MFMA_MOPS_F8 counts), "" none.
KERNELS = [
    ("fused_moe_kernel", 8, 524288, 256, 32768, 54000, "bf16"),
    ("void vllm::paged_attention_v2_kernel<__hip_bfloat16, __hip_bfloat16, 128, 16, 128, "
     "(vllm::Fp8KVCacheDataType)0, false, 512>(float*, float*, __hip_bfloat16*, "
     "__hip_bfloat16 const*, __hip_bfloat16 const*, __hip_bfloat16 const*, int, float, "
     "int const*, int const*, int, float const*, int, int, int, float const*, float const*, int)",
     6, 262144, 128, 16384, 31000, "bf16"),
    ("Cijk_Alik_Bljk_BBS_BH_MT128x128x64_MI16x16x1_SN_1LDSB1_AFC1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_"
     "DTVB0_EPS0_GRVWA8_GRVWB8_GSU1_ISA950_IU1_K1_LBSPPA2048_LPA16_LPB16_MIAV1_MIWT4_4_NTn1_PGR2_"
     "PLR1_SIA3_SS1_TLDS1_USL1_VWA4_VWB4_WS64_WG32_8_1_WGM8", 5, 1048576, 256, 65536, 88000,
     "bf16"),
    ("void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16*, "
     "c10::BFloat16 const*, float, int, int)", 8, 65536, 256, 0, 3100, ""),
    ("_ZN5aiter24fmoe_fp8_blockscale_g1u1ILi128ELi128EEEvPKvS2_PvPKfS5_PKiS7_S7_iiii", 3,
     393216, 256, 49152, 61000, "f8"),
    ("kernel_paged_attention_2d [clone .kd]", 4, 131072, 64, 8192, 12000, "bf16"),
    ("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<"
     "at::native::CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, "
     "at::native::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int)#1}>(int, "
     "at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::BFloat16> >("
     "at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::BFloat16> const&)::"
     "{lambda(int)#1})", 4, 32768, 128, 0, 2400, ""),
    ("void ck::kernel_gemm_xdl_cshuffle_v3<ck::tensor_operation::device::DeviceGemm_Xdl_CShuffleV3<"
     "ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, "
     "ck::Tuple<int, float>, ck::f8_t, ck::f8_t, ck::bhalf_t, float>, true, 2>(ck::Argument)",
     3, 786432, 256, 65536, 47000, "f8"),
    ("void at::native::(anonymous namespace)::cunn_SoftMaxForward<8, float, float, float, "
     "at::native::(anonymous namespace)::SoftMaxForwardEpilogue>(float*, float const*, int)",
     2, 16384, 256, 2048, 4200, ""),
    ("_ZN2ck27kernel_batched_gemm_softmaxILi256ELi128EEEvPKDF16_S2_PDF16_iii", 2, 196608, 256,
     32768, 26000, "bf16"),
]
# The four counters roofline reads first, then five it does not; all nine in every dispatch.
COUNTERS = ["FETCH_SIZE", "WRITE_SIZE", "MfmaFlopsBF16", "SQ_INSTS_VALU_MFMA_MOPS_F8",
            "MemUnitStalled", "MfmaUtil", "OccupancyPercent", "GRBM_GUI_ACTIVE", "SQ_WAVES"]


def fraction(v):
    """A fractional counter as rocprofv3 prints it: fixed six decimals, or an exponent when
    small."""
    return f"{v:.8e}" if 0 < v < 0.1 else f"{v:.6f}"


def main():
    out = sys.argv[1]
    target = int(float(sys.argv[2]) * 1e6) if len(sys.argv) > 2 else 500_000_000
    rng = random.Random(20240611)
    weights = [k[1] for k in KERNELS]
    # Per kernel, the constant part of its rows before Counter_Name (quoted as rocprofv3 does).
    prefixes = []
    for kid, (name, _w, grid, wg, lds, _t, _m) in enumerate(KERNELS, start=1):
        quoted = '"' + name.replace('"', '""') + '"'
        prefixes.append(f',"Agent 4",1,31337,31337,{grid},{kid},{quoted},{wg},{lds},0,128,64,96,')
    written = len(HEADER)
    ts = 1_700_000_000_000_000_000
    dispatch = 0
    rows = 0
    with open(out, "w", newline="") as f:
        f.write(HEADER)
        while written < target:
            batch = []
            for _ in range(2048):
                dispatch += 1
                ki = rng.choices(range(len(KERNELS)), weights)[0]
                _n, _w, grid, wg, _l, t, kind = KERNELS[ki]
                dur = int(t * rng.uniform(0.8, 1.25))
                start, end = ts, ts + dur
                ts = end + rng.randint(500, 5000)
                # FETCH_SIZE/WRITE_SIZE are KiB derived from 32/64-byte requests: fractional.
                fetch = rng.randint(32_000, 128_000_000) / 32
                write = rng.randint(32, 16_000_000) / 64
                bf16 = rng.randint(1 << 20, 1 << 40) * 512 if kind == "bf16" else 0
                f8 = rng.randint(1 << 10, 1 << 28) if kind == "f8" else 0
                util = rng.choice((rng.uniform(0.001, 0.099), rng.uniform(0, 95), 0.0))
                vals = (f"{fetch:.6f}", f"{write:.6f}", f"{bf16:.6f}", f"{f8:.6f}",
                        fraction(rng.uniform(0, 60)), fraction(util if kind else 0.0),
                        fraction(rng.uniform(5, 100)), f"{int(dur * 2.1):.6f}", f"{grid // 64:.6f}")
                head = f"{dispatch},{dispatch}{prefixes[ki]}"
                tail = f",{start},{end}\n"
                for cname, v in zip(COUNTERS, vals):
                    batch.append(f'{head}"{cname}",{v}{tail}')
                rows += len(COUNTERS)
            text = "".join(batch)
            f.write(text)
            written += len(text)
    comma_share = sum(w for (n, w, *_rest) in KERNELS if "," in n) / sum(weights)
    print(f"{out}: {written / 1e6:.0f} MB, {dispatch} dispatches, {rows} rows, "
          f"{len(COUNTERS)} counters per dispatch, kernel names with commas on "
          f"{comma_share:.0%} of rows (expected)")


if __name__ == "__main__":
    main()
