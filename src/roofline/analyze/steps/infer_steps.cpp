// Pass infer_steps (docs/method.md §6.4): serving steps and launches per step when the Top-N has
// neither per-regime fields nor step counts, from the layer plan and the call counts.
#include "roofline/analyze/steps/infer_steps.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/base/units.hpp"

namespace roofline::analyze {
namespace {

constexpr double k_tolerance = 0.05;  // |calls/steps − k·layers| ≤ 5 % of k·layers

bool has_regime_fields(const TopnEntry& e) {
  return e.calls_per_step.any() || e.base_latency_ms.any() || e.phase_calls_measured.any() ||
         e.est_shape.any() || !e.phase.empty() || !e.served_regimes.empty();
}

// The layers a kernel of this class runs once per step (0: not a per-layer kernel).
double layers_for(OpClass c, const LayerPlan& plan) {
  switch (c) {
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

// The steps the per-layer kernels propose (docs/method.md §6.4): the one with the most calls
// decides, the others must agree. Either `steps` (with `anchor`, how it was found) or why not:
// `declined` for the run notes and `short_why` for each entry.
struct Proposed {
  std::optional<double> steps;
  std::string anchor;
  std::string declined;
  const char* short_why = "";
};
Proposed propose_steps(const TopnDocument& topn, const std::vector<HeadEntry>& head,
                       const LayerPlan& plan) {
  auto top = [&](std::size_t i) -> const TopnEntry& { return topn.entries[head[i].topn_position]; };
  auto cls = [&](std::size_t i) { return head[i].classified.op_class; };
  // Every softmax-attention, linear-attention or mamba kernel runs once per layer it serves.
  struct Proposal {
    std::size_t i;
    double calls, layers;
  };
  std::vector<Proposal> proposals;
  for (std::size_t i = 0; i < head.size(); ++i) {
    const TopnEntry& e = top(i);
    const double layers = layers_for(cls(i), plan);
    if (layers > 0 && e.calls && *e.calls > 0) proposals.push_back({i, *e.calls, layers});
  }
  if (proposals.empty())
    return {std::nullopt, "",
            "steps not inferred: no head entry is a per-layer kernel (attention, linear attention, "
            "mamba) to divide its calls by the layers it serves; launches per step unknown",
            "no per-layer kernel in the head"};
  const Proposal& anchor =
      *std::max_element(proposals.begin(), proposals.end(),
                        [](const Proposal& a, const Proposal& b) { return a.calls < b.calls; });
  const double steps = anchor.calls / anchor.layers;
  // A step count is a whole number of forward passes: below one step, or a fraction more than 5 %
  // from an integer, the layer plan does not describe these calls (docs/method.md §6.4).
  const double whole = std::round(steps);
  if (steps < 1.0 - k_tolerance || std::fabs(steps - whole) > k_tolerance * std::max(whole, 1.0))
    return {std::nullopt, "",
            fmt::format("steps not inferred: {} ({} calls over {} {} layers) proposes {} steps, "
                        "{}: the kernel does not run once per layer of the plan (or the capture "
                        "holds partial steps), so no launches per step are derived",
                        top(anchor.i).name, format_g(anchor.calls), format_g(anchor.layers),
                        layer_word(cls(anchor.i)), format_g(steps),
                        steps < 1.0 ? "fewer than one" : "not a whole number"),
            steps < 1.0 ? "fewer than one step" : "a fractional step count"};
  // The other per-layer kernels must agree: they ran the same steps.
  for (const Proposal& p : proposals) {
    if (p.i == anchor.i || fitting_k(p.calls, steps, p.layers, {1.0}) > 0) continue;
    return {
        std::nullopt, "",
        fmt::format("steps not inferred: {} proposes {} steps, but {} ({} calls over {} {} layers) "
                    "proposes {}: the layer plan and the call counts disagree, so no launches per "
                    "step are derived from them",
                    top(anchor.i).name, format_g(steps), top(p.i).name, format_g(p.calls),
                    format_g(p.layers), layer_word(cls(p.i)), format_g(p.calls / p.layers)),
        "the per-layer kernels' call counts disagree with the layer plan"};
  }
  return {steps,
          fmt::format("{} = {} calls of {} / {} {} layers", format_g(steps), format_g(anchor.calls),
                      top(anchor.i).name, format_g(anchor.layers), layer_word(cls(anchor.i))),
          "", ""};
}

// One entry's launches per step under the inferred steps, into `l`; for a per-layer entry the
// check of its calls against its layers, for the run note ("" for the others).
std::string check_launches(const TopnEntry& e, OpClass cls, double steps, const LayerPlan& plan,
                           InferredLaunches& l) {
  if (!e.calls || !(*e.calls > 0)) return "";
  const double per_step = *e.calls / steps;
  const bool moe = cls == OpClass::moe;
  const double layers = moe ? layers_served(plan, Served::moe) : layers_for(cls, plan);
  if (layers <= 0) {  // GEMMs, norms and the rest: no check
    l.launches_per_step = per_step;
    l.how = fmt::format("calls {} / inferred steps {}", format_g(*e.calls), format_g(steps));
    return "";
  }
  const double k = moe ? fitting_k(*e.calls, steps, layers, {1.0, 2.0})
                       : fitting_k(*e.calls, steps, layers, {1.0});
  const std::string what = fmt::format("{} {} / {} = {}", e.name, format_g(*e.calls),
                                       format_g(steps), format_g(per_step));
  if (k > 0) {
    l.launches_per_step = per_step;
    l.how = fmt::format("calls {} / inferred steps {}", format_g(*e.calls), format_g(steps));
    return fmt::format("{} = {}{} {} layers ✓", what, k > 1 ? format_g(k) + " × " : "",
                       format_g(layers), moe ? "MoE" : layer_word(cls));
  }
  l.inconsistent = fmt::format(
      "launches per step not inferred: {} calls / {} inferred steps = {} is not {} × {} {} "
      "layers (±5 %); one launch per unit",
      format_g(*e.calls), format_g(steps), format_g(per_step), moe ? "1 or 2" : "1",
      format_g(layers), moe ? "MoE" : layer_word(cls));
  return fmt::format("{} ✗ (not {} × {} layers)", what, moe ? "1 or 2" : "1", format_g(layers));
}

}  // namespace

StepInference infer_steps(const TopnDocument& topn, std::vector<HeadEntry>& head,
                          const ModelConfig* config) {
  StepInference out;
  // Only when nothing better exists: per-regime fields or the profiler's step counts win.
  if (head.empty() || topn.serving.n_prefill_steps || topn.serving.n_decode_steps) return out;
  bool any_regime_fields = false;
  for (const HeadEntry& e : head)
    any_regime_fields = any_regime_fields || has_regime_fields(topn.entries[e.topn_position]);
  if (any_regime_fields) return out;
  out.attempted = true;
  for (HeadEntry& e : head) e.launches.emplace();
  const Proposed proposed =
      config && !config->plan.empty()
          ? propose_steps(topn, head, config->plan)
          : Proposed{std::nullopt, "",
                     "steps not inferred: the Top-N has no step annotations and there is no "
                     "layer plan (config.json) to count per-layer kernels against; launches per "
                     "step unknown",
                     "no layer plan"};
  if (!proposed.steps) {
    // Declining leaves every entry at one launch per unit, and each entry says why.
    out.findings.notes.push_back(proposed.declined);
    for (HeadEntry& e : head)
      e.launches->inconsistent = fmt::format(
          "launches per step unknown: steps not inferred ({}; see the run notes); one launch per "
          "unit",
          proposed.short_why);
    return out;
  }
  out.steps = proposed.steps;
  std::string checks;
  for (HeadEntry& e : head) {
    const std::string check = check_launches(topn.entries[e.topn_position], e.classified.op_class,
                                             *proposed.steps, config->plan, *e.launches);
    if (!check.empty()) checks += "; " + check;
  }
  out.findings.notes.push_back(fmt::format(
      "steps inferred (no step annotations, docs/method.md §6.4): {}{}", proposed.anchor, checks));
  return out;
}

}  // namespace roofline::analyze
