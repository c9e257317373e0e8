// MoE (docs/method.md §8.7): the logical unit — how many launches of one kernel name make one MoE
// layer.
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/model_moe.hpp"

namespace roofline::detail {

void moe_unit(const ModelInput& in, const MoeSetup& s, WorkEstimate& work) {
  const ModelConfig& cfg = *in.ctx.config;
  const auto& lps = in.regime.launches_per_step;
  const auto& L = cfg.moe_layers;
  if (!lps || !L || !(*L > 0)) {
    work.notes.push_back(
        fmt::format("logical unit: 1 launch ({})",
                    !lps ? "launches per step unknown" : "MoE layer count unknown"));
    return;
  }
  const double ratio = *lps / *L;
  const double k = std::round(ratio);
  const bool integer = k >= 1 && std::fabs(ratio - k) <= 0.05 * k;
  if (integer && k >= 2 && !s.stage_named) {
    work.unit_launches = k;
    work.t_unit_ms = k * *in.regime.t_ms;
    work.unit = fmt::format("{} launches = one MoE layer", format_g(k));
    work.notes.push_back(fmt::format(
        "logical unit: {} launches/step ({}) / {} MoE layers ({}) = {:.3f} → {} launches per "
        "layer under one kernel name; t_unit = {} × {:.3f} µs = {:.3f} µs, byte model covers both "
        "stages",
        format_g(*lps), in.regime.launches_source, format_g(*L), cfg.moe_layers_rule, ratio,
        format_g(k), format_g(k), *in.regime.t_ms * 1000.0, work.t_unit_ms * 1000.0));
  } else if (integer && k >= 2) {
    work.notes.push_back(
        fmt::format("logical unit: 1 launch ({} launches/step over {} MoE layers, but the name "
                    "fixes the stage: {})",
                    format_g(*lps), format_g(*L), to_string(s.stage)));
  } else {
    work.notes.push_back(
        fmt::format("logical unit: 1 launch ({} launches/step over {} MoE layers = {:.3f}{})",
                    format_g(*lps), format_g(*L), ratio,
                    integer ? "" : ", not an integer: stages not inferred from the launch count"));
  }
}

}  // namespace roofline::detail
