#pragma once
// The "Measured inputs" section of profile_roofline.md: what stages B and C read, and the counter
// kernels no head entry claimed.

#include <string>

#include "roofline/analysis.hpp"

namespace roofline::detail {

// Empty when the run had neither --shapes nor --counters.
std::string render_measured_inputs_md(const Analysis& analysis);

}  // namespace roofline::detail
