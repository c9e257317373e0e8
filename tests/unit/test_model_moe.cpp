// Stage 4, MoE (SPEC §4): experts_hit, stage weights, TP sharding, the logical unit, candidates.
#include <cmath>

#include <catch2/catch.hpp>

#include "unit/test_helpers.hpp"

using namespace roofline;
using roofline::test::gfx950_peaks;
using roofline::test::rel;

namespace {

// Qwen3.5-35B-A3B-FP8 on MI355X, decode, as in SPEC §11.
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

double experts_hit(double E, double pairs) {
  return E * (1.0 - std::pow(1.0 - 1.0 / E, pairs));
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
  CHECK(m.experts_hit == rel(experts_hit(256, 512)));
  CHECK(m.experts_hit == Approx(221.5).epsilon(0.001));
  CHECK(m.stage == "both");
  const double weight_elems = 3.0 * 512 * 2048;
  CHECK(m.weight_elems_per_expert == rel(weight_elems));
  CHECK(m.weight_bytes_per_elem == rel(1.0));
  CHECK(w.weight_bytes == rel(m.experts_hit * weight_elems));
  CHECK(w.bytes == rel(w.weight_bytes + m.activation_bytes));
  CHECK(w.bytes == Approx(697e6).epsilon(0.001));
  CHECK(w.flops == rel(2.0 * 512 * weight_elems));
  CHECK(w.compute_dtype.key == "fp8");

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
  CHECK(w.moe->experts_hit == rel(128 * (1 - std::pow(127.0 / 128.0, 32))));
  CHECK(w.moe->experts_hit == Approx(28.41).epsilon(0.001));
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
  CHECK(w.compute_dtype.key == "bf16");
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
    x.cls.detail = "stage1";
    x.entry.name = "ck_moe_stage1";
    WorkEstimate w = x.run();
    REQUIRE(w.moe);
    CHECK(w.moe->stage == "stage1");
    CHECK(w.moe->weight_elems_per_expert == rel(2 * I * H));
    // A named stage is one launch: 80 / 40 = 2 does not merge launches.
    CHECK(w.unit_launches == rel(1));
    CHECK(w.t_unit_ms == rel(0.049471));
  }
  SECTION("stage 2 from the name") {
    x.entry.name = x.entry.short_name = "fused_moe_down_proj_kernel";
    WorkEstimate w = x.run();
    REQUIRE(w.moe);
    CHECK(w.moe->stage == "stage2");
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
    CHECK(w.moe->stage == "both");
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
    x.regime.t_ms = 0.03;  // budget 480 MB < 697 MB
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
