#pragma once
// What a file named on the command line is, from its first bytes (gzip inflated): so that a trace
// given where a Top-N or a config is expected — or a config where a trace is — is a usage error
// naming what the file is, before anything is read or written (docs/method.md §2.1).

#include <filesystem>
#include <string>

namespace roofline::topn {

enum class InputKind {
  unreadable,         // cannot be opened, or empty
  profiler_trace,     // a PyTorch profiler Chrome trace (JSON, maybe gzip)
  rocprof_json,       // rocprofv3 --output-format json
  kernel_csv,         // any other CSV: a rocprofv3 kernel trace / stats, Nsight Systems kern_sum
  counters_csv,       // rocprofv3 counter collection, rocprof v1 results.csv, ncu --csv
  topn,               // profile_topN.json
  workload,           // profile_workload.json
  roofline_artifact,  // profile_roofline.json
  model_config,       // HuggingFace config.json
  env_report,         // env_report.json
  capture_details,    // TraceLens's execution_details.json
  other_json,         // JSON of another kind
  other,              // anything else (Markdown, YAML, binary, …)
};

struct InputKindInfo {
  InputKind kind = InputKind::other;
  std::string what;  // "a PyTorch profiler trace (gzip)", "a model config.json", …
};

// Reads at most the first 256 KiB (after inflating gzip); never throws.
InputKindInfo sniff_input_kind(const std::filesystem::path& path);

// True for the kinds `roofline topn` (and `analyze TRACE`) read as a trace.
bool is_trace_kind(InputKind kind);

}  // namespace roofline::topn
