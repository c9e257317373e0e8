#pragma once
// `roofline topn` (docs/method.md §18): the standardized Top-N built from raw profiler output.
//
// Three steps, kept apart so each can be tested alone:
//   read   — a trace file (PyTorch profiler Chrome trace, .json or .json.gz; rocprofv3
//            kernel_trace / kernel_stats CSV; Nsight Systems cuda_gpu_kern_sum CSV) streamed
//            into a TraceProfile: per kernel name, calls and GPU time, and per distinct call
//            case (operand dims, dtypes, regime) its count and time. Only I/O step.
//   build  — TraceProfile -> TopnBuild (the TopnDocument and its signatures): ranking,
//            rounding, short names, shapes/dtypes, classification and the kernel-family fields,
//            per-regime fields. Pure.
//   render — TopnBuild -> the text of profile_topN.json and profile_workload.json. Pure.
// This header is the layer's face: the rooms under it (docs/ARCHITECTURE.md) each declare their
// own part, and the drivers here (read_trace.cpp, capture_files.cpp) run them in order.

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/topn/build/build_topn.hpp"
#include "roofline/topn/build/write_topn.hpp"
#include "roofline/topn/bytes/byte_reader.hpp"
#include "roofline/topn/joins/capture_windows.hpp"
#include "roofline/topn/joins/trace_aggregate.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/names/names.hpp"
#include "roofline/topn/profile/graph_capture.hpp"
#include "roofline/topn/profile/trace_profile.hpp"

namespace roofline::topn {

// Reads a trace file of any supported format, recognised by its content (gzip by its magic
// bytes). Memory stays a small fraction of the file: nothing is held whole. Never throws.
TraceRead read_trace_file(const std::filesystem::path& path, const std::string& display);

// The same over a byte stream (gzip inflated when the stream starts with its magic bytes).
TraceRead read_trace_stream(const ByteReader& read, const std::string& display);

// The same over bytes that can be read again: `reopen` gives a reader from their first byte each
// time it is called. As for a file, a Chrome trace whose launches follow their ops and frames is
// read keeping little of its CPU side, and read again holding everything where its order breaks
// what that counts on; `hold_everything` reads it holding everything at once (the same result).
TraceRead read_trace_rereadable(const std::function<ByteReader()>& reopen,
                                const std::string& display, const CaptureSet* captures = nullptr,
                                bool hold_everything = false);

struct CaptureRead {
  CaptureSet set;
  std::vector<std::string> warnings;  // a broken or unusable file: its graphs are not joined
  std::vector<std::string> notes;
};

// Every `--capture` path: a file, or a folder searched (not recursively, by name) for *.json and
// *.json.gz, with its execution_details.json read when present (also beside a file). A broken
// file is a warning and the others are still read.
CaptureRead read_capture_traces(const std::vector<std::filesystem::path>& paths);

// The execution trace with its replays joined to `captures` (nullptr: none given).
TraceRead read_trace_file(const std::filesystem::path& path, const std::string& display,
                          const CaptureSet* captures);
TraceRead read_trace_stream(const ByteReader& read, const std::string& display,
                            const CaptureSet* captures);

}  // namespace roofline::topn
