// docs/method.md §17.4, §17.5: shrinkage toward the prior, leave-one-out errors, sample selection
// and source precedence, byte-ratio medians, and the lookup analyze uses.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "roofline/cli/layer.hpp"
#include "roofline/outcomes/calibrate.hpp"
#include "unit/test_helpers.hpp"

namespace unit_calibrate {
using namespace roofline::cli;
using roofline::test::rel;

namespace {

CalibrationSample sample(double pct, double s) {
  CalibrationSample x;
  x.roofline_pct = pct;
  x.speedup = s;
  return x;
}

// The four MoE outcomes of the calibrate_worked golden case (its README works them by hand).
std::vector<CalibrationSample> moe_samples() {
  return {sample(0.881, 1.047), sample(0.62, 1.31), sample(0.70, 1.21), sample(0.55, 1.45)};
}

LedgerRecord record(const std::string& run, const std::string& kernel, const std::string& source,
                    double pct, double s, const std::string& op_class = "moe") {
  LedgerRecord r;
  r.run = run;
  r.kernel = kernel;
  r.source = source;
  r.arch = "gfx950";
  r.op_class = op_class;
  r.predicted_present = true;
  r.predicted.roofline_pct = pct;
  r.predicted.headroom_class = "moderate";
  r.isolated_speedup = s;
  r.verdict = "confirmed";
  return r;
}

}  // namespace

TEST_CASE("shrink_target_eff: (2·prior + Σ e_i) / (2 + n), clamped to [0.05, 1]", "[calibrate]") {
  // e = 0.922407 + 0.8122 + 0.847 + 0.7975 = 3.379107; (1.8 + 3.379107) / 6 = 0.8631845.
  CHECK(shrink_target_eff(0.9, moe_samples()) == rel(0.8631845));
  CHECK(shrink_target_eff(0.9, {}) == rel(0.9));
  CHECK(shrink_target_eff(0.9, {sample(0.9, 3.0), sample(0.9, 3.0)}) == rel(1.0));  // clamped
  CHECK(shrink_target_eff(0.05, {sample(0.001, 1.0), sample(0.001, 1.0)}) == rel(0.05));
}

TEST_CASE("leave-one-out errors: prior vs calibrated, worked by hand", "[calibrate]") {
  const auto s = moe_samples();
  // mean |ln(max(1, 0.9/pct_i) / s_i)| = (0.024592 + 0.102648 + 0.060694 + 0.120913) / 4.
  CHECK(loo_error_prior(0.9, s).value() == Approx(0.0772117).epsilon(1e-5));
  const double prior_err =
      (std::fabs(std::log(0.9 / 0.881 / 1.047)) + std::fabs(std::log(0.9 / 0.62 / 1.31)) +
       std::fabs(std::log(0.9 / 0.70 / 1.21)) + std::fabs(std::log(0.9 / 0.55 / 1.45))) /
      4;
  CHECK(loo_error_prior(0.9, s).value() == rel(prior_err));
  // Without record 0, target' = (1.8 + 0.8122 + 0.847 + 0.7975) / 5 = 0.85134 < 0.881: the
  // predicted attainable is max(1, …) = 1, error |ln(1 / 1.047)|; and so on for each record.
  const double cal_err =
      (std::fabs(std::log(1.0 / 1.047)) + std::fabs(std::log(0.8733814 / 0.62 / 1.31)) +
       std::fabs(std::log(0.8664214 / 0.70 / 1.21)) +
       std::fabs(std::log(0.8763214 / 0.55 / 1.45))) /
      4;
  CHECK(loo_error_calibrated(0.9, s).value() == rel(cal_err));
  CHECK(loo_error_calibrated(0.9, s).value() == Approx(0.0588691).epsilon(1e-5));
  CHECK_FALSE(loo_error_prior(0.9, {}).has_value());
  // One sample: the leave-one-out fit is the prior itself, so the errors are equal.
  const std::vector<CalibrationSample> one = {sample(0.178, 1.56)};
  CHECK(loo_error_calibrated(0.5, one).value() == rel(loo_error_prior(0.5, one).value()));
}

TEST_CASE("calibrate: one outcome per (run, kernel), director > opbench > integrate > compare",
          "[calibrate]") {
  std::vector<LedgerRecord> rs;
  rs.push_back(record("qwen", "fused_moe_kernel", "compare", 0.881, 1.10));
  rs.push_back(record("qwen", "fused_moe_kernel", "opbench", 0.881, 1.03));
  rs.push_back(record("qwen", "fused_moe_kernel", "director", 0.881, 1.047));
  rs.push_back(record("qwen", "fused_moe_kernel", "integrate", 0.881, 1.2));
  rs.push_back(record("r2", "fused_moe_kernel", "opbench", 0.62, 1.31));
  rs.push_back(record("r3", "fused_moe_kernel", "integrate", 0.70, 1.21));
  rs.push_back(record("r4", "moe_kernel", "compare", 0.55, 1.45));
  rs.back().isolated_speedup.reset();
  rs.back().in_situ_speedup = 1.45;  // an in-situ speedup counts too
  // Not usable: undefined, unpredicted, no verdict, suspect.
  rs.push_back(record("r5", "k1", "opbench", 0.5, 1.2));
  rs.back().verdict = "undefined";
  rs.push_back(record("r5", "k2", "opbench", 0.5, 1.2));
  rs.back().predicted_present = false;
  rs.push_back(record("r5", "k3", "opbench", 0.5, 1.2));
  rs.back().predicted.headroom_class = "unknown";
  rs.push_back(record("r5", "k4", "opbench", 0.5, 1.2));
  rs.back().predicted.suspect = true;
  rs.push_back(rs.front());  // a key already read

  const CalibrationTable t = calibrate(rs, {}, 3);
  REQUIRE(t.classes.size() == 1);
  const CalibrationClass& c = t.classes[0];
  CHECK(c.op_class == "moe");
  CHECK(c.arch == "gfx950");
  CHECK(c.product.empty());
  CHECK(c.n == 4);
  CHECK(c.prior == rel(0.9));
  CHECK(c.target_eff == rel(0.8631845));  // the director's 1.047 stood for the qwen kernel
  CHECK(c.loo_error_calibrated.value() < c.loo_error_prior.value());
  CHECK(c.used);
  REQUIRE(c.keys.size() == 4);
  CHECK(c.keys[0] == std::array<std::string, 3>{"qwen", "fused_moe_kernel", "director"});
  CHECK(t.notes.size() == 5);  // the repeated key and four reasons
}

TEST_CASE("calibrate: used only with n ≥ min-n and a lower LOO error", "[calibrate]") {
  std::vector<LedgerRecord> rs;
  // gemm: the prior already predicts these well (0.9 / pct ≈ s); calibrating does not help.
  rs.push_back(record("a", "g1", "opbench", 0.45, 2.02, "gemm"));
  rs.push_back(record("b", "g2", "opbench", 0.60, 1.49, "gemm"));
  rs.push_back(record("c", "g3", "opbench", 0.30, 2.95, "gemm"));
  rs.push_back(record("qwen", "kernel_paged_attention_2d", "opbench", 0.178, 1.56, "attn"));
  const CalibrationTable t = calibrate(rs, {}, 3);
  REQUIRE(t.classes.size() == 2);
  const CalibrationClass& attn = t.classes[0];
  CHECK(attn.op_class == "attn");
  CHECK(attn.n == 1);
  CHECK(attn.target_eff == rel((2 * 0.5 + 0.178 * 1.56) / 3));
  CHECK_FALSE(attn.used);  // n < 3
  const CalibrationClass& gemm = t.classes[1];
  CHECK(gemm.loo_error_prior.value() == Approx(0.0111488).epsilon(1e-5));
  CHECK(gemm.loo_error_calibrated.value() == Approx(0.0128206).epsilon(1e-5));
  CHECK_FALSE(gemm.used);
  CHECK(calibrate(rs, {}, 1).classes[0].used == false);  // attn: LOO errors equal, not lower
}

TEST_CASE("calibrate: the per-class median stage-C byte ratio", "[calibrate]") {
  const std::vector<ByteRatioSample> ratios = {
      {"moe", "gfx950", "", 1.10}, {"moe", "gfx950", "", 0.90}, {"moe", "gfx950", "", 1.30},
      {"moe", "gfx950", "", 1.00}, {"attn", "gfx942", "", 2.0}, {"unknown", "gfx950", "", 3.0}};
  const CalibrationTable t = calibrate({}, ratios, 3);
  REQUIRE(t.classes.size() == 2);  // unknown has no prior: no class
  CHECK(t.classes[0].op_class == "attn");
  CHECK(t.classes[0].byte_ratio.value() == rel(2.0));
  CHECK(t.classes[1].byte_ratio.value() == rel(1.05));  // median of 0.9, 1.0, 1.1, 1.3
  CHECK(t.classes[1].byte_ratio_n == 4);
  CHECK(t.classes[1].n == 0);
  CHECK_FALSE(t.classes[1].used);
}

TEST_CASE("choose_target_eff: calibrated only for a used class with n ≥ min-n", "[calibrate]") {
  CalibrationTable t;
  t.display = "roofline_calibration.json";
  CalibrationClass moe;
  moe.op_class = "moe";
  moe.arch = "gfx950";
  moe.n = 4;
  moe.target_eff = 0.8631845;
  moe.used = true;
  t.classes.push_back(moe);
  CalibrationClass attn = moe;
  attn.op_class = "attn";
  attn.used = false;
  t.classes.push_back(attn);

  TargetEffChoice c =
      choose_target_eff(0.9, OpClass::moe, "gfx950", "", CeilingKind::datasheet, &t, 3);
  CHECK(c.target_eff.value() == rel(0.8631845));
  CHECK(c.source == "calibrated (n=4, roofline_calibration.json)");
  CHECK(roofline::test::contains(c.note, "0.9"));  // both values in the note
  CHECK(roofline::test::contains(c.note, "0.863"));
  c = choose_target_eff(0.9, OpClass::moe, "gfx950", "", CeilingKind::datasheet, &t, 5);
  CHECK(c.target_eff.value() == rel(0.9));
  CHECK(c.source == "prior");
  c = choose_target_eff(0.5, OpClass::attn, "gfx950", "", CeilingKind::datasheet, &t, 3);
  CHECK(c.source == "prior");
  CHECK(c.target_eff.value() == rel(0.5));
  c = choose_target_eff(0.9, OpClass::moe, "gfx942", "", CeilingKind::datasheet, &t,
                        3);  // another arch
  CHECK(c.source == "prior");
  c = choose_target_eff(0.76, OpClass::moe, "gfx950", "r9700", CeilingKind::datasheet, &t,
                        3);  // another product
  CHECK(c.target_eff.value() == rel(0.76));
  c = choose_target_eff(0.9, OpClass::moe, "gfx950", "", CeilingKind::datasheet, nullptr,
                        3);  // no calibration
  CHECK(c.source.empty());
  CHECK(c.note.empty());
  CHECK(c.target_eff.value() == rel(0.9));
}

TEST_CASE("choose_target_eff: a datasheet calibration does not apply to a measured ceiling",
          "[calibrate][ceiling]") {
  CalibrationTable t;
  t.display = "cal.json";
  CalibrationClass gemm;
  gemm.op_class = "gemm";
  gemm.arch = "sm_90";
  gemm.product = "h200";
  gemm.n = 5;
  gemm.target_eff = 0.7;
  gemm.used = true;
  t.classes.push_back(gemm);  // ceiling datasheet (the default)

  TargetEffChoice c =
      choose_target_eff(0.9, OpClass::gemm, "sm_90", "h200", CeilingKind::measured, &t, 3);
  CHECK(c.source == "prior");
  CHECK(c.target_eff.value() == rel(0.9));
  CHECK(roofline::test::contains(c.note, "(gemm, sm_90, h200, measured ceiling)"));
  CHECK(
      roofline::test::contains(c.note, "its datasheet class does not apply to a measured ceiling"));
  c = choose_target_eff(0.9, OpClass::gemm, "sm_90", "h200", CeilingKind::datasheet, &t, 3);
  CHECK(c.target_eff.value() == rel(0.7));

  t.classes[0].ceiling = CeilingKind::measured;
  c = choose_target_eff(0.9, OpClass::gemm, "sm_90", "h200", CeilingKind::measured, &t, 3);
  CHECK(c.target_eff.value() == rel(0.7));
  c = choose_target_eff(0.9, OpClass::gemm, "sm_90", "h200", CeilingKind::datasheet, &t, 3);
  CHECK(c.source == "prior");
  CHECK(roofline::test::contains(c.note,
                                 "its measured-ceiling class does not apply to a datasheet one"));
}

}  // namespace unit_calibrate
