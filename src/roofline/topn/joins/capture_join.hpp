#pragma once
// Private to src/topn: graph replays joined to their capture windows (docs/method.md §22.7), and
// the helpers the capture reader shares with the execution-trace reader.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "roofline/topn/joins/event_lookup.hpp"
#include "roofline/topn/joins/step_index.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/profile/graph_capture.hpp"
#include "roofline/topn/readers/chrome_events.hpp"

namespace roofline::topn::detail {

// Appends the capture windows of one parsed capture trace to `into` (file index `file`;
// `detail` sizes windows no capture_<size>_… annotation names). Returns how many.
std::size_t add_capture_windows(ChromeEvents& ev, std::size_t file, const CaptureDetail* detail,
                                CaptureSet& into, std::vector<std::string>& notes);

inline constexpr std::uint32_t k_not_replay = 0xFFFFFFFFu;
inline constexpr std::uint32_t k_unpaired = 0xFFFFFFFEu;

// What the join found, 4 bytes per GPU event (and nothing when the trace has no replay).
struct ReplayJoin {
  // Per ev.gpu index: k_not_replay, k_unpaired, or its captured launch's index in `launches`.
  std::vector<std::uint32_t> origin;
  std::vector<const CapturedLaunch*> launches;  // every captured launch, window by window
  GraphReplayStats stats;
  bool replayed(std::size_t i) const { return !origin.empty() && origin[i] != k_not_replay; }
  const CapturedLaunch* paired(std::size_t i) const {
    return origin.empty() || origin[i] >= k_unpaired ? nullptr : launches[origin[i]];
  }
};

// Finds the graph replays of `ev` (GPU events whose correlation's runtime event is a
// *GraphLaunch) and pairs each replay's launches with a capture window of `captures` (nullptr:
// none given, every replay unpaired): candidates are the windows of the smallest captured size
// >= the replay's step size (all windows without a step), matched by kernel-name sequence
// (memcpy/memset skipped), by launch count where capture launches name no kernel, by the
// multiset of names for a multi-stream graph; equal windows are taken in capture order.
ReplayJoin join_replays(const ChromeEvents& ev, const EventLookup& lookup, const StepIndex& steps,
                        const CaptureSet* captures);

// The per-file notes on a trace's replays: how many, how many paired, why the others not.
void graph_notes(const GraphReplayStats& g, std::vector<std::string>& notes);

// When `ev` holds capture windows and no graph replay: what the trace is, in one line.
std::optional<std::string> describe_capture_trace(const ChromeEvents& ev);

}  // namespace roofline::topn::detail
