#pragma once
// Pass grade (docs/method.md §12, §13): confidence, and why an entry has no verdict.
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/steps/judge.hpp"
#include "roofline/analyze/steps/model_work.hpp"
#include "roofline/analyze/steps/resolve_peaks.hpp"
#include "roofline/analyze/layer.hpp"

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
// Confidence follows the evidence stage (A low, B medium, C high); low-confidence peaks, or a
// compute-axis verdict on unvalidated compute peaks, keep it low. An entry without a model is L2,
// an infeasible one L3.
Grade grade(EvidenceLevel stage, const WorkEstimate& work, const Verdict& verdict,
            const ResolvedPeaks& peaks);

}  // namespace roofline::analyze
