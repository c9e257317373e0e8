#pragma once
// Pass gather_evidence (docs/method.md §11): stage B and C evidence matched to the head entries.
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/findings.hpp"
#include "roofline/base/vocabulary.hpp"
#include "roofline/inputs/counters.hpp"
#include "roofline/inputs/eval_inputs.hpp"
#include "roofline/inputs/probes.hpp"
#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

struct HeadEntry;

// What stages B and C found for one head entry, matched by kernel name before the per-entry pass.
struct EntryEvidence {
  const ProbeKernel* workload = nullptr;   // the profiler's per-case counts (profile_workload.json)
  std::vector<const ProbeKernel*> probes;  // captured shapes (several per-process files combine)
  MatchKind probe_match = MatchKind::none;
  std::optional<KernelMeasurement> measured;  // counters, summed over the matched kernels
  std::string measured_source;                // "counters of 'fused_moe_kernel' (exact match)"
};

// What the evidence inputs themselves told the run.
struct EvidenceSummary {
  std::vector<std::string> measured_inputs;  // the report's listing: each input and its problems
  std::vector<std::string> unmatched_counter_kernels;  // most dispatches first
  Findings findings;  // run notes; unusable files and bad rows (L4 where it applies)
};
// Matches workload kernels, probe kernels and counter kernels to the head entries with the one
// kernel-name matcher (match.hpp) and folds each entry's counters into one per-dispatch
// measurement. Writes each entry's `evidence` and nothing else. `workload` is the
// profile_workload.json beside the Top-N, or null.
EvidenceSummary gather_evidence(std::vector<HeadEntry>& head, const ShapesInput& shapes,
                                const CountersInput& counters, const ProbeSet* workload = nullptr);

}  // namespace roofline::analyze
