#pragma once
// The head as scope_to_head leaves it (docs/method.md §4): the entries worth a verdict, and the
// options that scope it.
#include <cstddef>
#include <vector>

#include "roofline/analyze/entry/findings.hpp"
#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/classify/classify.hpp"

namespace roofline::analyze {

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

struct Head {
  std::vector<HeadEntry> entries;  // biggest key pct first: identity, share and ranking name set
  std::size_t skipped_count = 0;
  Findings findings;  // the head key, and the entries it had to fall back on
};

// A Top-N record's head entry (null when the record is not in the head) and its class
// (topn_class, steps/classify_head.hpp).
struct TopNClass {
  HeadEntry* head = nullptr;
  Classification cls;
};

}  // namespace roofline::analyze
