#pragma once
// The subcommands behind the CLI: plain option structs in, an exit code out (SPEC §1).

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "roofline/calc.hpp"
#include "roofline/load.hpp"

namespace roofline::cli {

inline constexpr int k_exit_ok = 0;
inline constexpr int k_exit_strict = 1;
inline constexpr int k_exit_usage = 2;
inline constexpr int k_exit_write = 3;

struct AnalyzeArgs {
  std::optional<long> round;
  std::string dir = ".";
  std::string topn, env, config, peaks, out, format;
  std::string color = "auto";  // auto | always | never (--format text)
  std::vector<std::string> shapes, counters, classify;
  std::optional<double> head_threshold;
  std::size_t max_entries = 8;
  double launch_overhead_us = 5.0;
  double mfma_f8_flops = 512.0;
  bool strict = false;
  bool fsync = false;
  InputLimits limits;
  std::string calibration;  // --calibration FILE ("" = $ROOFLINE_CALIBRATION, else none)
  std::size_t calibration_min_n = 3;
};

struct PeaksArgs {
  std::string gfx, product, file, format = "text";
};

struct CalcArgs {
  CalcInput in;
  std::string peaks, format = "text";
};

// A usage problem found after parsing (bad option value, missing file): exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One line on stderr, prefixed "roofline: ".
void err_line(const std::string& msg);

int run_analyze(const AnalyzeArgs& args);
int run_peaks_list(const PeaksArgs& args);
int run_peaks_show(const PeaksArgs& args);
int run_peaks_check(const PeaksArgs& args);
int run_calc(const CalcArgs& args);

}  // namespace roofline::cli
