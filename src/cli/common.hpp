#pragma once
// What every subcommand shares: exit codes (SPEC §1), usage errors, stderr lines, option checks.

#include <stdexcept>
#include <string>

#include <CLI/CLI.hpp>

#include "roofline/inputs.hpp"

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

// Option checks whose messages name the value given and what is accepted, in words (RUNS.md §4);
// CLI11's own ranges let NaN through and print limits such as "0.000000 to 1.797e308".
// A finite number in [lo, hi] (hi = infinity: no upper bound).
CLI::Validator finite_range(double lo, double hi);
CLI::Validator non_negative();
// A finite number > 0.
CLI::Validator positive();
// A whole number in [lo, hi].
CLI::Validator whole_number(long long lo, long long hi);

// --peaks FILE, or the built-in table when `file` is empty; a missing or unreadable file is a
// usage error, a broken section a warning on stderr (the rest of the table is used).
const PeaksTable& load_peaks_or_throw(const std::string& file, PeaksTable& storage);

}  // namespace roofline::cli
