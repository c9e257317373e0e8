#pragma once
// The structs the pipeline stages hand to each other (SPEC §3–§10), and the stage functions.
// Every stage is pure: no I/O, no clock, no globals. Units are in the names.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofline/counters.hpp"
#include "roofline/dtype.hpp"
#include "roofline/inputs.hpp"
#include "roofline/probes.hpp"

namespace roofline {

enum class OpClass { gemm, moe, attn, linear_attn, ssm, comm, elementwise, unknown };
enum class Bound { memory, compute, latency, unknown };
enum class Headroom { underperforming, moderate, saturated, unknown };
enum class Confidence { low, medium, high };
enum class PeaksSource { table, derived, none };

const char* to_string(OpClass c);
const char* to_string(Bound b);
const char* to_string(Headroom h);
const char* to_string(Confidence c);
const char* to_string(PeaksSource s);
std::optional<OpClass> parse_op_class(std::string_view s);

// ---- stage 0: scope -------------------------------------------------------------------------
struct ScopeOptions {
  double head_threshold_pct = 5.0;
  std::size_t max_entries = 8;
};
struct Scope {
  std::vector<std::size_t> selected;  // indices into TopN::entries, biggest pct first
  std::size_t skipped_count = 0;
};
// Keeps entries with pct_gpu_time >= threshold, biggest first, at most max_entries.
Scope scope_to_head(const TopN& topn, const ScopeOptions& options);

// ---- stage 1: peaks -------------------------------------------------------------------------
struct ResolvedPeaks {
  std::string gfx;      // normalized run gfx
  std::string product;  // canonical run product ("" = none)
  std::optional<double> hbm_bw_bytes_s;
  std::map<std::string, double> flops;  // canonical dtype key -> FLOP/s
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
// Matches the run's gfx/product against the table (product gating, RDNA4 hard unknown, derived
// bandwidth from device properties as the L1 fallback).
ResolvedPeaks resolve_peaks(const PeaksTable& table, const std::string& gfx,
                            const std::string& product_spelling, const DeviceProps& props);
// FLOP/s for a canonical dtype key; nullopt when the table has no figure (never the maximum).
std::optional<double> peak_flops_for(const ResolvedPeaks& peaks, const std::string& dtype_key);

// ---- stage 2: regime ------------------------------------------------------------------------
struct RegimeChoice {
  Regime regime = Regime::decode;
  std::string why;
  std::optional<double> t_ms;  // one launch, this regime
  std::string t_source;
  std::optional<double> launches_per_step;
  std::string launches_source;
};
RegimeChoice pick_regime(const TopNEntry& entry, const ServingInfo& serving);

// ---- stage 3: classify ----------------------------------------------------------------------
struct ClassRule {
  std::string pattern;  // glob (* ?) or, without wildcards, a substring; case-insensitive
  OpClass op_class = OpClass::unknown;
  std::string detail;  // MoE stage, attention variant, elementwise kind, "collective", ...
  std::string description;
  int line = 0;
};
struct ClassRules {
  std::vector<ClassRule> overrides;  // --classify, first match wins
  std::vector<ClassRule> families;   // data/kernel_classes.tsv
};
struct Classification {
  OpClass op_class = OpClass::unknown;
  std::string detail;
  std::string rule;  // which rule decided, for notes
  bool collective = false;
};
Classification classify(const TopNEntry& entry, const ClassRules& rules);

// ---- stage 4: byte / FLOP model ----------------------------------------------------------------
struct ModelContext {
  const EnvReport* env = nullptr;       // null when env_report.json is missing/unreadable
  const ModelConfig* config = nullptr;  // null when config.json is missing/unreadable
  std::string config_status;            // why config is null, for reasons
  const ResolvedPeaks* peaks = nullptr;
};
struct Candidate {
  std::string label;
  double bytes = 0.0;
  double flops = 0.0;
  std::optional<bool> feasible;  // bytes <= peak_bw * t_unit; nullopt when no peak to test against
  bool in_choice = true;  // false: reported for comparison only (MoE all-expert figure, MODELS §4)
};
struct MoeFacts {
  double experts = 0, top_k = 0, pairs = 0, experts_hit = 0;
  double weight_elems_per_expert = 0;
  double weight_bytes_per_elem = 0;
  double activation_bytes = 0;
  std::string stage;  // stage1 | stage2 | both
  bool gated = true;  // 3·I·H per expert (gate, up, down); false: 2·I·H
};
// A collective's wire traffic (MODELS.md §8).
struct CommFacts {
  std::string op;         // all_reduce | all_gather | reduce_scatter | all_to_all
  std::string algorithm;  // one-shot | two-shot
  double message_bytes = 0, group = 1, codec = 1, link_bytes = 0;
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
  std::string weight_dtype, activation_dtype, kv_dtype;
  std::vector<std::string> notes;
  // The class the shapes showed when they overrule the classifier (a batched GEMM over all
  // experts is MoE; a conv kernel of a mamba model is ssm); nullopt = keep the classification.
  std::optional<OpClass> op_class;
  std::optional<CommFacts> comm;            // collectives: bytes are link bytes, roof "link"
  std::optional<double> bytes_lower_bound;  // MODELS.md §9: unmodelled entry, Σ operand bytes
};
WorkEstimate model_work(const TopNEntry& entry, const RegimeChoice& regime,
                        const Classification& cls, const ModelContext& ctx);

// ---- stage 4, stage B: captured shapes
// ------------------------------------------------------------ Runs the §4 model once per probe
// case (the case's dims and dtypes replace the Top-N shapes; rows in flight come from the case; its
// gpu_us_avg, when present, replaces the per-launch time) and combines the cases count-weighted:
// bytes, FLOPs and t_unit are weighted means, so their ratios are the aggregate rates over all
// probed calls. The feasibility rule then runs on the combined candidates. Not modelled (with the
// reason) when no case can be modelled.
WorkEstimate model_work_cases(const TopNEntry& entry, const RegimeChoice& regime,
                              const Classification& cls, const ModelContext& ctx,
                              const std::vector<const ProbeCase*>& cases);

// ---- stage 4, stage C: measured counters
// ----------------------------------------------------------- Replaces the model's bytes (and
// FLOPs, and t_unit when the counters timed the dispatches) with the per-dispatch measurement times
// the unit's launches. The model's candidates stay for comparison, the measurement is added as the
// chosen candidate, and the model/measured byte ratio goes to notes.
void apply_measurement(WorkEstimate& work, const KernelMeasurement& measured,
                       const std::string& source, const ResolvedPeaks& peaks);

// ---- stages 5–6: utilization and verdict
// ---------------------------------------------------------
struct VerdictParams {
  double launch_overhead_us = 5.0;
};
struct Verdict {
  std::optional<double> achieved_bw_bytes_s, achieved_flops;
  std::optional<double> hbm_util, compute_util;
  std::optional<double> link_util;  // comm: link_bytes / t / aggregate link roof
  std::string roof;                 // "hbm" | "compute" | "link" ("" = no roof decided)
  std::optional<double> arithmetic_intensity, ridge_point;
  Bound bound = Bound::unknown;
  std::optional<double> roofline_pct, roofline_pct_raw;
  std::optional<double> target_eff;
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
// The prior for how close a good implementation of the class gets (SPEC §8).
std::optional<double> target_eff_for(OpClass cls, const std::string& product);
Verdict judge(const WorkEstimate& work, OpClass cls, double pct_gpu_time,
              const ResolvedPeaks& peaks, const VerdictParams& params);

// ---- per-entry result ---------------------------------------------------------------------------
struct Degradation {
  std::string name;
  std::string level;  // L1..L5
  std::string reason;
};
struct EntryResult {
  std::size_t topn_index = 0;
  std::optional<long> rank;
  std::string name, short_name;
  nlohmann::json pct_gpu_time_raw;
  double pct_gpu_time = 0.0;
  std::optional<bool> editable;
  RegimeChoice regime;
  Classification cls;
  WorkEstimate work;
  Verdict verdict;
  Confidence confidence = Confidence::low;
  char stage = 'A';
  std::string route;
  std::vector<std::string> levers;
  std::vector<std::string> notes;
  std::optional<Degradation> degraded;
  std::string ranking_name;
};

// ---- stage 7: route, levers, rankings
// -------------------------------------------------------------
struct Advice {
  std::string route;
  std::vector<std::string> levers;
};
// Route (SPEC §8 table + shippability gate) and concrete byte-reduction levers (saturated only).
Advice advise(const EntryResult& entry, const TopN& topn, const ResolvedPeaks& peaks);

struct Rankings {
  std::vector<std::string> by_pct;
  std::vector<std::string> by_expected_gain;
  std::vector<std::string> notes;
};
// Assigns ranking names (suffix #rank on duplicates) and both orders.
Rankings rank_entries(std::vector<EntryResult>& entries, const ResolvedPeaks& peaks);

}  // namespace roofline
