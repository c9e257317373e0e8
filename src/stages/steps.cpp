// Step 5, infer_steps (docs/method.md §6.4): serving steps and launches per step when the Top-N has
// neither per-regime fields nor step counts, from the layer plan and the call counts.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/stages.hpp"
#include "roofline/units.hpp"

namespace roofline {
namespace {

constexpr double k_tolerance = 0.05;  // |calls/steps − k·layers| ≤ 5 % of k·layers

bool has_regime_fields(const TopNEntry& e) {
  return e.calls_per_step.any() || e.base_latency_ms.any() || e.phase_calls_measured.any() ||
         e.est_shape.any() || !e.phase.empty() || !e.served_regimes.empty();
}

// The layers a kernel of this class runs once per step (0: not a per-layer kernel).
double layers_for(const Classification& c, const LayerPlan& plan) {
  switch (c.op_class) {
    case OpClass::attn:
      return layers_served(plan, Served::softmax_attention);
    case OpClass::linear_attn:
      return layers_served(plan, Served::linear_attention);
    case OpClass::ssm:
      return layers_served(plan, Served::mamba);
    default:
      return 0.0;
  }
}

const char* layer_word(OpClass c) {
  return c == OpClass::attn ? "attention" : c == OpClass::ssm ? "mamba" : "linear";
}

// calls / steps against k · layers for an integer k in `ks`: the k that fits, or 0.
double fitting_k(double calls, double steps, double layers, std::initializer_list<double> ks) {
  for (double k : ks)
    if (std::fabs(calls / steps - k * layers) <= k_tolerance * k * layers) return k;
  return 0.0;
}

}  // namespace

StepInference infer_steps(const TopN& topn, const Scope& scope,
                          const std::vector<Classification>& classes, const ModelConfig* config) {
  StepInference out;
  out.entries.resize(scope.selected.size());
  // Only when nothing better exists: per-regime fields or the profiler's step counts win.
  if (scope.selected.empty() || topn.serving.n_prefill_steps || topn.serving.n_decode_steps)
    return out;
  bool any_regime_fields = false;
  for (std::size_t idx : scope.selected)
    any_regime_fields = any_regime_fields || has_regime_fields(topn.entries[idx]);
  if (any_regime_fields) return out;
  out.attempted = true;
  // Declining leaves every entry at one launch per unit, and each entry says why.
  auto decline = [&](std::string note, const char* short_why) {
    out.note = std::move(note);
    for (InferredLaunches& l : out.entries)
      l.inconsistent = fmt::format(
          "launches per step unknown: steps not inferred ({}; see the run notes); one launch per "
          "unit",
          short_why);
    return out;
  };
  if (!config || config->plan.empty())
    return decline(
        "steps not inferred: the Top-N has no step annotations and there is no layer plan "
        "(config.json) to count per-layer kernels against; launches per step unknown",
        "no layer plan");
  // Every softmax-attention, linear-attention or mamba kernel runs once per layer it serves.
  struct Proposal {
    std::size_t i;
    double calls, layers;
  };
  std::vector<Proposal> proposals;
  for (std::size_t i = 0; i < scope.selected.size(); ++i) {
    const TopNEntry& e = topn.entries[scope.selected[i]];
    const double layers = layers_for(classes[i], config->plan);
    if (layers > 0 && e.calls && *e.calls > 0) proposals.push_back({i, *e.calls, layers});
  }
  if (proposals.empty())
    return decline(
        "steps not inferred: no head entry is a per-layer kernel (attention, linear attention, "
        "mamba) to divide its calls by the layers it serves; launches per step unknown",
        "no per-layer kernel in the head");
  const Proposal& anchor =
      *std::max_element(proposals.begin(), proposals.end(),
                        [](const Proposal& a, const Proposal& b) { return a.calls < b.calls; });
  const double steps = anchor.calls / anchor.layers;
  const std::string anchor_text =
      fmt::format("{} = {} calls of {} / {} {} layers", format_g(steps), format_g(anchor.calls),
                  topn.entries[scope.selected[anchor.i]].name, format_g(anchor.layers),
                  layer_word(classes[anchor.i].op_class));
  // The other per-layer kernels must agree: they ran the same steps.
  for (const Proposal& p : proposals) {
    if (p.i == anchor.i || fitting_k(p.calls, steps, p.layers, {1.0}) > 0) continue;
    return decline(
        fmt::format(
            "steps not inferred: {} proposes {} steps, but {} ({} calls over {} {} layers) "
            "proposes {}: the layer plan and the call counts disagree, so no launches per step "
            "are derived from them",
            topn.entries[scope.selected[anchor.i]].name, format_g(steps),
            topn.entries[scope.selected[p.i]].name, format_g(p.calls), format_g(p.layers),
            layer_word(classes[p.i].op_class), format_g(p.calls / p.layers)),
        "the per-layer kernels' call counts disagree with the layer plan");
  }
  out.steps = steps;
  std::vector<std::string> checks;
  const double moe_layers = layers_served(config->plan, Served::moe);
  for (std::size_t i = 0; i < scope.selected.size(); ++i) {
    const TopNEntry& e = topn.entries[scope.selected[i]];
    InferredLaunches& l = out.entries[i];
    if (!e.calls || !(*e.calls > 0)) continue;
    const double per_step = *e.calls / steps;
    const double layers =
        classes[i].op_class == OpClass::moe ? moe_layers : layers_for(classes[i], config->plan);
    if (layers <= 0) {  // GEMMs, norms and the rest: no check
      l.launches_per_step = per_step;
      l.how = fmt::format("calls {} / inferred steps {}", format_g(*e.calls), format_g(steps));
      continue;
    }
    const bool moe = classes[i].op_class == OpClass::moe;
    const double k = moe ? fitting_k(*e.calls, steps, layers, {1.0, 2.0})
                         : fitting_k(*e.calls, steps, layers, {1.0});
    const std::string what = fmt::format("{} {} / {} = {}", e.name, format_g(*e.calls),
                                         format_g(steps), format_g(per_step));
    if (k > 0) {
      l.launches_per_step = per_step;
      l.how = fmt::format("calls {} / inferred steps {}", format_g(*e.calls), format_g(steps));
      checks.push_back(fmt::format("{} = {}{} {} layers ✓", what, k > 1 ? format_g(k) + " × " : "",
                                   format_g(layers),
                                   moe ? "MoE" : layer_word(classes[i].op_class)));
    } else {
      l.inconsistent = fmt::format(
          "launches per step not inferred: {} calls / {} inferred steps = {} is not {} × {} {} "
          "layers (±5 %); one launch per unit",
          format_g(*e.calls), format_g(steps), format_g(per_step), moe ? "1 or 2" : "1",
          format_g(layers), moe ? "MoE" : layer_word(classes[i].op_class));
      checks.push_back(
          fmt::format("{} ✗ (not {} × {} layers)", what, moe ? "1 or 2" : "1", format_g(layers)));
    }
  }
  std::string list;
  for (const auto& c : checks) list += "; " + c;
  out.note =
      fmt::format("steps inferred (no step annotations, MODELS.md §10): {}{}", anchor_text, list);
  return out;
}

}  // namespace roofline
