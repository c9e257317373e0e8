// docs/method.md §17.1: compare statuses, rows, the one kernel-name matcher, GPU time per step.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "roofline/cli/layer.hpp"
#include "roofline/outcomes/compare.hpp"
#include "roofline/outcomes/pairing.hpp"
#include "roofline/outcomes/rounds.hpp"
#include "unit/test_helpers.hpp"

namespace unit_compare {
using namespace roofline::cli;
using roofline::test::rel;

namespace {

Prediction predicted(const std::string& name, double attainable, const char* headroom,
                     double t_ms = 0.1, const char* unit = "1 launch") {
  Prediction p;
  p.name = name;
  p.short_name = name;
  p.pct_gpu_time = 10.0;
  p.regime = "decode";
  p.unit = unit;
  p.t_ms = t_ms;
  p.attainable_speedup = attainable;
  p.expected_e2e_gain_pct = 10.0 * (1.0 - 1.0 / attainable);
  p.roofline_pct = 0.5;
  p.headroom_class = headroom;
  return p;
}

TopnEntry measured(const std::string& name, double pct, double decode_ms,
                   const std::string& short_name = "") {
  TopnEntry e;
  e.name = name;
  e.short_name = short_name.empty() ? name : short_name;
  e.pct_gpu_time = pct;
  e.base_latency_ms.decode = decode_ms;
  e.avg_us = 1000.0 * decode_ms * 1.1;  // a mixed-regime average that must not be used
  return e;
}

std::vector<std::string> statuses(double s, const Prediction& p) {
  return speedup_statuses(s, p, k_noise_isolated);
}

using Sv = std::vector<std::string>;

}  // namespace

TEST_CASE("speedup_statuses: the band decides within_noise, regressed, improved", "[compare]") {
  const Prediction p = predicted("k", 1.5, "moderate");
  CHECK(statuses(1.0, p) == Sv{"within_noise"});
  CHECK(statuses(1.034, p) == Sv{"within_noise"});  // |s − 1| ≤ band is noise
  CHECK(statuses(0.966, p) == Sv{"within_noise"});
  CHECK(statuses(1.035, p) == Sv{"improved"});
  CHECK(statuses(0.965, p) == Sv{"regressed"});
  CHECK(speedup_statuses(std::nullopt, p, k_noise_isolated) == Sv{"undefined"});
}

TEST_CASE("speedup_statuses: contradiction beyond attainable·(1+band), only with a verdict",
          "[compare]") {
  // docs/method.md §20 MoE: attainable 1.022 → the ceiling is 1.022 × 1.034 = 1.05675.
  const Prediction moe = predicted("fused_moe_kernel", 1.022, "saturated");
  CHECK(statuses(1.047, moe) == Sv{"improved"});
  CHECK(statuses(1.057, moe) == Sv{"improved", "contradiction"});
  // No verdict (not modelled): attainable 1 is no prediction, so no contradiction.
  const Prediction none = predicted("fused_recurrent", 1.0, "unknown");
  CHECK(statuses(1.5, none) == Sv{"improved"});
}

TEST_CASE("pair_kernels: exact, then normalized, then a short name unique on both sides",
          "[compare][match]") {
  const std::vector<KernelRef> a = {
      {"fused_moe_kernel", "fused_moe_kernel"},
      {"void vllm::fused_add_rms_norm_kernel<c10::BFloat16, 8>(c10::BFloat16*, int)", "rms"},
      {"kernel_paged_attention_2d", "paged_attn"},
      {"per_token_group_quant_fp8", "quant"},
      {"gemm_a", "gemm"},
      {"gemm_b", "gemm"}};
  const std::vector<KernelRef> b = {
      {"vllm::fused_add_rms_norm_kernel<c10::BFloat16,8>", "rms_norm"},
      {"fused_moe_kernel", "fused_moe_kernel"},
      {"kernel_unified_attention_2d", "paged_attn"},
      {"gemm_c", "gemm"}};
  const auto m = pair_kernels(a, b);
  REQUIRE(m.size() == a.size());
  CHECK(m[0].kind == MatchKind::exact);
  CHECK(m[0].index == 1u);
  CHECK(m[1].kind == MatchKind::normalized);
  CHECK(m[1].index == 0u);
  CHECK(m[2].kind == MatchKind::short_name);
  CHECK(m[2].index == 2u);
  CHECK(m[3].kind == MatchKind::none);
  // "gemm" occurs twice in A: a short name that is not unique identifies nothing.
  CHECK(m[4].kind == MatchKind::none);
  CHECK(m[5].kind == MatchKind::none);
}

TEST_CASE("pair_kernels: a kernel of B is taken once", "[compare][match]") {
  const auto m = pair_kernels({{"k", ""}, {"k", ""}}, {{"k", ""}});
  CHECK(m[0].index == 0u);
  CHECK_FALSE(m[1].index.has_value());
}

TEST_CASE("compare_rounds: rows in A's unit, realized gain and fraction, gone and new",
          "[compare]") {
  RoundPredictions a;
  a.from = "profile/round_0/profile_roofline.json";
  a.head_threshold_pct = 5.0;
  // MoE: 2 launches per unit; 49.471 µs per launch in A.
  a.entries.push_back(
      predicted("fused_moe_kernel", 1.022, "saturated", 0.049471, "2 launches = one MoE layer"));
  a.entries.push_back(predicted("kernel_paged_attention_2d", 2.8, "underperforming", 0.141112));
  a.entries.push_back(predicted("per_token_group_quant_fp8", 1.2, "moderate", 0.0024));
  TopnDocument b;
  b.entries.push_back(measured("fused_moe_kernel", 25.0, 0.04417));
  b.entries.push_back(measured("kernel_paged_attention_2d", 6.0, 0.141112 / 1.56));
  b.entries.push_back(measured("moe_align_block_size_kernel", 5.5, 0.0035));
  b.entries.push_back(measured("small_kernel", 1.0, 0.002));
  CompareInput in;
  in.baseline_round = "0";
  in.round = "tuning";
  in.a = &a;
  in.topn_b = &b;
  const Comparison c = compare_rounds(in);
  REQUIRE(c.rows.size() == 4);

  const CompareRow& moe = c.rows[0];
  CHECK(moe.t_a_ms.value() == rel(2 * 0.049471));
  CHECK(moe.t_b_ms.value() == rel(2 * 0.04417));
  CHECK(moe.speedup.value() == rel(0.049471 / 0.04417));
  CHECK(moe.status == Sv{"improved", "contradiction"});  // 1.120 > 1.022 × 1.034
  CHECK(moe.realized_gain_pct.value() == rel(10.0 * (1.0 - 0.04417 / 0.049471)));
  CHECK(moe.realized_fraction.value() == rel((0.049471 / 0.04417 - 1.0) / 0.022));

  const CompareRow& attn = c.rows[1];
  CHECK(attn.speedup.value() == rel(1.56));
  CHECK(attn.status == Sv{"improved"});
  CHECK(attn.realized_fraction.value() == rel(0.56 / 1.8));
  CHECK(attn.pct_b.value() == 6.0);

  CHECK(c.rows[2].name == "per_token_group_quant_fp8");
  CHECK(c.rows[2].status == Sv{"gone"});
  CHECK_FALSE(c.rows[2].speedup.has_value());
  CHECK(c.rows[3].name == "moe_align_block_size_kernel");
  CHECK(c.rows[3].status == Sv{"new"});  // 5.5 % ≥ A's 5 % bar; small_kernel is below it
  CHECK(c.any_status("contradiction"));
  CHECK_FALSE(c.any_status("regressed"));
  CHECK_FALSE(c.step_time.has_value());  // no Top-N of A given
  CHECK(c.notes.size() == 1);
}

TEST_CASE("compare_rounds: GPU time per step against the 0.5 % e2e band", "[compare]") {
  RoundPredictions a;
  a.entries.push_back(predicted("k", 1.5, "moderate"));
  TopnDocument ta, tb;
  ta.total_gpu_time_ms = 33467.3;
  ta.serving.n_prefill_steps = 24;
  ta.serving.n_decode_steps = 2033;
  tb = ta;
  tb.entries.push_back(measured("k", 10.0, 0.1));
  tb.total_gpu_time_ms = 33467.3 * 0.996;  // 0.4 % faster: within the band
  CompareInput in{"0", "1", &a, nullptr, &ta, &tb, k_noise_isolated};
  Comparison c = compare_rounds(in);
  REQUIRE(c.step_time.has_value());
  CHECK(c.step_time->gpu_ms_per_step_a == rel(33467.3 / 2057));
  CHECK(c.step_time->change_pct == rel(-0.4));
  CHECK(c.step_time->status == "within_noise");
  tb.total_gpu_time_ms = 33467.3 * 0.99;
  c = compare_rounds(in);
  CHECK(c.step_time->status == "improved");
  tb.serving = TopnServing{};  // no step counts in B: no e2e figure, and the reason
  c = compare_rounds(in);
  CHECK_FALSE(c.step_time.has_value());
  REQUIRE(c.notes.size() == 1);
  CHECK(roofline::test::contains(c.notes[0], "round 1"));
}

TEST_CASE("round names are names, in workflow order", "[compare][rounds]") {
  CHECK(valid_round_name("tuning"));
  CHECK(valid_round_name("sweep-2_b"));
  CHECK_FALSE(valid_round_name(""));
  CHECK_FALSE(valid_round_name("../x"));
  CHECK_FALSE(valid_round_name("a b"));
  std::vector<std::string> r = {"2", "tuning", "10", "1", "config", "0", "alpha"};
  std::sort(r.begin(), r.end(), round_before);
  CHECK(r == Sv{"0", "config", "tuning", "alpha", "1", "2", "10"});
}

TEST_CASE("round_step_count: the profiler's serving step counts, or the reason", "[rounds]") {
  TopnDocument t;
  CHECK_FALSE(round_step_count(t).steps.has_value());
  CHECK_FALSE(round_step_count(t).reason.empty());
  t.serving.present = true;
  t.serving.n_decode_steps = 2033;
  CHECK(round_step_count(t).steps.value() == 2033);
  t.serving.n_prefill_steps = 24;
  CHECK(round_step_count(t).steps.value() == 2057);
}

}  // namespace unit_compare
