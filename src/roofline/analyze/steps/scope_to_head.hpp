#pragma once
// Pass scope_to_head (docs/method.md §4): the Top-N entries worth a verdict, named once.
#include "roofline/analyze/entry/head.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

struct HeadEntry;

// The share of GPU time `key` gives an entry: serving_weighted_pct when asked for and present,
// else pct_gpu_time.
double head_key_pct(const TopnEntry& entry, HeadKey key);

// Keeps entries whose key pct >= threshold, biggest first (ties: the profiler's rank, then file
// order), at most max_entries. Each entry is named once here: its kernel name, suffixed with the
// profiler's rank (else its 1-based Top-N position) when the name repeats in the head, and ".k"
// when the ranks repeat too.
Head scope_to_head(const TopnDocument& topn, const ScopeOptions& options);

}  // namespace roofline::analyze
