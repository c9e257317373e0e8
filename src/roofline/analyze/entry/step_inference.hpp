#pragma once
// What infer_steps says (docs/method.md §6.4): the run's inferred steps, and each head entry's
// launches per step.
#include <optional>
#include <string>

#include "roofline/analyze/entry/findings.hpp"
#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

// What step inference says about one head entry.
struct InferredLaunches {
  std::optional<double> launches_per_step;  // calls / inferred steps, when consistent
  std::string how;                          // "calls 164560 / inferred steps 2057"
  std::string inconsistent;                 // why this per-layer entry stays at one launch
};

struct StepInference {
  bool attempted = false;       // the Top-N had neither per-regime fields nor step counts
  std::optional<double> steps;  // nullopt: declined (the note says why)
  Findings findings;            // the inference and its consistency check: one run note
};

}  // namespace roofline::analyze
