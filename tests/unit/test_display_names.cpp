// Step 12b, display_names (docs/method.md §16.6): what a kernel does, then a short kernel tag.
#include <catch2/catch.hpp>

#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/steps/display_names.hpp"
#include "roofline/cli/layer.hpp"

namespace unit_display_names {
using namespace roofline::cli;

TEST_CASE("kernel_tag: short, distinct, never mangled", "[names]") {
  // A Tensile GEMM by its macro tile, from a long raw name or its short name.
  CHECK(kernel_tag("", "",
                   "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x32x64_MI16x16x1_"
                   "SN_LDSB1_AFC1_AFEM1") == "Cijk MT256x32x64");
  CHECK(kernel_tag("Cijk_Alik_Bljk_BBS_MT16x32x512", "", "Cijk_…") == "Cijk MT16x32x512");
  // A mangled name by its qualified prefix.
  CHECK(kernel_tag("_ZN7ck_tile6kentryILi1ENS_12Rmsnorm2dFwdE", "", "_ZN7ck_tile6kentry") ==
        "ck_tile kentry");
  // A demangled signature by its identifier.
  CHECK(kernel_tag("void at::native::elementwise_kernel<128, 4, at::native::gpu_kernel_impl<"
                   "at::native::MulFunctor<float>>>(int, float)",
                   "", "") == "elementwise_kernel");
  CHECK(kernel_tag("fused_moe_kernel", "", "fused_moe_kernel") == "fused_moe_kernel");
  CHECK(kernel_tag("kernel_paged_attention_2d [clone .kd]", "", "") == "kernel_paged_attention_2d");
  // Long names are cut at an underscore, with an ellipsis, to at most 36 characters.
  const std::string t =
      kernel_tag("cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_35_16", "", "");
  CHECK(t == "cudnn_generated_fort…_knob_35_16");
  CHECK(t.size() <= 36 + 3);
}

TEST_CASE("kernel_tag: a CUTLASS launch wrapper is named by the operator it wraps", "[names]") {
  // Only the mangled prefix was read: the operator from the mangled template argument.
  CHECK(kernel_tag("Kernel", "cutlass::Kernel",
                   "_ZN7cutlass6KernelINS_4gemm6kernel9MoeFCGemmINS1_11threadblock13Mma") ==
        "MoeFCGemm");
  // A demangled name: its first template argument, cut to 36 characters.
  CHECK(kernel_tag("Kernel2", "",
                   "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_256x128_"
                   "32x3_tn_align8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_256x128_32x3_"
                   "tn_align8::Params)") == "cutlass_80_tensorop_bf16…_tn_align8");
  CHECK(kernel_tag("device_kernel",
                   "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<int>>(int)",
                   "_ZN7cutlass13device_kernelI") == "GemmUniversal");
  // A wrapper whose argument cannot be read keeps its own name.
  CHECK(kernel_tag("Kernel", "", "Kernel") == "Kernel");
}

TEST_CASE("kernel_role: the module's leaf layer first, then the op", "[names]") {
  CHECK(kernel_role("Qwen2MLP.MergedColumnParallelLinear", "aten::mm") == "gate_up_proj");
  CHECK(kernel_role("Qwen2MLP.RowParallelLinear", "aten::mm") == "down_proj");
  CHECK(kernel_role("Qwen3Attention.RowParallelLinear", "aten::mm") == "o_proj");
  CHECK(kernel_role("Qwen3Attention.QKVParallelLinear", "aten::mm") == "qkv_proj");
  CHECK(kernel_role("LogitsProcessor", "aten::mm") == "lm_head");
  CHECK(kernel_role("Qwen3DecoderLayer.RMSNorm", "aiter::add_rmsnorm") == "rms_norm");
  CHECK(kernel_role("Qwen3Attention.RadixAttention", "sglang::attention") == "attention");
  // A container module says nothing about a copy inside it: the op does.
  CHECK(kernel_role("Qwen3DecoderLayer.Qwen3Attention", "aten::copy_") == "copy");
  CHECK(kernel_role("", "aten::mul") == "mul");
  CHECK(kernel_role("", "aiter::rmsnorm2d_fwd_with_add_ck") == "rms_norm");
  CHECK(kernel_role("", "triton_poi_fused__to_copy_1") == "");
  CHECK(kernel_role("", "") == "");
}

TEST_CASE("display_names: role · tag, unique within the head", "[names]") {
  std::vector<HeadEntry> head(3);
  head[0].name = head[0].short_name = "Cijk_Alik_Bljk_BBS_MT256x32x64";
  head[0].module = "Qwen2MLP.MergedColumnParallelLinear";
  head[0].op = "aten::mm";
  head[1].name = head[1].short_name = "elementwise_kernel";
  head[1].op = "aten::mul";
  head[1].rank = 4;
  head[2].name = "void at::native::elementwise_kernel<4>(int)";
  head[2].short_name = "elementwise_kernel#2";
  head[2].op = "aten::mul";
  head[2].rank = 7;
  display_names(head);
  CHECK(head[0].display_name == "gate_up_proj · Cijk MT256x32x64");
  CHECK(head[1].display_name == "mul · elementwise_kernel");
  CHECK(head[2].display_name == "mul · elementwise_kernel#2");
  // Two entries that would read the same get their rank.
  head[2].short_name = "elementwise_kernel";
  display_names(head);
  CHECK(head[1].display_name == "mul · elementwise_kernel #4");
  CHECK(head[2].display_name == "mul · elementwise_kernel #7");
}

TEST_CASE("display_names: without projection, module or op, the modelled class says the role",
          "[names]") {
  std::vector<HeadEntry> head(4);
  head[0].name = head[0].short_name = "MoeFCGemm";
  head[0].cls.op_class = OpClass::moe;
  head[1].name = head[1].short_name = "implicit_convolve_sgemm";
  head[1].cls.op_class = OpClass::gemm;
  head[1].cls.detail.gemm = GemmKind::conv;
  head[2].name = head[2].short_name = "ck_tile_rmsnorm";
  head[2].cls.op_class = OpClass::elementwise;
  head[2].cls.detail.elementwise = ElementwiseKind::norm;
  head[3].name = head[3].short_name = "mystery_kernel";  // unknown class: the tag alone
  display_names(head);
  CHECK(head[0].display_name == "moe · MoeFCGemm");
  CHECK(head[1].display_name == "conv · implicit_convolve_sgemm");
  CHECK(head[2].display_name == "norm · ck_tile_rmsnorm");
  CHECK(head[3].display_name == "mystery_kernel");
}

TEST_CASE("display_names: collectives and copies by their kind, whatever module holds them",
          "[names]") {
  // A B200 TP8 graph replay put every launch under the MoE layer's module: the grammar wins.
  std::vector<HeadEntry> head(4);
  for (HeadEntry& e : head) e.module = "DeepseekV2MoE.FusedMoE";
  head[0].name = head[0].short_name = "fused_moe_kernel";
  head[0].cls.op_class = OpClass::moe;
  head[1].name = "void multimem_all_reduce_kernel<__nv_bfloat16, 8>(float*, int)";
  head[1].short_name = "multimem_all_reduce_kernel";
  head[1].cls.op_class = OpClass::comm;
  head[2].name = head[2].short_name = "Memcpy DtoD";
  head[2].cls.op_class = OpClass::elementwise;
  head[2].cls.detail.elementwise = ElementwiseKind::copy;
  head[3].name = head[3].short_name = "ncclDevKernel_AllGather_RING_LL";
  head[3].cls.op_class = OpClass::comm;
  display_names(head);
  CHECK(head[0].display_name == "experts · fused_moe_kernel");
  CHECK(head[1].display_name == "all_reduce · multimem_all_reduce_kernel");
  CHECK(head[2].display_name == "copy · Memcpy DtoD");
  CHECK(head[3].display_name == "all_gather · ncclDevKernel_AllGather_RING_LL");
}

TEST_CASE("display_names: at most k_max_display characters, the one cut of every surface",
          "[names]") {
  std::vector<HeadEntry> head(3);
  head[0].name = head[0].short_name = "mla_dec_stage1_fp8_a8w8_subQ16_mqa16_with_a_long_tail";
  head[0].cls.op_class = OpClass::attn;
  head[1].name = head[1].short_name = "kernel_gemm_xdl_cshuffle_v3";
  head[1].cls.op_class = OpClass::gemm;
  head[1].module = "Qwen2MLP.RowParallelLinear";
  head[2] = head[1];  // the same name twice: the rank suffix still fits
  head[1].rank = 3;
  head[2].rank = 11;
  display_names(head);
  CHECK(head[0].display_name == "attention · mla_dec_stage1_fp8_a8w8…_a_long_tail");
  CHECK(head[1].display_name == "down_proj · kernel_gemm_xdl_cshuffle_v3 #3");
  CHECK(head[2].display_name == "down_proj · kernel_gemm_xdl_cshuffle_v3 #11");
  for (const HeadEntry& e : head) CHECK(display_names_impl::code_points(e.display_name) <= 48);
  // A long list of projections keeps those that fit and counts the rest.
  CHECK(display_names_impl::fit_role("o_proj / down_proj / shared_down_proj / q_b_proj / "
                                     "kv_b_proj / shared_gate_up_proj") == "o_proj / down_proj +4");
  CHECK(display_names_impl::fit_role("gate_up_proj") == "gate_up_proj");
}

}  // namespace unit_display_names

