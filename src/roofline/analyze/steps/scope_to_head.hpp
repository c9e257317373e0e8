#pragma once
// Pass scope_to_head (docs/method.md §4): the Top-N entries worth a verdict, named once.
#include <cstddef>
#include <string>
#include <vector>

#include "roofline/analyze/findings.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

struct HeadEntry;

// The defaults of the analyze options, defined once (docs/method.md §2.1).
inline constexpr double k_default_head_threshold_pct = 5.0;
inline constexpr std::size_t k_default_max_entries = 8;

// Which share of GPU time scopes the head (docs/method.md §4): the capture's `pct_gpu_time`, or the
// profiler's `serving_weighted_pct` (the capture re-weighted to the deployed decode/prefill mix).
enum class HeadKey { gpu_time, serving_weighted };
struct ScopeOptions {
  double head_threshold_pct = k_default_head_threshold_pct;
  std::size_t max_entries = k_default_max_entries;
  HeadKey key = HeadKey::gpu_time;
};
// The share of GPU time `key` gives an entry: serving_weighted_pct when asked for and present,
// else pct_gpu_time.
double head_key_pct(const TopnEntry& entry, HeadKey key);

struct Head {
  std::vector<HeadEntry> entries;  // biggest key pct first: identity, share and ranking name set
  std::size_t skipped_count = 0;
  Findings findings;  // the head key, and the entries it had to fall back on
};
// Keeps entries whose key pct >= threshold, biggest first (ties: the profiler's rank, then file
// order), at most max_entries. Each entry is named once here: its kernel name, suffixed with the
// profiler's rank (else its 1-based Top-N position) when the name repeats in the head, and ".k"
// when the ranks repeat too.
Head scope_to_head(const TopnDocument& topn, const ScopeOptions& options);

}  // namespace roofline::analyze
