#pragma once
// One entry's bytes and FLOPs per logical unit, as model_work leaves them and deepen deepens
// them (docs/method.md §8, §11): the candidates, the readings, the signatures and the facts.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "roofline/analyze/layer.hpp"
#include "roofline/base/vocabulary.hpp"
#include "roofline/inputs/dtype.hpp"
#include "roofline/inputs/probes.hpp"

namespace roofline::analyze {

struct Candidate {
  std::string label;  // display text; `kind` says which figure it is
  double bytes = 0.0;
  double flops = 0.0;
  std::optional<bool> feasible;  // bytes <= peak_bw * t_unit; nullopt when no peak to test against
  bool in_choice =
      true;  // false: reported for comparison only (MoE all-expert figure, docs/method.md §8.7)
  CandidateKind kind = CandidateKind::model;
};
// docs/method.md §10.8: one reading the model's evidence allows besides the one it takes (two
// readings of the operands, the weights' other format, the experts every token could reach). Bytes
// and FLOPs belong together: a reading is never split into independent corners. `key` names the
// source ("other_reading", "weights_other", "all_experts", "experts_hit"), `why` the evidence.
struct Reading {
  std::string key, label, why;
  double bytes = 0.0, flops = 0.0;
  std::optional<Dtype> compute_dtype;  // a dtype reading judges against its own peak
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
// One signature of an entry as the case model saw it (docs/method.md §22.8): what it is, its
// launches and time, and its own bytes and FLOPs per unit (or why it has none).
struct SignatureWork {
  std::string label;   // what it is: "qkv_proj [1024×2048]·[2048×6144]", not the kernel's name
  ProbeCase source;    // its dims, dtypes, count, time and signature fields as read
  double count = 0.0;  // launches
  double t_launch_ms = 0.0;  // mean per launch (the case's, else the entry's)
  bool timed = false;        // t_launch_ms is the signature's own
  bool modeled = false;      // bytes and FLOPs below are set
  bool refuted = false;      // no figure of its model fits its own time (its verdict: infeasible)
  std::string unmodeled_reason;
  double unit_launches = 1.0, t_unit_ms = 0.0, bytes = 0.0, flops = 0.0;  // per unit
  Dtype compute_dtype;
  bool has_compute_peak_class = true;
  std::string model;  // the chosen candidate's label
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
  // docs/method.md §22.8: the entry's signatures, each modelled on its own (empty when the
  // entry was modelled as a whole), and the share of the entry's time the modelled ones carry.
  std::vector<SignatureWork> signatures;
  std::optional<double> modelled_share;
  // The entry is judged from its signatures' roof times (false: the rows are shown only — the
  // entry was modelled as a whole, or measured by counters).
  bool signatures_judged = false;
  // docs/method.md §23.7: the trace's own words left two readings beyond the band. No verdict,
  // and no weaker evidence (the Top-N's shapes, the config) may stand in for the reading.
  bool withheld = false;
  // docs/method.md §10.8: the readings besides the taken one (`bytes`/`flops`) that the model's
  // own evidence allows; empty when the evidence fixes the figure. `readings_decide`: nothing in
  // the evidence picks the taken reading over the others (beyond the 15 % band), so a verdict
  // stands only when every reading falls in one headroom class.
  std::vector<Reading> readings;
  bool readings_decide = false;
  // docs/method.md §23.8: why an operand dtype of the model is in doubt ("" = none): the weights'
  // format rests on an unquantized config alone. No claim is derived from such a model.
  std::string dtype_doubt;
  // docs/method.md §11.4: judged on a measurement that counted no FLOPs (no model, no FLOP
  // counter): flops_est is null and the memory axis judges it.
  bool flops_unknown = false;
};

// The Top-N's call signatures as cases, dtypes by role (signature_cases, steps/model_work.hpp).
struct SignatureCases {
  std::vector<ProbeCase> cases;
  std::string rule;  // which dtype rule decided (a note of the model)
  // The first signature's operands all at the activation type: what the operand-bytes lower
  // bound reads when no signature can be modelled.
  std::vector<std::string> bound_dtypes;
};

// The estimate deepen leaves, and the evidence level it rests on.
struct Deepened {
  WorkEstimate work;
  EvidenceLevel stage = EvidenceLevel::A;
  std::vector<std::string> notes;
};

}  // namespace roofline::analyze
