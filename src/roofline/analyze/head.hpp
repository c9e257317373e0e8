#pragma once
// The head (docs/method.md §3): one entry per Top-N kernel worth a verdict, carried through every
// step of the method. Each step writes its own fields of the entry and reads only the fields of
// earlier steps; no step rewrites another's. The steps that work on the whole head (scope,
// evidence, classes, steps, rankings) are declared here, the per-entry stages in stages.hpp.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/analyze/linear_plan.hpp"
#include "roofline/analyze/stages.hpp"

namespace roofline {

// What a step found besides its result, in the order found: notes (the unit, model and
// assumption a number rests on) and diagnostics (problems, docs/method.md §13). The driver merges
// each step's findings into the run's with one helper.
struct Findings {
  std::vector<std::string> notes;
  std::vector<Diagnostic> diagnostics;
};

// The share of GPU time the head key gave one entry (docs/method.md §2.3).
struct HeadShare {
  double pct = 0.0;  // pct_gpu_time, or serving_weighted_pct under --head-key serving_weighted
  bool serving_weighted = false;  // --head-key serving_weighted and the entry carries one
  bool fell_back = false;         // serving_weighted asked for, the entry has none
};

// One head entry, as each step leaves it. The renderers read it; `calc` builds one by hand.
struct HeadEntry {
  // Step 1, scope_to_head: the Top-N record (copied), its share and its unique name.
  std::size_t topn_position = 0;  // into TopN::entries
  std::size_t topn_index = 0;     // the record's place in the file's top_kernels[]
  std::optional<long> rank;
  std::string name, short_name;
  nlohmann::json pct_gpu_time_raw;
  double pct_gpu_time = 0.0;
  std::optional<double> serving_weighted_pct;  // copied from the Top-N when it has one
  std::optional<bool> editable;
  HeadShare share;  // what the expected gain and ranking_by_pct weigh the entry with
  std::string
      ranking_name;  // the name, suffixed #rank on a duplicate: rankings, report, degraded[]
  // What launched it, as `roofline topn` recorded it (docs/method.md §22.7): the CPU op, its
  // module path, and the demangled name ("" when the Top-N has none).
  std::string op, module, demangled;
  // Step 12b, display_names: what people call it — what it does (projection, module or op), then
  // a short kernel tag, unique in the head ("gate_up_proj · Cijk MT256x32x64"). Every surface
  // shows it; `name` stays the key and the detail.
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
  // Steps 7-11, per entry (the driver's analyze_entry).
  Classification cls;      // 7 the class the byte model ran under: `classified`,
                           //   or the class the shapes showed (WorkEstimate::op_class)
  WorkEstimate work;       // 7 model_work, then 8 deepen
  Stage stage = Stage::A;  // 8 deepen: the evidence the numbers rest on
  std::vector<std::string> deepen_notes;  // 8 deepen: what the evidence did to the estimate
  Verdict verdict;                        // 9 judge
  Grade grade;                            // 10 grade: confidence, stage-C candidate, problem
  Advice advice;                          // 11 advise: route and levers
  // Every step's notes about this entry, in step order: what the artifact's `notes` says.
  std::vector<std::string> notes;
};

// ---- step 1: scope_to_head ----------------------------------------------------------------------
struct Head {
  std::vector<HeadEntry> entries;  // biggest key pct first: identity, share and ranking name set
  std::size_t skipped_count = 0;
  Findings findings;  // the head key, and the entries it had to fall back on
};
// Keeps entries whose key pct >= threshold, biggest first (ties: the profiler's rank, then file
// order), at most max_entries. Each entry is named once here: its kernel name, suffixed with the
// profiler's rank (else its 1-based Top-N position) when the name repeats in the head, and ".k"
// when the ranks repeat too.
Head scope_to_head(const TopN& topn, const ScopeOptions& options);

// ---- step 3: gather_evidence (stages B and C, docs/method.md §11) -------------------------------
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

// The head entry of Top-N record `topn_position` (null when the record is not in the head), and
// the record's class: its head entry's, else classify() under `rules` — for the steps that work
// over the whole Top-N (the MoE siblings, the linear plan).
struct TopNClass {
  HeadEntry* head = nullptr;
  Classification cls;
};
TopNClass topn_class(std::vector<HeadEntry>& head, const TopN& topn, std::size_t topn_position,
                     const ClassRules& rules);

// ---- step 4: classify_head ----------------------------------------------------------------------
// classify() (roofline/classify.hpp) over the head, before the per-entry pass: step 5 needs the
// classes. Writes each entry's `classified`.
// Then the MoE stages from sibling kernels (below).
void classify_head(std::vector<HeadEntry>& head, const TopN& topn, const ClassRules& rules);

// Step 4 too (docs/method.md §22.5): two MoE kernels of one family (the name's first token) in
// the same steps (served regimes and calls), exactly one of them fused with an activation
// (`swiglu`, `silu`, `gelu`, `act` as a name token): that one is stage 1 (gate/up), the other
// stage 2 (down). Kernels of a row that fixes both stages, or stage 2, are left alone; the
// siblings may be outside the head. Writes the head entries' `classified` stage and a class note.
void moe_stages_from_siblings(std::vector<HeadEntry>& head, const TopN& topn,
                              const ClassRules& rules);

// ---- step 5: infer_steps (docs/method.md §6.4) --------------------------------------------------
struct StepInference {
  bool attempted = false;       // the Top-N had neither per-regime fields nor step counts
  std::optional<double> steps;  // nullopt: declined (the note says why)
  Findings findings;            // the inference and its consistency check: one run note
};
// When the head has no per-regime fields and the Top-N no step counts: each softmax-attention,
// linear-attention or mamba head entry proposes steps = calls / layers it serves (the layer plan);
// the one with the most calls decides, the other per-layer kernels must agree within 5 % (else
// inference declines). Each per-layer entry (and MoE at 1 or 2 launches per MoE layer) is checked:
// a consistent one gets launches_per_step = calls / steps, an inconsistent one stays at one launch
// per unit; other entries take calls / steps unchecked. Reads each entry's `classified`; writes
// each entry's `launches` when attempted, nothing otherwise.
StepInference infer_steps(const TopN& topn, std::vector<HeadEntry>& head,
                          const ModelConfig* config);

// ---- step 6: pick_regimes ----------------------------------------------------------------------
// pick_regime (stages.hpp) for every head entry, with step 5's launches. Writes each `regime`.
void pick_regimes(std::vector<HeadEntry>& head, const TopN& topn, const EnvReport* env,
                  const ModelConfig* config);

// ---- step 6b: plan_shapeless_gemms (docs/method.md §22.4) --------------------------------------
// GEMM entries with no shapes (no operand dims, est_shape, workload case or probe) get a
// projection of the config's linear plan: every GEMM of the Top-N without shapes that ran in the
// same regime is a kernel of the assignment (assign_projections), M the step's rows (decode: the
// measured batch, else workload.conc; prefill: the step's tokens, else workload.isl; lm_head the
// step's requests). Writes each such entry's `projection` and `plan_notes`; run notes say the
// plan and the assignment. Reads `classified` and `regime`.
Findings plan_shapeless_gemms(std::vector<HeadEntry>& head, const TopN& topn,
                              const ModelConfig* config, const EnvReport* env,
                              const ResolvedPeaks& peaks, const ClassRules& rules);

// ---- step 12b: display_names (docs/method.md §16.6) ---------------------------------------------
// Each entry's display_name: what the kernel does first — the projection the linear plan assigned
// it, else the role its module names (QKVParallelLinear -> qkv_proj, an attention's
// RowParallelLinear -> o_proj, RMSNorm -> rms_norm, …), else its launching op without namespace
// (aten::mul -> mul) — then a short kernel tag (a Tensile GEMM's macro tile, a mangled name's
// qualified prefix, a demangled name's identifier), unique within the head (" #rank" otherwise).
void display_names(std::vector<HeadEntry>& entries);
// The kernel tag alone, from the kernel's short name, demangled name and raw name.
std::string kernel_tag(const std::string& short_name, const std::string& demangled,
                       const std::string& name);
// What a kernel does, from its module path and op ("" when neither says).
std::string kernel_role(const std::string& module, const std::string& op);

// ---- step 12: rank_entries ----------------------------------------------------------------------
struct Rankings {
  std::vector<std::size_t> by_pct;            // indices into the entries: most GPU time first
  std::vector<std::size_t> by_expected_gain;  // verdicts by gain, then no-verdict entries by pct
  Findings findings;                          // why a ranking is empty
};
// Both orders (key pct, expected gain), never blended; ties by ranking name. The gain order is
// empty when the part has no hardware denominator.
Rankings rank_entries(const std::vector<HeadEntry>& entries, const ResolvedPeaks& peaks);

}  // namespace roofline
