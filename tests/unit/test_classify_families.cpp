// Classification of the serving families (docs/method.md §7): each family by at least two
// spellings, the real fixture names (tests/fixtures/serving/, torch-trace/), the launching-op rule
// (data/kernel_ops.tsv) and the negative cases of the token rule.
#include <catch2/catch.hpp>

#include "roofline/classify/classify.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/inputs/kernel_classes.hpp"

namespace unit_classify_families {
using namespace roofline::cli;

namespace {

TopnEntry entry(std::string name, std::string op = "", std::string demangled = "") {
  TopnEntry e;
  e.name = std::move(name);
  e.short_name = e.name;
  e.op = std::move(op);
  e.demangled = std::move(demangled);
  e.pct_gpu_time = 5.0;
  return e;
}

ClassRules shipped() {
  ClassRules r;
  r.families = builtin_kernel_classes_rules();
  return r;
}

struct Case {
  const char* name;
  OpClass cls;
  const char* detail;
  const char* demangled = "";
};

void check_cases(std::initializer_list<Case> cases, const char* rule_source) {
  const ClassRules rules = shipped();
  for (const Case& c : cases) {
    INFO(c.name);
    const Classification got = roofline::classify::classify(entry(c.name, "", c.demangled), rules);
    INFO(got.rule);
    CHECK(got.op_class == c.cls);
    CHECK(to_string(got.detail) == std::string(c.detail));
    CHECK(got.rule.find(rule_source) != std::string::npos);
  }
}

bool has_note(const Classification& c, std::string_view text) {
  for (const std::string& n : c.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("classify families: TRT-LLM bmm expert GEMMs, the fused activation is gate/up",
          "[classify][families]") {
  check_cases(
      {
          // mxfp4 weights: gate/up with the fused SwiGLU (swiGlu does not make it elementwise)
          {"bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x8x512u2_s3_et128x8_m128x8x32_cga1x1x1_16dp256b_rM_"
           "TN_transOut_schedS_bN_batchN_dynB_swiGlu_sm100f",
           OpClass::moe, "stage1"},
          {"bmm_MxE4m3_MxE2m1MxE4m3_Fp32_t128x8x512u2_s3_et128x8_m128x8x32_cga1x1x1_16dp256b_rM_TN_"
           "transOut_schedS_bN_batchN_dynB_swiGlu_sm100f",
           OpClass::moe, "stage1"},
          // and the down GEMMs, without an activation
          {"bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x8x512u2_s3_et128x8_m128x8x32_cga1x1x1_16dp256b_rM_"
           "TN_transOut_schedS_bN_batchN_dynB_sm100f",
           OpClass::moe, "stage2"},
          // fp8 and nvfp4 spellings
          {"bmm_E4m3_E4m3E4m3_Fp32_t128x16x128_s4_et64x16_m64x16x32_cga1x1x1_16dp256b_TN_schedS_"
           "swiGlu_sm100a",
           OpClass::moe, "stage1"},
          {"bmm_Bfloat16_E4m3E4m3_Fp32_t128x16x128_s4_et64x16_m64x16x32_cga1x1x1_16dp256b_TN_"
           "sm100a",
           OpClass::moe, "stage2"},
          {"bmm_Bfloat16_E2m1E2m1_Fp32_t128x8x256u2_s4_et128x8_m128x8x64_geGlu_sm100a",
           OpClass::moe, "stage1"},
          {"bmm_E2m1_E2m1E2m1_Fp32_t128x8x256u2_s4_sm100a", OpClass::moe, "stage2"},
      },
      "kernel_classes.tsv");
}

TEST_CASE("classify families: the names' types are noted (TRT-LLM bmm, cuBLASLt qq)",
          "[classify][families]") {
  const ClassRules rules = shipped();
  const Classification mx = roofline::classify::classify(
      entry("bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x8x512u2_s3_swiGlu_sm100f"), rules);
  CHECK(has_note(mx, "operands MxE2m1 (mxfp4) and MxE4m3 (mxfp8)"));
  CHECK(has_note(mx, "MxE2m1 = mxfp4 expert weights"));
  CHECK(mx.operand_dtype.empty());
  const Classification fp8 =
      roofline::classify::classify(entry("bmm_E4m3_E4m3E4m3_Fp32_t128x16x128_sm100a"), rules);
  CHECK(has_note(fp8, "output E4m3 (fp8 e4m3)"));
  CHECK_FALSE(has_note(fp8, "mxfp4"));

  for (const char* qq : {"nvjet_sm90_qqtst_128x128_64x4_1x2_h_bz_coopA_TNT",
                         "nvjet_sm100_qqtst_256x128_128x4_2x1_2cta_v_bz_Avec32UE8M0_TNN",
                         "nvjet_qqtst_64x64_64x8_1x1_v_bz_TNT"}) {
    INFO(qq);
    const Classification c = roofline::classify::classify(entry(qq), rules);
    CHECK(c.op_class == OpClass::gemm);
    CHECK(c.operand_dtype == "fp8");
    CHECK(has_note(c, "'qq' = fp8 A and B operands"));
  }
  for (const char* bf16 :
       {"nvjet_sm90_tst_192x8_64x8_2x1_v_bz_TNT", "nvjet_sm90_tst_64x64_64x13_4x1_v_bz_splitK_TNT",
        "nvjet_hsh_128x256_64x4_2x1_v_bz_TNN", "nvjet_tst_64x8_64x16_2x4_h_TNT"}) {
    INFO(bf16);
    const Classification c = roofline::classify::classify(entry(bf16), rules);
    CHECK(c.op_class == OpClass::gemm);
    CHECK(c.rule.find("'nvjet_*'") != std::string::npos);
    CHECK(c.operand_dtype.empty());
  }
}

TEST_CASE("classify families: MoE routing and finalize are elementwise, not GEMMs",
          "[classify][families]") {
  check_cases(
      {
          {"void moe::dev::routing::routingRenormalize::routingIndicesClusterKernel<moe::dev::"
           "routing::KernelParams<float, __nv_bfloat16, 4, true>>(moe::dev::routing::KernelParams)",
           OpClass::elementwise, "index"},
          {"void moe::dev::routing::routingDeepSeek::routingMainKernel<moe::dev::routing::"
           "KernelParams<float>>(int)",
           OpClass::elementwise, "index"},
          {"void moe::dev::finalize::finalizeKernelVecLoad<moe::dev::finalize::KernelParams<__nv_"
           "bfloat16, float>>(int)",
           OpClass::elementwise, "reduce"},
          {"void finalizeKernel<__nv_bfloat16, float, 4>(int)", OpClass::elementwise, "reduce"},
          {"void tensorrt_llm::kernels::finalizeMoeRoutingKernel<__nv_bfloat16, "
           "__nv_bfloat16>(int)",
           OpClass::elementwise, "reduce"},
          {"_finalize_matmul_scatter_bf16", OpClass::elementwise, "reduce"},
          {"_finalize_matmul_scatter_fp8", OpClass::elementwise, "reduce"},
          {"_combined_routing_compute", OpClass::elementwise, "index"},
          {"_combined_routing_memset", OpClass::elementwise, "fill"},
          {"_routing_compute_indx_offs", OpClass::elementwise, "index"},
          {"_sum_bitmatrix_rows", OpClass::elementwise, "reduce"},
          {"_topk_forward", OpClass::elementwise, "softmax"},
      },
      "kernel_classes.tsv");
}

TEST_CASE("classify families: triton_kernels matmul_ogs, the fused activation is stage 1",
          "[classify][families]") {
  check_cases(
      {
          {"_matmul_ogs_NNT_bf16xbf16xmxfp4_128x128x128x1_swiglu", OpClass::moe, "stage1"},
          {"_p_matmul_ogs_NNT_bf16xbf16xmxfp4_64x128x128x1_swiglu", OpClass::moe, "stage1"},
          {"_matmul_ogs_NNT_fp8xfp8xmxfp4_128x128x128x1_silu", OpClass::moe, "stage1"},
          {"_matmul_ogs_NNT_bf16xbf16xmxfp4_128x128x128x1", OpClass::moe, "stage2"},
          {"_p_matmul_ogs_NNT_fp8xfp8xmxfp4_64x128x128x1", OpClass::moe, "stage2"},
      },
      "kernel_classes.tsv");
}

TEST_CASE("classify families: collectives", "[classify][families]") {
  const ClassRules rules = shipped();
  for (const char* name :
       {"void c10d::symmetric_memory::multimem_all_reduce_kernel<c10::BFloat16, 16>(int)",
        "multimem_all_reduce_kernel_oneshot", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(int)",
        "ncclDevKernel_ReduceScatter_Sum_f32_RING_SIMPLE",
        "ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)"}) {
    INFO(name);
    const Classification c = roofline::classify::classify(entry(name), rules);
    CHECK(c.op_class == OpClass::comm);
    CHECK(c.collective);
    CHECK(c.rule.find("kernel_classes.tsv") != std::string::npos);
  }
}

TEST_CASE("classify families: CK attention is not FlashInfer's, paged-attention reductions",
          "[classify][families]") {
  check_cases(
      {
          {"_ZN7ck_tile6kentryILi1ENS_38FmhaBatchPrefillWithPagedKVCacheKernelINS_1XEEEEvT_",
           OpClass::attn, "auto",
           "void ck_tile::kentry<1, ck_tile::FmhaBatchPrefillWithPagedKVCacheKernel<ck_tile::X>>"
           "(ck_tile::X)"},
          {"ck_tile::FmhaBatchPrefillKernel<ck_tile::BlockFmhaBatchPrefillPipelineQRKSVS<int>>",
           OpClass::attn, "auto"},
          {"ck_tile::kentry<1, ck_tile::FmhaFwdKernel<ck_tile::BlockFmhaPipelineQRKSVS<int>>>",
           OpClass::attn, "auto"},
          {"void flashinfer::BatchPrefillWithPagedKVCacheKernel<int>(int)", OpClass::attn, "auto"},
          {"void flashinfer::BatchDecodeWithPagedKVCacheKernel<int>(int)", OpClass::attn, "decode"},
          {"void paged_attention_ll4mi_reduce_kernel<__hip_bfloat16, __hip_bfloat16, 128, 128, "
           "256, 3, false>(__hip_bfloat16*)",
           OpClass::attn, "decode_reduce"},
          {"void vllm::paged_attention_v2_reduce_kernel<c10::BFloat16, 128, 128, 512>(int)",
           OpClass::attn, "decode_reduce"},
          {"void aiter::paged_attention_custom_reduce_kernel<int>(int)", OpClass::attn,
           "decode_reduce"},
      },
      "kernel_classes.tsv");
  const ClassRules rules = shipped();
  const Classification ck = roofline::classify::classify(
      entry("ck_tile::kentry<1, ck_tile::FmhaBatchPrefillWithPagedKVCacheKernel<int>>"), rules);
  CHECK(ck.rule.find("'FmhaBatchPrefillWithPagedKVCache'") != std::string::npos);
  const Classification fi = roofline::classify::classify(
      entry("flashinfer::BatchPrefillWithPagedKVCacheKernel<int>"), rules);
  CHECK(fi.rule.find("'BatchPrefillWithPagedKVCache'") != std::string::npos);
}

TEST_CASE("classify families: norms, activations and the KV-cache write of the serving traces",
          "[classify][families]") {
  check_cases(
      {
          {"_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi256ELi16ELb1ELb0ELb1ELi1EEEvPT0_PT_"
           "PfS4_"
           "S4_S4_diiiiiiib",
           OpClass::elementwise, "add_norm+rows"},  // one block per token: grid.x is the rows
          {"void aiter::add_rmsnorm_quant_kernel<__hip_bfloat16, __hip_bfloat16, 64, 8, "
           "false>(int)",
           OpClass::elementwise, "add_norm+rows"},
          {"_ZN7ck_tile6kentryILi1ENS_12Rmsnorm2dFwdINS_27Rmsnorm2dFwdPipelineOnePassIfEEEEEvT_",
           OpClass::elementwise, "norm"},
          {"ck_tile::kentry<1, ck_tile::Rmsnorm2dFwd<ck_tile::Rmsnorm2dFwdPipelineTwoPass<int>>>",
           OpClass::elementwise, "norm"},
          {"_ZN7sgl_hip10activation18act_and_mul_kernelI14__hip_bfloat16TnPFT_RKS3_EXadL_Z4siluIS2_"
           "ES3_S5_EEEEvPS3_PS4_i",
           OpClass::elementwise, "act_and_mul"},
          {"void sgl_hip::activation::act_and_mul_kernel<__hip_bfloat16, &silu>(int)",
           OpClass::elementwise, "act_and_mul"},
          {"void (anonymous namespace)::store_kvcache<2048l, 4, false, long>((anonymous "
           "namespace)::StoreKVCacheParams)",
           OpClass::elementwise, "kv_write"},
          {"store_kvcache_kernel<__nv_bfloat16>", OpClass::elementwise, "kv_write"},
          {"create_flashinfer_kv_indices_triton", OpClass::elementwise, "index"},
          {"triton_poi_fused_constant_pad_nd_moe_forward_0", OpClass::elementwise, ""},
          {"triton_red_fused_add_sum_2", OpClass::elementwise, ""},
      },
      "kernel_classes.tsv");
}

TEST_CASE("classify families: Inductor pointwise and reduction kernels stay elementwise",
          "[classify][families]") {
  check_cases({{"triton_per_fused_moe_forward_2", OpClass::elementwise, ""},
               {"triton_poi_fused_all_reduce_3", OpClass::elementwise, ""},
               {"triton_red_fused_scaled_dot_product_attention_1", OpClass::elementwise, ""},
               {"triton_poi_fused_rms_norm_0", OpClass::elementwise, "norm"},
               {"triton_for_fused_0", OpClass::elementwise, ""}},
              "kernel_classes.tsv");
  check_cases({{"triton_tem_fused_mm_0", OpClass::gemm, ""}}, "kernel_classes.tsv");
}

TEST_CASE("classify families: split-KV combines and NVFP4 quantization by their libraries' names",
          "[classify][families]") {
  check_cases(
      {{"void pytorch_flash::flash_fwd_splitkv_combine_kernel<pytorch_flash::Flash_fwd_kernel_"
        "traits<128, 64, 128, 4, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_"
        "traits<128, 64, 128, 4, cutlass::bfloat16_t> >, 4, 1, true>(pytorch_flash::Flash_fwd_"
        "params)",
        OpClass::attn, "decode_reduce"},
       {"void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, 4, false, "
        "false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 4, cutlass::bfloat16_t> "
        ">, false, false, false, false, true, false, true, false>(Flash_fwd_params)",
        OpClass::attn, "auto"},
       {"void flashinfer::MergeStatesKernel<8u, 16u, 8u, 4u, __nv_bfloat16, __nv_bfloat16>("
        "__nv_bfloat16*, float*, __nv_bfloat16*, float*, unsigned int, unsigned int)",
        OpClass::attn, "decode_reduce"},
       {"void vllm::cvt_fp16_to_fp4<__nv_bfloat16, false>(int, int, __nv_bfloat16 const*, float "
        "const*, unsigned int*, unsigned int*)",
        OpClass::elementwise, "quant"},
       // SGLang's MLA KV-cache write (a real DeepSeek-R1 trace): a write, not an attention, so
       // it never reads a quantization meant for the GEMM after it (docs/method.md §23.5).
       {"set_mla_kv_buffer_kernel", OpClass::elementwise, "kv_write"},
       {"void vllm::segmented_max_reduction<c10::BFloat16, c10::Float8_e4m3fn>(float*, "
        "c10::BFloat16 const*, long)",
        OpClass::elementwise, "reduce"}},
      "kernel_classes.tsv");
}

TEST_CASE("classify families: convolutions are GEMM math that only their op can model",
          "[classify][families]") {
  check_cases(
      {{"sm86_xmma_fprop_implicit_gemm_indexed_wo_smem_f16f16_f16f32_f32_nhwckrsc_nhwc_"
        "tilesize32x32x64_stage1_warpsize2x2x1_g1_tensor16x8x16_execute_kernel__5x_cudnn",
        OpClass::gemm, "conv"},
       {"implicit_convolve_sgemm", OpClass::gemm, "conv"},
       {"void implicit_convolveNd_sgemm<float, 3, 1024, 5, 5, 3, 3, 3, 1, false, false, true>",
        OpClass::gemm, "conv"},
       {"void cudnn::cnn::conv2d_grouped_direct_kernel<false, true, false, false, 0, 0, int, "
        "float, float, float, float, float>",
        OpClass::gemm, "conv"},
       {"void ck::kernel_grouped_conv_fwd_xdl_cshuffle<ck::tensor_operation::device::"
        "DeviceGroupedConvFwdMultipleABD_Xdl_CShuffle<2> >",
        OpClass::gemm, "conv"},
       {"igemm_fwd_gtcx35_nhwc_bf16_bx0_ex1_bt256x128x32_wt32x32x8_ws2x1", OpClass::gemm, "conv"},
       {"naive_conv_fwd_nchw_float_double_float", OpClass::gemm, "conv"},
       {"void at::native::(anonymous namespace)::conv_depthwise2d_forward_kernel<1, float, int>",
        OpClass::gemm, "conv"},
       // the short causal convs of linear-attention layers keep their own rows
       {"_causal_conv1d_fwd_kernel", OpClass::linear_attn, "conv_prefill"}},
      "kernel_classes.tsv");
  const ClassRules rules = shipped();
  const Classification by_op =
      roofline::classify::classify(entry("some_vendor_kernel", "aten::cudnn_convolution"), rules);
  CHECK(by_op.op_class == OpClass::gemm);
  CHECK(to_string(by_op.detail) == std::string("conv"));
}

}  // namespace unit_classify_families
