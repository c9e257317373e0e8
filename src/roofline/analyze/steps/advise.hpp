#pragma once
// Pass advise (docs/method.md §14): the route and the byte-reduction levers of one entry.
#include <string>
#include <vector>

#include "roofline/analyze/layer.hpp"
#include "roofline/analyze/steps/resolve_peaks.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

struct HeadEntry;

struct Advice {
  std::string route;
  std::vector<std::string> levers;
};
// Route (docs/method.md §10.4 table + shippability gate) and concrete byte-reduction levers
// (saturated only), from the entry's class, work, verdict and grade (steps 7-10; HeadEntry:
// roofline/analyze/head_entry.hpp).
Advice advise(const HeadEntry& entry, const TopnDocument& topn, const ResolvedPeaks& peaks);

}  // namespace roofline::analyze
