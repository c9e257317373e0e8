// Stage 4, dense GEMM (docs/method.md §8): flops = 2MNK, bytes = MK·a + KN·w + MN·a, B stored [K,N]
// or [N,K].
#include <catch2/catch.hpp>

#include "roofline/analyze/evidence/operand_dtypes.hpp"
#include "roofline/classify/classify.hpp"
#include "roofline/cli/layer.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "unit/test_helpers.hpp"

namespace unit_model_gemm {
using namespace roofline::cli;
using roofline::test::gfx950_peaks;
using roofline::test::rel;

namespace {

struct Fixture {
  EnvReport env;
  ModelConfig config;
  ResolvedPeaks peaks = gfx950_peaks();
  Fixture() {
    env.gfx = "gfx950";
    env.workload = roofline::test::workload(1024, 1024, 64);
    env.model_dtype = "bf16";
    config.dtype = "bfloat16";
    config.hidden = 2048;
  }
  ModelContext ctx() const { return ModelContext{&env, &config, "", &peaks}; }
};

RegimeChoice decode_regime(double t_ms) {
  RegimeChoice r;
  r.regime = Regime::decode;
  r.t_ms = t_ms;
  r.launches_per_step = 80;
  return r;
}

Classification gemm_class() {
  Classification c;
  c.op_class = OpClass::gemm;
  return c;
}

TopnEntry gemm_entry(std::vector<std::vector<std::int64_t>> shapes,
                     std::vector<std::string> dtypes) {
  TopnEntry e;
  e.name = "_w8a8_block_fp8_matmul";
  e.pct_gpu_time = 6.62;
  e.shapes = std::move(shapes);
  e.dtypes = std::move(dtypes);
  return e;
}

}  // namespace

TEST_CASE("model_work GEMM: B stored [N,K] is matched on K", "[model][gemm]") {
  Fixture f;
  // QKV projection of the worked example: [64, 2048] x [12288, 2048]^T, fp8 weights and
  // activations.
  TopnEntry e =
      gemm_entry({{64, 2048}, {12288, 2048}}, {"torch.float8_e4m3fn", "torch.float8_e4m3fn"});
  WorkEstimate w = model_work(e, decode_regime(0.0129), gemm_class(), f.ctx());
  REQUIRE(w.modeled);
  const double M = 64, K = 2048, N = 12288;
  CHECK(w.flops == rel(2 * M * N * K));
  // fp8 in, the output in the model's dtype (bf16: an fp8 GEMM writes what the model reads on).
  CHECK(w.bytes == rel(M * K * 1 + K * N * 1 + M * N * 2));
  CHECK(w.bytes == rel(26869760.0));
  CHECK(roofline::test::any_contains(w.notes, {"output o bf16 (2 B"}));
  CHECK(w.weight_bytes == rel(K * N));
  CHECK(w.compute_dtype.key == DtypeKey::fp8);
  CHECK(w.t_unit_ms == rel(0.0129));
  CHECK(w.unit_launches == rel(1));
}

TEST_CASE("model_work GEMM: [K,N] and [N,K] storage give the same work", "[model][gemm]") {
  Fixture f;
  TopnEntry kn = gemm_entry({{64, 4096}, {4096, 1024}}, {"torch.bfloat16", "torch.bfloat16"});
  TopnEntry nk = gemm_entry({{64, 4096}, {1024, 4096}}, {"torch.bfloat16", "torch.bfloat16"});
  WorkEstimate a = model_work(kn, decode_regime(0.02), gemm_class(), f.ctx());
  WorkEstimate b = model_work(nk, decode_regime(0.02), gemm_class(), f.ctx());
  REQUIRE(a.modeled);
  REQUIRE(b.modeled);
  const double M = 64, K = 4096, N = 1024;
  CHECK(a.flops == rel(2 * M * N * K));
  CHECK(b.flops == rel(2 * M * N * K));
  CHECK(a.bytes == rel((M * K + K * N + M * N) * 2));
  CHECK(b.bytes == rel(a.bytes));
}

TEST_CASE("model_work GEMM: bf16 activations with fp8 weights", "[model][gemm]") {
  Fixture f;
  TopnEntry e = gemm_entry({{64, 2048}, {1024, 2048}}, {"c10::BFloat16", "float8_e4m3fnuz"});
  WorkEstimate w = model_work(e, decode_regime(0.01), gemm_class(), f.ctx());
  REQUIRE(w.modeled);
  const double M = 64, K = 2048, N = 1024;
  CHECK(w.bytes == rel(M * K * 2 + K * N * 1 + M * N * 2));
  CHECK(w.compute_dtype.key == DtypeKey::bf16);  // the wider of the two
  CHECK(w.activation_dtype == DtypeKey::bf16);
  CHECK(w.weight_dtype == DtypeKey::fp8);
}

TEST_CASE("model_work GEMM: weight dtype from quantization_config when the entry does not say",
          "[model][gemm]") {
  Fixture f;
  f.config.quant_method = "fp8";
  f.config.quant_weight_bytes = 1.0;
  TopnEntry e = gemm_entry({{64, 2048}, {1024, 2048}}, {"torch.bfloat16"});
  WorkEstimate w = model_work(e, decode_regime(0.01), gemm_class(), f.ctx());
  REQUIRE(w.modeled);
  const double M = 64, K = 2048, N = 1024;
  CHECK(w.weight_dtype == DtypeKey::fp8);
  CHECK(w.bytes == rel(M * K * 2 + K * N * 1 + M * N * 2));
}

TEST_CASE("model_work GEMM: env model_dtype beats the config dtype for weights", "[model][gemm]") {
  Fixture f;
  f.env.model_dtype = "fp8";
  TopnEntry e = gemm_entry({{64, 2048}, {1024, 2048}}, {"torch.bfloat16"});
  WorkEstimate w = model_work(e, decode_regime(0.01), gemm_class(), f.ctx());
  REQUIRE(w.modeled);
  CHECK(w.weight_dtype == DtypeKey::fp8);
  CHECK(w.activation_dtype == DtypeKey::bf16);
}

TEST_CASE("model_work GEMM: a8w4 computes in fp8 and reads half-byte weights", "[model][gemm]") {
  Fixture f;
  TopnEntry e = gemm_entry({{64, 2048}, {1024, 2048}}, {"torch.float8_e4m3fn", "mxfp4"});
  WorkEstimate w = model_work(e, decode_regime(0.01), gemm_class(), f.ctx());
  REQUIRE(w.modeled);
  const double M = 64, K = 2048, N = 1024;
  CHECK(w.compute_dtype.key == DtypeKey::fp8);
  CHECK(w.bytes == rel(M * K * 1 + K * N * 0.5 + M * N * 2));  // bf16 out
}

TEST_CASE("model_work GEMM: est_shape M is the rows in flight", "[model][gemm]") {
  Fixture f;
  TopnEntry e = gemm_entry({{256, 2048}, {1024, 2048}}, {"torch.bfloat16", "torch.bfloat16"});
  e.est_shape.decode = EstShape{64, std::nullopt, std::nullopt};
  WorkEstimate w = model_work(e, decode_regime(0.01), gemm_class(), f.ctx());
  REQUIRE(w.modeled);
  CHECK(w.flops == rel(2.0 * 64 * 1024 * 2048));
}

TEST_CASE("model_work GEMM: unusable shapes are not modelled, with a reason", "[model][gemm]") {
  Fixture f;
  SECTION("no shapes") {
    WorkEstimate w = model_work(gemm_entry({}, {}), decode_regime(0.01), gemm_class(), f.ctx());
    CHECK_FALSE(w.modeled);
    CHECK(w.unmodeled_reason.find("shapes") != std::string::npos);
    CHECK(w.candidates.empty());
  }
  SECTION("no operand shares K") {
    WorkEstimate w = model_work(gemm_entry({{64, 2048}, {1024, 4096}}, {"bf16", "bf16"}),
                                decode_regime(0.01), gemm_class(), f.ctx());
    CHECK_FALSE(w.modeled);
    CHECK(w.unmodeled_reason.find("K") != std::string::npos);
  }
  SECTION("no per-launch time") {
    RegimeChoice r;
    WorkEstimate w = model_work(gemm_entry({{64, 2048}, {1024, 2048}}, {"bf16", "bf16"}), r,
                                gemm_class(), f.ctx());
    CHECK_FALSE(w.modeled);
    CHECK_FALSE(w.unmodeled_reason.empty());
  }
  SECTION("a negative per-launch time") {
    WorkEstimate w = model_work(gemm_entry({{64, 2048}, {1024, 2048}}, {"bf16", "bf16"}),
                                decode_regime(-0.01), gemm_class(), f.ctx());
    CHECK_FALSE(w.modeled);
    CHECK(w.unmodeled_reason.find("not positive") != std::string::npos);
  }
}

TEST_CASE("model_work: the unknown class is not modelled; a collective at tp 1 has no peers",
          "[model]") {
  Fixture f;
  TopnEntry e = gemm_entry({{64, 2048}, {1024, 2048}}, {"bf16", "bf16"});
  Classification unknown;
  WorkEstimate w = model_work(e, decode_regime(0.05), unknown, f.ctx());
  CHECK_FALSE(w.modeled);
  CHECK(w.unmodeled_reason.find("unknown") != std::string::npos);
  CHECK(w.bytes == 0.0);

  Classification coll;
  coll.op_class = OpClass::comm;
  coll.collective = true;
  e.name = "cross_device_reduce_2stage";
  WorkEstimate c = model_work(e, decode_regime(0.05), coll, f.ctx());  // env tp 1
  CHECK_FALSE(c.modeled);
  CHECK(c.unmodeled_reason.find("no peers") != std::string::npos);
  // Unmodelled, but shapes and dtypes give the operand-bytes bound (docs/method.md §8.16).
  REQUIRE(c.bytes_lower_bound);
  CHECK(*c.bytes_lower_bound == rel(64.0 * 2048 * 2 + 1024.0 * 2048 * 2));
}

TEST_CASE("operand_dtypes: each operand's role decides its dtype (RUNS.md §2b)", "[model][gemm]") {
  // A GEMM: operand 1 holds the weights (narrowest float), the others the activations.
  OperandDtypes g = operand_dtypes({"c10::BFloat16", "c10::Float8_e4m3fn", "float"},
                                   {{64, 4096}, {4096, 4096}, {4096}}, OpClass::gemm, nullptr);
  CHECK(g.roles == std::vector<OperandRole>{OperandRole::activations, OperandRole::weights,
                                            OperandRole::activations});
  CHECK(g.dtypes ==
        std::vector<std::string>{"c10::BFloat16", "c10::Float8_e4m3fn", "c10::BFloat16"});
  // MoE: the first 3-D operand is the expert stack.
  OperandDtypes m = operand_dtypes({"c10::BFloat16"}, {{64, 2048}, {8, 1536, 2048}, {64, 8}},
                                   OpClass::moe, nullptr);
  CHECK(m.roles[1] == OperandRole::weights);
  // A linear-attention kernel: a 4-D operand is the fp32 recurrent state when the set holds fp32.
  OperandDtypes s = operand_dtypes({"c10::BFloat16", "float"}, {{32, 16, 128}, {32, 16, 128, 128}},
                                   OpClass::linear_attn, nullptr);
  CHECK(s.roles == std::vector<OperandRole>{OperandRole::activations, OperandRole::state});
  CHECK(s.dtypes[1] == "float");
  CHECK(roofline::test::contains(s.rule, "fp32 recurrent state"));
}

TEST_CASE(
    "model_work GEMM: without recorded dtypes the kernel's template types are the trace's word",
    "[model][gemm]") {
  Fixture f;  // a bf16 config without quantization_config
  TopnEntry e = gemm_entry({{64, 2048}, {1024, 2048}}, {});
  e.name =
      "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, "
      "int>, cutlass::gemm::collective::CollectiveMma<cute::tuple<cute::C<128>, cute::C<128>, "
      "cute::C<128> >, cutlass::float_e4m3_t, cute::tuple<long, cute::C<1>, long>, "
      "cutlass::float_e4m3_t> > >(cutlass::gemm::kernel::GemmUniversal<>::Params)";
  ClassRules rules;
  rules.families = builtin_kernel_classes_rules();
  const Classification cls = roofline::classify::classify(e, rules);
  REQUIRE(cls.op_class == OpClass::gemm);
  CHECK(cls.operand_dtype == "fp8");
  WorkEstimate w = model_work(e, decode_regime(0.01), cls, f.ctx());
  REQUIRE(w.modeled);
  CHECK(w.weight_dtype == DtypeKey::fp8);
  CHECK(w.activation_dtype == DtypeKey::fp8);
  CHECK(roofline::test::any_contains(w.notes,
                                     {"the kernel's template types: fp8", "online quantization"}));

  // block-scaled fp4 values for both operands, one ue4m3 scale per 16 values (nvfp4)
  e.name =
      "cutlass3x_sm120_bstensorop_s16864gemm_block_scaled_ue4m3xe2m1_ue4m3xe2m1_f32_bf16_bf16_"
      "128x128x256_1x1x1_0_tnn_align32_o_vs16_bias_bf16_relu";
  const Classification fp4 = roofline::classify::classify(e, rules);
  CHECK(fp4.operand_dtype == "fp4");
  CHECK(fp4.activation_dtype == "fp4");
  CHECK(fp4.weight_scale_bytes == rel(1.0 / 16));
  w = model_work(e, decode_regime(0.01), fp4, f.ctx());
  REQUIRE(w.modeled);
  CHECK(w.weight_dtype == DtypeKey::fp4);
  const double K = 2048, N = 1024;
  CHECK(w.weight_bytes == rel(K * N * 0.5625));

  // mxfp4 weights with fp8 activations
  e.name = "cutlass3x_sm100_bstensorop_gemm_ue8m0xe2m1_ue8m0xe4m3_f32_bf16_bf16_256x128x256";
  const Classification mixed = roofline::classify::classify(e, rules);
  CHECK(mixed.operand_dtype == "fp4");
  CHECK(mixed.activation_dtype == "fp8");
  CHECK(mixed.weight_scale_bytes == rel(1.0 / 32));

  // fp4 weights named once, bf16 activations (a W4A16 kernel): the name says nothing of the
  // activations, which keep the config's dtype
  e.name =
      "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cutlass::bfloat16_t, "
      "cutlass::float_e2m1_t, cutlass::bfloat16_t> >";
  const Classification w4a16 = roofline::classify::classify(e, rules);
  CHECK(w4a16.operand_dtype == "fp4");
  CHECK(w4a16.activation_dtype.empty());
  w = model_work(e, decode_regime(0.01), w4a16, f.ctx());
  REQUIRE(w.modeled);
  CHECK(w.activation_dtype == DtypeKey::bf16);
  CHECK(w.weight_dtype == DtypeKey::fp4);
}

}  // namespace unit_model_gemm
