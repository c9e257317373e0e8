#pragma once
// Pass rank_entries (docs/method.md §15): both orders of the head, never blended.
#include <cstddef>
#include <vector>

#include "roofline/analyze/findings.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/steps/resolve_peaks.hpp"

namespace roofline::analyze {

struct HeadEntry;
struct Verdict;
// docs/method.md §10.8: the low end of an entry's gain band (its point gain without a band).
double sure_gain_pct(const Verdict& v);

struct Rankings {
  std::vector<std::size_t> by_pct;            // indices into the entries: most GPU time first
  std::vector<std::size_t> by_expected_gain;  // verdicts by gain, then no-verdict entries by pct
  std::vector<std::size_t> by_sure_gain;      // verdicts by the gain band's low end, then by pct
  Findings findings;                          // why a ranking is empty
};
// The orders (key pct, expected gain, sure gain), never blended; ties by ranking name. The gain
// order is empty when the part has no hardware denominator.
Rankings rank_entries(const std::vector<HeadEntry>& entries, const ResolvedPeaks& peaks);

}  // namespace roofline::analyze
