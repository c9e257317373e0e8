// docs/method.md §8.16: no model, but evidence. An entry left unmodelled that has shapes and dtypes
// gets the operand-bytes lower bound (each recorded operand moved once) and the hbm_util it
// implies.
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/models/models.hpp"

namespace roofline::analyze::detail {

void operand_bytes_bound(const TopnEntry& e, const RegimeChoice& regime, const Classification& cls,
                         const ModelContext& ctx, WorkEstimate& work) {
  if (e.shapes.empty() || e.dtypes.empty()) return;
  // MoE and attention operands include the whole expert stack or paged KV pool, which a launch
  // reads only in part: their sum is no lower bound.
  if (cls.op_class == OpClass::moe || cls.op_class == OpClass::attn) return;
  double bytes = 0;
  std::size_t used = 0;
  for (std::size_t i = 0; i < e.shapes.size() && i < e.dtypes.size(); ++i) {
    if (e.shapes[i].empty()) continue;
    const auto dt = parse_dtype(e.dtypes[i]);
    if (!dt) continue;
    bytes += elements(e.shapes[i]) * dt->bytes;
    ++used;
  }
  if (used == 0 || !(bytes > 0) || !std::isfinite(bytes)) return;
  const Term bound = part(fmt::format("Σ of {} recorded operands, each moved once", used), bytes);
  work.bytes_lower_bound = bound.value;
  std::string util;
  const auto& peak = ctx.peaks ? ctx.peaks->hbm_bw_bytes_s : std::nullopt;
  if (regime.t_ms && *regime.t_ms > 0 && peak && *peak > 0) {
    // hbm_util ≥ bound / t / peak_bw
    Term u =
        term("hbm_util", "", bound.value / (*regime.t_ms / 1000.0) / *peak, TermUnit::fraction);
    u.relation = "≥";
    u.remark = fmt::format("{} / {:.6g} ms / {:.3g} B/s", shown(bound), *regime.t_ms, *peak);
    // Above the datasheet bandwidth (docs/method.md §9), not a measured ceiling: a rate between
    // the two is real.
    const double datasheet = feasibility_bw(*ctx.peaks).value_or(*peak);
    util = " → " + render(u) +
           (u.value * *peak > datasheet ? "; above the datasheet bandwidth, so some operand is "
                                          "evidently not read whole (a cache pool, an indexed "
                                          "table)"
                                        : "");
  }
  work.notes.push_back(
      fmt::format("operand-bytes lower bound (docs/method.md §8.16): {}{}; evidence, not a verdict "
                  "(headroom stays "
                  "unknown)",
                  render(bound), util));
}

}  // namespace roofline::analyze::detail
