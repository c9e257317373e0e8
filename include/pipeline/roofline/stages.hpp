#pragma once
// The structs the pipeline stages hand to each other (SPEC §3–§8), and the stage functions, in
// method order. Every stage is pure: no I/O, no clock, no globals. Units are in the names.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofline/calibration.hpp"
#include "roofline/classify.hpp"
#include "roofline/counters.hpp"
#include "roofline/dtype.hpp"
#include "roofline/eval_inputs.hpp"
#include "roofline/inputs.hpp"
#include "roofline/probes.hpp"
#include "roofline/vocabulary.hpp"

namespace roofline {

// The defaults of the analyze options, defined once (SPEC §1).
inline constexpr double k_default_head_threshold_pct = 5.0;
inline constexpr std::size_t k_default_max_entries = 8;
inline constexpr double k_default_launch_overhead_us = 5.0;

// ---- step 1: scope_to_head ----------------------------------------------------------------------
// Which share of GPU time scopes the head (RUNS.md §2): the capture's `pct_gpu_time`, or the
// profiler's `serving_weighted_pct` (the capture re-weighted to the deployed decode/prefill mix).
enum class HeadKey { gpu_time, serving_weighted };
struct ScopeOptions {
  double head_threshold_pct = k_default_head_threshold_pct;
  std::size_t max_entries = k_default_max_entries;
  HeadKey key = HeadKey::gpu_time;
};
struct Scope {
  std::vector<std::size_t> selected;  // indices into TopN::entries, biggest key pct first
  std::vector<double> key_pct;        // parallel to selected: the share the head key gives each
  std::vector<bool> key_fell_back;    // parallel: serving_weighted asked for, pct_gpu_time used
  std::size_t skipped_count = 0;
  std::vector<std::string> notes;  // the key, and the entries it had to fall back on
};
// The share of GPU time `key` gives an entry: serving_weighted_pct when asked for and present,
// else pct_gpu_time.
double head_key_pct(const TopNEntry& entry, HeadKey key);
// Keeps entries whose key pct >= threshold, biggest first, at most max_entries.
Scope scope_to_head(const TopN& topn, const ScopeOptions& options);

// ---- step 2: resolve_peaks ----------------------------------------------------------------------
struct ResolvedPeaks {
  std::string gfx;      // normalized run arch: the gfx (AMD) or sm_NN (NVIDIA)
  std::string product;  // canonical run product ("" = none)
  std::optional<double> hbm_bw_bytes_s;
  std::map<DtypeKey, double> flops;  // canonical dtype key -> FLOP/s
  std::optional<double> l2_bytes;
  std::optional<double> mall_bytes;
  std::optional<LinkPeak> link;  // interconnect roof (MODELS.md §8); none = no verdict for comm
  PeaksSource source = PeaksSource::none;
  Confidence confidence = Confidence::low;  // high (table) or low
  bool compute_validated = false;
  bool hard_unknown = false;  // client RDNA4 without a product section: no numbers at all
  std::string section;        // "built-in peaks.md:31 (gfx950)" when from a table
  std::vector<std::string> notes;
};
// Matches the run's arch (gfx or sm_NN) and product against the table (product gating, RDNA4
// hard unknown, derived bandwidth from device properties as the L1 fallback). On an NVIDIA arch
// the product comes from `product_spelling` or, failing that, from `device_name` matched exactly
// against the sections' device_names (REACH §1).
ResolvedPeaks resolve_peaks(const PeaksTable& table, const std::string& gfx,
                            const std::string& product_spelling, const DeviceProps& props,
                            const std::string& device_name = {});
// FLOP/s for a canonical dtype key; nullopt when the table has no figure (never the maximum).
std::optional<double> peak_flops_for(const ResolvedPeaks& peaks, DtypeKey dtype_key);

// ---- step 3: gather_evidence (stages B and C, SPEC §6) ------------------------------------------
// What stages B and C found for one head entry, matched by kernel name before the per-entry pass.
struct EntryEvidence {
  const ProbeKernel* workload = nullptr;   // the profiler's per-case counts (profile_workload.json)
  std::vector<const ProbeKernel*> probes;  // captured shapes (several per-process files combine)
  MatchKind probe_match = MatchKind::none;
  std::optional<KernelMeasurement> measured;  // counters, summed over the matched kernels
  std::string measured_source;                // "counters of 'fused_moe_kernel' (exact match)"
};
// The evidence for every head entry, and what the evidence inputs themselves told us.
struct EvidenceSet {
  std::vector<EntryEvidence> entries;        // parallel to Scope::selected
  std::vector<std::string> measured_inputs;  // the report's listing: each input and its problems
  std::vector<std::string> notes;            // run notes
  std::vector<Diagnostic> diagnostics;       // unusable files, bad rows (L4 where it applies)
  std::vector<std::string> unmatched_counter_kernels;  // most dispatches first
};
// Matches workload kernels, probe kernels and counter kernels to the head entries with the one
// kernel-name matcher (match.hpp) and folds each entry's counters into one per-dispatch
// measurement. `workload` is the profile_workload.json beside the Top-N, or null.
EvidenceSet gather_evidence(const TopN& topn, const Scope& scope, const ShapesInput& shapes,
                            const CountersInput& counters, const ProbeSet* workload = nullptr);

// ---- step 4: classify: roofline/classify.hpp ---------------------------------------------------

// ---- step 5: infer_steps (MODELS.md §10) --------------------------------------------------------
// What step inference says about one head entry.
struct InferredLaunches {
  std::optional<double> launches_per_step;  // calls / inferred steps, when consistent
  std::string how;                          // "calls 164560 / inferred steps 2057"
  std::string inconsistent;                 // why this per-layer entry stays at one launch
};
struct StepInference {
  bool attempted = false;                 // the Top-N had neither per-regime fields nor step counts
  std::optional<double> steps;            // nullopt: declined (note says why)
  std::string note;                       // the inference and its consistency check, for run notes
  std::vector<InferredLaunches> entries;  // parallel to Scope::selected
};
// When the head has no per-regime fields and the Top-N no step counts: each softmax-attention,
// linear-attention or mamba head entry proposes steps = calls / layers it serves (the layer plan);
// the one with the most calls decides, the other per-layer kernels must agree within 5 % (else
// inference declines). Each per-layer entry (and MoE at 1 or 2 launches per MoE layer) is checked:
// a consistent one gets launches_per_step = calls / steps, an inconsistent one stays at one launch
// per unit; other entries take calls / steps unchecked. `classes` is parallel to the scope.
StepInference infer_steps(const TopN& topn, const Scope& scope,
                          const std::vector<Classification>& classes, const ModelConfig* config);

// ---- step 6: pick_regime ------------------------------------------------------------------------
struct RegimeChoice {
  Regime regime = Regime::decode;
  std::string why;
  std::optional<double> t_ms;  // one launch, this regime
  std::string t_source;
  std::optional<double> launches_per_step;
  std::string launches_source;
  std::vector<std::string> notes;  // the choice, the time and the launch count, with their sources
};
// What the run adds to one entry's regime choice when the Top-N has no step annotations.
struct RegimeHints {
  const InferredLaunches* inferred = nullptr;  // set when step inference was attempted
  std::optional<double> conc;                  // workload.conc, for the rows rule
};
// The entry's own per-regime fields first; else the profiler's step counts; else (MODELS.md §10,
// `hints`) decode when the shapes' rows are at most 2 × conc, and the inferred launches per step.
RegimeChoice pick_regime(const TopNEntry& entry, const ServingInfo& serving,
                         const RegimeHints& hints = {});

// ---- step 7: model_work -------------------------------------------------------------------------
struct ModelContext {
  const EnvReport* env = nullptr;       // null when env_report.json is missing/unreadable
  const ModelConfig* config = nullptr;  // null when config.json is missing/unreadable
  std::string config_status;            // why config is null, for reasons
  const ResolvedPeaks* peaks = nullptr;
};
struct Candidate {
  std::string label;  // display text; `kind` says which figure it is
  double bytes = 0.0;
  double flops = 0.0;
  std::optional<bool> feasible;  // bytes <= peak_bw * t_unit; nullopt when no peak to test against
  bool in_choice = true;  // false: reported for comparison only (MoE all-expert figure, MODELS §4)
  CandidateKind kind = CandidateKind::model;
};
struct MoeFacts {
  double experts = 0, top_k = 0, pairs = 0, experts_hit = 0;
  double weight_elems_per_expert = 0;
  double weight_bytes_per_elem = 0;
  double activation_bytes = 0;
  MoeStage stage = MoeStage::both;  // the stages one unit runs (never unnamed)
  bool gated = true;                // 3·I·H per expert (gate, up, down); false: 2·I·H
};
// A collective's wire traffic (MODELS.md §8).
struct CommFacts {
  std::string op;         // all_reduce | all_gather | reduce_scatter | all_to_all
  std::string algorithm;  // one-shot | two-shot
  double message_bytes = 0, group = 1, codec = 1, link_bytes = 0;
};
// Stage C against the model (SPEC §10 `measured_vs_model`): measured / model per unit, each null
// when either side has no figure; the model's figures are those the measurement replaced.
struct MeasuredVsModel {
  std::optional<double> bytes, flops;
  double model_bytes = 0.0, model_flops = 0.0;
  double measured_bytes = 0.0;
  std::optional<double> measured_flops;
  bool timed = false;  // the counters timed the dispatches (their time replaced the profile's)
};
struct WorkEstimate {
  bool modeled = false;
  std::string unmodeled_reason;
  double unit_launches = 1.0;
  std::string unit;  // human text: "1 launch", "2 launches = one MoE layer"
  double t_unit_ms = 0.0;
  std::vector<Candidate> candidates;
  std::size_t chosen = 0;
  bool any_feasible = true;
  double bytes = 0.0;
  double flops = 0.0;
  Dtype compute_dtype;
  bool has_compute_peak_class = true;  // false for elementwise: memory-bound by construction
  std::optional<MoeFacts> moe;
  double weight_bytes = 0.0;  // part of `bytes` that is weights (GEMM/MoE), for levers
  double kv_bytes = 0.0;      // part of `bytes` that is KV cache (attention), for levers
  DtypeKey weight_dtype, activation_dtype, kv_dtype;
  std::vector<std::string> notes;
  // The class the shapes showed when they overrule the classifier (a batched GEMM over all
  // experts is MoE; a conv kernel of a mamba model is ssm); nullopt = keep the classification.
  std::optional<OpClass> op_class;
  std::optional<CommFacts> comm;            // collectives: bytes are link bytes, roof "link"
  std::optional<double> bytes_lower_bound;  // MODELS.md §9: unmodelled entry, Σ operand bytes
  std::optional<MeasuredVsModel> measured_vs_model;  // set by apply_measurement (stage C)
};
// The class model's byte/FLOP candidates for one logical unit, before the feasibility rule: the
// unit (k launches for a MoE layer), candidates, dtypes and notes, or `unmodeled_reason` (L2).
WorkEstimate model_candidates(const TopNEntry& entry, const RegimeChoice& regime,
                              const Classification& cls, const ModelContext& ctx);
// SPEC §4 feasibility rule: marks each candidate feasible or not against the byte budget
// peak_bw · t_unit, chooses the largest feasible one (the measurement refutes the rest), sets
// `bytes`/`flops` and explains the choice in notes when there was one to make.
void choose_candidate(WorkEstimate& work, const ResolvedPeaks& peaks);
// model_candidates, then choose_candidate: stage 4 at confidence stage A.
WorkEstimate model_work(const TopNEntry& entry, const RegimeChoice& regime,
                        const Classification& cls, const ModelContext& ctx);

// ---- step 8: deepen -----------------------------------------------------------------------------
// Runs the §4 model once per probe case (the case's dims and dtypes replace the Top-N shapes; rows
// in flight come from the case; its gpu_us_avg, when present, replaces the per-launch time) and
// combines the cases count-weighted: bytes, FLOPs and t_unit are weighted means, so their ratios
// are the aggregate rates over all probed calls. The feasibility rule then runs on the combined
// candidates. Not modelled (with the reason) when no case can be modelled.
// Where a set of cases comes from: a probe (stage B), the profiler's profile_workload.json (stage
// A, count-weighted with per-case latencies) or the Top-N's own call signatures (stage A, equal
// weights).
enum class CaseSource { probes, workload, signatures };
WorkEstimate model_work_cases(const TopNEntry& entry, const RegimeChoice& regime,
                              const Classification& cls, const ModelContext& ctx,
                              const std::vector<const ProbeCase*>& cases,
                              CaseSource source = CaseSource::probes);

// The profiler's `dtypes` is the sorted set of the input types of every call (RUNS.md §2b), not
// one per operand: per-operand dtypes for one signature by role — weights the narrowest float
// type, activations the widest non-fp32 float (fp32 beside a narrower type is a scale; one float
// type serves both), a 4-bit quant_method the weights unless the set holds an fp8/fp4 float, a
// 4-D operand of a linear/ssm kernel the fp32 state when `float` is present; integer and scalar
// entries dropped. `rule` says which rule decided.
// The part an operand of a signature plays, which decides its dtype.
enum class OperandRole { activations, weights, state };
struct OperandDtypes {
  std::vector<std::string> dtypes;  // one per operand of the signature ("" = let the config say)
  std::vector<OperandRole> roles;   // parallel to dtypes
  std::string rule;
};
OperandDtypes operand_dtypes(const std::vector<std::string>& dtype_set,
                             const std::vector<std::vector<std::int64_t>>& signature, OpClass cls,
                             const ModelConfig* config);

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
struct Deepened {
  WorkEstimate work;
  Stage stage = Stage::A;
  std::vector<std::string> notes;
};
Deepened deepen(WorkEstimate stage_a, const EntryEvidence& evidence, const TopNEntry& entry,
                const RegimeChoice& regime, const Classification& cls, const ModelContext& ctx);

// ---- step 9: judge ------------------------------------------------------------------------------
struct VerdictParams {
  double launch_overhead_us = k_default_launch_overhead_us;
  // analyze --calibration (OUTCOMES.md §5): null = the shipped priors only.
  const CalibrationTable* calibration = nullptr;
  std::size_t calibration_min_n = k_default_min_n;
};
// Which roof judged an entry (the artifact's `roof`): none = no roof decided (the key is left out).
enum class Roof { none, hbm, compute, link };
// "hbm" | "compute" | "link" ("" for none).
const char* to_string(Roof r);
struct Verdict {
  std::optional<double> achieved_bw_bytes_s, achieved_flops;
  std::optional<double> hbm_util, compute_util;
  std::optional<double> link_util;  // comm: link_bytes / t / aggregate link roof
  Roof roof = Roof::none;
  std::optional<double> arithmetic_intensity, ridge_point;
  Bound bound = Bound::unknown;
  std::optional<double> roofline_pct, roofline_pct_raw;
  std::optional<double> target_eff;
  std::string target_eff_source;  // "prior" | "calibrated (n=…, FILE)"; "" without calibration
  double attainable_speedup = 1.0;
  double expected_e2e_gain_pct = 0.0;
  Headroom headroom = Headroom::unknown;
  bool suspect = false;
  bool dispatch_bound = false;
  bool compute_axis = false;
  std::optional<double> bytes_upper_bound, flops_upper_bound;
  std::optional<double> implied_max_experts_hit;
  bool stage_c_candidate = false;
  std::vector<std::string> notes;
};
// The prior for how close a good implementation of the class gets (SPEC §8): the one lookup in the
// shipped data/target_eff.tsv (the product's row, else the class's `*` row).
std::optional<double> target_eff_for(OpClass cls, const std::string& product);
Verdict judge(const WorkEstimate& work, OpClass cls, double pct_gpu_time,
              const ResolvedPeaks& peaks, const VerdictParams& params);

// ---- step 10: grade -----------------------------------------------------------------------------
// Why an entry has no verdict (SPEC §7): L2 no model, L3 infeasible, L5 the analysis failed.
struct EntryProblem {
  Level level = Level::L2;
  std::string reason;
};
struct Grade {
  Confidence confidence = Confidence::low;
  bool stage_c_candidate = false;  // the verdict's flag, cleared once stage C measured the entry
  std::optional<EntryProblem> problem;
  std::vector<std::string> notes;
};
// Confidence follows the evidence stage (A low, B medium, C high); low-confidence peaks, or a
// compute-axis verdict on unvalidated compute peaks, keep it low. An entry without a model is L2,
// an infeasible one L3.
Grade grade(Stage stage, const WorkEstimate& work, const Verdict& verdict,
            const ResolvedPeaks& peaks);

// ---- the per-entry result of steps 6-11 ---------------------------------------------------------
struct EntryResult {
  std::size_t topn_index = 0;
  std::optional<long> rank;
  std::string name, short_name;
  nlohmann::json pct_gpu_time_raw;
  double pct_gpu_time = 0.0;
  std::optional<double> serving_weighted_pct;  // copied from the Top-N when it has one
  // The share the expected gain and ranking_by_pct use: pct_gpu_time, or serving_weighted_pct
  // under --head-key serving_weighted (key_is_serving_weighted).
  double key_pct = 0.0;
  bool key_is_serving_weighted = false;
  std::optional<bool> editable;
  RegimeChoice regime;
  Classification cls;
  WorkEstimate work;
  Verdict verdict;
  Confidence confidence = Confidence::low;
  Stage stage = Stage::A;
  std::string route;
  std::vector<std::string> levers;
  std::vector<std::string> notes;
  std::optional<EntryProblem> problem;
  std::string ranking_name;  // the name both rankings use (Rankings::names)
};

// ---- step 11: advise ----------------------------------------------------------------------------
struct Advice {
  std::string route;
  std::vector<std::string> levers;
};
// Route (SPEC §8 table + shippability gate) and concrete byte-reduction levers (saturated only).
Advice advise(const EntryResult& entry, const TopN& topn, const ResolvedPeaks& peaks);

// ---- step 12: rank_entries ----------------------------------------------------------------------
struct Rankings {
  std::vector<std::string>
      names;  // parallel to the entries: the name, suffixed #rank on duplicates
  std::vector<std::string> by_pct;
  std::vector<std::string> by_expected_gain;
  std::vector<std::string> notes;
};
// Both orders (pct, expected gain), never blended, over unique ranking names.
Rankings rank_entries(const std::vector<EntryResult>& entries, const ResolvedPeaks& peaks);

}  // namespace roofline
