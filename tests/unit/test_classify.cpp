// Stage 3 (docs/method.md §7): override > kernel-family table > collective / generic tokens >
// profiler.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "roofline/inputs/embedded_data.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "unit/test_helpers.hpp"

namespace unit_classify {
using namespace roofline::cli;

namespace {

TopnEntry entry(std::string name, std::string classification = "", std::string short_name = "") {
  TopnEntry e;
  e.name = std::move(name);
  e.short_name = short_name.empty() ? e.name : std::move(short_name);
  e.classification = std::move(classification);
  e.pct_gpu_time = 6.0;
  return e;
}

ClassRules shipped() {
  ClassRules r;
  r.families = builtin_kernel_classes_rules();
  return r;
}

ClassRule override_rule(const std::string& spec) {
  std::string error;
  auto r = parse_classify_override(spec, error);
  INFO(error);
  REQUIRE(r.has_value());
  return *r;
}

}  // namespace

TEST_CASE("classify: shipped families for real kernel names", "[classify]") {
  const ClassRules rules = shipped();
  struct Case {
    const char* name;
    OpClass cls;
    const char* detail;
  };
  const Case cases[] = {
      {"fused_moe_kernel", OpClass::moe, ""},
      {"ck_moe_stage1<ck::tensor_layout::gemm::RowMajor, 256, 64, 128>", OpClass::moe, "stage1"},
      {"kernel_moe_gemm<ck::GridwiseMoeGemm<256, 128, 64>, true, 2>", OpClass::moe, ""},
      {"_fwd_grouped_kernel_stage1", OpClass::attn, "decode"},
      {"_fwd_kernel_stage2", OpClass::attn, "decode_reduce"},
      {"kernel_paged_attention_2d", OpClass::attn, "decode"},
      {"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT64x16x256_MI16x16x1_SN_LDSB1_AFC1",
       OpClass::gemm, ""},
      {"void wvSplitK_hf_sml_<__hip_bfloat16, 64, 2, 16, 8, 2, 1>(int, int, int, float, "
       "__hip_bfloat16 const*)",
       OpClass::gemm, ""},
      {"void vllm::act_and_mul_kernel<c10::BFloat16, &vllm::silu_kernel<c10::BFloat16>, "
       "true>(c10::BFloat16*)",
       OpClass::elementwise, "act_and_mul+rows"},
      {"void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, c10::BFloat16*, "
       "float, int)",
       OpClass::elementwise, "add_norm+rows"},
      {"moe_align_block_size_kernel", OpClass::elementwise, "index"},
      // Inductor names a kernel after the ops it fused: RMSNorm (pow, mean, the epsilon add,
      // rsqrt, mul) and SiLU-and-mul; a reduction of other ops stays generic.
      {"triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_1", OpClass::elementwise, "norm"},
      {"triton_per_fused__to_copy_add_mean_mul_pow_rsqrt_0", OpClass::elementwise, "norm"},
      {"triton_poi_fused_mul_silu_3", OpClass::elementwise, "act_and_mul"},
      {"triton_red_fused_2", OpClass::elementwise, ""},
      {"fused_recurrent_gated_delta_rule_fwd_kernel", OpClass::linear_attn, "gdn"},
      {"fused_sigmoid_gating_delta_rule_update_kernel", OpClass::linear_attn, "gdn"},
      {"fused_recurrent_kda_fwd_kernel", OpClass::linear_attn, "kda"},
      {"_linear_attn_decode_kernel", OpClass::linear_attn, "lightning"},
      {"chunk_gated_delta_rule_fwd_kernel_h_blockdim64", OpClass::linear_attn, "prefill"},
      {"chunk_fwd_kernel_o", OpClass::linear_attn, "prefill"},
      {"recompute_w_u_fwd_kernel", OpClass::linear_attn, "prefill"},
      {"solve_tril_16x16_kernel", OpClass::linear_attn, "prefill"},
      {"_causal_conv1d_update_kernel", OpClass::linear_attn, "conv"},
      {"causal_conv1d_update_kernel", OpClass::linear_attn, "conv"},
      {"_causal_conv1d_fwd_kernel", OpClass::linear_attn, "conv_prefill"},
      {"_selective_scan_update_kernel", OpClass::ssm, "update"},
      {"void selective_state_update_kernel<float, 64>(SSMParamsBase)", OpClass::ssm, "update"},
      {"_chunk_scan_fwd_kernel", OpClass::ssm, "prefill"},
      {"_chunk_state_fwd_kernel", OpClass::ssm, "prefill"},
      {"_state_passing_fwd_kernel", OpClass::ssm, "prefill"},
      {"_bmm_chunk_fwd_kernel", OpClass::ssm, "prefill"},
      {"void selective_scan_fwd_kernel<512, 3, 4, true>(SSMParamsBase)", OpClass::ssm, "prefill"},
      {"fp8_paged_mqa_logits_kernel", OpClass::attn, "indexer"},
      {"_decode_score_kernel", OpClass::attn, "indexer"},
      {"indexer_k_quant_and_cache_kernel", OpClass::elementwise, "kv_write"},
      // Chunked-prefill attention is not an FLA chunk kernel.
      {"chunked_prefill_paged_decode", OpClass::attn, "auto"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Classification got = roofline::classify::classify(entry(c.name), rules);
    CHECK(got.op_class == c.cls);
    CHECK(to_string(got.detail) == c.detail);
    CHECK(got.rule.find("kernel_classes.tsv") != std::string::npos);
  }
}

TEST_CASE("classify: a user override beats the shipped table", "[classify]") {
  ClassRules rules = shipped();
  rules.overrides.push_back(override_rule("fused_moe*=gemm"));
  Classification c = roofline::classify::classify(entry("fused_moe_kernel"), rules);
  CHECK(c.op_class == OpClass::gemm);
  CHECK(c.rule.find("--classify") != std::string::npos);
  // The override is a glob over the whole name: it does not touch other kernels.
  CHECK(roofline::classify::classify(entry("kernel_paged_attention_2d"), rules).op_class ==
        OpClass::attn);
}

TEST_CASE("classify: override with a detail, first override wins", "[classify]") {
  ClassRules rules = shipped();
  rules.overrides.push_back(override_rule("my_moe_gateup=moe:stage1"));
  rules.overrides.push_back(override_rule("my_moe=attn"));
  Classification c = roofline::classify::classify(entry("my_moe_gateup_v2"), rules);
  CHECK(c.op_class == OpClass::moe);
  CHECK(c.detail.moe.stage == MoeStage::stage1);
  std::string error;
  CHECK_FALSE(parse_classify_override("foo=tensorcore", error).has_value());
  CHECK(error.find("tensorcore") != std::string::npos);
  CHECK_FALSE(parse_classify_override("=gemm", error).has_value());
}

TEST_CASE("classify: the table beats generic tokens", "[classify]") {
  // "moe_align_block_size" contains the generic MoE token "moe", but the table says index kernel.
  const ClassRules rules = shipped();
  CHECK(roofline::classify::classify(entry("moe_align_block_size_kernel"), rules).op_class ==
        OpClass::elementwise);
  ClassRules empty;
  CHECK(roofline::classify::classify(entry("moe_align_block_size_kernel"), empty).op_class ==
        OpClass::moe);
}

TEST_CASE("classify: collectives are comm with the collective flag (MODELS.md §8)", "[classify]") {
  const ClassRules rules = shipped();
  for (const char* name :
       {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
        "cross_device_reduce_1stage<__hip_bfloat16, 8>", "custom_allreduce_two_shot",
        "rccl_all_gather_kernel", "one_shot_all_reduce_kernel<__hip_bfloat16>",
        "reduce_scatter_ring_kernel",
        "void quickreduce::allreduce_prototype_twoshot<quickreduce::AllReduceTwoshot<"
        "__hip_bfloat16, quickreduce::CodecQ4<__hip_bfloat16>, false>>(...)",
        "allreduce_fusion_kernel_twoshot_single_load<__hip_bfloat16, 8>"}) {
    INFO(name);
    Classification c = roofline::classify::classify(entry(name, "library_gemm"), rules);
    CHECK(c.op_class == OpClass::comm);
    CHECK(c.collective);
  }
  // The family table's comm rows carry the algorithm.
  CHECK(roofline::classify::classify(entry("cross_device_reduce_2stage<__hip_bfloat16, 8>"), rules)
            .detail.comm == CommAlgorithm::twoshot);
  CHECK(roofline::classify::classify(entry("cross_device_reduce_1stage<__hip_bfloat16, 8>"), rules)
            .detail.comm == CommAlgorithm::oneshot);
}

TEST_CASE("classify: collective tokens beat generic tokens", "[classify]") {
  ClassRules no_table;
  // "reduce" alone would be elementwise; "all_reduce" makes it a collective.
  Classification c = roofline::classify::classify(entry("two_shot_all_reduce_kernel"), no_table);
  CHECK(c.op_class == OpClass::comm);
  CHECK(c.collective);
  CHECK(roofline::classify::classify(entry("block_reduce_kernel"), no_table).op_class ==
        OpClass::elementwise);
}

TEST_CASE("classify: --classify takes the new classes", "[classify]") {
  ClassRules rules = shipped();
  rules.overrides.push_back(override_rule("my_state_update=ssm:mamba2"));
  rules.overrides.push_back(override_rule("my_gdn=linear_attn:gdn"));
  rules.overrides.push_back(override_rule("my_ar=comm:oneshot"));
  CHECK(roofline::classify::classify(entry("my_state_update"), rules).op_class == OpClass::ssm);
  CHECK(roofline::classify::classify(entry("my_gdn_v2"), rules).op_class == OpClass::linear_attn);
  Classification ar = roofline::classify::classify(entry("my_ar"), rules);
  CHECK(ar.op_class == OpClass::comm);
  CHECK(ar.detail.comm == CommAlgorithm::oneshot);
  CHECK(ar.collective);
}

TEST_CASE("classify: generic tokens in SPEC order", "[classify]") {
  ClassRules no_table;
  struct Case {
    const char* name;
    OpClass cls;
  };
  const Case cases[] = {
      {"my_expert_gemm_kernel", OpClass::moe},        // MoE before GEMM
      {"triton_flash_decode_kernel", OpClass::attn},  // attention
      {"mla_absorb_gemm", OpClass::attn},             // attention before GEMM
      {"custom_gemv_splitk", OpClass::gemm},
      {"triton_linear_kernel", OpClass::gemm},
      {"triton_red_fused_rms_0", OpClass::elementwise},
      {"silu_kernel", OpClass::elementwise},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Classification got = roofline::classify::classify(entry(c.name, "other"), no_table);
    CHECK(got.op_class == c.cls);
    CHECK(got.rule.find("name token") != std::string::npos);
  }
}

TEST_CASE("classify: the profiler's classification is the last resort", "[classify]") {
  ClassRules no_table;
  CHECK(roofline::classify::classify(entry("kernel_0x7f3a", "library_gemm"), no_table).op_class ==
        OpClass::gemm);
  CHECK(roofline::classify::classify(entry("kernel_0x7f3a", "library_attn"), no_table).op_class ==
        OpClass::attn);
  CHECK(roofline::classify::classify(entry("kernel_0x7f3a", "elementwise_overhead"), no_table)
            .op_class == OpClass::elementwise);
  CHECK(roofline::classify::classify(entry("kernel_0x7f3a", "reduction_norm"), no_table).op_class ==
        OpClass::elementwise);
  CHECK(roofline::classify::classify(entry("kernel_0x7f3a", "memory"), no_table).op_class ==
        OpClass::elementwise);
  Classification triton = roofline::classify::classify(entry("kernel_0x7f3a", "triton"), no_table);
  CHECK(triton.op_class == OpClass::unknown);
  CHECK_FALSE(triton.collective);
  // A name token beats the profiler: a "memory" hint on a GEMM name is still a GEMM.
  CHECK(roofline::classify::classify(entry("custom_matmul_kernel", "memory"), no_table).op_class ==
        OpClass::gemm);
}

TEST_CASE("classify: short_name is matched too", "[classify]") {
  const ClassRules rules = shipped();
  Classification c = roofline::classify::classify(
      entry("void (anonymous namespace)::kernel_0<float, 4>(float*)", "", "rms_norm"), rules);
  CHECK(c.op_class == OpClass::elementwise);
  CHECK(c.detail.elementwise == ElementwiseKind::norm);
}

TEST_CASE("classify: the detail language is closed and checked where it is read", "[classify]") {
  // Every shipped row parses (the build checks this too: tools/check_data_tables.cpp).
  auto shipped_table = parse_kernel_classes(builtin_kernel_classes(), "kernel_classes.tsv");
  CHECK(shipped_table.errors.empty());
  REQUIRE(shipped_table.value.has_value());
  CHECK(shipped_table.value->size() == builtin_kernel_classes_rules().size());

  std::string error;
  // Spellings round-trip: the typed value prints as the table writes it.
  for (auto [cls, text] : {std::pair{OpClass::moe, "both+all+shared"},
                           {OpClass::moe, "stage2"},
                           {OpClass::moe, "all"},
                           {OpClass::attn, "auto"},
                           {OpClass::linear_attn, "conv_prefill"},
                           {OpClass::ssm, "update"},
                           {OpClass::comm, "twoshot"},
                           {OpClass::elementwise, "kv_write"},
                           {OpClass::unknown, "sampling"}}) {
    auto d = parse_class_detail(cls, text, error);
    INFO(text << ": " << error);
    REQUIRE(d.has_value());
    CHECK(to_string(*d) == text);
  }
  auto shared_first = parse_class_detail(OpClass::moe, "shared+stage1", error);
  REQUIRE(shared_first.has_value());
  CHECK(shared_first->moe.stage == MoeStage::stage1);
  CHECK(shared_first->moe.fused_shared);

  // A typo no longer falls back silently: the value and what the class accepts are named.
  for (auto [cls, text] : {std::pair{OpClass::moe, "stage3"},
                           {OpClass::moe, "both+stage1"},
                           {OpClass::moe, "all+all"},
                           {OpClass::moe, "stage1+"},
                           {OpClass::attn, "decod"},
                           {OpClass::ssm, "gdn"},
                           {OpClass::linear_attn, "update"},
                           {OpClass::gemm, "stage1"},
                           {OpClass::comm, "collective"},
                           {OpClass::elementwise, "Norm"}}) {
    INFO(text);
    error.clear();
    CHECK_FALSE(parse_class_detail(cls, text, error).has_value());
    CHECK(error.find(std::string("'") + text + "'") != std::string::npos);
    CHECK(error.find("accepted") != std::string::npos);
  }

  // The --classify spelling: a bad detail is refused with the class's accepted details.
  CHECK_FALSE(parse_classify_override("fused_moe*=moe:stage3", error).has_value());
  CHECK(error.find("'stage3'") != std::string::npos);
  CHECK(error.find("stage1, stage2 or both") != std::string::npos);
  CHECK_FALSE(parse_classify_override("x=gemm:fast", error).has_value());
  CHECK(error.find("accepted: conv") != std::string::npos);
  auto upper = parse_classify_override("x=MOE:Stage2", error);
  REQUIRE(upper.has_value());
  CHECK(upper->detail.moe.stage == MoeStage::stage2);

  // A broken table row is an error naming the line, never a silent fallback.
  auto broken = parse_kernel_classes(
      "# comment\nfoo  moe:stage1  ok\nbar  attn:decoed  typo\nbaz  gemmm  typo\n", "t.tsv");
  REQUIRE(broken.value.has_value());
  CHECK(broken.value->size() == 1);
  REQUIRE(broken.errors.size() == 2);
  CHECK(broken.errors[0].find("t.tsv:3") != std::string::npos);
  CHECK(broken.errors[0].find("'decoed'") != std::string::npos);
  CHECK(broken.errors[1].find("t.tsv:4") != std::string::npos);
}

}  // namespace unit_classify
