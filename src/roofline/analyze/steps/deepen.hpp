#pragma once
// Pass deepen (docs/method.md §11): the stage-A estimate after the workload, probe and counter
// evidence.
#include <string>

#include "roofline/analyze/entry/entry_evidence.hpp"
#include "roofline/analyze/entry/model_context.hpp"
#include "roofline/analyze/entry/regime_choice.hpp"
#include "roofline/analyze/entry/work_estimate.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/classify/classify.hpp"
#include "roofline/inputs/counters.hpp"

namespace roofline::analyze {

// The measured/model ratios of one unit (`launches` dispatches): bytes when the model has bytes
// (> 0) and the measurement bytes, FLOPs when the model has FLOPs (> 0) and the counters FLOPs;
// a collective's model counts link bytes, which DRAM counters do not measure (bytes stay null).
MeasuredVsModel compare_to_model(double model_bytes, double model_flops, bool link_bytes,
                                 const KernelMeasurement& measured, double launches);

// Replaces the model's bytes (and FLOPs, and t_unit when the counters timed the dispatches) with
// the per-dispatch measurement times the unit's launches. The model's candidates stay for
// comparison, the measurement is added as the chosen candidate, and the measured/model ratios go to
// `measured_vs_model` and to notes. A collective keeps its modelled link bytes (the counters'
// DRAM bytes are not link traffic); its measured time still applies.
void apply_measurement(WorkEstimate& work, const KernelMeasurement& measured,
                       const std::string& source, const ResolvedPeaks& peaks);

// The stage-A estimate after the evidence: the profiler's workload cases replace the Top-N's
// shapes (still stage A), stage B replaces it with the probe cases' model when one can be built,
// stage C puts the measured bytes in (when the op has a model); each says so.
Deepened deepen(WorkEstimate stage_a, const EntryEvidence& evidence, const TopnEntry& entry,
                const RegimeChoice& regime, const Classification& cls, const ModelContext& ctx);

}  // namespace roofline::analyze
