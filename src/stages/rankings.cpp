// Step 12, rank_entries (docs/method.md §15, §16.1): both rankings, side by side, never blended.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "roofline/stages.hpp"

namespace roofline {

namespace {

// Each entry's name, made unique: duplicated names get the profiler's rank (else the Top-N
// position) as a suffix, and a profile that repeats ranks too gets a further ".k".
std::vector<std::string> unique_names(const std::vector<EntryResult>& entries) {
  std::map<std::string, int> name_count;
  for (const auto& e : entries) ++name_count[e.name];
  std::set<std::string> used;
  for (const auto& e : entries)
    if (name_count[e.name] == 1) used.insert(e.name);
  std::vector<std::string> names;
  for (const auto& e : entries) {
    names.push_back(e.name);
    if (name_count[e.name] == 1) continue;
    const long rank = e.rank ? *e.rank : static_cast<long>(e.topn_index) + 1;
    std::string candidate = fmt::format("{}#{}", e.name, rank);
    for (int k = 2; used.count(candidate); ++k)
      candidate = fmt::format("{}#{}.{}", e.name, rank, k);
    used.insert(candidate);
    names.back() = candidate;
  }
  return names;
}

}  // namespace

Rankings rank_entries(const std::vector<EntryResult>& entries, const ResolvedPeaks& peaks) {
  Rankings r;
  r.names = unique_names(entries);
  std::vector<std::size_t> order(entries.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto by_pct = [&](std::size_t a, std::size_t b) {
    if (entries[a].key_pct != entries[b].key_pct) return entries[a].key_pct > entries[b].key_pct;
    return r.names[a] < r.names[b];
  };
  std::stable_sort(order.begin(), order.end(), by_pct);
  for (std::size_t i : order) r.by_pct.push_back(r.names[i]);

  if (peaks.hard_unknown || peaks.source == PeaksSource::none) {
    r.notes.push_back(
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
  for (std::size_t i : order) r.by_expected_gain.push_back(r.names[i]);
  return r;
}

}  // namespace roofline
