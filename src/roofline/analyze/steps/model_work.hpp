#pragma once
// Pass model_work (docs/method.md §8): one entry's bytes and FLOPs per logical unit, from the
// models of analyze/models/.
#include <vector>

#include "roofline/analyze/entry/model_context.hpp"
#include "roofline/analyze/entry/regime_choice.hpp"
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

// The Top-N's own call signatures as cases (docs/method.md §8.2), the input the driver hands step
// 7: one case per signature with its per-operand dtypes by role (operand_dtypes, under `cls`).
// Empty unless the entry's `shapes` were call signatures with a dtype set (`dtypes_are_set`).
SignatureCases signature_cases(const TopnEntry& entry, OpClass cls, const ModelConfig* config);

// Step 7 at confidence stage A. With call signatures (`signatures`, from signature_cases; an entry
// whose `dtypes_are_set` needs them): the case model over them, and when no signature can be
// modelled, the first signature alone at the activation type. Otherwise model_candidates, then
// choose_candidate, over the entry's shapes. An entry left unmodelled with shapes and dtypes gets
// the operand-bytes lower bound (docs/method.md §8.16).
WorkEstimate model_work(const TopnEntry& entry, const RegimeChoice& regime,
                        const Classification& cls, const ModelContext& ctx,
                        const SignatureCases& signatures = {});

}  // namespace roofline::analyze
