// Stages 5–6 (docs/method.md §10, §10.6 L3, §14 target_eff): utilization, bound, verdict, sanity
// band.
#include <cmath>

#include <catch2/catch.hpp>

#include "roofline/inputs/embedded_data.hpp"
#include "roofline/inputs/peaks.hpp"
#include "roofline/inputs/target_eff.hpp"

#include "roofline/cli/layer.hpp"
#include "unit/test_helpers.hpp"

namespace unit_verdict {
using namespace roofline::cli;
using roofline::test::any_contains;
using roofline::test::dt;
using roofline::test::gfx950_peaks;
using roofline::test::r9700_peaks;
using roofline::test::rel;
using roofline::test::work_of;

namespace {

constexpr double k_weight_elems = 3.0 * 512 * 2048;  // both stages, I = 512, H = 2048
constexpr double k_act_bytes = 2.0 * 64 * 2048;      // tokens in + out at fp8

double example_experts_hit() {
  return 256.0 * (1.0 - std::pow(1.0 - 1.0 / 256.0, 512.0));
}

// fused_moe_kernel of docs/method.md §20 as the model stage hands it over.
WorkEstimate example_moe(double experts) {
  WorkEstimate w = work_of(experts * k_weight_elems + k_act_bytes, 2.0 * 512 * k_weight_elems,
                           2 * 0.049471, dt("fp8", 1.0));
  w.unit_launches = 2;
  w.unit = "2 launches = one MoE layer";
  MoeFacts m;
  m.experts = 256;
  m.top_k = 8;
  m.pairs = 512;
  m.experts_hit = example_experts_hit();
  m.weight_elems_per_expert = k_weight_elems;
  m.weight_bytes_per_elem = 1.0;
  m.activation_bytes = k_act_bytes;
  m.stage = MoeStage::both;
  w.moe = m;
  return w;
}

// kernel_paged_attention_2d of docs/method.md §20.
WorkEstimate example_attention() {
  return work_of(64.0 * 1536 * 2 * 256 * 2 * 2, 2.0 * 64 * 16 * 1536 * 256 * 2, 0.141112,
                 dt("bf16", 2.0));
}

}  // namespace

TEST_CASE("judge: SPEC §11 MoE — saturated, ~88 % of the memory roof, ~1.02×",
          "[verdict][example]") {
  WorkEstimate w = example_moe(example_experts_hit());
  CHECK(w.bytes == Approx(697e6).epsilon(0.001));
  Verdict v = judge(w, OpClass::moe, 26.45, gfx950_peaks(), VerdictParams{});
  const double t = 98.942e-6;
  CHECK(v.achieved_bw_bytes_s.value() == rel(w.bytes / t));
  CHECK(v.hbm_util.value() == rel(w.bytes / t / 8.0e12));
  CHECK(v.hbm_util.value() == Approx(0.88).epsilon(0.005));
  CHECK(v.compute_util.value() == rel(w.flops / t / 5.0e15));  // fp8 peak: the wider of fp8 × fp8
  CHECK(v.arithmetic_intensity.value() == rel(w.flops / w.bytes));
  CHECK(v.ridge_point.value() == rel(5.0e15 / 8.0e12));
  CHECK_FALSE(v.compute_axis);
  CHECK(v.bound == Bound::memory);
  CHECK(v.roofline_pct.value() == rel(*v.hbm_util));
  CHECK(v.target_eff.value() == rel(0.90));
  CHECK(v.attainable_speedup == rel(0.90 / *v.hbm_util));
  CHECK(v.attainable_speedup == Approx(1.022).epsilon(0.002));
  CHECK(v.expected_e2e_gain_pct == rel(26.45 * (1.0 - 1.0 / v.attainable_speedup)));
  CHECK(v.expected_e2e_gain_pct > 0.5);
  CHECK(v.expected_e2e_gain_pct < 0.6);
  CHECK(v.headroom == Headroom::saturated);
  CHECK_FALSE(v.suspect);
  CHECK_FALSE(v.dispatch_bound);
}

TEST_CASE("judge: SPEC §11 attention — latency-bound, ~18 %, underperforming, ~2.8×",
          "[verdict][example]") {
  WorkEstimate w = example_attention();
  CHECK(w.bytes == Approx(201e6).epsilon(0.005));
  Verdict v = judge(w, OpClass::attn, 8.86, gfx950_peaks(), VerdictParams{});
  CHECK(v.hbm_util.value() == rel(w.bytes / 141.112e-6 / 8.0e12));
  CHECK(v.hbm_util.value() == Approx(0.18).epsilon(0.01));
  CHECK(v.compute_util.value() == rel(w.flops / 141.112e-6 / 2.5e15));
  CHECK_FALSE(v.compute_axis);
  CHECK(v.bound == Bound::latency);  // both utils < 0.60
  CHECK(v.target_eff.value() == rel(0.50));
  CHECK(v.attainable_speedup == rel(0.50 / *v.hbm_util));
  CHECK(v.attainable_speedup == Approx(2.8).epsilon(0.005));
  CHECK(v.expected_e2e_gain_pct == Approx(5.7).epsilon(0.005));
  CHECK(v.headroom == Headroom::underperforming);  // a latency-bound kernel keeps its verdict
}

TEST_CASE("judge: the worked example's rankings disagree", "[verdict][example]") {
  Verdict moe = judge(example_moe(example_experts_hit()), OpClass::moe, 26.45, gfx950_peaks(), {});
  Verdict attn = judge(example_attention(), OpClass::attn, 8.86, gfx950_peaks(), {});
  CHECK(attn.expected_e2e_gain_pct > 5 * moe.expected_e2e_gain_pct);
}

TEST_CASE("judge: the all-expert model is infeasible (~102 %): suspect, no place, upper bounds",
          "[verdict]") {
  WorkEstimate w = example_moe(256);
  Verdict v = judge(w, OpClass::moe, 26.45, gfx950_peaks(), VerdictParams{});
  const double t = 98.942e-6;
  CHECK(v.suspect);
  CHECK(v.roofline_pct_raw.value() == rel(w.bytes / t / 8.0e12));
  CHECK(v.roofline_pct_raw.value() == Approx(1.018).epsilon(0.002));
  CHECK_FALSE(v.roofline_pct);             // no verdict, no place on the roof (never a clamp)
  CHECK(v.headroom == Headroom::unknown);  // never saturated
  CHECK(v.attainable_speedup == rel(1.0));
  CHECK(v.expected_e2e_gain_pct == 0.0);
  CHECK(v.stage_c_candidate);
  CHECK(v.bytes_upper_bound.value() == rel(8.0e12 * t));
  CHECK(v.flops_upper_bound.value() == rel(5.0e15 * t));
  const double implied = std::floor((8.0e12 * t - k_act_bytes) / (k_weight_elems * 1.0));
  CHECK(implied == 251);
  CHECK(v.implied_max_experts_hit.value() == rel(implied));
}

TEST_CASE("judge: raw below 0.001 is suspect", "[verdict]") {
  WorkEstimate w = work_of(1.0e3, 1.0e3, 1.0);  // 1 kB in 1 ms: 1e6 B/s of 8e12
  Verdict v = judge(w, OpClass::gemm, 7.0, gfx950_peaks(), VerdictParams{});
  CHECK(v.suspect);
  CHECK(v.roofline_pct_raw.value() == rel(1.0e6 / 8.0e12));
  CHECK_FALSE(v.roofline_pct);
  CHECK(v.headroom == Headroom::unknown);
  CHECK(v.expected_e2e_gain_pct == 0.0);
  CHECK(v.stage_c_candidate);
  CHECK_FALSE(v.implied_max_experts_hit.has_value());  // not a MoE
}

TEST_CASE("judge: zero bytes is suspect", "[verdict]") {
  Verdict v = judge(work_of(0.0, 1.0e9, 0.5), OpClass::gemm, 7.0, gfx950_peaks(), VerdictParams{});
  CHECK(v.suspect);
  CHECK(v.headroom == Headroom::unknown);
}

TEST_CASE("judge: dispatch floor t_unit <= 2 × launch overhead", "[verdict]") {
  // 40 MB in 8 µs would be 62.5 % of the memory roof: a verdict, were it not dispatch-bound.
  WorkEstimate w = work_of(0.625 * 8.0e12 * 8e-6, 1.0e6, 0.008);
  SECTION("default 5 µs overhead: 8 µs is dispatch-bound") {
    Verdict v = judge(w, OpClass::elementwise, 9.0, gfx950_peaks(), VerdictParams{});
    CHECK(v.dispatch_bound);
    CHECK(v.bound == Bound::latency);
    CHECK(v.headroom == Headroom::unknown);
    CHECK(v.attainable_speedup == rel(1.0));
    CHECK(v.expected_e2e_gain_pct == 0.0);
    CHECK_FALSE(v.roofline_pct);  // timed by its launch: no place on the roof
    CHECK(v.roofline_pct_raw.value() == rel(0.625));
    CHECK_FALSE(v.suspect);
  }
  SECTION("exactly 10 µs is still dispatch-bound") {
    w.t_unit_ms = 0.010;
    CHECK(judge(w, OpClass::elementwise, 9.0, gfx950_peaks(), VerdictParams{}).dispatch_bound);
  }
  SECTION("10.1 µs has a verdict") {
    w.t_unit_ms = 0.0101;
    Verdict v = judge(w, OpClass::elementwise, 9.0, gfx950_peaks(), VerdictParams{});
    CHECK_FALSE(v.dispatch_bound);
    CHECK(v.headroom != Headroom::unknown);
  }
  SECTION("a 2 µs launch overhead moves the floor to 4 µs") {
    Verdict v = judge(w, OpClass::elementwise, 9.0, gfx950_peaks(), VerdictParams{2.0});
    CHECK_FALSE(v.dispatch_bound);
    CHECK(v.headroom == Headroom::moderate);  // 0.625 vs target 0.875: >= 0.6·target
  }
}

TEST_CASE("judge: headroom bands against target_eff", "[verdict]") {
  auto verdict_at = [](double raw) {
    // A GEMM on the memory axis (AI 1 < ridge) at `raw` of 8 TB/s over 100 µs.
    WorkEstimate w = work_of(raw * 8.0e12 * 1e-4, raw * 8.0e12 * 1e-4, 0.1);
    return judge(w, OpClass::gemm, 10.0, gfx950_peaks(), VerdictParams{});
  };
  CHECK(verdict_at(0.82).headroom == Headroom::saturated);        // >= 0.81
  CHECK(verdict_at(0.80).headroom == Headroom::moderate);         // < 0.81
  CHECK(verdict_at(0.55).headroom == Headroom::moderate);         // >= 0.54
  CHECK(verdict_at(0.53).headroom == Headroom::underperforming);  // < 0.54
  Verdict latency_moderate = verdict_at(0.55);
  CHECK(latency_moderate.bound == Bound::latency);  // keeps its verdict
  CHECK(latency_moderate.attainable_speedup == rel(0.90 / 0.55));
  CHECK(verdict_at(0.65).bound == Bound::memory);
  Verdict above = verdict_at(0.95);  // beyond target: nothing to win
  CHECK(above.headroom == Headroom::saturated);
  CHECK(above.attainable_speedup == rel(1.0));
  CHECK(above.expected_e2e_gain_pct == 0.0);
}

TEST_CASE("target_eff_for: priors and the r9700 override", "[verdict]") {
  CHECK(target_eff_for(OpClass::gemm, "").value() == rel(0.90));
  CHECK(target_eff_for(OpClass::moe, "").value() == rel(0.90));
  CHECK(target_eff_for(OpClass::elementwise, "").value() == rel(0.875));
  CHECK(target_eff_for(OpClass::attn, "").value() == rel(0.50));
  CHECK_FALSE(target_eff_for(OpClass::unknown, "").has_value());
  CHECK(target_eff_for(OpClass::moe, "r9700").value() == rel(0.76));
  CHECK(target_eff_for(OpClass::elementwise, "r9700").value() == rel(0.76));
  CHECK(target_eff_for(OpClass::gemm, "r9700").value() == rel(0.90));
  CHECK(target_eff_for(OpClass::attn, "r9700").value() == rel(0.50));
  CHECK(target_eff_for(OpClass::linear_attn, "").value() == rel(0.85));
  CHECK(target_eff_for(OpClass::ssm, "mi355x").value() == rel(0.85));
  CHECK(target_eff_for(OpClass::comm, "").value() == rel(0.75));
}

TEST_CASE("target_eff table: the shipped rows, the checks and a broken row", "[verdict]") {
  // The shipped table parses whole and passes its checks (the build checks it too).
  auto shipped = parse_target_eff(builtin_target_eff_tsv(), "target_eff.tsv");
  CHECK(shipped.errors.empty());
  REQUIRE(shipped.value.has_value());
  CHECK(shipped.value->rows.size() == builtin_target_eff().rows.size());
  CHECK(check_target_eff(*shipped.value, known_products(builtin_peaks())).empty());
  for (const TargetEffRow& r : builtin_target_eff().rows) CHECK_FALSE(r.source.empty());

  auto t = parse_target_eff(
      "# c p v s\n"
      "gemm * 0.9 prior\n"
      "gemm r9700 0.8 override\n"
      "gemm * 0.7 again\n"   // a second (gemm, *) row
      "attn * 1.5 prior\n"   // not a fraction
      "attn * 0 prior\n"     // not in (0, 1]
      "unknown * 0.5 x\n"    // no prior for unknown
      "moe R9700 0.5 x\n"    // product keys are lower case
      "elementwise * 0.8\n"  // no source
      "comm * 0.75x prior\n",
      "t.tsv");
  REQUIRE(t.value.has_value());
  CHECK(t.value->rows.size() == 2);
  REQUIRE(t.errors.size() == 7);
  CHECK(roofline::test::contains(t.errors[0], "t.tsv:4: a second row for (gemm, *)"));
  CHECK(roofline::test::contains(t.errors[1], "t.tsv:5"));
  CHECK(roofline::test::contains(t.errors[1], "'1.5'"));
  CHECK(roofline::test::contains(t.errors[5], "no source"));
  CHECK(target_eff_prior(*t.value, OpClass::gemm, "r9700").value() == rel(0.8));
  CHECK(target_eff_prior(*t.value, OpClass::gemm, "mi300x").value() == rel(0.9));
  CHECK_FALSE(target_eff_prior(*t.value, OpClass::attn, "").has_value());
  // Checks: every modelled class needs a `*` row; product rows name products of peaks.md.
  const auto problems = check_target_eff(*t.value, {"mi300x"});
  CHECK(problems.size() == 7);  // six classes without a row, r9700 unknown to this list
  CHECK(roofline::test::any_contains(problems, {"no 'attn *' row"}));
  CHECK(roofline::test::any_contains(problems, {"product 'r9700'"}));
}

TEST_CASE("judge: r9700 MoE at 70 % is saturated against 0.76", "[verdict]") {
  WorkEstimate w = work_of(0.70 * 6.4e11 * 2e-4, 1.0e8, 0.2, dt("fp8", 1.0));
  Verdict v = judge(w, OpClass::moe, 20.0, r9700_peaks(), VerdictParams{});
  CHECK(v.hbm_util.value() == rel(0.70));
  CHECK(v.target_eff.value() == rel(0.76));
  CHECK(v.headroom ==
        Headroom::saturated);  // 0.70 >= 0.9 × 0.76; against 0.90 it would be moderate
  CHECK(v.attainable_speedup == rel(0.76 / 0.70));
  CHECK(v.expected_e2e_gain_pct == rel(20.0 * (1.0 - 0.70 / 0.76)));
}

TEST_CASE("judge: compute axis when AI is beyond the ridge point", "[verdict]") {
  const double n = 8192;
  const double flops = 2 * n * n * n, bytes = 3 * n * n * 2;  // bf16 square GEMM
  const double t_s = flops / (0.70 * 2.5e15);                 // 70 % of the bf16 peak
  Verdict v =
      judge(work_of(bytes, flops, t_s * 1e3), OpClass::gemm, 30.0, gfx950_peaks(), VerdictParams{});
  CHECK(v.arithmetic_intensity.value() == rel(flops / bytes));
  CHECK(*v.arithmetic_intensity > *v.ridge_point);
  CHECK(v.compute_axis);
  CHECK(v.compute_util.value() == rel(0.70));
  CHECK(v.roofline_pct.value() == rel(0.70));
  CHECK(v.hbm_util.value() < 0.1);
  CHECK(v.bound == Bound::compute);
  CHECK(v.headroom == Headroom::moderate);
  CHECK(v.attainable_speedup == rel(0.90 / 0.70));
}

TEST_CASE(
    "judge: no FLOP peak for the compute dtype — the memory axis decides only below every "
    "known ridge",
    "[verdict]") {
  ResolvedPeaks strix;
  strix.gfx = "gfx1151";
  strix.hbm_bw_bytes_s = 2.56e11;
  strix.flops = {{DtypeKey::fp32, 3.0e13},
                 {DtypeKey::bf16, 6.0e13},
                 {DtypeKey::fp16, 6.0e13},
                 {DtypeKey::int8, 6.0e13}};
  strix.source = PeaksSource::table;
  strix.confidence = Confidence::high;
  // fp8 GEMM with a huge AI; gfx1151 has no fp8 peak, and the bf16/int8 maximum must not stand in.
  WorkEstimate w = work_of(1.0e6, 1.0e12, 0.02, dt("fp8", 1.0));
  Verdict v = judge(w, OpClass::gemm, 12.0, strix, VerdictParams{});
  CHECK_FALSE(v.compute_util.has_value());
  CHECK_FALSE(v.ridge_point.has_value());
  CHECK_FALSE(v.compute_axis);
  CHECK(v.hbm_util.value() == rel(1.0e6 / 2.0e-5 / 2.56e11));
  // AI 1e6 FLOP/B: beyond any ridge, so hbm_util is only a lower bound of its roof fraction.
  CHECK_FALSE(v.roofline_pct.has_value());
  CHECK(v.headroom == Headroom::unknown);
  CHECK(any_contains(v.notes, {"no verdict: this part has no fp8 FLOP peak"}));

  // Below the lowest fp8 ridge any part of the vendor has, the memory axis decides.
  strix.lowest_ridge[DtypeKey::fp8] = {100.0, "a part"};
  WorkEstimate low = work_of(1.0e6, 5.0e7, 0.02, dt("fp8", 1.0));  // AI 50
  v = judge(low, OpClass::gemm, 12.0, strix, VerdictParams{});
  CHECK_FALSE(v.compute_axis);
  CHECK(v.roofline_pct.value() == rel(*v.hbm_util));
  CHECK(v.bound == Bound::latency);
  CHECK(any_contains(v.notes, {"below the lowest fp8 ridge", "the memory axis decides"}));
}

TEST_CASE("judge: elementwise never uses a compute peak", "[verdict]") {
  WorkEstimate w = work_of(0.7 * 8.0e12 * 5e-5, 1.0e12, 0.05, dt("bf16", 2.0));
  w.has_compute_peak_class = false;
  Verdict v = judge(w, OpClass::elementwise, 5.0, gfx950_peaks(), VerdictParams{});
  CHECK_FALSE(v.compute_util.has_value());
  CHECK_FALSE(v.compute_axis);
  CHECK(v.roofline_pct.value() == rel(0.7));
  CHECK(v.target_eff.value() == rel(0.875));
  CHECK(v.headroom == Headroom::moderate);
}

TEST_CASE("judge: no denominators or no model means no verdict", "[verdict]") {
  ResolvedPeaks hard;
  hard.gfx = "gfx1201";
  hard.hard_unknown = true;
  Verdict v = judge(example_attention(), OpClass::attn, 8.86, hard, VerdictParams{});
  CHECK_FALSE(v.roofline_pct.has_value());
  CHECK(v.headroom == Headroom::unknown);
  CHECK(v.expected_e2e_gain_pct == 0.0);

  WorkEstimate unmodeled;
  unmodeled.unmodeled_reason = "collective: no interconnect peak";
  unmodeled.t_unit_ms = 0.2;
  Verdict u = judge(unmodeled, OpClass::unknown, 9.0, gfx950_peaks(), VerdictParams{});
  CHECK(u.headroom == Headroom::unknown);
  CHECK(u.bound == Bound::unknown);
  CHECK_FALSE(u.hbm_util.has_value());
}

}  // namespace unit_verdict
