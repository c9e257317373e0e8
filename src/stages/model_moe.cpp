// MoE / grouped expert GEMM (SPEC §4, MODELS.md §4–§5): experts_hit (the reported figure), gated
// or not, shared experts, stages, TP sharding, the logical unit, the all-expert figure for
// comparison, and the dense batched GEMM over all experts.
#include <cmath>

#include <fmt/format.h>

#include "core/pattern.hpp"
#include "stages/model_internal.hpp"

namespace roofline::detail {
namespace {

// Stage named by the kernel: stage1 | stage2 | unnamed.
MoeStage stage_from_name(const TopNEntry& e) {
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

}  // namespace

bool config_gated(const ModelConfig& cfg) {
  return cfg.hidden_act != "relu2" && cfg.hidden_act != "relu_squared";
}

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
  const MoeDetail& family = in.cls.detail.moe;
  const bool stream_all = family.stream_all, fused_shared = family.fused_shared;
  MoeStage stage = family.stage;
  if (stage == MoeStage::unnamed) stage = stage_from_name(in.entry);
  const bool stage_named = stage != MoeStage::unnamed;
  if (!stage_named) stage = MoeStage::both;
  const std::optional<BatchedShape> batched = batched_shape(in.entry);
  const bool dense_batched = batched && batched->batch == E;

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
                      format_g(*lps), format_g(*L), to_string(stage)));
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

  std::string gated_why;
  const bool gated = moe_gated(in, stage, I, H, gated_why);
  const double up = gated ? 2.0 : 1.0;  // stage-1 outputs per intermediate unit
  const double weight_elems = stage == MoeStage::stage1   ? up * I * H
                              : stage == MoeStage::stage2 ? I * H
                                                          : (up + 1.0) * I * H;
  const double w = in.dtypes.weight.bytes, a = in.dtypes.act.bytes;
  const double pairs = M * top_k;
  const double experts_hit = E * (1.0 - std::pow(1.0 - 1.0 / E, pairs));

  // Activations: token input and output at the activation dtype; the inter-stage intermediates
  // (pairs·2I written by stage 1, pairs·I read by stage 2) count when they leave L2.
  double act_bytes = 0.0;
  std::string act_how;
  if (stage == MoeStage::stage1) {
    act_bytes = (M * H + pairs * up * I) * a;
    act_how = fmt::format("tokens in M·H + stage-1 out pairs·{}I", gated ? "2" : "");
  } else if (stage == MoeStage::stage2) {
    act_bytes = (pairs * I + M * H) * a;
    act_how = "pairs·I in + tokens out M·H";
  } else {
    const double inter = pairs * (up + 1.0) * I * a;
    // L2 size, or -1 when unknown (a plain double: GCC's -Wmaybe-uninitialized misreads
    // std::optional here).
    const double l2 =
        in.ctx.peaks && in.ctx.peaks->l2_bytes ? in.ctx.peaks->l2_bytes.value() : -1.0;
    act_bytes = 2.0 * M * H * a;
    const std::string what = gated ? "pairs·3I" : "pairs·2I";
    if (l2 >= 0 && inter <= l2) {
      act_how = fmt::format(
          "tokens in + out 2·M·H; inter-stage intermediates {} = {} fit in L2 ({}) and are not "
          "counted",
          what, fmt_bytes(inter), fmt_bytes(l2));
    } else {
      act_bytes += inter;
      act_how = fmt::format("tokens in + out 2·M·H + inter-stage intermediates {} = {}{}", what,
                            fmt_bytes(inter), l2 >= 0 ? " (larger than L2)" : " (L2 size unknown)");
    }
  }

  // Shared experts: in the unit only when the family fuses them (MODELS.md §4).
  double shared_I = 0.0;
  std::string shared_key;
  if (cfg->shared_expert_intermediate) {
    shared_I = *cfg->shared_expert_intermediate;
    shared_key = "shared_expert_intermediate_size";
  } else if (cfg->shared_experts) {
    shared_I = *cfg->shared_experts * *cfg->moe_intermediate;
    shared_key =
        fmt::format("n_shared_experts {} × moe_intermediate", format_g(*cfg->shared_experts));
  }
  double shared_bytes = 0.0, shared_flops = 0.0;
  if (shared_I > 0) {
    const double s_elems = (stage == MoeStage::stage1   ? up
                            : stage == MoeStage::stage2 ? 1.0
                                                        : up + 1.0) *
                           shared_I / in.tp * H;
    if (fused_shared) {
      shared_bytes = s_elems * w;
      shared_flops = 2.0 * M * s_elems;
      work.notes.push_back(fmt::format(
          "shared expert ({} = {}, / tp {}): fused by this kernel family, counted in the unit: {} "
          "weights, {:.4g} FLOPs",
          shared_key, format_g(shared_I), format_g(in.tp), fmt_bytes(shared_bytes), shared_flops));
    } else {
      work.notes.push_back(fmt::format(
          "shared expert ({} = {}): not counted here — this kernel family is not known to fuse "
          "it, so it runs as a separate dense GEMM entry",
          shared_key, format_g(shared_I)));
    }
  }

  MoeFacts facts;
  facts.experts = E;
  facts.top_k = top_k;
  facts.pairs = pairs;
  facts.experts_hit = experts_hit;
  facts.weight_elems_per_expert = weight_elems;
  facts.weight_bytes_per_elem = w;
  facts.activation_bytes = act_bytes + shared_bytes;
  facts.stage = stage;
  facts.gated = gated;
  work.moe = facts;
  work.compute_dtype = wider_dtype(in.dtypes.act, in.dtypes.weight);

  const double flops = 2.0 * pairs * weight_elems + shared_flops;
  const double hit_bytes = experts_hit * weight_elems * w + act_bytes + shared_bytes;
  const double all_bytes = E * weight_elems * w + act_bytes + shared_bytes;
  work.weight_bytes = experts_hit * weight_elems * w + shared_bytes;
  work.notes.push_back(fmt::format(
      "MoE: M = {} rows ({}), top_k {}, pairs {}, E {}, experts_hit = E·(1-(1-1/E)^pairs) = {:.2f}",
      format_g(M), in.rows_source, format_g(top_k), format_g(pairs), format_g(E), experts_hit));
  work.notes.push_back(fmt::format(
      "stage {} ({}): {} weight elements per expert with I = moe_intermediate {} / tp "
      "{} = {}, H = {}; {}",
      to_string(stage),
      stage_named ? "from " + (in.cls.detail.empty() ? std::string("the kernel name")
                                                     : "the kernel-family table")
                  : "not named: both",
      stage == MoeStage::stage1   ? (gated ? "2·I·H" : "I·H")
      : stage == MoeStage::stage2 ? "I·H"
                                  : (gated ? "3·I·H" : "2·I·H"),
      format_g(*cfg->moe_intermediate), format_g(in.tp), format_g(I), format_g(H), gated_why));
  work.notes.push_back(fmt::format("dtypes: weights {} ({} B, {}), activations {} ({} B, {})",
                                   in.dtypes.weight.key, w, in.dtypes.weight_source,
                                   in.dtypes.act.key, a, in.dtypes.act_source));
  work.notes.push_back(fmt::format("activation bytes {} ({})", fmt_bytes(act_bytes), act_how));
  if (dense_batched) {
    // MODELS.md §5: the shapes show a dense batched GEMM over all E experts.
    const BatchedShape& b = *batched;
    const double bytes = b.batch * (b.m * b.k * a + b.k * b.n * w + b.m * b.n * a);
    const double bflops = 2.0 * b.batch * b.m * b.n * b.k;
    work.weight_bytes = b.batch * b.k * b.n * w;
    work.moe->weight_elems_per_expert = b.k * b.n;
    work.moe->activation_bytes = bytes - work.weight_bytes;
    work.notes.push_back(fmt::format(
        "{}: batch = E, a dense evaluation of every expert (MODELS.md §5): reported bytes = "
        "Bt·(M·K·a + K·N·w + M·N·a) = {}, flops = 2·Bt·M·N·K = {:.4g}; the routing-aware figure "
        "(experts_hit of this GEMM's weights) is for comparison",
        b.how, fmt_bytes(bytes), bflops));
    const double hit = experts_hit * b.k * b.n * w + (bytes - work.weight_bytes);
    work.candidates.push_back({"all experts (batched GEMM)", bytes, bflops, std::nullopt, true,
                               CandidateKind::all_experts});
    work.candidates.push_back(
        {"experts_hit", hit, bflops, std::nullopt, false, CandidateKind::experts_hit});
    return;
  }
  const std::string reported =
      stream_all ? "the kernel-family table marks this kernel as streaming every expert: the "
                   "all-expert figure is reported, experts_hit is for comparison"
                 : "experts_hit is reported (routing-aware kernel); the all-expert figure is for "
                   "comparison and its gap is the 'stop reading unrouted experts' lever";
  work.notes.push_back(fmt::format(
      "bytes = experts_hit·weight_elems·w + activations = {}; all-expert model (E instead of "
      "experts_hit) = {}; flops = 2·pairs·weight_elems = {:.4g}; {}",
      fmt_bytes(hit_bytes), fmt_bytes(all_bytes), flops, reported));
  if (stream_all) {
    work.weight_bytes = E * weight_elems * w + shared_bytes;
    work.candidates.push_back(
        {"all experts", all_bytes, flops, std::nullopt, true, CandidateKind::all_experts});
    work.candidates.push_back(
        {"experts_hit", hit_bytes, flops, std::nullopt, false, CandidateKind::experts_hit});
  } else {
    work.candidates.push_back(
        {"experts_hit", hit_bytes, flops, std::nullopt, true, CandidateKind::experts_hit});
    work.candidates.push_back(
        {"all experts", all_bytes, flops, std::nullopt, false, CandidateKind::all_experts});
  }
}

}  // namespace roofline::detail
