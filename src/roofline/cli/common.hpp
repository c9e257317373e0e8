#pragma once
// What every subcommand shares: exit codes (docs/method.md §2.1), usage errors, stderr lines. The
// option checks are in cli/options.hpp, with CLI11.

#include <stdexcept>
#include <string>

#include "roofline/inputs/inputs.hpp"

namespace roofline::cli {

inline constexpr int k_exit_ok = 0;
inline constexpr int k_exit_strict = 1;  // --strict and something degraded, or a check failed
inline constexpr int k_exit_usage = 2;
inline constexpr int k_exit_write = 3;

// A usage problem found after parsing (bad option value, missing file): exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One line on stderr, prefixed "roofline: ".
void err_line(const std::string& msg);

// --peaks FILE, or the built-in table when `file` is empty; a missing or unreadable file is a
// usage error, a broken section a warning on stderr (the rest of the table is used).
const PeaksTable& load_peaks_or_throw(const std::string& file, PeaksTable& storage);

}  // namespace roofline::cli
