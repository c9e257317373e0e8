// Pass count_step_rows (docs/method.md §22.4): the step's rows from the kernels beside the head's
// matrix kernels.
#include "roofline/analyze/steps/count_step_rows.hpp"

#include <algorithm>
#include <map>
#include <vector>

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

namespace {

// One neighbour's count: the rows it allows, the launches that stood beside it, and what it is.
struct Count {
  NeighbourRows rows;
  double launches = 0;
  std::string why;
};

// The counts that agree with the one most launches stand beside: their ranges meet it.
std::vector<Count> agreeing(std::vector<Count> counts, double& launches, double& total) {
  std::stable_sort(counts.begin(), counts.end(),
                   [](const Count& a, const Count& b) { return a.launches > b.launches; });
  total = 0;
  for (const Count& c : counts) total += c.launches;
  std::vector<Count> out;
  double lo = counts.front().rows.lo, hi = counts.front().rows.hi;
  launches = 0;
  for (const Count& c : counts) {
    if (std::max(lo, c.rows.lo) > std::min(hi, c.rows.hi)) continue;
    lo = std::max(lo, c.rows.lo), hi = std::min(hi, c.rows.hi);
    launches += c.launches;
    out.push_back(c);
  }
  return out;
}

// The rows every count allows (docs/method.md §22.4): one value where they meet in one — a norm of
// one row a block is exact, one of four rows a block allows four — else none, `why` saying so. A
// few launches beside other rows (at most a tenth: a step the profile cut short) do not stop the
// others, and are named.
std::optional<double> agreed_rows(const std::vector<Count>& all, Regime regime, std::string& why) {
  double agree = 0, total = 0;
  const std::vector<Count> counts = agreeing(all, agree, total);
  const bool enough = agree >= 0.9 * total;
  const std::string others =
      counts.size() < all.size()
          ? fmt::format("; {} of {} launches stand beside other rows (another step)",
                        format_g(total - agree), format_g(total))
          : "";
  double lo = counts.front().rows.lo, hi = counts.front().rows.hi;
  for (const Count& c : counts) lo = std::max(lo, c.rows.lo), hi = std::min(hi, c.rows.hi);
  if (!enough) lo = 1, hi = 0;  // no majority: listed below as counting different rows
  const Count* exact = nullptr;
  for (const Count& c : counts)
    if (c.rows.lo == c.rows.hi && (!exact || c.launches > exact->launches)) exact = &c;
  if (lo == hi) {
    const Count& said = exact ? *exact : counts.front();
    why = fmt::format(
        "{} rows counted by the kernels beside the {} step's matrix kernels ({}{}{})", format_g(lo),
        to_string(regime), said.why,
        counts.size() > 1 ? fmt::format("; {} such neighbours agree", counts.size()) : "", others);
    return lo;
  }
  std::string list;
  for (const Count& c : all)
    list += fmt::format("{}{} ({} launches)", list.empty() ? "" : ", ",
                        c.rows.lo == c.rows.hi ? format_g(c.rows.lo)
                                               : format_g(c.rows.lo) + "–" + format_g(c.rows.hi),
                        format_g(c.launches));
  why = lo > hi ? fmt::format(
                      "the kernels beside the {} step's matrix kernels count different "
                      "rows ({}): none taken",
                      to_string(regime), list)
                : fmt::format(
                      "the kernels beside the {} step's matrix kernels leave {} to {} rows "
                      "({}): none taken",
                      to_string(regime), format_g(lo), format_g(hi), list);
  return std::nullopt;
}

}  // namespace

StepRows count_step_rows(const std::vector<HeadEntry>& head, Findings& found) {
  StepRows out;
  std::map<Regime, std::vector<Count>> seen;
  for (const HeadEntry& e : head) {
    const OpClass cls = e.classified.op_class;
    if ((cls != OpClass::gemm && cls != OpClass::moe) || !e.evidence.workload) continue;
    for (const ProbeCase& c : e.evidence.workload->cases) {
      const std::optional<Regime> r = case_regime(c);
      if (!r || !c.signature) continue;
      const CaseNeighbour* before = c.signature->before ? &*c.signature->before : nullptr;
      const CaseNeighbour* after = c.signature->after ? &*c.signature->after : nullptr;
      std::string why;
      const std::optional<NeighbourRows> rows = neighbour_rows(before, after, why);
      if (!rows) continue;
      std::vector<Count>& counts = seen[*r];
      const auto same = std::find_if(counts.begin(), counts.end(), [&](const Count& k) {
        return k.rows.lo == rows->lo && k.rows.hi == rows->hi;
      });
      if (same != counts.end()) {
        same->launches += c.count;
        continue;
      }
      counts.push_back(
          {*rows, c.count,
           fmt::format("{} beside '{}'", why, e.short_name.empty() ? e.name : e.short_name)});
    }
  }
  for (const auto& [regime, counts] : seen) {
    std::string why;
    out.rows.at(regime) = agreed_rows(counts, regime, why);
    out.why.at(regime) = why;
    found.notes.push_back("step rows: " + why);
  }
  return out;
}

}  // namespace roofline::analyze
