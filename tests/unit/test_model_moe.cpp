// Stage 4, MoE (docs/method.md §8): experts_hit, stage weights, TP sharding, the logical unit,
// candidates.
#include <cmath>

#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "unit/test_helpers.hpp"

namespace unit_model_moe {
using namespace roofline::cli;
using roofline::test::detail_of;
using roofline::test::gfx950_peaks;
using roofline::test::rel;

namespace {

// Qwen3.5-35B-A3B-FP8 on MI355X, decode, as in docs/method.md §20.
struct Example : roofline::test::ModelCase {
  Example() {
    env.model_dtype = "fp8";
    env.kv_cache_dtype = "auto";
    config.layers = 40;
    config.hidden = 2048;
    config.experts = 256;
    config.top_k = 8;
    config.moe_intermediate = 512;
    config.moe_layers = 40;
    config.dtype = "bfloat16";
    config.quant_method = "fp8";
    config.quant_weight_bytes = 1.0;
    entry.name = entry.short_name = "fused_moe_kernel";
    entry.pct_gpu_time = 26.45;
    entry.shapes = {{64, 2048}, {256, 1024, 2048}, {256, 2048, 512}, {64, 8}};
    entry.dtypes = {"torch.float8_e4m3fn", "torch.float8_e4m3fn", "torch.float8_e4m3fn",
                    "torch.int32"};
    entry.est_shape.decode = EstShape{64, std::nullopt, std::nullopt};
    regime.t_ms = 0.049471;
    regime.launches_per_step = 80;
    cls.op_class = OpClass::moe;
  }
};

// docs/method.md §8.7: M tokens, each top_k distinct experts of E.
double experts_hit(double E, double top_k, double M) {
  return E * (1.0 - std::pow(1.0 - top_k / E, M));
}

}  // namespace

TEST_CASE("model_work MoE: the SPEC §11 fused_moe_kernel", "[model][moe]") {
  Example x;
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  REQUIRE(w.moe.has_value());
  // 80 launches over 40 MoE layers: one unit = 2 launches, t_unit = 2 × 49.471 µs.
  CHECK(w.unit_launches == rel(2));
  CHECK(w.t_unit_ms == rel(0.098942));
  const MoeFacts& m = *w.moe;
  CHECK(m.pairs == rel(512));
  CHECK(m.experts_hit == rel(experts_hit(256, 8, 64)));
  CHECK(m.experts_hit == Approx(222.44).epsilon(0.001));  // the skill's form: 221.5
  CHECK(m.stage == MoeStage::both);
  const double weight_elems = 3.0 * 512 * 2048;
  CHECK(m.weight_elems_per_expert == rel(weight_elems));
  CHECK(m.weight_bytes_per_elem == rel(1.0));
  CHECK(w.weight_bytes == rel(m.experts_hit * weight_elems));
  CHECK(w.bytes == rel(w.weight_bytes + m.activation_bytes));
  CHECK(w.bytes == Approx(699.74e6).epsilon(0.001));
  CHECK(w.flops == rel(2.0 * 512 * weight_elems));
  CHECK(w.compute_dtype.key == DtypeKey::fp8);

  // Two candidates; the all-expert one (~102 % of the bandwidth budget) is infeasible.
  REQUIRE(w.candidates.size() == 2);
  CHECK(w.candidates[1].bytes == rel(256 * weight_elems + m.activation_bytes));
  CHECK_FALSE(w.candidates[1].feasible.value());
  CHECK(w.candidates[1].bytes / (8.0e12 * 98.942e-6) == Approx(1.02).epsilon(0.01));
  CHECK(w.candidates[0].feasible.value());
  CHECK(w.chosen == 0);
  CHECK(w.any_feasible);
}

TEST_CASE("model_work MoE: experts_hit formula for a small batch", "[model][moe]") {
  Example x;
  x.config.experts = 128;
  x.entry.est_shape.decode = EstShape{4, std::nullopt, std::nullopt};
  WorkEstimate w = x.run();
  REQUIRE(w.moe);
  CHECK(w.moe->pairs == rel(32));
  CHECK(w.moe->experts_hit == rel(128 * (1 - std::pow(120.0 / 128.0, 4))));
  CHECK(w.moe->experts_hit == Approx(29.12).epsilon(0.001));  // the skill's form: 28.41
}

TEST_CASE("model_work MoE: one token hits exactly top_k experts", "[model][moe]") {
  Example x;
  x.config.experts = 64;
  x.entry.est_shape.decode = EstShape{1, std::nullopt, std::nullopt};
  WorkEstimate w = x.run();
  REQUIRE(w.moe);
  CHECK(w.moe->experts_hit == rel(8.0));
  std::string notes;
  for (const auto& n : w.notes) notes += n;
  // the skill's with-replacement form would under-count: 7.58 of 8
  CHECK_THAT(notes, Catch::Contains("would say 7.58"));
}

TEST_CASE("model_work MoE: mxfp4 weights from quantization_config are half a byte",
          "[model][moe]") {
  Example x;
  x.entry.dtypes = {"torch.bfloat16"};  // the entry names only the activations
  x.config.quant_method = "mxfp4";
  x.config.quant_weight_bytes = 0.5;
  WorkEstimate w = x.run();
  REQUIRE(w.moe);
  CHECK(w.moe->weight_bytes_per_elem == rel(0.5));
  CHECK(w.weight_bytes == rel(w.moe->experts_hit * 3.0 * 512 * 2048 * 0.5));
  CHECK(w.compute_dtype.key == DtypeKey::bf16);
}

TEST_CASE("model_work MoE: rows in flight from workload.conc without est_shape", "[model][moe]") {
  Example x;
  x.entry.est_shape = {};
  x.env.workload.conc = 32;
  WorkEstimate w = x.run();
  REQUIRE(w.moe);
  CHECK(w.moe->pairs == rel(256));
}

TEST_CASE("model_work MoE: stage weights 2IH / IH / 3IH", "[model][moe]") {
  Example x;
  const double I = 512, H = 2048;
  SECTION("stage 1 from the kernel-family table") {
    x.cls.detail = detail_of(OpClass::moe, "stage1");
    x.entry.name = "ck_moe_stage1";
    WorkEstimate w = x.run();
    REQUIRE(w.moe);
    CHECK(w.moe->stage == MoeStage::stage1);
    CHECK(w.moe->weight_elems_per_expert == rel(2 * I * H));
    // A named stage is one launch: 80 / 40 = 2 does not merge launches.
    CHECK(w.unit_launches == rel(1));
    CHECK(w.t_unit_ms == rel(0.049471));
  }
  SECTION("stage 2 from the name") {
    x.entry.name = x.entry.short_name = "fused_moe_down_proj_kernel";
    WorkEstimate w = x.run();
    REQUIRE(w.moe);
    CHECK(w.moe->stage == MoeStage::stage2);
    CHECK(w.moe->weight_elems_per_expert == rel(I * H));
    CHECK(w.flops == rel(2.0 * 512 * I * H));
  }
  SECTION("gate_up in the name is stage 1") {
    x.entry.name = x.entry.short_name = "moe_gate_up_gemm";
    WorkEstimate w = x.run();
    REQUIRE(w.moe);
    CHECK(w.moe->weight_elems_per_expert == rel(2 * I * H));
  }
  SECTION("unnamed, one launch per layer: both") {
    x.regime.launches_per_step = 40;
    WorkEstimate w = x.run();
    REQUIRE(w.moe);
    CHECK(w.moe->stage == MoeStage::both);
    CHECK(w.moe->weight_elems_per_expert == rel(3 * I * H));
    CHECK(w.unit_launches == rel(1));
  }
}

TEST_CASE("model_work MoE: the expert intermediate size is divided by tp", "[model][moe]") {
  Example x;
  x.env.tp = 4;
  WorkEstimate w = x.run();
  REQUIRE(w.moe);
  CHECK(w.moe->weight_elems_per_expert == rel(3.0 * (512.0 / 4) * 2048));
  CHECK(w.moe->experts == rel(256));  // experts are not sharded by TP
}

TEST_CASE("model_work MoE: the logical unit needs an integer ratio within 5 %", "[model][moe]") {
  Example x;
  SECTION("82 / 40 = 2.05: two launches") {
    x.regime.launches_per_step = 82;
    CHECK(x.run().unit_launches == rel(2));
  }
  SECTION("70 / 40 = 1.75: one launch") {
    x.regime.launches_per_step = 70;
    WorkEstimate w = x.run();
    CHECK(w.unit_launches == rel(1));
    CHECK(w.t_unit_ms == rel(0.049471));
  }
  SECTION("DeepSeek-style dense prefix: 116 launches over 58 MoE layers") {
    x.config.layers = 61;
    x.config.first_k_dense = 3;
    x.config.moe_layers = 58;
    x.regime.launches_per_step = 116;
    WorkEstimate w = x.run();
    CHECK(w.unit_launches == rel(2));
    CHECK(w.t_unit_ms == rel(2 * 0.049471));
  }
  SECTION("unknown launches per step: one launch") {
    x.regime.launches_per_step.reset();
    CHECK(x.run().unit_launches == rel(1));
  }
}

TEST_CASE("model_work MoE: experts_hit is reported, the all-expert figure is not in the choice",
          "[model][moe]") {
  Example x;
  SECTION("slow enough for all experts: experts_hit is still the reported figure (MODELS §4)") {
    x.regime.t_ms = 0.06;  // budget 8e12 × 120 µs = 960 MB
    WorkEstimate w = x.run();
    REQUIRE(w.candidates.size() == 2);
    CHECK(w.candidates[0].feasible.value());
    CHECK(w.candidates[1].feasible.value());
    CHECK(w.chosen == 0);
    CHECK(w.candidates[0].label == "experts_hit");
    CHECK(w.candidates[1].label == "all experts");
    CHECK_FALSE(w.candidates[1].in_choice);
    CHECK(w.bytes == rel(w.candidates[0].bytes));
  }
  SECTION("too fast for either: none feasible") {
    x.regime.t_ms = 0.03;  // budget 480 MB < 700 MB
    WorkEstimate w = x.run();
    CHECK(w.modeled);
    CHECK_FALSE(w.any_feasible);
    CHECK_FALSE(w.candidates[0].feasible.value());
    CHECK_FALSE(w.candidates[1].feasible.value());
  }
}

TEST_CASE("model_work MoE: without a bandwidth peak feasibility is unknown, experts_hit is used",
          "[model][moe]") {
  Example x;
  x.peaks = ResolvedPeaks{};  // peaks unknown
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  REQUIRE(w.candidates.size() == 2);
  CHECK_FALSE(w.candidates[0].feasible.has_value());
  CHECK_FALSE(w.candidates[1].feasible.has_value());
  CHECK(w.chosen == 0);
  CHECK(w.bytes == rel(w.candidates[0].bytes));
}

TEST_CASE("model_work MoE: missing config degrades with a reason", "[model][moe]") {
  Example x;
  SECTION("no config.json") {
    WorkEstimate w =
        model_work(x.entry, x.regime, x.cls,
                   ModelContext{&x.env, nullptr, "not found (looked for config.json)", &x.peaks});
    CHECK_FALSE(w.modeled);
    CHECK(w.unmodeled_reason.find("config.json") != std::string::npos);
    CHECK(w.unmodeled_reason.find("not found") != std::string::npos);
  }
  SECTION("config without moe_intermediate_size") {
    x.config.moe_intermediate.reset();
    WorkEstimate w = x.run();
    CHECK_FALSE(w.modeled);
    CHECK(w.unmodeled_reason.find("moe_intermediate_size") != std::string::npos);
  }
  SECTION("no rows in flight") {
    x.entry.est_shape = {};
    x.env.workload.conc.reset();
    WorkEstimate w = x.run();
    CHECK_FALSE(w.modeled);
    CHECK(w.unmodeled_reason.find("rows") != std::string::npos);
  }
}

TEST_CASE("model_work MoE: absurd config sizes degrade instead of emitting infinities",
          "[model][moe]") {
  Example x;
  x.config.hidden = 1e308;  // 3·I·H·E overflows to inf
  WorkEstimate w = x.run();
  CHECK_FALSE(w.modeled);
  CHECK(w.candidates.empty());
  CHECK(roofline::test::contains(w.unmodeled_reason, "non-finite"));
}

TEST_CASE("model_work MoE: gated from the stage-1 shape, else relu2 is non-gated (MODELS §4)",
          "[model][moe]") {
  Example x;
  x.regime.launches_per_step.reset();
  const double I = 512, H = 2048;
  // Stage-1 weight N = I (not 2·I): non-gated, 2·I·H per expert.
  x.entry.shapes = {{64, 2048}, {256, 512, 2048}, {256, 2048, 512}, {64, 8}};
  WorkEstimate w = x.run();
  CHECK_FALSE(w.moe->gated);
  CHECK(w.moe->weight_elems_per_expert == rel(2 * I * H));
  CHECK(w.flops == rel(2.0 * 512 * 2 * I * H));
  // No usable shape: the config's relu2 says non-gated; silu (or nothing) gated.
  x.entry.shapes = {{64, 2048}};
  x.config.hidden_act = "relu2";
  CHECK(x.run().moe->weight_elems_per_expert == rel(2 * I * H));
  x.config.hidden_act = "silu";
  CHECK(x.run().moe->weight_elems_per_expert == rel(3 * I * H));
  // Stage 1 of a non-gated MoE writes pairs·I, not pairs·2I.
  x.config.hidden_act = "relu2";
  x.cls.detail = detail_of(OpClass::moe, "stage1");
  w = x.run();
  CHECK(w.moe->weight_elems_per_expert == rel(I * H));
  CHECK(w.moe->activation_bytes == rel((64 * H + 512 * I) * 1.0));
}

TEST_CASE("model_work MoE: shared experts counted only when the family fuses them",
          "[model][moe]") {
  Example x;
  x.config.shared_expert_intermediate = 512;
  const WorkEstimate plain = x.run();
  CHECK(roofline::test::any_contains(plain.notes, {"shared expert", "not counted"}));
  x.cls.detail = detail_of(OpClass::moe, "both+shared");
  const WorkEstimate fused = x.run();
  const double shared = 3.0 * 512 * 2048 * 1.0;  // fp8 weights, gated, tp 1
  CHECK(fused.candidates[0].bytes == rel(plain.candidates[0].bytes + shared));
  CHECK(fused.flops == rel(plain.flops + 2.0 * 64 * 3 * 512 * 2048));
  // DeepSeek spelling: n_shared_experts × moe_intermediate.
  x.config.shared_expert_intermediate.reset();
  x.config.shared_experts = 2;
  CHECK(x.run().candidates[0].bytes == rel(plain.candidates[0].bytes + 2 * shared));
}

TEST_CASE("model_work MoE: a family marked streaming every expert reports the all-expert figure",
          "[model][moe]") {
  Example x;
  x.cls.detail =
      detail_of(OpClass::moe, "all");  // no stage named: 80 launches / 40 layers = 2 per unit
  x.regime.t_ms = 0.06;                // budget 960 MB: both figures feasible
  WorkEstimate w = x.run();
  REQUIRE(w.candidates.size() == 2);
  CHECK(w.candidates[0].label == "all experts");
  CHECK(w.candidates[0].in_choice);
  CHECK_FALSE(w.candidates[1].in_choice);
  CHECK(w.chosen == 0);
  CHECK(w.bytes == rel(256.0 * 3 * 512 * 2048 * 1.0 + w.moe->activation_bytes));
  // Too fast for all experts: the reported figure is infeasible → no feasible candidate (L3),
  // even though experts_hit (out of the choice) would fit.
  x.regime.t_ms = 0.045;  // budget 720 MB: experts_hit 700 MB fits, all 806 MB does not
  w = x.run();
  CHECK_FALSE(w.any_feasible);
  CHECK(w.candidates[1].feasible.value());
}

TEST_CASE("model_work MoE: a dense batched GEMM over all experts (MODELS §5, H200 fixture)",
          "[model][moe]") {
  // The fixture's gate/up launch: [128, 8, 2048] × [128, 2048, 1536] bf16, 812.6 MB, 6.44 GFLOP.
  roofline::test::ModelCase x;
  x.config.experts = 128;
  x.config.top_k = 8;
  x.config.moe_intermediate = 768;
  x.config.hidden = 2048;
  x.entry.name = x.entry.short_name = "nvjet_sm90_tst_64x8_64x16_2x4_h_bz_TNT";
  x.entry.shapes = {{128, 8, 2048}, {128, 2048, 1536}};
  x.entry.dtypes = {"torch.bfloat16", "torch.bfloat16"};
  x.regime.t_ms = 0.191;
  const double bytes = 128.0 * (8 * 2048 * 2 + 2048 * 1536 * 2 + 8 * 1536 * 2);
  CHECK(bytes == rel(812646400));
  SECTION("classified gemm: the shapes make it moe") {
    x.cls.op_class = OpClass::gemm;
    WorkEstimate w = x.run();
    CHECK(w.op_class == OpClass::moe);
    CHECK(w.bytes == rel(bytes));
    CHECK(w.flops == rel(2.0 * 128 * 8 * 1536 * 2048));
    CHECK(w.flops == Approx(6.44e9).epsilon(0.001));
  }
  SECTION("classified moe: the batched formula is the reported figure") {
    x.cls.op_class = OpClass::moe;
    WorkEstimate w = x.run();
    REQUIRE(w.candidates.size() == 2);
    CHECK(w.candidates[0].label == "all experts (batched GEMM)");
    CHECK(w.bytes == rel(bytes));
    CHECK_FALSE(w.candidates[1].in_choice);
  }
  SECTION("a batch that is not the expert count stays a GEMM") {
    x.config.experts = 64;
    x.cls.op_class = OpClass::gemm;
    WorkEstimate w = x.run();
    CHECK_FALSE(w.op_class.has_value());
    CHECK(w.bytes == rel(bytes));
  }
}

TEST_CASE("model_work MoE: TRT-LLM's CUTLASS MoE stages read and write expanded rows",
          "[model][moe]") {
  // The wild OLMoE decode (../shared/fixtures/wild): fused_moe::run_global with its activation
  // template argument is stage 1, MoeFCGemm stage 2; expandInputRowsKernel copies each token's row
  // once per chosen expert before them, so both GEMMs see pairs·H rows, not M·H.
  Example x;
  x.entry.shapes.clear();
  x.entry.dtypes.clear();
  x.config.experts = 64;
  x.config.moe_intermediate = 1024;
  x.config.quant_method.clear();
  x.config.quant_weight_bytes.reset();
  x.env.model_dtype = "bfloat16";
  x.entry.est_shape.decode = EstShape{1, std::nullopt, std::nullopt};
  x.regime.launches_per_step = 40;
  x.entry.name =
      "void fused_moe::run_global<fused_moe::Fused_Moe_Kernel_sm80<cutlass::bfloat16_t, "
      "cutlass::bfloat16_t, cutlass::bfloat16_t, 32, 128, 64, 3, (fused_moe::Activation_Type)3> "
      ">()";
  x.cls.detail.moe.stage = MoeStage::stage1;
  WorkEstimate w = x.run();
  REQUIRE(w.moe);
  CHECK(w.moe->experts_hit == rel(8.0));
  // weights 8·2·1024·2048·2 + expanded rows 8·2048·2 + activated rows out 8·1024·2
  CHECK(w.bytes == rel(67108864.0 + 32768.0 + 16384.0));
  x.entry.name = "_ZN7cutlass6KernelINS_4gemm6kernel9MoeFCGemmIvEEEEvNT_6ParamsE";
  x.cls.detail.moe.stage = MoeStage::stage2;
  w = x.run();
  CHECK(w.bytes == rel(33554432.0 + 16384.0 + 32768.0));
}

}  // namespace unit_model_moe
