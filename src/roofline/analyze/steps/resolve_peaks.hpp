#pragma once
// Pass resolve_peaks (docs/method.md §5): the denominators of every utilization.
#include <string>

#include "roofline/analyze/entry/resolved_peaks.hpp"
#include "roofline/analyze/layer.hpp"
#include "roofline/inputs/inputs.hpp"
#include "roofline/inputs/peaks.hpp"

namespace roofline::analyze {

// Matches the run's arch (gfx or sm_NN) and product against the table (product gating, RDNA4
// hard unknown, derived bandwidth from device properties as the L1 fallback). On an NVIDIA arch
// the product comes from `product_spelling` or, failing that, from `device_name` matched exactly
// against the sections' device_names (docs/method.md §5.2). `pinned`: `product_spelling` is the
// section's product key as --product resolved it ("" = the section without product), used as is.
ResolvedPeaks resolve_peaks(const PeaksTable& table, const std::string& gfx,
                            const std::string& product_spelling, const DeviceProps& props,
                            const std::string& device_name = {}, bool pinned = false);

}  // namespace roofline::analyze
