// Pass count_step_rows (docs/method.md §22.4): the step's rows from the kernels beside the head's
// matrix kernels.
#include "roofline/analyze/steps/count_step_rows.hpp"

#include <map>

#include <fmt/format.h>

#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/evidence/layer_place.hpp"
#include "roofline/base/units.hpp"

namespace roofline::analyze {
namespace {

// The regime a workload case's launches ran in, when they all ran in one.
std::optional<Regime> case_regime(const ProbeCase& c) {
  if (!c.signature) return c.regime;
  const double prefill = c.signature->prefill + c.signature->mixed, decode = c.signature->decode;
  if (prefill > 0 && !(decode > 0)) return Regime::prefill;
  if (decode > 0 && !(prefill > 0)) return Regime::decode;
  return std::nullopt;
}

}  // namespace

StepRows count_step_rows(const std::vector<HeadEntry>& head, Findings& found) {
  StepRows out;
  // Per regime: rows -> (launches that saw them, the first reason).
  std::map<Regime, std::map<double, std::pair<double, std::string>>> seen;
  for (const HeadEntry& e : head) {
    const OpClass cls = e.classified.op_class;
    if ((cls != OpClass::gemm && cls != OpClass::moe) || !e.evidence.workload) continue;
    for (const ProbeCase& c : e.evidence.workload->cases) {
      const std::optional<Regime> r = case_regime(c);
      if (!r || !c.signature) continue;
      const CaseNeighbour* before = c.signature->before ? &*c.signature->before : nullptr;
      const CaseNeighbour* after = c.signature->after ? &*c.signature->after : nullptr;
      std::string why;
      const std::optional<double> rows = neighbour_rows(before, after, why);
      if (!rows) continue;
      auto& slot = seen[*r][*rows];
      if (slot.second.empty())
        slot.second =
            fmt::format("{} beside '{}'", why, e.short_name.empty() ? e.name : e.short_name);
      slot.first += c.count;
    }
  }
  for (const auto& [regime, by_rows] : seen) {
    if (by_rows.size() == 1) {
      out.rows.at(regime) = by_rows.begin()->first;
      out.why.at(regime) = fmt::format(
          "{} rows counted by the kernel beside the {} step's matrix kernels ({})",
          format_g(by_rows.begin()->first), to_string(regime), by_rows.begin()->second.second);
      found.notes.push_back("step rows: " + *out.why.at(regime));
      continue;
    }
    std::string list;
    for (const auto& [rows, n] : by_rows)
      list += fmt::format("{}{} ({} launches)", list.empty() ? "" : ", ", format_g(rows),
                          format_g(n.first));
    out.why.at(regime) = fmt::format(
        "the kernels beside the {} step's matrix kernels count different rows ({}): none taken",
        to_string(regime), list);
    found.notes.push_back("step rows: " + *out.why.at(regime));
  }
  return out;
}

}  // namespace roofline::analyze