namespace unit_display_names {

TEST_CASE("kernel_tag: ck_tile's FMHA by its pipeline and mask, never its arch tag", "[names]") {
  // ck_tile's kentry<Arch, MinBlocks, Kernel>: the kernel's pipeline, not the arch tag.
  CHECK(kernel_tag("kentry",
                   "void ck_tile::kentry<ck_tile::gfx950_t, 1, ck_tile::FmhaFwdKernel<"
                   "ck_tile::BlockFmhaPipelineQRKSVS<int>, int> >(int)",
                   "_ZN7ck_tile6kentry") == "FmhaFwd qr");
  // An older topn kept the arch tag as the short name: the full name still says what it is.
  const std::string fwd =
      "void ck_tile::kentry<ck_tile::gfx9_t, 1, ck_tile::FmhaFwdKernel<ck_tile::"
      "BlockFmhaPipelineQRKSVSAsync<ck_tile::BlockFmhaPipelineProblem<ck_tile::bf16_t, "
      "ck_tile::TileFmhaShape<int>, false, ck_tile::ComposedAttention<0u, true>, "
      "ck_tile::SimplifiedGenericAttentionMask<true>, false, ck_tile::TileFmhaTraits<int> >, "
      "ck_tile::BlockFmhaPipelineQXKSVSCustomPolicy<true> >, ck_tile::Default2DEpilogue<int> > >"
      "(ck_tile::FmhaFwdGroupModeKargs)";
  CHECK(kernel_tag("gfx9_t", "", fwd) == "FmhaFwd qr_async mask");
  std::string off = fwd;
  off.replace(off.find("Mask<true>"), 10, "Mask<false>");
  CHECK(kernel_tag("FmhaFwdKernel", "", off) == "FmhaFwd qr_async no mask");
  CHECK(kernel_tag(
            "FmhaFwdKernel", "",
            "void ck_tile::kentry<1, ck_tile::FmhaFwdKernel<ck_tile::BlockFmhaPipelineQSKSVS<"
            "P, ck_tile::GenericAttentionMask<true, true> > > >(int)") == "FmhaFwd qs local mask");
  // Mangled, as rocprof writes it: `ILb1E` is <true>.
  CHECK(kernel_tag("", "",
                   "_ZN7ck_tile6kentryILi2ENS_13FmhaFwdKernelINS_28BlockFmhaPipelineQRKSVSAsyncINS_"
                   "24BlockFmhaPipelineProblemIDF16bNS_30SimplifiedGenericAttentionMaskILb1EEELb0E"
                   "EEEEEvDpT1_") == "FmhaFwd qr_async mask");
}

TEST_CASE("kernel_tag: names by the library's grammar, the distinguishing tail kept") {
  // vLLM's SM guard inside CUTLASS 3's device_kernel: what it guards.
  CHECK(kernel_tag("device_kernel",
                   "void cutlass::device_kernel<vllm::enable_sm90_or_later<cutlass::gemm::kernel::"
                   "GemmUniversal<cute::tuple<int, int, int, int>, int> > >(int)",
                   "x") == "GemmUniversal");
  CHECK(kernel_tag("enable_sm120_only", "",
                   "void enable_sm120_only<cutlass::gemm::kernel::GemmUniversal<int> >(int)") ==
        "GemmUniversal");
  // cuBLAS's gemv template is called `kernel`: its namespace says which.
  CHECK(kernel_tag("kernel", "void gemvx::kernel<int, int, __nv_bfloat16, float, false, true>(int)",
                   "x") == "gemvx");
  // Triton and Inductor kernels keep the suffix that tells them apart.
  const std::string a = kernel_tag("_matmul_ogs_NNT_bf16xbf16xmxfp4_128x256x64x1_swiglu", "", "");
  const std::string b = kernel_tag("_matmul_ogs_NNT_bf16xbf16xmxfp4_128x256x64x1", "", "");
  CHECK(a != b);
  CHECK(a.find("_swiglu") != std::string::npos);
  CHECK(kernel_tag("triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_4", "", "") !=
        kernel_tag("triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_5", "", ""));
}

}  // namespace unit_display_names
