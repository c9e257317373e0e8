#pragma once
// `roofline calc`: the SPEC §5 arithmetic on raw numbers, a what-if calculator.

#include <optional>
#include <string>
#include <vector>

#include "roofline/analysis.hpp"
#include "roofline/report.hpp"

namespace roofline {

struct CalcInput {
  double bytes = 0.0;
  double flops = 0.0;
  double time_us = 0.0;
  std::string gfx;
  std::string product;
  std::string dtype;
  std::string op_class;
  std::optional<double> pct_gpu_time;
  double launch_overhead_us = 5.0;
};

struct CalcResult {
  EntryResult entry;
  ResolvedPeaks peaks;
  std::vector<std::string> errors;  // unusable inputs (bad dtype or class)
};

// Runs utilization, bound, verdict and route on the given numbers against `table`.
CalcResult calc(const CalcInput& input, const PeaksTable& table);

// The same fields `analyze` emits for an entry, plus the peaks used.
ordered_json calc_json(const CalcResult& result);
std::string calc_text(const CalcResult& result);

}  // namespace roofline
