#pragma once
// Graph-capture traces -> CaptureSet (docs/method.md §22.7): a capture trace's windows — the
// launches between *StreamBeginCapture and *StreamEndCapture on one thread, each with its kernel
// name and the op its External id leads to — sized by the capture_<size>_<mode> annotation around
// them, else by execution_details.json.

#include <string>
#include <string_view>
#include <vector>

#include "roofline/topn/bytes/byte_reader.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/profile/graph_capture.hpp"

namespace roofline::topn {

// Parses an execution_details.json text ([{"file", "batch_size", "mode"}, ...]); a problem is a
// one-line `error` and no entries.
CaptureDetails parse_capture_details(std::string_view text, std::string& error);

// Reads one capture trace from a stream into `into` (its windows appended; `details` gives the
// size of windows no capture_<size>_… annotation names). Returns "" or a one-line description
// of what is wrong; `notes` get facts (windows found, windows without size). Never throws.
std::string read_capture_stream(const ByteReader& read, const std::string& display,
                                const CaptureDetails& details, CaptureSet& into,
                                std::vector<std::string>& notes);

}  // namespace roofline::topn
