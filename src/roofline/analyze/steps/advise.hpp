#pragma once
// Pass advise (docs/method.md §14): the route and the byte-reduction levers of one entry.
#include "roofline/analyze/entry/advice.hpp"
#include "roofline/analyze/entry/resolved_peaks.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/inputs.hpp"

namespace roofline::analyze {

struct HeadEntry;

// Route (docs/method.md §10.4 table + shippability gate) and concrete byte-reduction levers
// (saturated only), from the entry's class, work, verdict and grade (steps 7-10; HeadEntry:
// roofline/analyze/entry/head_entry.hpp).
Advice advise(const HeadEntry& entry, const TopnDocument& topn, const ResolvedPeaks& peaks);

}  // namespace roofline::analyze
