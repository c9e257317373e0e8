#pragma once
// The measured parts of profile_roofline.md: the "Measured inputs" section (what stages B and C
// read, and the counter kernels no head entry claimed) and each stage-C entry's measured-vs-model
// line.

#include <string>

#include "roofline/analyze/analysis.hpp"

namespace roofline::detail {

// Empty when the run had neither --shapes nor --counters.
std::string render_measured_inputs_md(const Analysis& analysis);

// A ratio is "far from 1" beyond ±25 %: the report says it in words.
inline constexpr double k_far_from_model = 0.25;

// The entry-detail line of a stage-C entry (docs/method.md §11.4): measured/model for bytes and
// FLOPs, each ratio far from 1 stated in words (which way, how far, the two figures); empty before
// stage C.
std::string measured_vs_model_md(const HeadEntry& entry);

}  // namespace roofline::detail
