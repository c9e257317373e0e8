#pragma once
// What the byte and FLOP models read besides the entry (docs/method.md §8): the run's
// environment, config, denominators, serving block and weight formats.
#include <string>

#include "roofline/analyze/entry/resolved_peaks.hpp"
#include "roofline/analyze/entry/run_weights.hpp"
#include "roofline/analyze/entry/step_rows.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

struct ModelContext {
  const EnvReport* env = nullptr;       // null when env_report.json is missing/unreadable
  const ModelConfig* config = nullptr;  // null when config.json is missing/unreadable
  std::string config_status;            // why config is null, for reasons
  const ResolvedPeaks* peaks = nullptr;
  // The Top-N's measured serving block (step sums for attention in prefill and mixed steps,
  // docs/method.md §22.6); null when the run has none.
  const TopnServing* serving = nullptr;
  // What the run's own linears say of weights the trace does not show (docs/method.md §23.5);
  // null when not gathered.
  const RunWeights* weights = nullptr;
  // The steps' rows the kernels beside the matrix kernels count (docs/method.md §22.4); null when
  // not counted.
  const StepRows* step_rows = nullptr;
};

}  // namespace roofline::analyze
