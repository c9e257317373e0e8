// Step 12, rank_entries (docs/method.md §15, §16.1): both rankings, side by side, never blended.
#include "roofline/analyze/steps/rank_entries.hpp"

#include <algorithm>
#include <numeric>

#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

Rankings rank_entries(const std::vector<HeadEntry>& entries, const ResolvedPeaks& peaks) {
  Rankings r;
  std::vector<std::size_t> order(entries.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto by_pct = [&](std::size_t a, std::size_t b) {
    if (entries[a].share.pct != entries[b].share.pct)
      return entries[a].share.pct > entries[b].share.pct;
    return entries[a].ranking_name < entries[b].ranking_name;
  };
  std::stable_sort(order.begin(), order.end(), by_pct);
  r.by_pct = order;

  if (peaks.hard_unknown || peaks.source == PeaksSource::none) {
    r.findings.notes.push_back(
        "ranking_by_expected_gain is empty: no hardware denominator for this part, so no "
        "roofline ranking; use ranking_by_pct (pct_gpu_time order)");
    return r;
  }
  auto has_verdict = [&](std::size_t i) {
    return entries[i].verdict.headroom != Headroom::unknown;
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (has_verdict(a) != has_verdict(b)) return has_verdict(a);
    if (has_verdict(a)) {
      const double ga = entries[a].verdict.expected_e2e_gain_pct,
                   gb = entries[b].verdict.expected_e2e_gain_pct;
      if (ga != gb) return ga > gb;
    }
    return by_pct(a, b);
  });
  r.by_expected_gain = order;
  // docs/method.md §10.8: the same order by the low end of each verdict's gain band.
  auto sure = [&](std::size_t i) { return sure_gain_pct(entries[i].verdict); };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (has_verdict(a) != has_verdict(b)) return has_verdict(a);
    if (has_verdict(a) && sure(a) != sure(b)) return sure(a) > sure(b);
    return by_pct(a, b);
  });
  r.by_sure_gain = order;
  return r;
}

}  // namespace roofline::analyze
