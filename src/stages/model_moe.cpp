// MoE / grouped expert GEMM (SPEC §4): experts_hit, stages, TP sharding, the logical unit, and
// the all-expert candidate.
#include <cmath>

#include <fmt/format.h>

#include "core/pattern.hpp"
#include "stages/model_internal.hpp"

namespace roofline::detail {
namespace {

// Stage named by the kernel: "stage1" | "stage2" | "" (not named).
std::string stage_from_name(const TopNEntry& e) {
  for (const std::string* s : {&e.name, &e.short_name}) {
    for (std::string_view t : {"stage1", "moe1", "gate_up", "w13", "gemm1", "gateup"})
      if (icontains(*s, t)) return "stage1";
    for (std::string_view t : {"stage2", "moe2", "down_proj", "_down", "w2_", "_w2", "gemm2"})
      if (icontains(*s, t)) return "stage2";
  }
  return {};
}

}  // namespace

void model_moe(const ModelInput& in, WorkEstimate& work) {
  const ModelConfig* cfg = in.ctx.config;
  if (!cfg) {
    work.unmodeled_reason =
        "MoE byte model needs the model config.json (num_experts, "
        "num_experts_per_tok, moe_intermediate_size, hidden_size): " +
        in.ctx.config_status;
    return;
  }
  std::string missing;
  require(cfg->experts, "num_experts", missing);
  require(cfg->top_k, "num_experts_per_tok", missing);
  require(cfg->moe_intermediate, "moe_intermediate_size", missing);
  require(cfg->hidden, "hidden_size", missing);
  if (!missing.empty()) {
    work.unmodeled_reason = "MoE byte model: config.json lacks " + missing;
    return;
  }
  if (!in.rows) {
    work.unmodeled_reason = fmt::format(
        "MoE byte model needs rows in flight: no est_shape.{}.M and no workload.{} in env_report",
        to_string(in.regime.regime), in.regime.regime == Regime::decode ? "conc" : "isl");
    return;
  }
  const double E = *cfg->experts, top_k = *cfg->top_k, H = *cfg->hidden;
  const double I = *cfg->moe_intermediate / in.tp;
  const double M = *in.rows;

  // Stage: the kernel-family table, then the name, then "both".
  std::string stage =
      in.cls.detail == "stage1" || in.cls.detail == "stage2" || in.cls.detail == "both"
          ? in.cls.detail
          : stage_from_name(in.entry);
  const bool stage_named = !stage.empty();
  if (!stage_named) stage = "both";

  // Logical unit: k launches of one layer when launches_per_step / MoE layers is an integer >= 2.
  const auto& lps = in.regime.launches_per_step;
  const auto& L = cfg->moe_layers;
  if (lps && L && *L > 0) {
    const double ratio = *lps / *L;
    const double k = std::round(ratio);
    const bool integer = k >= 1 && std::fabs(ratio - k) <= 0.05 * k;
    if (integer && k >= 2 && !stage_named) {
      work.unit_launches = k;
      work.t_unit_ms = k * *in.regime.t_ms;
      work.unit = fmt::format("{} launches = one MoE layer", format_g(k));
      work.notes.push_back(fmt::format(
          "logical unit: {} launches/step ({}) / {} MoE layers ({}) = {:.3f} → {} launches per "
          "layer "
          "under one kernel name; t_unit = {} × {:.3f} µs = {:.3f} µs, byte model covers both "
          "stages",
          format_g(*lps), in.regime.launches_source, format_g(*L), cfg->moe_layers_rule, ratio,
          format_g(k), format_g(k), *in.regime.t_ms * 1000.0, work.t_unit_ms * 1000.0));
    } else if (integer && k >= 2) {
      work.notes.push_back(
          fmt::format("logical unit: 1 launch ({} launches/step over {} MoE layers, but the name "
                      "fixes the stage: {})",
                      format_g(*lps), format_g(*L), stage));
    } else {
      work.notes.push_back(fmt::format(
          "logical unit: 1 launch ({} launches/step over {} MoE layers = {:.3f}{})", format_g(*lps),
          format_g(*L), ratio,
          integer ? "" : ", not an integer: stages not inferred from the launch count"));
    }
  } else {
    work.notes.push_back(
        fmt::format("logical unit: 1 launch ({})",
                    !lps ? "launches per step unknown" : "MoE layer count unknown"));
  }

  const double weight_elems = stage == "stage1"   ? 2.0 * I * H
                              : stage == "stage2" ? I * H
                                                  : 3.0 * I * H;
  const double w = in.dtypes.weight.bytes, a = in.dtypes.act.bytes;
  const double pairs = M * top_k;
  const double experts_hit = E * (1.0 - std::pow(1.0 - 1.0 / E, pairs));

  // Activations: token input and output at the activation dtype; the inter-stage intermediates
  // (pairs·2I written by stage 1, pairs·I read by stage 2) count when they leave L2.
  double act_bytes = 0.0;
  std::string act_how;
  if (stage == "stage1") {
    act_bytes = (M * H + pairs * 2.0 * I) * a;
    act_how = "tokens in M·H + gate/up out pairs·2I";
  } else if (stage == "stage2") {
    act_bytes = (pairs * I + M * H) * a;
    act_how = "pairs·I in + tokens out M·H";
  } else {
    const double inter = pairs * 3.0 * I * a;
    const auto l2 = in.ctx.peaks ? in.ctx.peaks->l2_bytes : std::nullopt;
    act_bytes = 2.0 * M * H * a;
    if (l2 && inter <= *l2) {
      act_how = fmt::format(
          "tokens in + out 2·M·H; inter-stage intermediates pairs·3I = {} fit in L2 ({}) and are "
          "not counted",
          fmt_bytes(inter), fmt_bytes(*l2));
    } else {
      act_bytes += inter;
      act_how = fmt::format("tokens in + out 2·M·H + inter-stage intermediates pairs·3I = {}{}",
                            fmt_bytes(inter), l2 ? " (larger than L2)" : " (L2 size unknown)");
    }
  }

  MoeFacts facts;
  facts.experts = E;
  facts.top_k = top_k;
  facts.pairs = pairs;
  facts.experts_hit = experts_hit;
  facts.weight_elems_per_expert = weight_elems;
  facts.weight_bytes_per_elem = w;
  facts.activation_bytes = act_bytes;
  facts.stage = stage;
  work.moe = facts;
  work.compute_dtype = wider_dtype(in.dtypes.act, in.dtypes.weight);

  const double flops = 2.0 * pairs * weight_elems;
  const double hit_bytes = experts_hit * weight_elems * w + act_bytes;
  const double all_bytes = E * weight_elems * w + act_bytes;
  work.weight_bytes = experts_hit * weight_elems * w;
  work.notes.push_back(fmt::format(
      "MoE: M = {} rows ({}), top_k {}, pairs {}, E {}, experts_hit = E·(1-(1-1/E)^pairs) = {:.2f}",
      format_g(M), in.rows_source, format_g(top_k), format_g(pairs), format_g(E), experts_hit));
  work.notes.push_back(
      fmt::format("stage {} ({}): {} weight elements per expert with I = moe_intermediate {} / tp "
                  "{} = {}, H = {}",
                  stage,
                  stage_named ? "from " + (in.cls.detail.empty() ? std::string("the kernel name")
                                                                 : "the kernel-family table")
                              : "not named: both",
                  stage == "stage1"   ? "2·I·H"
                  : stage == "stage2" ? "I·H"
                                      : "3·I·H",
                  format_g(*cfg->moe_intermediate), format_g(in.tp), format_g(I), format_g(H)));
  work.notes.push_back(fmt::format("dtypes: weights {} ({} B, {}), activations {} ({} B, {})",
                                   in.dtypes.weight.key, w, in.dtypes.weight_source,
                                   in.dtypes.act.key, a, in.dtypes.act_source));
  work.notes.push_back(fmt::format("activation bytes {} ({})", fmt_bytes(act_bytes), act_how));
  work.notes.push_back(fmt::format(
      "bytes = experts_hit·weight_elems·w + activations = {}; all-expert model (E instead of "
      "experts_hit) = {}; flops = 2·pairs·weight_elems = {:.4g}",
      fmt_bytes(hit_bytes), fmt_bytes(all_bytes), flops));
  work.candidates.push_back(
      {"experts_hit", hit_bytes, flops, std::nullopt, CandidateKind::experts_hit});
  work.candidates.push_back(
      {"all experts", all_bytes, flops, std::nullopt, CandidateKind::all_experts});
}

}  // namespace roofline::detail
