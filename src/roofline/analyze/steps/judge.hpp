#pragma once
// Pass judge (docs/method.md §9, §10): utilization, bound, headroom and the verdict of one entry.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/entry/resolved_peaks.hpp"
#include "roofline/analyze/entry/verdict.hpp"
#include "roofline/analyze/entry/work_estimate.hpp"
#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

// The prior for how close a good implementation of the class gets (docs/method.md §10.4): the one
// lookup in the shipped data/target_eff.tsv (the product's row, else the class's `*` row).
std::optional<double> target_eff_for(OpClass cls, const std::string& product);
Verdict judge(const WorkEstimate& work, OpClass cls, double pct_gpu_time,
              const ResolvedPeaks& peaks, const VerdictParams& params);
// docs/method.md §10.8: the point verdict alone (no band); `judge` is this, then judge_band.
Verdict judge_point(const WorkEstimate& work, OpClass cls, double pct_gpu_time,
                    const ResolvedPeaks& peaks, const VerdictParams& params);
// The readings of `work` (the taken one, work.readings, and the MoE figures its candidates
// report), each judged by judge_point, their intervals, and the class verdict across them.
Band judge_band(const WorkEstimate& work, OpClass cls, double pct_gpu_time,
                const ResolvedPeaks& peaks, const VerdictParams& params, const Verdict& point);
// Why a band across classes with nothing to pick its reading leaves no verdict, and what settles
// it.
std::string band_withheld_reason(const Band& b);
// Headroom classes as a sentence lists them: "saturated, moderate and underperforming".
std::string classes_text(const std::vector<Headroom>& cs);

namespace judge_detail {

// Each signature of an entry judged on its own roof (docs/method.md §22.8, judge_signatures.cpp),
// and the sums the entry is judged from.
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

}  // namespace judge_detail

}  // namespace roofline::analyze
