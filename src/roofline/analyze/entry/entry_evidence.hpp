#pragma once
// What gather_evidence matched to each head entry (docs/method.md §11), and what the evidence
// inputs told the run.
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/entry/findings.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/base/vocabulary.hpp"
#include "roofline/inputs/counters.hpp"
#include "roofline/inputs/probes.hpp"

namespace roofline::analyze {

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

}  // namespace roofline::analyze
