// Stage 4, linear attention and state-space layers (docs/method.md §8.13): GDN, KDA, lightning,
// mamba2, mamba1 decode updates, their short convs, state dtype precedence, the prefill kernels'
// L2.
#include <catch2/catch.hpp>

#include "roofline/cli/layer.hpp"
#include "unit/test_helpers.hpp"

namespace unit_model_linear {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::detail_of;
using roofline::test::rel;

namespace {

const char* const k_bf16 = "torch.bfloat16";
const char* const k_fp32 = "torch.float32";

LayerPlan plan_of(std::initializer_list<std::pair<Mixer, int>> groups) {
  LayerPlan p;
  for (auto [m, n] : groups)
    for (int i = 0; i < n; ++i) p.layers.push_back({m, 0.0, Ffn::dense});
  return p;
}

// The bundled example's GDN kernel (docs/method.md §20 data, docs/method.md §8.13 anchor): MI355X,
// N = 64.
struct Gdn : roofline::test::ModelCase {
  Gdn() {
    config.linear_key_heads = 16;
    config.linear_value_heads = 32;
    config.linear_key_head_dim = 128;
    config.linear_value_head_dim = 128;
    config.linear_conv_kernel = 4;
    config.plan = plan_of({{Mixer::gdn, 30}, {Mixer::full, 10}});
    entry.name = entry.short_name = "fused_recurrent_gated_delta_rule_fwd_kernel";
    entry.shapes = {{1, 64, 16, 128}, {1, 64, 16, 128}, {1, 64, 32, 128}, {64, 32, 128, 128}};
    entry.dtypes = {k_bf16, k_bf16, k_bf16, k_fp32};
    regime.t_ms = 0.0631;
    cls.op_class = OpClass::linear_attn;
    cls.detail = detail_of(OpClass::linear_attn, "gdn");
  }
};

struct Mamba : roofline::test::ModelCase {
  Mamba() {
    env.tp = 4;
    env.workload = roofline::test::workload(4096, 1024, 32);
    config.mamba_heads = 256;
    config.mamba_head_dim = 64;
    config.ssm_state_size = 256;
    config.mamba_groups = 8;
    config.mamba_conv_kernel = 4;
    config.hidden = 8192;
    config.plan = plan_of({{Mixer::mamba2, 54}, {Mixer::none, 54}, {Mixer::full, 10}});
    entry.name = entry.short_name = "_selective_scan_update_kernel";
    entry.shapes = {{32, 64, 64, 256}, {32, 64, 64}, {32, 64, 64}};
    entry.dtypes = {k_fp32, k_bf16, k_bf16};
    regime.t_ms = 0.05;
    cls.op_class = OpClass::ssm;
    cls.detail = detail_of(OpClass::ssm, "update");
  }
};

}  // namespace

TEST_CASE("model_work GDN: the bundled example's anchor, ≈ 270 MB and ≈ 53 % of MI355X",
          "[model][linear]") {
  Gdn x;
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  const double state = 2.0 * 64 * 32 * 128 * 128 * 4;  // 268 435 456
  const double qkvo = 64.0 * (2 * 16 * 128 + 2 * 32 * 128) * 2;
  CHECK(state == rel(268435456));
  CHECK(w.bytes == rel(state + qkvo + 64.0 * 32 * 8));
  CHECK(w.bytes == rel(270024704));
  CHECK(w.flops == rel(7.0 * 64 * 32 * 128 * 128));
  CHECK_FALSE(w.has_compute_peak_class);
  CHECK(w.kv_dtype == DtypeKey::fp32);
  const Verdict v = judge(w, OpClass::linear_attn, 12.82, x.peaks, VerdictParams{});
  CHECK(v.hbm_util.value() == Approx(0.5349).epsilon(0.001));  // ≈ 53 % at 63.1 µs
  CHECK_FALSE(v.compute_util.has_value());
  CHECK(v.target_eff.value() == rel(0.85));
  CHECK(v.bound == Bound::latency);
  CHECK(v.headroom == Headroom::moderate);
  // ≈ 49 % at the mixed-regime avg_us 69.5 µs.
  x.regime.t_ms = 0.0695;
  CHECK(judge(x.run(), OpClass::linear_attn, 12.82, x.peaks, VerdictParams{}).hbm_util.value() ==
        Approx(0.4857).epsilon(0.001));
  CHECK(any_contains(w.notes, {"serves the 30 linear-attention layers"}));
}

TEST_CASE("model_work GDN: per-rank heads under TP, state dtype precedence", "[model][linear]") {
  Gdn x;
  x.env.tp = 4;
  x.entry.dtypes = {k_bf16};  // no state operand dtype: config, then fp32
  WorkEstimate w = x.run();
  const double N = 64, HK = 4, HV = 8;
  CHECK(w.bytes ==
        rel(2 * N * HV * 128 * 128 * 4 + N * (2 * HK * 128 + 2 * HV * 128) * 2 + N * HV * 8));
  CHECK(any_contains(w.notes, {"fp32 by default"}));
  x.config.state_dtype = "bfloat16";
  x.config.state_dtype_key = DtypeKey::bf16;
  w = x.run();
  CHECK(w.bytes ==
        rel(2 * N * HV * 128 * 128 * 2 + N * (2 * HK * 128 + 2 * HV * 128) * 2 + N * HV * 8));
  CHECK(any_contains(w.notes, {"config state dtype 'bfloat16'"}));
}

TEST_CASE("model_work KDA: heads and dims from linear_attn_config; IS_KDA GDN kernels",
          "[model][linear]") {
  Gdn x;
  x.config.kda_heads = 32;
  x.config.kda_head_dim = 128;
  x.config.kda_conv_kernel = 4;
  x.config.plan = plan_of({{Mixer::kda, 20}, {Mixer::full, 7}});
  x.entry.name = "fused_recurrent_kda_fwd_kernel";
  x.entry.shapes = {{1, 64, 32, 128}, {64, 32, 128, 128}};
  x.entry.dtypes = {k_bf16, k_fp32};
  x.cls.detail = detail_of(OpClass::linear_attn, "kda");
  WorkEstimate w = x.run();
  const double N = 64, H = 32, D = 128;
  CHECK(w.bytes == rel(2 * N * H * D * D * 4 + N * (2 * H * D + 2 * H * D) * 2 + N * H * 8));
  CHECK(w.flops == rel(7 * N * H * D * D));
  // A gated-delta-rule kernel in a KDA-only plan runs the KDA layers.
  x.entry.name = "fused_sigmoid_gating_delta_rule_update_kernel";
  x.cls.detail = detail_of(OpClass::linear_attn, "gdn");
  CHECK(x.run().bytes == rel(w.bytes));
}

TEST_CASE("model_work lightning: 2·N·H·D²·s + 4·N·H·D·a, 5·N·H·D²", "[model][linear]") {
  Gdn x;
  x.env.tp = 8;
  x.config.n_heads = 64;
  x.config.head_dim = 128;
  x.config.plan = plan_of({{Mixer::lightning, 70}, {Mixer::full, 10}});
  x.entry.name = "_linear_attn_decode_kernel";
  x.entry.shapes = {{64, 8, 1, 128}, {64, 8, 128, 128}};
  x.entry.dtypes = {k_bf16, k_fp32};
  x.cls.detail = detail_of(OpClass::linear_attn, "lightning");
  WorkEstimate w = x.run();
  CHECK(w.bytes == rel(2.0 * 64 * 8 * 128 * 128 * 4 + 4.0 * 64 * 8 * 128 * 2));
  CHECK(w.flops == rel(5.0 * 64 * 8 * 128 * 128));
}

TEST_CASE("model_work mamba2: per-rank heads, groups divided only when tp divides them",
          "[model][ssm]") {
  Mamba x;
  WorkEstimate w = x.run();
  REQUIRE(w.modeled);
  const double N = 32, Hm = 64, P = 64, Ns = 256;
  // State first in the operands: activations come from the next float operand, not fp32.
  CHECK(w.bytes == rel(2 * N * Hm * P * Ns * 4 + N * (3 * Hm * P + 2 * 2 * Ns) * 2));
  CHECK(w.flops == rel(6 * N * Hm * P * Ns));
  CHECK(any_contains(w.notes, {"operand 0 is the state"}));
  x.config.mamba_groups = 6;  // 6 % 4 != 0: groups replicated
  CHECK(x.run().bytes == rel(2 * N * Hm * P * Ns * 4 + N * (3 * Hm * P + 2 * 6 * Ns) * 2));
}

TEST_CASE("model_work mamba1: Di = expand·hidden/tp; the plan decides mamba1 vs mamba2",
          "[model][ssm]") {
  Mamba x;
  x.env.tp = 2;
  x.config = ModelConfig{};
  x.config.dtype = "bfloat16";
  x.config.hidden = 4096;
  x.config.mamba_expand = 2;
  x.config.ssm_state_size = 16;
  x.config.mamba_conv_kernel = 4;
  x.config.plan = plan_of({{Mixer::mamba1, 28}, {Mixer::full, 4}});
  x.entry.shapes = {{32, 4096, 16}, {32, 4096}};
  WorkEstimate w = x.run();
  const double N = 32, Di = 4096, Ns = 16;
  CHECK(w.bytes == rel(2 * N * Di * Ns * 4 + 3 * N * Di * 2));
  CHECK(w.flops == rel(6 * N * Di * Ns));
  // A selective update with no mamba layers in the plan cannot say which.
  x.config.plan = plan_of({{Mixer::full, 4}});
  WorkEstimate none = x.run();
  CHECK_FALSE(none.modeled);
  CHECK(none.unmodeled_reason.find("no mamba layers") != std::string::npos);
}

TEST_CASE("model_work short conv: width per layer kind, class by the plan", "[model][linear]") {
  SECTION("GDN conv: Cd = 2·HK·K + HV·V") {
    Gdn x;
    x.entry.name = "causal_conv1d_update_kernel";
    x.entry.shapes = {{64, 8192}, {64, 8192, 3}};
    x.entry.dtypes = {k_bf16, k_bf16};
    x.cls.detail = detail_of(OpClass::linear_attn, "conv");
    WorkEstimate w = x.run();
    CHECK(w.bytes == rel(2.0 * 64 * 8192 * 3 * 2 + 2.0 * 64 * 8192 * 2));
    CHECK(w.flops == rel(2.0 * 64 * 8192 * 4));
    CHECK_FALSE(w.op_class.has_value());  // already linear_attn
  }
  SECTION("mamba2 conv in a mamba plan becomes ssm: Cd = Hm·P + 2·G·Ns") {
    Mamba x;
    x.entry.name = "_causal_conv1d_update_kernel";
    x.entry.shapes = {{32, 5120}, {32, 5120, 3}};
    x.entry.dtypes = {k_bf16, k_bf16};
    x.cls = Classification{};
    x.cls.op_class = OpClass::linear_attn;
    x.cls.detail = detail_of(OpClass::linear_attn, "conv");
    x.cls.rule = "table";
    WorkEstimate w = x.run();
    CHECK(w.op_class == OpClass::ssm);
    const double Cd = 64.0 * 64 + 2.0 * 2 * 256;
    CHECK(Cd == rel(5120));
    CHECK(w.bytes == rel(2 * 32 * Cd * 3 * 2 + 2 * 32 * Cd * 2));
  }
  SECTION("conv state dtype from the entry (fp32 state operand)") {
    Gdn x;
    x.entry.shapes = {{64, 8192}, {64, 8192, 3}};
    x.entry.dtypes = {k_bf16, k_fp32};
    x.cls.detail = detail_of(OpClass::linear_attn, "conv");
    CHECK(x.run().bytes == rel(2.0 * 64 * 8192 * 3 * 4 + 2.0 * 64 * 8192 * 2));
  }
}

TEST_CASE("model_work linear/ssm: prefill kernels stay L2 with the operand-bytes bound",
          "[model][linear]") {
  Gdn x;
  x.entry.name = "chunk_gated_delta_rule_fwd_kernel_h_blockdim64";
  x.cls.detail = detail_of(OpClass::linear_attn, "prefill");
  x.regime.regime = Regime::prefill;
  x.regime.t_ms = 0.04;
  WorkEstimate w = x.run();
  CHECK_FALSE(w.modeled);
  CHECK(w.unmodeled_reason.find("chunked-prefill") != std::string::npos);
  REQUIRE(w.bytes_lower_bound);
  const double bound = 2.0 * (64 * 16 * 128 * 2) + 64.0 * 32 * 128 * 2 + 64.0 * 32 * 128 * 128 * 4;
  CHECK(*w.bytes_lower_bound == rel(bound));
  CHECK(any_contains(w.notes, {"operand-bytes lower bound", "hbm_util ≥"}));
  // A decode-only recurrent kernel timed in prefill is not forced through the decode model.
  Gdn y;
  y.regime.regime = Regime::prefill;
  CHECK_FALSE(y.run().modeled);
}

}  // namespace unit_model_linear
