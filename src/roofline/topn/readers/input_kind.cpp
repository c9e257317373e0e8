// sniff_input_kind (input_kind.hpp): the first bytes of a file, inflated when gzip, read as the
// trace reader reads them (json_kind.hpp) — one opinion on what a file is, for every subcommand.
#include "roofline/topn/readers/input_kind.hpp"

#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>

#include "roofline/topn/bytes/byte_source.hpp"
#include "roofline/topn/readers/json_kind.hpp"

namespace roofline::topn {
namespace input_kind_impl {  // named, not anonymous: unity batches share one translation unit

constexpr std::size_t k_head_bytes = std::size_t{256} << 10;

// The first bytes of the file, inflated when it is gzip; `gz` says whether it was.
std::string read_head(const std::filesystem::path& path, bool& gz, bool& opened) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                       &std::fclose);
  opened = file != nullptr;
  if (!file) return {};
  detail::FileReader reader(file.get());
  detail::PeekedInput raw([&reader](char* buf, std::size_t cap) { return reader.read(buf, cap); });
  gz = detail::is_gzip(raw.peek(2));
  std::unique_ptr<detail::GzipInflater> inflate;
  ByteReader body = [&raw](char* buf, std::size_t cap) { return raw.read(buf, cap); };
  if (gz) {
    inflate = std::make_unique<detail::GzipInflater>(body);
    body = [&inflate](char* buf, std::size_t cap) { return inflate->read(buf, cap); };
  }
  std::string head(k_head_bytes, '\0');
  std::size_t n = 0;
  while (n < head.size()) {
    const std::size_t got = body(head.data() + n, head.size() - n);
    if (got == 0) break;
    n += got;
  }
  head.resize(n);
  return head;
}

InputKindInfo json_kind_of(const detail::JsonHead& h) {
  const auto has = [&h](std::initializer_list<std::string_view> keys) {
    for (auto k : keys)
      if (h.has_key(k)) return true;
    return false;
  };
  if (detail::is_rocprof_json(h)) return {InputKind::rocprof_json, "a rocprofv3 JSON trace"};
  if (h.top == '{') {
    if (has({"traceEvents"})) return {InputKind::profiler_trace, "a PyTorch profiler trace"};
    if (has({"top_kernels"})) return {InputKind::topn, "a Top-N (profile_topN.json)"};
    if (has({"ranking_by_pct", "skill_version"}))
      return {InputKind::roofline_artifact, "a profile_roofline.json (what analyze writes)"};
    if (h.has_key("schema") && h.has_key("kernels"))
      return {InputKind::workload, "a profile_workload.json"};
    if (has({"architectures", "model_type", "text_config", "num_hidden_layers", "hidden_size"}))
      return {InputKind::model_config, "a model config.json"};
    if (has({"gfx", "device_target", "physical_cu_count", "gpu_arch", "compute_capability"}))
      return {InputKind::env_report, "an env_report.json"};
    return {InputKind::other_json, "a JSON document of another kind"};
  }
  if (detail::looks_like_chrome_trace(h))
    return {InputKind::profiler_trace, "a PyTorch profiler trace"};
  if (h.first == '{' && h.first_has_key("file") &&
      (h.first_has_key("batch_size") || h.first_has_key("mode")))
    return {InputKind::capture_details,
            "an execution_details.json (TraceLens's list of graph-capture traces)"};
  return {InputKind::other_json, "a JSON list of another kind"};
}

// A CSV's first lines: counter collections name their counters, kernel traces do not.
InputKindInfo csv_kind_of(std::string_view head) {
  const std::string_view first = head.substr(0, std::min<std::size_t>(head.size(), 16384));
  for (std::string_view mark : {"Counter_Name", "FETCH_SIZE", "\"Metric Name\"",
                                "gpu__time_duration", "dram__bytes", "SQ_INSTS"})
    if (first.find(mark) != std::string_view::npos)
      return {InputKind::counters_csv, "a counter CSV (stage C input: give it to --counters)"};
  return {InputKind::kernel_csv, "a kernel CSV"};
}

}  // namespace input_kind_impl

bool is_trace_kind(InputKind kind) {
  return kind == InputKind::profiler_trace || kind == InputKind::rocprof_json ||
         kind == InputKind::kernel_csv;
}

InputKindInfo sniff_input_kind(const std::filesystem::path& path) {
  bool gz = false, opened = false;
  const std::string head = input_kind_impl::read_head(path, gz, opened);
  if (!opened) return {InputKind::unreadable, "a file that cannot be opened"};
  std::size_t first = head.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  while (first < head.size() && std::strchr(" \t\r\n", head[first]) && head[first] != '\0') ++first;
  if (first >= head.size()) return {InputKind::unreadable, "an empty file"};
  InputKindInfo info;
  const char c = head[first];
  if (c == '{' || c == '[') {
    info =
        input_kind_impl::json_kind_of(detail::read_json_head(std::string_view(head).substr(first)));
  } else if (head.find(',') < head.find('\n') || head.find("==PROF==") != std::string::npos) {
    info = input_kind_impl::csv_kind_of(head);
  } else {
    return {InputKind::other, gz ? "a gzip file of another kind" : "a file of another kind"};
  }
  if (gz) info.what += " (gzip)";
  return info;
}

}  // namespace roofline::topn
