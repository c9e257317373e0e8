#pragma once
// What grade leaves on an entry (docs/method.md §12, §13): confidence, and why there is no
// verdict.
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/layer.hpp"
#include "roofline/base/vocabulary.hpp"

namespace roofline::analyze {

// Why an entry has no verdict (docs/method.md §13): L2 no model, L3 infeasible, L5 the analysis
// failed.
struct EntryProblem {
  Level level = Level::L2;
  std::string reason;
};
struct Grade {
  Confidence confidence = Confidence::low;
  // judge's flag (Verdict::stage_c_candidate) as grade leaves it: cleared once stage C measured
  // the entry. The artifact's `stage_c_candidate` is this one.
  bool stage_c_candidate = false;
  std::optional<EntryProblem> problem;
  std::vector<std::string> notes;
};

}  // namespace roofline::analyze
