#pragma once
// The structs the pipeline stages hand to each other (docs/method.md §3–§13), and the stage
// functions, in method order. Every stage is pure: no I/O, no clock, no globals. Units are in the
// names.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofline/base/vocabulary.hpp"
#include "roofline/classify/classify.hpp"
#include "roofline/inputs/calibration.hpp"
#include "roofline/inputs/counters.hpp"
#include "roofline/inputs/dtype.hpp"
#include "roofline/inputs/eval_inputs.hpp"
#include "roofline/inputs/inputs.hpp"
#include "roofline/inputs/probes.hpp"

namespace roofline {

// The defaults of the analyze options, defined once (docs/method.md §2.1).
inline constexpr double k_default_head_threshold_pct = 5.0;
inline constexpr std::size_t k_default_max_entries = 8;
inline constexpr double k_default_launch_overhead_us = 5.0;

// ---- step 1: scope_to_head ----------------------------------------------------------------------
// Which share of GPU time scopes the head (docs/method.md §4): the capture's `pct_gpu_time`, or the
// profiler's `serving_weighted_pct` (the capture re-weighted to the deployed decode/prefill mix).
enum class HeadKey { gpu_time, serving_weighted };
struct ScopeOptions {
  double head_threshold_pct = k_default_head_threshold_pct;
  std::size_t max_entries = k_default_max_entries;
  HeadKey key = HeadKey::gpu_time;
};
// The share of GPU time `key` gives an entry: serving_weighted_pct when asked for and present,
// else pct_gpu_time.
double head_key_pct(const TopNEntry& entry, HeadKey key);
// scope_to_head, which keeps the head: roofline/head.hpp.

// ---- step 2: resolve_peaks ----------------------------------------------------------------------
struct ResolvedPeaks {
  std::string gfx;      // normalized run arch: the gfx (AMD) or sm_NN (NVIDIA)
  std::string product;  // canonical run product ("" = none)
  // The ceilings every utilization divides by (docs/method.md §5.7): per axis the section's
  // measured figure where it has a usable one, else the datasheet figure.
  std::optional<double> hbm_bw_bytes_s;
  std::map<DtypeKey, double> flops;  // canonical dtype key -> FLOP/s
  // The datasheet figures (or the derived bandwidth, docs/method.md §5.4): what feasibility is
  // judged on (§9, §10.6). Equal to the two above where nothing is measured.
  std::optional<double> datasheet_hbm_bw_bytes_s;
  std::map<DtypeKey, double> datasheet_flops;
  // The section's `measured:` block as written (the artifact records it whole), and which axes
  // divide by a measured figure.
  std::optional<MeasuredPeaks> measured;
  CeilingKind memory_ceiling = CeilingKind::datasheet;
  std::map<DtypeKey, CeilingKind> compute_ceiling;  // one per key of `flops`
  std::optional<double> l2_bytes;
  std::optional<double> mall_bytes;
  std::optional<LinkPeak>
      link;  // interconnect roof (docs/method.md §10.7); none = no verdict for comm
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
// against the sections' device_names (docs/method.md §5.2).
ResolvedPeaks resolve_peaks(const PeaksTable& table, const std::string& gfx,
                            const std::string& product_spelling, const DeviceProps& props,
                            const std::string& device_name = {});
// FLOP/s for a canonical dtype key; nullopt when the table has no figure (never the maximum).
std::optional<double> peak_flops_for(const ResolvedPeaks& peaks, DtypeKey dtype_key);
// The datasheet FLOP/s of a dtype, what a compute rate's feasibility is judged on.
std::optional<double> datasheet_flops_for(const ResolvedPeaks& peaks, DtypeKey dtype_key);
// The bandwidth feasibility is judged on (docs/method.md §9): the datasheet figure, never a
// measured one (a rate between the two is real).
std::optional<double> feasibility_bw(const ResolvedPeaks& peaks);
// Which figure the compute ceiling of a dtype is (datasheet when the dtype has none).
CeilingKind compute_ceiling_for(const ResolvedPeaks& peaks, DtypeKey dtype_key);
// Whether any axis divides by a measured figure.
bool any_measured_ceiling(const ResolvedPeaks& peaks);

// ---- step 3: gather_evidence (stages B and C, docs/method.md §11) -------------------------------
// What stages B and C found for one head entry, matched by kernel name before the per-entry pass.
struct EntryEvidence {
  const ProbeKernel* workload = nullptr;   // the profiler's per-case counts (profile_workload.json)
  std::vector<const ProbeKernel*> probes;  // captured shapes (several per-process files combine)
  MatchKind probe_match = MatchKind::none;
  std::optional<KernelMeasurement> measured;  // counters, summed over the matched kernels
  std::string measured_source;                // "counters of 'fused_moe_kernel' (exact match)"
};
// gather_evidence, which matches them over the whole head: roofline/head.hpp.

// ---- step 4: classify: roofline/classify.hpp, over the head: classify_head (head.hpp) ----------

// True when the kernel name carries an activation token (`swiglu`, `silu`, `gelu`, `act`, matched
// case-insensitively on token boundaries): the activation runs in the same launch.
bool fused_activation(const std::string& name);

// ---- step 5: infer_steps (docs/method.md §6.4) --------------------------------------------------
// What step inference says about one head entry.
struct InferredLaunches {
  std::optional<double> launches_per_step;  // calls / inferred steps, when consistent
  std::string how;                          // "calls 164560 / inferred steps 2057"
  std::string inconsistent;                 // why this per-layer entry stays at one launch
};
// infer_steps, which proposes them over the whole head: roofline/head.hpp.

// ---- step 6: pick_regime ------------------------------------------------------------------------
struct RegimeChoice {
  Regime regime = Regime::decode;
  std::string why;
  std::optional<double> t_ms;  // one launch, this regime
  std::string t_source;
  std::optional<double> launches_per_step;
  std::string launches_source;
  std::vector<std::string> notes;  // the choice, the time and the launch count, with their sources
  std::optional<double> shape_rows;  // set when the rows rule (no step annotations) decided
};
// What the run adds to one entry's regime choice when the Top-N has no step annotations.
struct RegimeHints {
  const InferredLaunches* inferred = nullptr;  // set when step inference was attempted
  std::optional<double> conc;                  // workload.conc, for the rows rule
  const ModelConfig* config = nullptr;         // head counts: [B, S, H, D] or [B, H, S, D]
  // One forward pass, one regime (docs/method.md §6.4): the regime the head's dense GEMMs' rows
  // show, used instead of each entry's own rows; unset when they disagree or there are none.
  std::optional<Regime> pass_regime;
  std::string pass_why;
};
// The entry's own per-regime fields first; else the profiler's step counts; else
// (docs/method.md §6.4, `hints`) decode when the shapes' rows are at most 2 × conc, and the
// inferred launches per step.
RegimeChoice pick_regime(const TopNEntry& entry, const ServingInfo& serving,
                         const RegimeHints& hints = {});

// ---- step 7: model_work -------------------------------------------------------------------------
struct ModelContext {
  const EnvReport* env = nullptr;       // null when env_report.json is missing/unreadable
  const ModelConfig* config = nullptr;  // null when config.json is missing/unreadable
  std::string config_status;            // why config is null, for reasons
  const ResolvedPeaks* peaks = nullptr;
  // The Top-N's measured serving block (step sums for attention in prefill and mixed steps,
  // docs/method.md §22.6); null when the run has none.
  const ServingInfo* serving = nullptr;
};
struct Candidate {
  std::string label;  // display text; `kind` says which figure it is
  double bytes = 0.0;
  double flops = 0.0;
  std::optional<bool> feasible;  // bytes <= peak_bw * t_unit; nullopt when no peak to test against
  bool in_choice =
      true;  // false: reported for comparison only (MoE all-expert figure, docs/method.md §8.7)
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
// A collective's wire traffic (docs/method.md §10.7).
struct CommFacts {
  std::string op;         // all_reduce | all_gather | reduce_scatter | all_to_all
  std::string algorithm;  // one-shot | two-shot
  double message_bytes = 0, group = 1, codec = 1, link_bytes = 0;
};
// Stage C against the model (docs/method.md §16.1 `measured_vs_model`): measured / model per unit,
// each null when either side has no figure; the model's figures are those the measurement replaced.
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
  std::optional<CommFacts> comm;  // collectives: bytes are link bytes, roof "link"
  std::optional<double>
      bytes_lower_bound;  // docs/method.md §8.16: unmodelled entry, Σ operand bytes
  std::optional<MeasuredVsModel> measured_vs_model;  // set by apply_measurement (stage C)
};
// The class model's byte/FLOP candidates for one logical unit, before the feasibility rule: the
// unit (k launches for a MoE layer), candidates, dtypes and notes, or `unmodeled_reason` (L2).
WorkEstimate model_candidates(const TopNEntry& entry, const RegimeChoice& regime,
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
WorkEstimate model_work_cases(const TopNEntry& entry, const RegimeChoice& regime,
                              const Classification& cls, const ModelContext& ctx,
                              const std::vector<const ProbeCase*>& cases,
                              CaseSource source = CaseSource::probes);

// The Top-N's own call signatures as cases (docs/method.md §8.2), the input the driver hands step
// 7: one case per signature with its per-operand dtypes by role (operand_dtypes, under `cls`).
// Empty unless the entry's `shapes` were call signatures with a dtype set (`dtypes_are_set`).
struct SignatureCases {
  std::vector<ProbeCase> cases;
  std::string rule;  // which dtype rule decided (a note of the model)
  // The first signature's operands all at the activation type: what the operand-bytes lower
  // bound reads when no signature can be modelled.
  std::vector<std::string> bound_dtypes;
};
SignatureCases signature_cases(const TopNEntry& entry, OpClass cls, const ModelConfig* config);

// Step 7 at confidence stage A. With call signatures (`signatures`, from signature_cases; an entry
// whose `dtypes_are_set` needs them): the case model over them, and when no signature can be
// modelled, the first signature alone at the activation type. Otherwise model_candidates, then
// choose_candidate, over the entry's shapes. An entry left unmodelled with shapes and dtypes gets
// the operand-bytes lower bound (docs/method.md §8.16).
WorkEstimate model_work(const TopNEntry& entry, const RegimeChoice& regime,
                        const Classification& cls, const ModelContext& ctx,
                        const SignatureCases& signatures = {});

// The profiler's `dtypes` is the sorted set of the input types of every call (docs/method.md §8.2),
// not one per operand: per-operand dtypes for one signature by role — weights the narrowest float
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

// ---- step 8: deepen -----------------------------------------------------------------------------
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
  // The run replays captured graphs (most launches inside CUDA/HIP graph replays): a short
  // kernel there has no CPU launch to blame (docs/method.md §10.6).
  bool graph_replayed = false;
  // analyze --calibration (docs/method.md §17.5): null = the shipped priors only.
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
  // Which figure the roof axis divides by (docs/method.md §5.7); a link roof is a datasheet one.
  CeilingKind ceiling = CeilingKind::datasheet;
  bool ceiling_recorded = false;  // the run's peaks carry a measured block: the artifact names it
  std::optional<double> target_eff;
  std::string target_eff_source;  // "prior" | "calibrated (n=…, FILE)"; "" without calibration
  double attainable_speedup = 1.0;
  double expected_e2e_gain_pct = 0.0;
  Headroom headroom = Headroom::unknown;
  bool suspect = false;
  bool dispatch_bound = false;
  bool in_graph_replay = false;  // dispatch_bound inside a captured graph: ramp and tail bound it
  bool compute_axis = false;
  std::optional<double> bytes_upper_bound, flops_upper_bound;
  std::optional<double> implied_max_experts_hit;
  bool stage_c_candidate = false;
  std::vector<std::string> notes;
};
// The prior for how close a good implementation of the class gets (docs/method.md §10.4): the one
// lookup in the shipped data/target_eff.tsv (the product's row, else the class's `*` row).
std::optional<double> target_eff_for(OpClass cls, const std::string& product);
Verdict judge(const WorkEstimate& work, OpClass cls, double pct_gpu_time,
              const ResolvedPeaks& peaks, const VerdictParams& params);

// ---- step 10: grade -----------------------------------------------------------------------------
// Why an entry has no verdict (docs/method.md §13): L2 no model, L3 infeasible, L5 the analysis
// failed.
struct EntryProblem {
  Level level = Level::L2;
  std::string reason;
};
struct Grade {
  Confidence confidence = Confidence::low;
  // judge's flag (Verdict::stage_c_candidate) as grade leaves it: cleared once stage C measured
  // the entry. The artifact's `stage_c_candidate` is this one.
  bool stage_c_candidate = false;
  std::optional<EntryProblem> problem;
  std::vector<std::string> notes;
};
// Confidence follows the evidence stage (A low, B medium, C high); low-confidence peaks, or a
// compute-axis verdict on unvalidated compute peaks, keep it low. An entry without a model is L2,
// an infeasible one L3.
Grade grade(Stage stage, const WorkEstimate& work, const Verdict& verdict,
            const ResolvedPeaks& peaks);

// ---- step 11: advise ----------------------------------------------------------------------------
struct Advice {
  std::string route;
  std::vector<std::string> levers;
};
// Route (docs/method.md §10.4 table + shippability gate) and concrete byte-reduction levers
// (saturated only), from the entry's class, work, verdict and grade (steps 7-10; HeadEntry:
// roofline/head.hpp).
struct HeadEntry;
Advice advise(const HeadEntry& entry, const TopN& topn, const ResolvedPeaks& peaks);

// ---- step 12: rank_entries, over the whole head: roofline/head.hpp ----------------------------

}  // namespace roofline
