#pragma once
// Pass grade (docs/method.md §12, §13): confidence, and why an entry has no verdict.
#include "roofline/analyze/entry/grade.hpp"
#include "roofline/analyze/entry/resolved_peaks.hpp"
#include "roofline/analyze/entry/verdict.hpp"
#include "roofline/analyze/entry/work_estimate.hpp"
#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

// Confidence follows the evidence stage (A low, B medium, C high); low-confidence peaks, or a
// compute-axis verdict on unvalidated compute peaks, keep it low. An entry without a model is L2,
// an infeasible one L3.
Grade grade(EvidenceLevel stage, const WorkEstimate& work, const Verdict& verdict,
            const ResolvedPeaks& peaks);

}  // namespace roofline::analyze
