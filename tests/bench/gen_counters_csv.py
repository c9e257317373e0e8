#!/usr/bin/env python3
"""Writes a synthetic rocprofv3 *_counter_collection.csv (ROCm 6.4+/7.x, 19 columns) of about
SIZE_MB megabytes for tests/bench/counters_bench.sh: realistic kernel names, five counters per
dispatch, one row per (dispatch, counter), deterministic (fixed seed).

Usage: gen_counters_csv.py OUT.csv [SIZE_MB]
"""
import random
import sys

HEADER = ('"Correlation_Id","Dispatch_Id","Agent_Id","Queue_Id","Process_Id","Thread_Id",'
          '"Grid_Size","Kernel_Id","Kernel_Name","Workgroup_Size","LDS_Block_Size","Scratch_Size",'
          '"VGPR_Count","Accum_VGPR_Count","SGPR_Count","Counter_Name","Counter_Value",'
          '"Start_Timestamp","End_Timestamp"\n')

# (name, relative frequency, grid, workgroup, lds, typical duration ns)
KERNELS = [
    ("fused_moe_kernel", 8, 524288, 256, 32768, 54000),
    ("void vllm::paged_attention_v2_kernel<__hip_bfloat16, __hip_bfloat16, 128, 16, 128, "
     "(vllm::Fp8KVCacheDataType)0, false, 512>(float*, float*, __hip_bfloat16*, "
     "__hip_bfloat16 const*, __hip_bfloat16 const*, __hip_bfloat16 const*, int, float, "
     "int const*, int const*, int, float const*, int, int, int, float const*, float const*, int)",
     6, 262144, 128, 16384, 31000),
    ("Cijk_Alik_Bljk_BBS_BH_MT128x128x64_MI16x16x1_SN_1LDSB1_AFC1_AFEM1_ASEM1_CLR1_CADS0_DTVA0_"
     "DTVB0_EPS0_GRVWA8_GRVWB8_GSU1_ISA950_IU1_K1_LBSPPA2048_LPA16_LPB16_MIAV1_MIWT4_4_NTn1_PGR2_"
     "PLR1_SIA3_SS1_TLDS1_USL1_VWA4_VWB4_WS64_WG32_8_1_WGM8", 5, 1048576, 256, 65536, 88000),
    ("void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16*, "
     "c10::BFloat16 const*, float, int, int)", 8, 65536, 256, 0, 3100),
    ("_ZN5aiter24fmoe_fp8_blockscale_g1u1ILi128ELi128EEEvPKvS2_PvPKfS5_PKiS7_S7_iiii", 3,
     393216, 256, 49152, 61000),
    ("kernel_paged_attention_2d [clone .kd]", 4, 131072, 64, 8192, 12000),
    ("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl_nocast<"
     "at::native::CUDAFunctor_add<c10::BFloat16> >(at::TensorIteratorBase&, "
     "at::native::CUDAFunctor_add<c10::BFloat16> const&)::{lambda(int)#1}>(int, "
     "at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::BFloat16> >("
     "at::TensorIteratorBase&, at::native::CUDAFunctor_add<c10::BFloat16> const&)::"
     "{lambda(int)#1})", 4, 32768, 128, 0, 2400),
    ("void ck::kernel_gemm_xdl_cshuffle_v3<ck::tensor_operation::device::DeviceGemm_Xdl_CShuffleV3<"
     "ck::tensor_layout::gemm::RowMajor, ck::tensor_layout::gemm::ColumnMajor, "
     "ck::Tuple<int, float>, ck::f8_t, ck::f8_t, ck::bhalf_t, float>, true, 2>(ck::Argument)",
     3, 786432, 256, 65536, 47000),
]
COUNTERS = ["FETCH_SIZE", "WRITE_SIZE", "SQ_INSTS_VALU_MFMA_MOPS_F8", "MfmaFlopsBF16",
            "GRBM_GUI_ACTIVE"]


def main():
    out = sys.argv[1]
    target = int(float(sys.argv[2]) * 1e6) if len(sys.argv) > 2 else 500_000_000
    rng = random.Random(20240611)
    weights = [k[1] for k in KERNELS]
    # Per kernel, the constant part of its rows before Counter_Name (quoted as rocprofv3 does).
    prefixes = []
    for kid, (name, _w, grid, wg, lds, _t) in enumerate(KERNELS, start=1):
        quoted = '"' + name.replace('"', '""') + '"'
        prefixes.append(f',"Agent 1",1,31337,31337,{grid},{kid},{quoted},{wg},{lds},0,128,64,96,')
    written = len(HEADER)
    ts = 1_700_000_000_000_000_000
    dispatch = 0
    with open(out, "w", newline="") as f:
        f.write(HEADER)
        while written < target:
            batch = []
            for _ in range(4096):
                dispatch += 1
                ki = rng.choices(range(len(KERNELS)), weights)[0]
                dur = int(KERNELS[ki][5] * rng.uniform(0.8, 1.25))
                start, end = ts, ts + dur
                ts = end + rng.randint(500, 5000)
                fetch = rng.randint(1_000, 4_000_000)
                vals = (fetch, fetch // rng.randint(2, 8), rng.randint(0, 2_000_000),
                        rng.randint(0, 1 << 30), dur * 2)
                head = f"{dispatch},{dispatch}{prefixes[ki]}"
                tail = f",{start},{end}\n"
                for cname, v in zip(COUNTERS, vals):
                    batch.append(f'{head}"{cname}",{v}{tail}')
            text = "".join(batch)
            f.write(text)
            written += len(text)
    print(f"{out}: {written / 1e6:.0f} MB, {dispatch} dispatches, {dispatch * len(COUNTERS)} rows")


if __name__ == "__main__":
    main()
