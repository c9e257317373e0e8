#pragma once
// The head (docs/method.md §3): one entry per Top-N kernel worth a verdict, carried through every
// pass of the method. Each pass writes its own fields of the entry and reads only the fields of
// earlier passes; no pass rewrites another's.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/analyze/entry/advice.hpp"
#include "roofline/analyze/entry/entry_evidence.hpp"
#include "roofline/analyze/entry/grade.hpp"
#include "roofline/analyze/entry/projection.hpp"
#include "roofline/analyze/entry/regime_choice.hpp"
#include "roofline/analyze/entry/step_inference.hpp"
#include "roofline/analyze/entry/verdict.hpp"
#include "roofline/analyze/entry/work_estimate.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/classify/classify.hpp"
#include "roofline/inputs/probes.hpp"

namespace roofline::analyze {

// The share of GPU time the head key gave one entry (docs/method.md §2.3).
struct HeadShare {
  double pct = 0.0;  // pct_gpu_time, or serving_weighted_pct under --head-key serving_weighted
  bool serving_weighted = false;  // --head-key serving_weighted and the entry carries one
  bool fell_back = false;         // serving_weighted asked for, the entry has none
};

// One head entry, as each step leaves it. The renderers read it; `calc` builds one by hand.
struct HeadEntry {
  // Step 1, scope_to_head: the Top-N record (copied), its share and its unique name.
  std::size_t topn_position = 0;  // into TopnDocument::entries
  std::size_t topn_index = 0;     // the record's place in the file's top_kernels[]
  std::optional<long> rank;
  std::string name, short_name;
  nlohmann::json pct_gpu_time_raw;
  double pct_gpu_time = 0.0;
  std::optional<double> serving_weighted_pct;  // copied from the Top-N when it has one
  std::optional<bool> editable;
  std::string backend;  // who builds the kernel (data/kernel_backends.tsv), "" when unknown;
                        // "vllm|aiter" where several projects ship a kernel of its name
  // Step 3, gather_evidence (evidence/owner.hpp): the project whose copy of an open kernel ran, as
  // its launch says ("" where the launch says nothing new), and the note that says how.
  std::string owner, owner_note;
  HeadShare share;  // what the expected gain and ranking_by_pct weigh the entry with
  std::string
      ranking_name;  // the name, suffixed #rank on a duplicate: rankings, report, degraded[]
  // What launched it, as `roofline topn` recorded it (docs/method.md §22.7): the CPU op, its
  // module path, and the demangled name ("" when the Top-N has none).
  std::string op, module, demangled;
  // Pass display_names: what people call it — what it does (projection, module or op), then a
  // short kernel tag, unique in the head ("gate_up_proj · Cijk MT256x32x64"). Every surface shows
  // it; `name` stays the key and the detail.
  std::string display_name;
  // Step 3, gather_evidence: the workload, probe and counter kernels matched by name. The
  // pointers point into the AnalyzeInputs the run read (valid while they live).
  EntryEvidence evidence;
  // Step 4, classify_head: the classifier's class.
  Classification classified;
  // Step 5, infer_steps: set when the run inferred its steps (the Top-N has no step annotations).
  std::optional<InferredLaunches> launches;
  // Step 6, pick_regimes: the e2e-critical regime, its per-launch time and launches per step.
  RegimeChoice regime;
  // Step 6b, plan_shapeless_gemms: a GEMM entry with no shapes anywhere, as the config's linear
  // plan assigns it (a projection, or the L2 problem with the candidates); its notes.
  std::optional<ProjectionAssignment> projection;
  std::vector<std::string> plan_notes;
  // A shapeless kernel whose graph-replay signatures (told apart by grid and block) the plan
  // assigned one projection each: its workload cases with the plan's dims, which
  // `evidence.workload` then points at (owned here, so moving the entry keeps it valid).
  std::shared_ptr<const ProbeKernel> planned_workload;
  // Steps 7-11, per entry (the driver's analyze_entry).
  Classification cls;  // 7 the class the byte model ran under: `classified`,
                       //   or the class the shapes showed (WorkEstimate::op_class)
  WorkEstimate work;   // 7 model_work, then 8 deepen
  EvidenceLevel stage = EvidenceLevel::A;  // 8 deepen: the evidence the numbers rest on
  std::vector<std::string> deepen_notes;   // 8 deepen: what the evidence did to the estimate
  Verdict verdict;                         // 9 judge
  Grade grade;                             // 10 grade: confidence, stage-C candidate, problem
  Advice advice;                           // 11 advise: route and levers
  // Every step's notes about this entry, in step order: what the artifact's `notes` says.
  std::vector<std::string> notes;
};

}  // namespace roofline::analyze
