#pragma once
// The joins of a Chrome trace's records into a TraceProfile (docs/method.md §22.7, §22.8), and the
// sum of several profiles.

#include <vector>

#include "roofline/topn/layer.hpp"
#include "roofline/topn/profile/graph_capture.hpp"
#include "roofline/topn/profile/trace_profile.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn {

// Sums several profiles (e.g. one trace per rank) by kernel name; sources are joined with '+'.
TraceProfile merge_profiles(std::vector<TraceProfile> profiles);

namespace detail {

// Joins GPU events to their launching ops and steps — graph replays to the launches of
// `captures` (nullptr: none given) — and sums them per kernel name.
TraceProfile aggregate_chrome_events(ChromeEvents& events, const CaptureSet* captures = nullptr);

}  // namespace detail
}  // namespace roofline::topn
