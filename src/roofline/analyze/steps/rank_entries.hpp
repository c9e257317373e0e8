#pragma once
// Pass rank_entries (docs/method.md §15): both orders of the head, never blended.
#include <vector>

#include "roofline/analyze/entry/rankings.hpp"
#include "roofline/analyze/entry/resolved_peaks.hpp"
#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

struct HeadEntry;

// The orders (key pct, expected gain, sure gain), never blended; ties by ranking name. The gain
// order is empty when the part has no hardware denominator.
Rankings rank_entries(const std::vector<HeadEntry>& entries, const ResolvedPeaks& peaks);

}  // namespace roofline::analyze
