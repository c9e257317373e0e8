#pragma once
// Private to src/topn: the document-wide blocks of the TopnDocument build_topn makes, from what
// reading the trace gathered (docs/method.md §22.7). Pure.

#include "roofline/topn/profile/trace_profile.hpp"

namespace roofline::topn::detail {

// `serving`: the step counts, the decode batch (largest, most common, steady) and the measured
// figures, each part's sums where every step with the part wrote them.
TopnServing serving_of(const StepStats& steps);

// `device`: the trace's deviceProperties entry.
TopnDevice device_of(const TraceDevice& device);

// `graph_replay`: the replays and how many of their launches were joined to a capture.
TopnGraphReplay graph_of(const GraphReplayStats& graph);

}  // namespace roofline::topn::detail
