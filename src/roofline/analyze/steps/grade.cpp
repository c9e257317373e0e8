// Step 10, grade (docs/method.md §12, §13): how far an entry's numbers can be trusted, and why it
// has no verdict.
#include "roofline/analyze/steps/grade.hpp"

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/steps/judge.hpp"

namespace roofline::analyze {

Grade grade(EvidenceLevel stage, const WorkEstimate& work, const Verdict& v,
            const ResolvedPeaks& peaks) {
  Grade g;
  // Confidence follows the stage (docs/method.md §12); low peaks or an unvalidated compute axis
  // keep it low.
  g.confidence = stage == EvidenceLevel::C   ? Confidence::high
                 : stage == EvidenceLevel::B ? Confidence::medium
                                             : Confidence::low;
  if (stage == EvidenceLevel::A)
    g.notes.push_back(
        "confidence low: stage A estimate from Top-N shapes and config (display and annotate "
        "only)");
  if (stage != EvidenceLevel::A && peaks.confidence == Confidence::low) {
    g.confidence = Confidence::low;
    g.notes.push_back(fmt::format("confidence low: stage {} numbers over low-confidence peaks",
                                  to_string(stage)));
  } else if (v.compute_axis && !peaks.compute_validated) {
    g.confidence = Confidence::low;
    g.notes.push_back(
        "compute-axis entry on unvalidated compute peaks (bf16 != fp16 or missing): confidence "
        "low");
  } else if (stage != EvidenceLevel::A) {
    g.notes.push_back(
        stage == EvidenceLevel::C
            ? "confidence high: stage C, measured bytes (rank; cite)"
            : "confidence medium: stage B, captured shapes (rank as a secondary key)");
  }
  // A measured entry has had its stage-C run: it is no longer a candidate for one.
  g.stage_c_candidate = v.stage_c_candidate && stage != EvidenceLevel::C;

  if (!work.modeled)
    g.problem = EntryProblem{Level::L2, work.unmodeled_reason};
  else if (v.suspect)
    g.problem = EntryProblem{
        Level::L3,
        fmt::format(
            "infeasible: raw roofline_pct {:.4g} outside [0.001, 1]; no verdict, stage-C candidate",
            v.roofline_pct_raw.value_or(0.0))};
  else if (!v.no_roof_reason.empty())
    g.problem = EntryProblem{Level::L1, v.no_roof_reason + "; no verdict"};
  else if (v.band.withheld)
    g.problem = EntryProblem{Level::L2, band_withheld_reason(v.band)};
  return g;
}

}  // namespace roofline::analyze
