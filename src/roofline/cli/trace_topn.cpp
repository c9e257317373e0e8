// topn_from_traces (trace_topn.hpp): capture traces, then traces, then one Top-N.
#include "roofline/cli/trace_topn.hpp"

#include <fmt/format.h>

#include "roofline/cli/common.hpp"
#include "roofline/inputs/kernel_classes.hpp"
#include "roofline/topn/profile/graph_capture.hpp"

namespace roofline::cli {

std::optional<TopnBuild> topn_from_traces(const std::vector<std::string>& traces,
                                          const std::vector<std::string>& captures,
                                          std::size_t top) {
  std::optional<CaptureRead> capture;
  if (!captures.empty()) {
    capture = read_capture_traces({captures.begin(), captures.end()});
    for (const auto& w : capture->warnings) err_line("warning: " + w);
    for (const auto& n : capture->notes) err_line("note: " + n);
  }
  std::vector<TraceProfile> profiles;
  bool failed = false;
  for (const auto& path : traces) {
    TraceRead read = read_trace_file(path, path, capture ? &capture->set : nullptr);
    for (const auto& n : read.notes) err_line(fmt::format("note: {}: {}", path, n));
    for (const auto& w : read.warnings) err_line(fmt::format("warning: {}: {}", path, w));
    if (!read.profile) {
      err_line("error: " + read.error);
      failed = true;
      continue;
    }
    profiles.push_back(std::move(*read.profile));
  }
  if (failed) return std::nullopt;
  TopnOptions options;
  options.top = top;
  TopnBuild build = build_topn(merge_profiles(std::move(profiles)), options,
                               builtin_kernel_classes_rules(), builtin_kernel_backends_rules());
  for (const auto& w : build.warnings) err_line("warning: " + w);
  return build;
}

}  // namespace roofline::cli
