#pragma once
// Private to the judge step (docs/method.md §22.8): each signature of an entry judged on its own
// roof, and the sums the entry is judged from.

#include <cstddef>
#include <optional>
#include <string>

#include "roofline/analyze/entry/resolved_peaks.hpp"
#include "roofline/analyze/entry/verdict.hpp"
#include "roofline/analyze/entry/work_estimate.hpp"
#include "roofline/analyze/layer.hpp"

namespace roofline::analyze::detail {

struct SignatureRoofs {
  double roof_ms = 0.0;      // Σ units · max(bytes/BW, FLOPs/peak)
  double measured_ms = 0.0;  // Σ units · t_unit
  double compute_ms = 0.0;   // the part of roof_ms on the compute roof
  std::size_t judged = 0;    // signatures in the sums
  // The signature outside the sanity band with the most time, if any: the entry takes its ratio
  // (a refuted signature refutes the entry's model; docs/method.md §22.8).
  double suspect_ms = 0.0;
  std::optional<double> suspect_raw;
  std::string suspect_label;
};

// Judges every modelled signature of `work` on its own (v.signatures, v.most_to_win) and returns
// the sums over the unrefuted ones; judged == 0 when the memory roof is unknown or none is
// modelled.
SignatureRoofs judge_signatures(const WorkEstimate& work, OpClass cls, double pct_gpu_time,
                                const ResolvedPeaks& peaks, const VerdictParams& params,
                                Verdict& v);

// The notes that say how the entry was judged from its signatures, and which has the most to win.
void signature_notes(const WorkEstimate& work, const SignatureRoofs& sums, Verdict& v);

}  // namespace roofline::analyze::detail
