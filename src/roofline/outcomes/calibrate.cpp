// target_eff calibration from recorded outcomes (docs/method.md §17.4), pure.
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "roofline/outcomes/calibrate.hpp"
#include "roofline/analyze/stages.hpp"

namespace roofline {

namespace {

// op_class, arch, product, ceiling (docs/method.md §5.7: datasheet and measured predictions are
// calibrated apart).
using ClassKey = std::tuple<std::string, std::string, std::string, CeilingKind>;

double clamp_eff(double v) {
  return std::clamp(v, k_min_target_eff, k_max_target_eff);
}

double loo_term(double target, const CalibrationSample& s) {
  const double attainable = std::max(1.0, target / s.roofline_pct);
  return std::fabs(std::log(attainable / s.speedup));
}

// Why a record cannot calibrate anything ("" = usable).
std::string unusable(const LedgerRecord& r) {
  if (r.verdict != "confirmed" && r.verdict != "within_noise" && r.verdict != "regressed" &&
      r.verdict != "contradiction")
    return fmt::format("verdict {}", r.verdict.empty() ? "missing" : r.verdict);
  if (!r.predicted_present) return "no prediction";
  if (!r.predicted.has_verdict()) return "prediction without a verdict";
  if (r.predicted.suspect) return "suspect prediction";
  if (!r.predicted.roofline_pct || !(*r.predicted.roofline_pct > 0)) return "no roofline_pct";
  if (!r.speedup()) return "no measured speedup";
  if (r.arch.empty()) return "no arch";
  const auto cls = parse_op_class(r.op_class);
  if (!cls || !target_eff_for(*cls, r.product)) return "no prior for op_class " + r.op_class;
  return "";
}

}  // namespace

double shrink_target_eff(double prior, const std::vector<CalibrationSample>& samples) {
  double sum = 0;
  for (const auto& s : samples) sum += s.efficiency();
  return clamp_eff((k_shrink_weight * prior + sum) /
                   (k_shrink_weight + static_cast<double>(samples.size())));
}

std::optional<double> loo_error_prior(double prior, const std::vector<CalibrationSample>& samples) {
  if (samples.empty()) return std::nullopt;
  double sum = 0;
  for (const auto& s : samples) sum += loo_term(prior, s);
  return sum / static_cast<double>(samples.size());
}

std::optional<double> loo_error_calibrated(double prior,
                                           const std::vector<CalibrationSample>& samples) {
  if (samples.empty()) return std::nullopt;
  double sum = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    std::vector<CalibrationSample> rest;
    for (std::size_t j = 0; j < samples.size(); ++j)
      if (j != i) rest.push_back(samples[j]);
    sum += loo_term(shrink_target_eff(prior, rest), samples[i]);
  }
  return sum / static_cast<double>(samples.size());
}

CalibrationTable calibrate(const std::vector<LedgerRecord>& records,
                           const std::vector<ByteRatioSample>& byte_ratios, std::size_t min_n) {
  CalibrationTable t;
  t.min_n = min_n;
  // One record per key (the first read), then one per (run, kernel) by source precedence.
  std::map<std::array<std::string, 3>, bool> seen;
  std::map<std::pair<std::string, std::string>, const LedgerRecord*> best;
  std::map<std::string, std::size_t> skipped;
  std::size_t duplicates = 0;
  for (const auto& r : records) {
    if (!seen.emplace(r.key(), true).second) {
      ++duplicates;
      continue;
    }
    if (std::string why = unusable(r); !why.empty()) {
      ++skipped[why];
      continue;
    }
    auto [it, fresh] = best.emplace(std::make_pair(r.run, r.kernel), &r);
    if (!fresh && source_precedence(r.source) < source_precedence(it->second->source))
      it->second = &r;
  }
  if (duplicates > 0)
    t.notes.push_back(
        fmt::format("{} record(s) repeat a key already read: the first one kept", duplicates));
  for (const auto& [why, count] : skipped)
    t.notes.push_back(fmt::format("{} record(s) not usable: {}", count, why));

  std::map<ClassKey, std::vector<CalibrationSample>> samples;
  for (const auto& [rk, r] : best) {
    samples[{r->op_class, r->arch, r->product, r->predicted.ceiling}].push_back(
        CalibrationSample{r->key(), *r->predicted.roofline_pct, *r->speedup()});
  }
  std::map<ClassKey, std::vector<double>> ratios;
  for (const auto& b : byte_ratios)
    if (std::isfinite(b.ratio) && b.ratio > 0)
      ratios[{b.op_class, b.arch, b.product, b.ceiling}].push_back(b.ratio);
  std::map<ClassKey, bool> classes;
  for (const auto& [k, v] : samples) classes[k] = true;
  for (const auto& [k, v] : ratios)
    if (parse_op_class(std::get<0>(k))) classes[k] = true;

  for (const auto& [k, unused] : classes) {
    CalibrationClass c;
    std::tie(c.op_class, c.arch, c.product, c.ceiling) = k;
    const auto cls = parse_op_class(c.op_class);
    const std::optional<double> prior = cls ? target_eff_for(*cls, c.product) : std::nullopt;
    if (!prior) continue;  // unknown class: no prior to calibrate (its ratios have no use)
    c.prior = *prior;
    const std::vector<CalibrationSample>& s = samples[k];
    c.n = s.size();
    c.target_eff = shrink_target_eff(c.prior, s);
    c.loo_error_prior = loo_error_prior(c.prior, s);
    c.loo_error_calibrated = loo_error_calibrated(c.prior, s);
    for (const auto& x : s) c.keys.push_back(x.key);
    if (c.n == 0)
      c.why = "no usable outcome, only a stage-C byte ratio";
    else if (c.n < min_n)
      c.why = fmt::format("n = {} < min-n {}", c.n, min_n);
    else if (!(*c.loo_error_calibrated < *c.loo_error_prior))
      c.why = "the calibrated leave-one-out error is not lower than the prior's";
    else
      c.why = "the calibrated leave-one-out error is lower";
    c.used = c.n >= min_n && *c.loo_error_calibrated < *c.loo_error_prior;
    if (auto r = ratios.find(k); r != ratios.end()) {
      std::vector<double> v = r->second;
      std::sort(v.begin(), v.end());
      const std::size_t m = v.size() / 2;
      c.byte_ratio = v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2.0;
      c.byte_ratio_n = v.size();
    }
    t.classes.push_back(std::move(c));
  }
  return t;
}

}  // namespace roofline
