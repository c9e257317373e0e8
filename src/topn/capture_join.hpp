#pragma once
// Private to src/topn: graph replays joined to their capture windows (SERVING §1), and the
// helpers the capture reader shares with the execution-trace reader.

#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "roofline/graph_capture.hpp"
#include "topn/chrome_events.hpp"
#include "topn/event_lookup.hpp"
#include "topn/step_index.hpp"

namespace roofline::detail {

// Streams a Chrome trace (gzip inflated, a UTF-8 BOM skipped) into `out`. Returns "" or a
// one-line description of what is wrong (a broken gzip stream wins over the JSON error it
// caused).
std::string parse_trace_events(const ByteReader& read, ChromeEvents& out);

// Appends the capture windows of one parsed capture trace to `into` (file index `file`;
// `detail` sizes windows no capture_<size>_… annotation names). Returns how many.
std::size_t add_capture_windows(ChromeEvents& ev, std::size_t file, const CaptureDetail* detail,
                                CaptureSet& into, std::vector<std::string>& notes);

struct ReplayJoin {
  std::unordered_map<std::size_t, const CapturedLaunch*> paired;  // ev.gpu index -> its launch
  std::unordered_map<std::size_t, bool> replayed;                 // ev.gpu indexes of replays
  GraphReplayStats stats;
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

}  // namespace roofline::detail
