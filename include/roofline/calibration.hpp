#pragma once
// Calibrating target_eff from recorded outcomes (OUTCOMES.md §4) and using a calibration in
// `analyze` (§5).

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/analysis.hpp"
#include "roofline/load.hpp"
#include "roofline/outcomes.hpp"

namespace roofline {

inline constexpr double k_shrink_weight = 2.0;  // the shipped prior counts as two outcomes
inline constexpr double k_min_target_eff = 0.05;
inline constexpr double k_max_target_eff = 1.0;
inline constexpr std::size_t k_default_min_n = 3;

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

struct CalibrationClass {
  std::string op_class, arch, product;  // product "" = none
  std::size_t n = 0;
  double prior = 0;
  double target_eff = 0;
  std::optional<double> loo_error_prior, loo_error_calibrated;
  bool used = false;
  std::string why;                   // why used or not
  std::optional<double> byte_ratio;  // median stage-C measured_vs_model.bytes
  std::size_t byte_ratio_n = 0;
  std::vector<std::array<std::string, 3>> keys;
};

struct CalibrationTable {
  std::string display;  // the file, as named in target_eff_source
  std::size_t min_n = k_default_min_n;
  std::vector<CalibrationClass> classes;
  std::vector<std::string> notes;
};

// A stage-C entry's measured/model byte ratio, by class.
struct ByteRatioSample {
  std::string op_class, arch, product;
  double ratio = 0;
};

// The calibration (pure): usable records (verdict confirmed | within_noise | regressed |
// contradiction, a prediction with a verdict and not suspect, roofline_pct > 0, a measured
// speedup), one per (run, kernel) by source precedence director > opbench > integrate > compare,
// grouped by (op_class, arch, product) and fitted; `used` when n ≥ min_n and the calibrated
// leave-one-out error is lower than the prior's. Byte ratios add their median to their class
// (a class with ratios only has n = 0). Classes sorted by op_class, arch, product.
CalibrationTable calibrate(const std::vector<LedgerRecord>& records,
                           const std::vector<ByteRatioSample>& byte_ratios, std::size_t min_n);

// Stage-C entries (stage "C" with measured_vs_model.bytes) of every profile_roofline.json under
// `dir` (a few levels deep), with the files read in `notes`.
std::vector<ByteRatioSample> scan_stage_c_artifacts(const std::filesystem::path& dir,
                                                    std::vector<std::string>& notes);

// roofline_calibration.json (`roofline-calibration-v1`) and the stdout table.
nlohmann::ordered_json calibration_json(const CalibrationTable& table);
std::string render_calibration_text(const CalibrationTable& table);

// Reads roofline_calibration.json; a class with a missing or mistyped field is skipped with a
// message naming the file and the field.
Loaded<CalibrationTable> parse_calibration(std::string_view text, const std::string& display);

// target_eff for one analysed entry (pure): the calibrated value of the class (op_class, arch,
// product) when `calibration` has it marked used with n ≥ min_n, else the prior. `source` is
// "prior" or "calibrated (n=…, FILE)", empty when no calibration was given; `note` shows both
// values (empty when no calibration was given).
struct TargetEffChoice {
  std::optional<double> target_eff;
  std::string source;
  std::string note;
};
TargetEffChoice choose_target_eff(std::optional<double> prior, OpClass cls, const std::string& arch,
                                  const std::string& product, const CalibrationTable* calibration,
                                  std::size_t min_n);

}  // namespace roofline
