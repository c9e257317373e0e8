#pragma once
// Pass gather_evidence (docs/method.md §11): stage B and C evidence matched to the head entries.
#include <vector>

#include "roofline/analyze/entry/entry_evidence.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/counters.hpp"
#include "roofline/inputs/eval_inputs.hpp"
#include "roofline/inputs/probes.hpp"

namespace roofline::analyze {

struct HeadEntry;

// Matches workload kernels, probe kernels and counter kernels to the head entries with the one
// kernel-name matcher (match.hpp) and folds each entry's counters into one per-dispatch
// measurement. Writes each entry's `evidence` and nothing else. `workload` is the
// profile_workload.json beside the Top-N, or null.
EvidenceSummary gather_evidence(std::vector<HeadEntry>& head, const ShapesInput& shapes,
                                const CountersInput& counters, const ProbeSet* workload = nullptr);

}  // namespace roofline::analyze
