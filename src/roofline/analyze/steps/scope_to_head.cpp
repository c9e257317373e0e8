// Step 1, scope_to_head (docs/method.md §4): keep the head of the profile, and name its entries.
#include "roofline/analyze/steps/scope_to_head.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <set>

#include <fmt/format.h>

#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/kernel_backends.hpp"
#include "roofline/inputs/pattern.hpp"

namespace roofline::analyze {

double head_key_pct(const TopnEntry& e, HeadKey key) {
  return key == HeadKey::serving_weighted && e.serving_weighted_pct ? *e.serving_weighted_pct
                                                                    : e.pct_gpu_time;
}

namespace {

// Whether the kernel can be edited, and whose it is: the shipped family table's row for its name
// (the library that launches it, docs/method.md §14), else what the Top-N says.
void launching_library(const TopnEntry& e, HeadEntry& h) {
  const auto& rules = builtin_kernel_backends_rules();
  const BackendRule* row =
      longest_match(rules.data(), rules.data() + rules.size(),
                    {e.demangled.empty() ? e.name : e.demangled, e.short_name},
                    [](const BackendRule& r) { return r.editable.has_value(); });
  h.editable = row ? row->editable : e.editable;
  h.backend = row ? row->backend : e.backend_guess;
}

// A head entry as step 1 leaves it: the fields it copies verbatim from its Top-N record, and the
// share the head key gave it.
HeadEntry head_entry(const TopnEntry& e, std::size_t position, const HeadShare& share) {
  HeadEntry h;
  h.topn_position = position;
  h.topn_index = e.index;
  h.rank = e.rank;
  h.name = e.name;
  h.short_name = e.short_name;
  h.op = e.op;
  h.module = e.module;
  h.demangled = e.demangled;
  h.pct_gpu_time_raw = e.pct_gpu_time_raw;
  h.pct_gpu_time = e.pct_gpu_time;
  h.serving_weighted_pct = e.serving_weighted_pct;
  launching_library(e, h);
  h.share = share;
  return h;
}

// Each entry's ranking name, made unique: duplicated names get the profiler's rank (else the
// Top-N position) as a suffix, and a profile that repeats ranks too gets a further ".k".
void name_entries(std::vector<HeadEntry>& entries) {
  std::map<std::string, int> name_count;
  for (const auto& e : entries) ++name_count[e.name];
  std::set<std::string> used;
  for (const auto& e : entries)
    if (name_count[e.name] == 1) used.insert(e.name);
  for (auto& e : entries) {
    e.ranking_name = e.name;
    if (name_count[e.name] == 1) continue;
    const long rank = e.rank ? *e.rank : static_cast<long>(e.topn_index) + 1;
    std::string candidate = fmt::format("{}#{}", e.name, rank);
    for (int k = 2; used.count(candidate); ++k)
      candidate = fmt::format("{}#{}.{}", e.name, rank, k);
    used.insert(candidate);
    e.ranking_name = candidate;
  }
}

}  // namespace

Head scope_to_head(const TopnDocument& topn, const ScopeOptions& options) {
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
  Head head;
  const bool serving = options.key == HeadKey::serving_weighted;
  std::size_t without = 0;
  for (std::size_t i : order) {
    const TopnEntry& e = topn.entries[i];
    if (serving && !e.serving_weighted_pct) ++without;
    if (head_key_pct(e, options.key) >= options.head_threshold_pct &&
        head.entries.size() < options.max_entries)
      head.entries.push_back(head_entry(
          e, i,
          HeadShare{head_key_pct(e, options.key), serving && e.serving_weighted_pct.has_value(),
                    serving && !e.serving_weighted_pct}));
  }
  name_entries(head.entries);
  head.skipped_count = topn.entries.size() - head.entries.size();
  if (serving && without == topn.entries.size())
    head.findings.notes.push_back(
        "head key serving_weighted (--head-key): no Top-N entry carries serving_weighted_pct, so "
        "the head, the expected gains and ranking_by_pct use pct_gpu_time");
  else if (serving)
    head.findings.notes.push_back(fmt::format(
        "head key serving_weighted (--head-key): the head, the expected gains and ranking_by_pct "
        "use serving_weighted_pct{}",
        without == 0 ? std::string()
                     : fmt::format("; {} of {} Top-N entries carry none and use pct_gpu_time",
                                   without, topn.entries.size())));
  return head;
}

}  // namespace roofline::analyze
