#pragma once
// A calibration of target_eff (docs/method.md §17.4, `roofline_calibration.json`) as `analyze
// --calibration` reads and uses it (§17.5): the table, its reader and the per-entry lookup.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/inputs/load.hpp"
#include "roofline/base/vocabulary.hpp"

namespace roofline {

inline constexpr double k_min_target_eff = 0.05;
inline constexpr double k_max_target_eff = 1.0;
inline constexpr std::size_t k_default_min_n = 3;

struct CalibrationClass {
  std::string op_class, arch, product;  // product "" = none
  // The ceiling the class's predictions divided by (docs/method.md §5.7): a calibration from
  // datasheet predictions does not apply to measured ones. A file without it is datasheet.
  CeilingKind ceiling = CeilingKind::datasheet;
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

// Reads roofline_calibration.json; a class with a missing or mistyped field is skipped with a
// message naming the file and the field.
Loaded<CalibrationTable> parse_calibration(std::string_view text, const std::string& display,
                                           const InputLimits& limits = {});

// target_eff for one analysed entry (pure): the calibrated value of the class (op_class, arch,
// product, ceiling) when `calibration` has it marked used with n ≥ min_n, else the prior. `source`
// is "prior" or "calibrated (n=…, FILE)", empty when no calibration was given; `note` shows both
// values (empty when no calibration was given).
struct TargetEffChoice {
  std::optional<double> target_eff;
  std::string source;
  std::string note;
};
TargetEffChoice choose_target_eff(std::optional<double> prior, OpClass cls, const std::string& arch,
                                  const std::string& product, CeilingKind ceiling,
                                  const CalibrationTable* calibration, std::size_t min_n);

}  // namespace roofline
