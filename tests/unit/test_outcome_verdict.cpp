// docs/method.md §17.2: outcome verdicts on the published predicted/measured pairs (§20), the 17 µs
// floor, the Amdahl ceiling.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "roofline/cli/layer.hpp"
#include "roofline/outcomes/compare.hpp"
#include "roofline/outcomes/outcomes.hpp"
#include "unit/test_helpers.hpp"

namespace unit_outcome_verdict {
using namespace roofline::cli;
using roofline::test::rel;

namespace {

Prediction prediction(double pct, double roofline_pct, double attainable, double gain,
                      const char* headroom, double t_ms) {
  Prediction p;
  p.name = std::string("fused_moe_kernel");
  p.pct_gpu_time = pct;
  p.roofline_pct = roofline_pct;
  p.attainable_speedup = attainable;
  p.expected_e2e_gain_pct = gain;
  p.headroom_class = headroom;
  p.t_ms = t_ms;
  return p;
}

Outcome isolated(OutcomeSource source, double s) {
  Outcome o;
  o.source = source;
  o.kernel = std::string("fused_moe_kernel");
  o.isolated_speedup = s;
  return o;
}

bool flagged(const OutcomeJudgement& j, const char* flag) {
  return std::find(j.flags.begin(), j.flags.end(), flag) != j.flags.end();
}

OutcomeJudgement judge(const Outcome& o, const Prediction& p) {
  return judge_outcome(o, &p, k_noise_isolated);
}

}  // namespace

TEST_CASE("amdahl_ceiling_pct: 100·(1/(1 − pct/100·(1 − 1/s)) − 1) + 0.5", "[outcomes]") {
  // 7.2× on 7.44 %: saves 7.44 % × (1 − 1/7.2) = 6.4067 % of the time → 6.845 % + 0.5.
  const double saved = 0.0744 * (1.0 - 1.0 / 7.2);
  CHECK(amdahl_ceiling_pct(7.44, 7.2) == rel(100.0 * (1.0 / (1.0 - saved) - 1.0) + 0.5));
  CHECK(amdahl_ceiling_pct(7.44, 7.2) == Approx(7.345).epsilon(1e-3));
  CHECK(amdahl_ceiling_pct(21.79, 7.2) == Approx(23.60).epsilon(1e-3));
  CHECK(amdahl_ceiling_pct(50.0, 1.0) == rel(0.5));  // no speedup, no gain beyond the slack
}

TEST_CASE("judge_outcome: Qwen3.5 MI355X pairs are confirmed", "[outcomes][published]") {
  // fused_moe_kernel: 88.1 %, 1.022×, +0.57 %, saturated; isolated 1.047×, e2e −0.064 %.
  const Prediction moe = prediction(26.45, 0.881, 1.022, 0.57, "saturated", 0.049471);
  Outcome o = isolated(OutcomeSource::integrate, 1.047);
  o.e2e_delta_pct = -0.064;
  o.gate = "rejected";
  OutcomeJudgement j = judge(o, moe);
  CHECK(j.verdict == "confirmed");  // 1.047 < 1.022 × 1.034 = 1.0567: no contradiction
  CHECK(j.flags.empty());
  // kernel_paged_attention_2d: 17.8 %, 2.80×; isolated 1.56×.
  const Prediction attn = prediction(8.86, 0.178, 2.80, 5.70, "underperforming", 0.141112);
  CHECK(judge(isolated(OutcomeSource::opbench, 1.56), attn).verdict == "confirmed");
}

TEST_CASE("judge_outcome: MiniMax-M3 pairs — a contradiction and an Amdahl excess",
          "[outcomes][published]") {
  // _gqa_share_sparse_decode_kernel: 38.5 %, 1.3×, +1.33 % (moderate); isolated 1.65×.
  const Prediction decode = prediction(5.76, 0.385, 1.3, 1.33, "moderate", 0.030);
  Outcome d = isolated(OutcomeSource::director, 1.65);
  const OutcomeJudgement jd = judge(d, decode);
  CHECK(jd.verdict == "contradiction");  // 1.65 > 1.3 × 1.034 = 1.344
  CHECK(roofline::test::contains(jd.reason, "1.300"));
  // _gqa_share_sparse_fwd_kernel: 4.2 %, 11.89×, +6.81 % on the serving-weighted 7.44 %;
  // isolated ≈ 7.2×, e2e +8.72 % accepted — above the 7.345 % ceiling.
  const Prediction fwd = prediction(7.44, 0.042, 11.89, 6.81, "underperforming", 0.250);
  Outcome f = isolated(OutcomeSource::integrate, 7.2);
  f.e2e_delta_pct = 8.72;
  f.gate = "accepted";
  f.pct_gpu_time = 7.44;
  OutcomeJudgement jf = judge(f, fwd);
  CHECK(jf.verdict == "confirmed");
  CHECK(flagged(jf, "amdahl_exceeded"));
  f.pct_gpu_time = 21.79;  // on the raw share the same delta fits under the ceiling
  CHECK_FALSE(flagged(judge(f, fwd), "amdahl_exceeded"));
  f.pct_gpu_time = 7.44;
  f.gate = "rejected";  // only an accepted delta is checked
  CHECK_FALSE(flagged(judge(f, fwd), "amdahl_exceeded"));
}

TEST_CASE("judge_outcome: noise, regression, unpredicted", "[outcomes]") {
  const Prediction p = prediction(10, 0.5, 1.8, 4.4, "underperforming", 0.1);
  CHECK(judge(isolated(OutcomeSource::opbench, 1.03), p).verdict == "within_noise");
  CHECK(judge(isolated(OutcomeSource::opbench, 0.95), p).verdict == "regressed");
  CHECK(judge(isolated(OutcomeSource::opbench, 1.2), p).verdict == "confirmed");
  const OutcomeJudgement none =
      judge_outcome(isolated(OutcomeSource::opbench, 1.2), nullptr, k_noise_isolated);
  CHECK(none.verdict == "unpredicted");
}

TEST_CASE("judge_outcome: undefined — unmeasured, incomplete, suspect, the 17 µs floor",
          "[outcomes]") {
  const Prediction p = prediction(10, 0.5, 1.8, 4.4, "underperforming", 0.1);
  Outcome o = isolated(OutcomeSource::opbench, 1.3);
  o.undefined_reason = "not measured (measured: false)";
  CHECK(judge(o, p).verdict == "undefined");
  o = isolated(OutcomeSource::integrate, 1.3);
  o.gate = "incomplete";
  CHECK(judge(o, p).verdict == "undefined");
  o = isolated(OutcomeSource::opbench, std::nan(""));
  CHECK(judge(o, p).verdict == "undefined");
  // _w8a8_block_fp8_matmul: 12.9 µs per launch — an isolated harness floor, not a result.
  const Prediction small = prediction(6.62, 0.253, 3.56, 4.76, "underperforming", 0.0129);
  const OutcomeJudgement j = judge(isolated(OutcomeSource::opbench, 1.3), small);
  CHECK(j.verdict == "undefined");
  CHECK(flagged(j, "below_floor"));
  CHECK(roofline::test::contains(j.reason, "17"));
  // 17.0 µs exactly is not under the floor.
  CHECK(judge(isolated(OutcomeSource::opbench, 1.3),
              prediction(6.62, 0.253, 3.56, 4.76, "underperforming", 0.017))
            .verdict == "confirmed");
  // The floor is for isolated harnesses: an in-situ compare speedup is judged.
  Outcome c;
  c.source = OutcomeSource::compare;
  c.in_situ_speedup = 1.3;
  CHECK(judge(c, small).verdict == "confirmed");
}

TEST_CASE("judge_outcome: e2e contradiction of a saturated prediction", "[outcomes]") {
  const Prediction moe = prediction(26.45, 0.881, 1.022, 0.57, "saturated", 0.049471);
  Outcome o = isolated(OutcomeSource::integrate, 1.04);
  o.e2e_delta_pct = 1.2;  // > 0.57 + 0.5
  o.gate = "accepted";
  OutcomeJudgement j = judge(o, moe);
  CHECK(j.verdict == "contradiction");
  CHECK(flagged(j, "e2e_contradiction"));
  o.e2e_delta_pct = 1.0;  // ≤ 1.07
  CHECK(judge(o, moe).verdict == "confirmed");
  // Not saturated: an e2e gain above the prediction is no contradiction by itself.
  const Prediction attn = prediction(8.86, 0.178, 2.80, 5.70, "underperforming", 0.141112);
  o.e2e_delta_pct = 7.0;
  CHECK(judge(o, attn).verdict == "confirmed");
}

TEST_CASE("judge_outcome: an e2e gain alone contradicts a saturated prediction", "[outcomes]") {
  // An accepted integration that measured only the e2e delta (no isolated speedup): +26.9 % on a
  // kernel predicted saturated at +0.57 % is far beyond 0.57 + 0.5 points.
  const Prediction moe = prediction(26.45, 0.881, 1.022, 0.57, "saturated", 0.049471);
  Outcome o;
  o.source = OutcomeSource::integrate;
  o.kernel = std::string("fused_moe_kernel");
  o.gate = "accepted";
  o.e2e_delta_pct = 26.9;
  OutcomeJudgement j = judge(o, moe);
  CHECK(j.verdict == "contradiction");
  CHECK(flagged(j, "e2e_contradiction"));
  CHECK(j.reason.find("+26.9 %") != std::string::npos);
  // Within the slack, or on a prediction that was not saturated, it stays undefined: without a
  // speedup there is nothing to confirm.
  o.e2e_delta_pct = 1.0;
  CHECK(judge(o, moe).verdict == "undefined");
  const Prediction attn = prediction(8.86, 0.178, 2.80, 5.70, "underperforming", 0.141112);
  o.e2e_delta_pct = 26.9;
  CHECK(judge(o, attn).verdict == "undefined");
}

TEST_CASE("judge_outcome: a prediction without a verdict cannot be contradicted", "[outcomes]") {
  Prediction p = prediction(12.82, 0.0, 1.0, 0.0, "unknown", 0.0631);
  p.roofline_pct.reset();
  const OutcomeJudgement j = judge(isolated(OutcomeSource::opbench, 2.0), p);
  CHECK(j.verdict == "improved");  // faster, but nothing predicted to confirm
  CHECK(flagged(j, "no_predicted_verdict"));
}

}  // namespace unit_outcome_verdict
