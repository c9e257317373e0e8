// Step 1, scope_to_head (SPEC §3): keep the head of the profile.
#include <algorithm>
#include <limits>
#include <numeric>

#include "roofline/stages.hpp"

namespace roofline {

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
    if (ea.pct_gpu_time != eb.pct_gpu_time) return ea.pct_gpu_time > eb.pct_gpu_time;
    return rank_of(a) < rank_of(b);
  });
  Scope scope;
  for (std::size_t i : order) {
    if (topn.entries[i].pct_gpu_time >= options.head_threshold_pct &&
        scope.selected.size() < options.max_entries)
      scope.selected.push_back(i);
  }
  scope.skipped_count = topn.entries.size() - scope.selected.size();
  return scope;
}

}  // namespace roofline
