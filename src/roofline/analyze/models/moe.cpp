// MoE / grouped expert GEMM (docs/method.md §8, §8.5, §8.7): the stage a launch runs, gated or not,
// the expert weights and experts_hit (this file); the logical unit (model_moe_unit.cpp);
// activations, shared experts and the candidates (model_moe_bytes.cpp). Private pieces:
// model_moe.hpp.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/evidence/name_tokens.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/moe.hpp"
#include "roofline/inputs/pattern.hpp"

namespace roofline::analyze::detail {
namespace {

// Stage named by the kernel: stage1 | stage2 | unnamed.
MoeStage stage_from_name(const TopnEntry& e) {
  for (const std::string* s : {&e.name, &e.short_name}) {
    for (std::string_view t : {"stage1", "moe1", "gate_up", "w13", "gemm1", "gateup"})
      if (icontains(*s, t)) return MoeStage::stage1;
    for (std::string_view t : {"stage2", "moe2", "down_proj", "_down", "w2_", "_w2", "gemm2"})
      if (icontains(*s, t)) return MoeStage::stage2;
  }
  return MoeStage::unnamed;
}

// Gated (3·I·H per expert) or not (2·I·H): the stage-1 weight's N first (2·I/tp gated, I/tp
// not), then the config's activation (relu2 is non-gated), else gated.
bool moe_gated(const ModelInput& in, MoeStage stage, double I, double H, std::string& why) {
  if (stage != MoeStage::stage2) {
    for (std::size_t i = 0; i < in.entry.shapes.size(); ++i) {
      const auto& d = in.entry.shapes[i];
      if (d.size() != 3) continue;
      if (i < in.entry.dtypes.size())
        if (auto dt = parse_dtype(in.entry.dtypes[i]);
            dt && dt->key == DtypeKey::int8 && in.dtypes.weight.bytes < 1.0)
          break;  // packed 4-bit weights in an integer container: N is not readable
      const double a = static_cast<double>(d[1]), b = static_cast<double>(d[2]);
      const double n = a == H ? b : b == H ? a : 0.0;
      if (n == 2.0 * I) {
        why = fmt::format("gated: stage-1 weight shapes[{}] has N = {} = 2·I", i, format_g(n));
        return true;
      }
      if (n == I) {
        why = fmt::format("not gated: stage-1 weight shapes[{}] has N = {} = I", i, format_g(n));
        return false;
      }
      break;
    }
  }
  if (in.ctx.config && !config_gated(*in.ctx.config)) {
    why = fmt::format("not gated: activation {} (squared ReLU)", in.ctx.config->hidden_act);
    return false;
  }
  why = "gated (gate, up, down): the default";
  return true;
}

// The width of the token activations: a captured 2-D operand [M, Hp] with M the rows and
// H < Hp <= 1.25·H is the hidden states padded for the kernel's tiles (docs/method.md §22.5).
double activation_width(const TopnEntry& e, double H, double M, std::string& why) {
  for (std::size_t i = 0; i < e.shapes.size(); ++i) {
    const auto& d = e.shapes[i];
    if (d.size() != 2 || static_cast<double>(d[0]) != M) continue;
    const double hp = static_cast<double>(d[1]);
    if (hp > H && hp <= 1.25 * H) {
      why = fmt::format(
          "token activations {} wide: shapes[{}] [{}, {}] is the hidden states padded from "
          "hidden_size {} (the expert weights stay the config's)",
          format_g(hp), i, format_g(M), format_g(hp), format_g(H));
      return hp;
    }
  }
  return H;
}

// What the model needs from the config and the regime; `work.unmodeled_reason` when it is missing.
bool moe_setup(const ModelInput& in, MoeSetup& s, WorkEstimate& work) {
  const ModelConfig* cfg = in.ctx.config;
  if (!cfg) {
    work.unmodeled_reason =
        "MoE byte model needs the model config.json (num_experts, "
        "num_experts_per_tok, moe_intermediate_size, hidden_size): " +
        in.ctx.config_status;
    return false;
  }
  std::string missing;
  require(cfg->experts, "num_experts", missing);
  require(cfg->top_k, "num_experts_per_tok", missing);
  require(cfg->moe_intermediate, "moe_intermediate_size", missing);
  require(cfg->hidden, "hidden_size", missing);
  if (!missing.empty()) {
    work.unmodeled_reason = "MoE byte model: config.json lacks " + missing;
    return false;
  }
  if (!in.rows && !in.regime.known) {
    work.unmodeled_reason = regime_unknown_reason(in.regime, "MoE byte model");
    return false;
  }
  if (!in.rows) {
    work.unmodeled_reason = rows_missing_reason(in.regime.regime, "MoE byte model");
    return false;
  }
  s.E = *cfg->experts;
  s.top_k = *cfg->top_k;
  s.H = *cfg->hidden;
  s.I = *cfg->moe_intermediate / in.tp;
  s.M = *in.rows;
  s.pairs = s.M * s.top_k;
  // Stage: the kernel-family table, then the name, then both.
  s.stage = in.cls.detail.moe.stage;
  if (s.stage == MoeStage::unnamed) s.stage = stage_from_name(in.entry);
  s.stage_named = s.stage != MoeStage::unnamed;
  if (!s.stage_named) s.stage = MoeStage::both;
  s.w = in.dtypes.weight.bytes;
  s.a = in.dtypes.act.bytes;
  s.a_in = in.dtypes.act_in ? in.dtypes.act_in->bytes : s.a;
  s.act_fused = fused_activation(in.entry.name);
  s.rows_expanded =
      icontains(in.entry.name, "MoeFCGemm") || icontains(in.entry.name, "fused_moe::run_global");
  s.out_unreduced = icontains(in.entry.name, "fused_moe_kernel");
  s.H_act = activation_width(in.entry, s.H, s.M, s.H_act_why);
  return true;
}

// Weight elements per expert for the stages the unit runs: gate and up (2·I·H gated), down (I·H).
Term weight_elements(const MoeSetup& s) {
  const double up = s.up(), I = s.I, H = s.H;
  switch (s.stage) {
    case MoeStage::stage1:
      return part(s.gated ? "2·I·H" : "I·H", up * I * H, TermUnit::count);
    case MoeStage::stage2:
      return part("I·H", I * H, TermUnit::count);
    case MoeStage::both:
    case MoeStage::unnamed:
      break;
  }
  return part(s.gated ? "3·I·H" : "2·I·H", (up + 1.0) * I * H, TermUnit::count);
}

// The model's own notes: rows and experts_hit, the stage and its weights, dtypes, activations.
void moe_notes(const ModelInput& in, const MoeSetup& s, const Term& weight_elems,
               const Term& experts_hit, const Term& activations, WorkEstimate& work) {
  work.notes.push_back(fmt::format("MoE: M = {} rows ({}), top_k {}, pairs {}, E {}, {}",
                                   format_g(s.M), in.rows_source, format_g(s.top_k),
                                   format_g(s.pairs), format_g(s.E), render(experts_hit)));
  work.notes.push_back(fmt::format(
      "stage {} ({}): {} weight elements per expert with I = moe_intermediate {} / tp "
      "{} = {}, H = {}; {}",
      to_string(s.stage),
      s.stage_named
          ? "from " + (in.cls.detail.moe.stage_from_sibling ? std::string("its sibling kernel")
                       : in.cls.detail.empty()              ? std::string("the kernel name")
                                                            : "the kernel-family table")
          : "not named: both",
      weight_elems.formula, format_g(*in.ctx.config->moe_intermediate), format_g(in.tp),
      format_g(s.I), format_g(s.H), s.gated_why));
  work.notes.push_back(fmt::format("dtypes: weights {} ({} B, {}), activations {} ({} B, {})",
                                   in.dtypes.weight.key, s.w, in.dtypes.weight_source,
                                   in.dtypes.act.key, s.a, in.dtypes.act_source));
  if (in.dtypes.act_in)
    work.notes.push_back(fmt::format("inputs read at {} ({} B): {}", in.dtypes.act_in->key, s.a_in,
                                     in.dtypes.act_in_source));
  if (!s.H_act_why.empty()) work.notes.push_back(s.H_act_why);
  work.notes.push_back(
      fmt::format("activation bytes {} ({})", shown(activations), activations.formula));
}

// docs/method.md §10.8 (source `padded_width`): the trace records the hidden states padded for the
// kernel's tiles; the model keeps the config's width for the weights (the padding is the kernel's
// staging, not the checkpoint), but a kernel that pads its weights too reads Hp/H of them and
// computes Hp/H of the FLOPs. That figure is the trace's own word, so it is a reading: the band
// spans both.
void padded_weights_reading(const MoeSetup& s, WorkEstimate& work) {
  if (!(s.H_act > s.H) || !work.moe) return;
  const auto taken = std::find_if(work.candidates.begin(), work.candidates.end(),
                                  [](const Candidate& c) { return c.in_choice; });
  if (taken == work.candidates.end()) return;
  const double scale = s.H_act / s.H;
  const double weights = taken->kind == CandidateKind::all_experts
                             ? work.moe->experts * work.moe->weight_elems_per_expert * s.w
                             : work.moe->experts_hit * work.moe->weight_elems_per_expert * s.w;
  work.readings.push_back(Reading{
      "padded_width",
      fmt::format("weights at the padded width {} too ({} × {}/{})", format_g(s.H_act),
                  taken->label, format_g(s.H_act), format_g(s.H)),
      fmt::format("the trace's operand is {} wide where hidden_size is {}: a kernel that pads its "
                  "weights to the same tiles reads {} of weights, not {}",
                  format_g(s.H_act), format_g(s.H), fmt_bytes(weights * scale), fmt_bytes(weights)),
      taken->bytes + (scale - 1.0) * weights, taken->flops * scale, std::nullopt});
}

}  // namespace

bool config_gated(const ModelConfig& cfg) {
  return cfg.hidden_act != "relu2" && cfg.hidden_act != "relu_squared";
}

void model_moe(const ModelInput& in, WorkEstimate& work) {
  MoeSetup s;
  if (!moe_setup(in, s, work)) return;
  moe_unit(in, s, work);
  s.gated = moe_gated(in, s.stage, s.I, s.H, s.gated_why);
  const Term weight_elems = weight_elements(s);
  // docs/method.md §8.7: M tokens each choosing top_k distinct experts of E (exactly top_k for
  // one token); the skill's E·(1-(1-1/E)^pairs) draws with replacement and under-counts.
  const double share = std::min(1.0, s.top_k / s.E);
  Term experts_hit = term("experts_hit", "E·(1-(1-top_k/E)^M)",
                          s.E * (1.0 - std::pow(1.0 - share, s.M)), TermUnit::count);
  experts_hit.display = Shown::fixed2;
  if (s.M * s.top_k < 4.0 * s.E)
    experts_hit.remark =
        fmt::format("without replacement; the skill's E·(1-(1-1/E)^pairs) would say {:.2f}",
                    s.E * (1.0 - std::pow(1.0 - 1.0 / s.E, s.pairs)));
  const Term activations = moe_activation_bytes(in, s);
  const SharedExperts shared = moe_shared_experts(in, s, work);

  MoeFacts facts;
  facts.experts = s.E;
  facts.top_k = s.top_k;
  facts.pairs = s.pairs;
  facts.experts_hit = experts_hit.value;
  facts.weight_elems_per_expert = weight_elems.value;
  facts.weight_bytes_per_elem = s.w;
  facts.activation_bytes = activations.value + shared.bytes.value;
  facts.stage = s.stage;
  facts.gated = s.gated;
  work.moe = facts;
  // The MMA runs on what the expert GEMMs read: a quantized input (W8A8: fp8 activations and fp8
  // weights) computes in fp8, not in the model's activation dtype.
  work.compute_dtype =
      wider_dtype(in.dtypes.act_in ? *in.dtypes.act_in : in.dtypes.act, in.dtypes.weight);
  moe_notes(in, s, weight_elems, experts_hit, activations, work);
  moe_candidates(in, s, weight_elems, experts_hit, activations, shared, work);
  padded_weights_reading(s, work);
}

}  // namespace roofline::analyze::detail
