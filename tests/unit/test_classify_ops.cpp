// Classification order (docs/method.md §7.1): --classify, the family table, the launching op
// (data/kernel_ops.tsv; a helper kernel of an op keeps its own class), name tokens; the negative
// cases of the token rule; the names of the fixtures' traces.
#include <catch2/catch.hpp>

#include "roofline/classify/classify.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/inputs/embedded_data.hpp"
#include "roofline/inputs/kernel_classes.hpp"

namespace unit_classify_ops {
using namespace roofline::cli;

namespace {

TopnEntry launched(std::string name, std::string op) {
  TopnEntry e;
  e.name = std::move(name);
  e.short_name = e.name;
  e.op = std::move(op);
  e.pct_gpu_time = 5.0;
  return e;
}

ClassRules shipped() {
  ClassRules r;
  r.families = builtin_kernel_classes_rules();
  return r;
}

}  // namespace

TEST_CASE("classify ops: a kernel no family names takes its launching op's class",
          "[classify][ops]") {
  const ClassRules rules = shipped();
  struct Case {
    const char* op;
    OpClass cls;
    const char* row;
  };
  for (const Case& c :
       {Case{"aten::mm", OpClass::gemm, "'aten::mm'"},
        Case{"aten::addmm", OpClass::gemm, "'aten::addmm'"},
        Case{"aten::bmm", OpClass::gemm, "'aten::bmm'"},
        Case{"aten::_scaled_mm", OpClass::gemm, "'aten::_scaled_mm'"},
        Case{"aten::_scaled_dot_product_flash_attention", OpClass::attn, "'aten::_*attention*'"},
        Case{"aten::_scaled_dot_product_efficient_attention", OpClass::attn,
             "'aten::_*attention*'"},
        Case{"vllm::unified_attention_with_output", OpClass::attn, "'vllm::unified_attention*'"},
        Case{"vllm::moe_forward", OpClass::moe, "'vllm::moe_forward'"},
        Case{"c10d::allreduce_", OpClass::comm, "'c10d::allreduce_'"},
        Case{"_c10d_functional::all_reduce", OpClass::comm, "'_c10d_functional::all_reduce*'"}}) {
    INFO(c.op);
    const Classification got =
        roofline::classify::classify(launched("sm90_mystery_kernel_0", c.op), rules);
    INFO(got.rule);
    CHECK(got.op_class == c.cls);
    CHECK(got.rule.find("launching op") != std::string::npos);
    CHECK(got.rule.find(c.row) != std::string::npos);
    CHECK(got.collective == (c.cls == OpClass::comm));
  }
  // No op, or an op the table does not know: the name tokens and then the profiler decide.
  CHECK(roofline::classify::classify(launched("sm90_mystery_kernel_0", ""), rules).op_class ==
        OpClass::unknown);
  CHECK(roofline::classify::classify(launched("sm90_mystery_kernel_0", "aten::frobnicate"), rules)
            .op_class == OpClass::unknown);
}

TEST_CASE("classify ops: the order of the rules", "[classify][ops]") {
  ClassRules rules = shipped();
  // The family table beats the op: a MoE finalize under vllm::moe_forward stays elementwise.
  const Classification fin = roofline::classify::classify(
      launched("_finalize_matmul_scatter_bf16", "vllm::moe_forward"), rules);
  CHECK(fin.op_class == OpClass::elementwise);
  CHECK(fin.rule.find("kernel_classes.tsv") != std::string::npos);
  // The op beats the name tokens: `attn` in the name of a kernel aten::mm launched.
  const Classification op =
      roofline::classify::classify(launched("triton_attn_proj_kernel_7", "aten::mm"), rules);
  CHECK(op.op_class == OpClass::gemm);
  // An override beats everything.
  std::string error;
  rules.overrides.push_back(*parse_classify_override("sm90_mystery*=elementwise:copy", error));
  const Classification ov =
      roofline::classify::classify(launched("sm90_mystery_kernel_0", "aten::mm"), rules);
  CHECK(ov.op_class == OpClass::elementwise);
  CHECK(ov.rule.find("--classify") != std::string::npos);
}

TEST_CASE("classify ops: helper kernels of an op keep their own class", "[classify][ops]") {
  const ClassRules rules = shipped();
  // A split-K reduction and a memset that aten::mm launched are not GEMMs.
  const Classification red =
      roofline::classify::classify(launched("sm90_splitk_reduce_bf16", "aten::mm"), rules);
  INFO(red.rule);
  CHECK(red.op_class == OpClass::elementwise);
  CHECK(red.detail.elementwise == ElementwiseKind::reduce);
  CHECK(red.rule.find("helper kernel") != std::string::npos);
  const Classification set =
      roofline::classify::classify(launched("my_memset_kernel", "vllm::moe_forward"), rules);
  CHECK(set.op_class == OpClass::elementwise);
  CHECK(set.detail.elementwise == ElementwiseKind::fill);
  // Under an attention op a combine/reduce is the split-KV reduction, still attention.
  const Classification comb = roofline::classify::classify(
      launched("my_splitkv_combine_kernel", "vllm::unified_attention_with_output"), rules);
  CHECK(comb.op_class == OpClass::attn);
  CHECK(comb.detail.attn == AttnVariant::decode_reduce);
  // A kernel whose name says it does the op's own work is not a helper: a gemv under aten::mm.
  const Classification gemv =
      roofline::classify::classify(launched("my_gemv_reduce_bf16", "aten::mm"), rules);
  INFO(gemv.rule);
  CHECK(gemv.op_class == OpClass::gemm);
}

TEST_CASE("classify ops: the shipped op table parses, and its rows are token-anchored",
          "[classify][ops]") {
  auto table = parse_kernel_ops(builtin_kernel_ops(), "kernel_ops.tsv");
  CHECK(table.errors.empty());
  REQUIRE(table.value.has_value());
  CHECK(table.value->size() == builtin_kernel_ops_rules().size());
  CHECK(table.value->size() > 20);
  auto broken = parse_kernel_ops("aten::mm  gemm  ok\naten::x  gemmm  typo\n", "ops.tsv");
  REQUIRE(broken.value.has_value());
  CHECK(broken.value->size() == 1);
  REQUIRE(broken.errors.size() == 1);
  CHECK(broken.errors[0].find("ops.tsv:2") != std::string::npos);
  // aten::mm names aten::mm only; aten::addmm is its own row.
  const ClassRules rules = shipped();
  CHECK(roofline::classify::classify(launched("k0", "aten::addmm"), rules)
            .rule.find("'aten::addmm'") != std::string::npos);
}

TEST_CASE("classify ops: the demangled name is matched, the raw one only without it",
          "[classify][ops]") {
  const ClassRules rules = shipped();
  TopnEntry e = launched("_ZN5aiter24add_rmsnorm_quant_kernelIfEEvPT_", "");
  e.short_name = "kernel";
  CHECK(roofline::classify::classify(e, rules).detail.elementwise ==
        ElementwiseKind::add_norm);  // raw, no demangled
  e.demangled = "void aiter::fused_thing<float>(float*)";
  CHECK(roofline::classify::classify(e, rules).op_class ==
        OpClass::unknown);  // the demangled name decides
  e.demangled = "void aiter::add_rmsnorm_quant_kernel<float>(float*)";
  CHECK(roofline::classify::classify(e, rules).detail.elementwise == ElementwiseKind::add_norm);
}

TEST_CASE("classify negatives: a token never matches inside a word", "[classify][negative]") {
  const ClassRules rules = shipped();
  // fbgemm embedding kernels are not GEMMs (the substring rule said they were).
  for (const char* name :
       {"void fbgemm_gpu::embedding_forward_split_kernel<float, c10::Half, 16>(int)",
        "fbgemm_gpu::batch_index_select_dim0_codegen_forward_kernel<float>"}) {
    INFO(name);
    const Classification c = roofline::classify::classify(launched(name, ""), rules);
    INFO(c.rule);
    CHECK(c.op_class != OpClass::gemm);
    CHECK(c.rule.find("'gemm'") == std::string::npos);
  }
  // swiGlu inside a TRT-LLM expert GEMM does not make it elementwise.
  const Classification bmm = roofline::classify::classify(
      launched("bmm_Bfloat16_MxE2m1MxE4m3_Fp32_t128x8x512u2_s3_swiGlu_sm100f", ""), rules);
  CHECK(bmm.op_class == OpClass::moe);
  // An Inductor pointwise kernel whose fused body is named after moe_forward is no MoE GEMM.
  CHECK(roofline::classify::classify(launched("triton_poi_fused_constant_pad_nd_moe_forward_0", ""),
                                     rules)
            .op_class == OpClass::elementwise);
  // An all-reduce is never an elementwise reduce.
  CHECK(roofline::classify::classify(launched("multimem_all_reduce_kernel", ""), rules).op_class ==
        OpClass::comm);
}

TEST_CASE("classify fixtures: every kernel of the serving and torch-trace fixtures",
          "[classify][fixtures]") {
  const ClassRules rules = shipped();
  struct Case {
    const char* name;
    OpClass cls;
    const char* detail;
  };
  // The names as the traces spell them (tests/fixtures/serving/, tests/fixtures/torch-trace/).
  for (const Case& c : {
           Case{"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT256x32x64_MI16x16x1_SN_LDSB1",
                OpClass::gemm, ""},
           {"void paged_attention_ll4mi_QKV_mfma16_kernel<0, __hip_bfloat16, __hip_bfloat16, "
            "(vllm::Fp8KVCacheDataType)0, 1, 128, 256, false, 4, 1, ck_tile::ComposedAttention<0u, "
            "false> >(__hip_bfloat16 const*)",
            OpClass::attn, "decode"},
           {"void paged_attention_ll4mi_reduce_kernel<__hip_bfloat16, __hip_bfloat16, 128, 128, "
            "256, 3, false>(__hip_bfloat16*)",
            OpClass::attn, "decode_reduce"},
           {"_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64ELi8ELb0ELb0ELb1ELi1EEEvPT0_PT_PfS4_"
            "S4_S4_diiiiiiib",
            OpClass::elementwise, "add_norm+rows"},
           {"_ZN7sgl_hip10activation18act_and_mul_kernelI14__hip_bfloat16TnPFT_RKS3_EXadL_"
            "Z4siluIS2_"
            "ES3_S5_EEEEvPS3_PS4_i",
            OpClass::elementwise, "act_and_mul"},
           {"void rotary_embedding_kernel<c10::BFloat16, true>(long const*)", OpClass::elementwise,
            "rope"},
           {"void (anonymous namespace)::store_kvcache<2048l, 4, false, long>((anonymous "
            "namespace)::StoreKVCacheParams)",
            OpClass::elementwise, "kv_write"},
           {"create_flashinfer_kv_indices_triton", OpClass::elementwise, "index"},
           {"_matmul_ogs_NNT_bf16xbf16xmxfp4_128x128x128x1_swiglu", OpClass::moe, "stage1"},
           {"_matmul_ogs_NNT_bf16xbf16xmxfp4_128x128x128x1", OpClass::moe, "stage2"},
           {"_finalize_matmul_scatter_bf16", OpClass::elementwise, "reduce"},
           {"_combined_routing_compute", OpClass::elementwise, "index"},
           {"_combined_routing_memset", OpClass::elementwise, "fill"},
           {"_sum_bitmatrix_rows", OpClass::elementwise, "reduce"},
           {"_topk_forward", OpClass::elementwise, "softmax"},
           {"kernel_unified_attention_2d", OpClass::attn, "auto"},
           {"_ZN7ck_tile6kentryILi1ENS_12Rmsnorm2dFwdINS_27Rmsnorm2dFwdPipelineOnePassINS_"
            "27Rmsnorm2dFwdPipelineProblemIDF16bDF16bfDF16bDF16bDF16bffNS_19Generic2dBlockShape",
            OpClass::elementwise, "norm"},
           {"void vllm::reshape_and_cache_flash_kernel<__hip_bfloat16, __hip_bfloat16, "
            "(vllm::Fp8KVCacheDataType)0>(__hip_bfloat16 const*)",
            OpClass::elementwise, "kv_write"},
           {"triton_poi_fused_constant_pad_nd_moe_forward_0", OpClass::elementwise, ""},
           {"triton_poi_fused__to_copy_1", OpClass::elementwise, ""},
           {"nvjet_sm90_tst_192x8_64x8_2x1_v_bz_TNT", OpClass::gemm, ""},
           {"nvjet_sm90_tst_64x64_64x13_4x1_v_bz_splitK_TNT", OpClass::gemm, ""},
           {"void cublasLt::splitKreduce_kernel<32, 16, int, float, __nv_bfloat16, float>("
            "cublasLt::cublasSplitKParams<float>)",
            OpClass::elementwise, "reduce"},
           {"cudnn_generated_fort_native_sdpa_sm80_flash_fprop_wmma_f16_knob_35_16x128x128_1x4x1_"
            "cga1x1x1_kernel0_0",
            OpClass::attn, ""},
           {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, "
            "float, true>(int)",
            OpClass::elementwise, "norm"},
           {"void at::native::vectorized_elementwise_kernel<8, at::native::FillFunctor<c10::"
            "BFloat16>, std::array<char*, 1ul> >(int)",
            OpClass::elementwise, "fill"},
       }) {
    INFO(c.name);
    const Classification got = roofline::classify::classify(launched(c.name, ""), rules);
    INFO(got.rule);
    CHECK(got.op_class == c.cls);
    CHECK(to_string(got.detail) == std::string(c.detail));
  }
}

}  // namespace unit_classify_ops
