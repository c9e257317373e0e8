#pragma once
// Calibrating target_eff from recorded outcomes (docs/method.md §17.4): the shrinkage estimate per
// (op_class, arch, product, ceiling), its leave-one-out check, and the calibration file it writes.

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/inputs/calibration.hpp"
#include "roofline/outcomes/outcomes.hpp"

namespace roofline {

inline constexpr double k_shrink_weight = 2.0;  // the shipped prior counts as two outcomes

// One usable outcome of a class: the prediction's roofline_pct and the measured speedup.
struct CalibrationSample {
  std::array<std::string, 3> key;
  double roofline_pct = 0;
  double speedup = 0;
  double efficiency() const { return roofline_pct * speedup; }  // e_i
};

// (2 · prior + Σ e_i) / (2 + n), clamped to [0.05, 1]; the prior itself when n = 0.
double shrink_target_eff(double prior, const std::vector<CalibrationSample>& samples);
// mean |ln(max(1, prior / roofline_pct_i) / speedup_i)|; nullopt without samples.
std::optional<double> loo_error_prior(double prior, const std::vector<CalibrationSample>& samples);
// The same with target_eff' fitted without sample i for each i; nullopt without samples.
std::optional<double> loo_error_calibrated(double prior,
                                           const std::vector<CalibrationSample>& samples);

// A stage-C entry's measured/model byte ratio, by class.
struct ByteRatioSample {
  std::string op_class, arch, product;
  double ratio = 0;
  CeilingKind ceiling = CeilingKind::datasheet;  // the entry's ceiling
};

// The calibration (pure): usable records (verdict confirmed | within_noise | regressed |
// contradiction, a prediction with a verdict and not suspect, roofline_pct > 0, a measured
// speedup), one per (run, kernel) by source precedence director > opbench > integrate > compare,
// grouped by (op_class, arch, product, ceiling) and fitted; `used` when n ≥ min_n and the
// calibrated leave-one-out error is lower than the prior's. Byte ratios add their median to their
// class (a class with ratios only has n = 0). Classes sorted by op_class, arch, product, ceiling
// (datasheet before measured).
CalibrationTable calibrate(const std::vector<LedgerRecord>& records,
                           const std::vector<ByteRatioSample>& byte_ratios, std::size_t min_n);

// Stage-C entries (stage "C" with measured_vs_model.bytes) of every profile_roofline.json under
// `dir` (a few levels deep), with the files read in `notes`.
std::vector<ByteRatioSample> scan_stage_c_artifacts(const std::filesystem::path& dir,
                                                    std::vector<std::string>& notes);

// roofline_calibration.json (`roofline-calibration-v1`) and the stdout table.
nlohmann::ordered_json calibration_json(const CalibrationTable& table);
std::string render_calibration_text(const CalibrationTable& table);

}  // namespace roofline
