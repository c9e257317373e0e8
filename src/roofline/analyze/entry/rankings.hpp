#pragma once
// The orders of the head rank_entries leaves (docs/method.md §15), never blended.
#include <cstddef>
#include <vector>

#include "roofline/analyze/entry/findings.hpp"
#include "roofline/analyze/layer.hpp"

namespace roofline::analyze {

struct Rankings {
  std::vector<std::size_t> by_pct;            // indices into the entries: most GPU time first
  std::vector<std::size_t> by_expected_gain;  // verdicts by gain, then no-verdict entries by pct
  std::vector<std::size_t> by_sure_gain;      // verdicts by the gain band's low end, then by pct
  Findings findings;                          // why a ranking is empty
};

}  // namespace roofline::analyze
