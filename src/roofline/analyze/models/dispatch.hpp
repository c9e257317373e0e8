#pragma once
// The models as the passes call them (docs/method.md §8, §9): the class model of one unit, the
// feasibility rule, and the case model over signatures, workload and probe cases. Step 7
// (model_work) and step 8 (deepen) call these; the models themselves are models.hpp's.
#include <vector>

#include "roofline/analyze/entry/model_context.hpp"
#include "roofline/analyze/entry/regime_choice.hpp"
#include "roofline/analyze/entry/resolved_peaks.hpp"
#include "roofline/analyze/entry/work_estimate.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/classify/classify.hpp"
#include "roofline/inputs/inputs.hpp"
#include "roofline/inputs/probes.hpp"

namespace roofline::analyze {

// The class model's byte/FLOP candidates for one logical unit, before the feasibility rule: the
// unit (k launches for a MoE layer), candidates, dtypes and notes, or `unmodeled_reason` (L2).
WorkEstimate model_candidates(const TopnEntry& entry, const RegimeChoice& regime,
                              const Classification& cls, const ModelContext& ctx);
// docs/method.md §9 feasibility rule: marks each candidate feasible or not against the byte budget
// peak_bw · t_unit, chooses the largest feasible one (the measurement refutes the rest), sets
// `bytes`/`flops` and explains the choice in notes when there was one to make.
void choose_candidate(WorkEstimate& work, const ResolvedPeaks& peaks);
// The case model, step 7's and step 8's (step 7 runs it on the Top-N's call signatures, step 8 on
// the profiler's workload cases and the probes' captured cases; a later step calls an earlier
// one's model, never the reverse). Runs the docs/method.md §8 model once per case (the case's dims
// and dtypes replace the Top-N shapes; rows in flight come from the case; its gpu_us_avg, when
// present, replaces the per-launch time) and combines the cases count-weighted: bytes, FLOPs and
// t_unit are weighted means, so their ratios are the aggregate rates over all the calls. The
// feasibility rule then runs on the combined candidates. Not modelled (with the reason) when no
// case can be modelled.
// Where a set of cases comes from: a probe (stage B), the profiler's profile_workload.json (stage
// A, count-weighted with per-case latencies) or the Top-N's own call signatures (stage A, equal
// weights).
enum class CaseSource { probes, workload, signatures };
WorkEstimate model_work_cases(const TopnEntry& entry, const RegimeChoice& regime,
                              const Classification& cls, const ModelContext& ctx,
                              const std::vector<const ProbeCase*>& cases,
                              CaseSource source = CaseSource::probes);

}  // namespace roofline::analyze
