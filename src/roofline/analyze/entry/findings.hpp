#pragma once
// Findings: what a pass found besides its result (docs/method.md §3).
#include <string>
#include <vector>

#include "roofline/analyze/layer.hpp"
#include "roofline/base/vocabulary.hpp"

namespace roofline::analyze {

// What a step found besides its result, in the order found: notes (the unit, model and
// assumption a number rests on) and diagnostics (problems, docs/method.md §13). The driver merges
// each step's findings into the run's with one helper.
struct Findings {
  std::vector<std::string> notes;
  std::vector<Diagnostic> diagnostics;
};

}  // namespace roofline::analyze
