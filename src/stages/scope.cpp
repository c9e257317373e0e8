// Step 1, scope_to_head (docs/method.md §4): keep the head of the profile.
#include <algorithm>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "roofline/stages.hpp"

namespace roofline {

double head_key_pct(const TopNEntry& e, HeadKey key) {
  return key == HeadKey::serving_weighted && e.serving_weighted_pct ? *e.serving_weighted_pct
                                                                    : e.pct_gpu_time;
}

Scope scope_to_head(const TopN& topn, const ScopeOptions& options) {
  std::vector<std::size_t> order(topn.entries.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto rank_of = [&](std::size_t i) {
    return topn.entries[i].rank.value_or(std::numeric_limits<long>::max());
  };
  // Biggest first; ties keep the profiler's rank, then file order (deterministic).
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto& ea = topn.entries[a];
    const auto& eb = topn.entries[b];
    const double ka = head_key_pct(ea, options.key), kb = head_key_pct(eb, options.key);
    if (ka != kb) return ka > kb;
    return rank_of(a) < rank_of(b);
  });
  Scope scope;
  const bool serving = options.key == HeadKey::serving_weighted;
  std::size_t without = 0;
  for (std::size_t i : order) {
    const TopNEntry& e = topn.entries[i];
    if (serving && !e.serving_weighted_pct) ++without;
    if (head_key_pct(e, options.key) >= options.head_threshold_pct &&
        scope.selected.size() < options.max_entries) {
      scope.selected.push_back(i);
      scope.key_pct.push_back(head_key_pct(e, options.key));
      scope.key_fell_back.push_back(serving && !e.serving_weighted_pct);
    }
  }
  scope.skipped_count = topn.entries.size() - scope.selected.size();
  if (serving && without == topn.entries.size())
    scope.notes.push_back(
        "head key serving_weighted (--head-key): no Top-N entry carries serving_weighted_pct, so "
        "the head, the expected gains and ranking_by_pct use pct_gpu_time");
  else if (serving)
    scope.notes.push_back(fmt::format(
        "head key serving_weighted (--head-key): the head, the expected gains and ranking_by_pct "
        "use serving_weighted_pct{}",
        without == 0 ? std::string()
                     : fmt::format("; {} of {} Top-N entries carry none and use pct_gpu_time",
                                   without, topn.entries.size())));
  return scope;
}

}  // namespace roofline
