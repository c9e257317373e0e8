#pragma once
// `roofline calc`: the docs/method.md §10 arithmetic on raw numbers, a what-if calculator.

#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/entry/resolved_peaks.hpp"
#include "roofline/analyze/entry/verdict.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

struct CalcInput {
  double bytes = 0.0;
  double flops = 0.0;
  double time_us = 0.0;
  std::string gfx;
  std::string product;
  bool product_pinned = false;  // `product` is a section's key as --product resolved it
  std::string dtype;
  std::string op_class;
  std::optional<double> pct_gpu_time;
  VerdictParams verdict;
};

struct CalcResult {
  HeadEntry entry;
  ResolvedPeaks peaks;
  std::vector<std::string> errors;  // unusable inputs (bad dtype or class)
};

// Runs utilization, bound, verdict and route on the given numbers against `table`: the same
// entry fields `analyze` would compute for a kernel that moved `bytes` and did `flops` in
// `time_us`.
CalcResult calc(const CalcInput& input, const PeaksTable& table);

}  // namespace roofline::analyze
