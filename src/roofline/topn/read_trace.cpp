// One trace file -> TraceProfile: opens it, inflates gzip, tells a Chrome trace (JSON) from a
// kernel CSV by the first bytes, and turns every failure into one line naming the file.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "roofline/topn/bytes/byte_source.hpp"
#include "roofline/topn/joins/capture_join.hpp"
#include "roofline/topn/layer.hpp"
#include "roofline/topn/readers/chrome_events.hpp"
#include "roofline/topn/readers/chrome_split.hpp"
#include "roofline/topn/readers/csv_traces.hpp"
#include "roofline/topn/readers/json_kind.hpp"
#include "roofline/topn/readers/rocprof_json.hpp"
#include "roofline/topn/topn.hpp"

namespace roofline::topn {
namespace {

constexpr std::string_view k_bom = "\xEF\xBB\xBF";
// parse_chrome_trace's message for a JSON document without traceEvents: said better by its kind.
constexpr std::string_view k_no_trace_events = "not a Chrome trace: no traceEvents array";
// read_json_document's answer when launches resolved as read met an order that breaks what the
// resolving counted on (launch_reads.cpp): the stream is read again holding everything.
constexpr std::string_view k_read_again = "(read again)";

void chrome_notes(const TraceProfile& p, TraceRead& out) {
  double cases = 0.0, calls = 0.0;
  for (const TraceKernel& k : p.kernels) {
    calls += k.calls;
    for (const TraceCase& c : k.cases)
      if (!c.dims.empty()) cases += c.count;  // signatures by grid and block alone have none
  }
  if (cases == 0.0)
    out.notes.push_back(
        "no operand shapes: the trace was recorded without record_shapes=True (or its CPU ops "
        "are missing); shapes and dtypes stay empty");
  else if (cases < calls)
    out.notes.push_back(
        fmt::format("{:.0f} of {:.0f} GPU launches have no operand shapes (no launching op with "
                    "Input Dims, or only 0-d operands)",
                    calls - cases, calls));
  if (p.device) {
    const TraceDevice& d = *p.device;
    out.notes.push_back(fmt::format(
        "device from the trace's deviceProperties: {} ({}{}{})",
        d.name.empty() ? "no name" : d.name,
        d.arch.empty() ? (d.vendor.empty() ? "no vendor" : d.vendor + ", no arch") : d.arch,
        d.cu_count ? fmt::format(", {:.0f} CUs", *d.cu_count) : "",
        d.memory_bytes ? fmt::format(", {:.0f} B", *d.memory_bytes) : ""));
    if (!d.note.empty()) out.notes.push_back("device: " + d.note);
  }
  if (p.steps.any())
    out.notes.push_back(fmt::format(
        "{:.0f} steps ({}): {:.0f} prefill, {:.0f} decode; launches attributed {}",
        p.steps.n_prefill + p.steps.n_decode, p.steps.source, p.steps.n_prefill, p.steps.n_decode,
        p.steps.source == "gpu_user_annotation" ? "by GPU time (no CPU step span holds a launch)"
        : p.steps.source == "python_function"
            ? "by the engine's forward frame holding their launch (no step annotation: the call "
              "stack gives each step's regime, not its tokens or requests)"
            : "by the CPU step span holding their launch"));
  if (p.steps.empty > 0)
    out.notes.push_back(
        fmt::format("{:.0f} step annotation(s) with zero tokens or no launch inside (e.g. vLLM's "
                    "execute_context_0(0)_generation_0(0)): not steps",
                    p.steps.empty));
  if (p.steps.unparsed > 0)
    out.notes.push_back(fmt::format(
        "{:.0f} annotation name(s) start like a step but do not parse, e.g. '{}': not counted as "
        "steps",
        p.steps.unparsed, p.steps.unparsed_example));
}

// A JSON document whose first bytes read as `json_head`: a rocprofv3 JSON or a Chrome trace, into
// `profile`. Returns "" or what is wrong (a file that is no trace: what it is instead).
std::string read_json_document(const ByteReader& rest, const detail::JsonHead& json_head,
                               const CaptureSet* captures, const detail::SplitSource* split,
                               bool resolve, TraceProfile& profile, TraceRead& out) {
  if (detail::is_rocprof_json(json_head))
    return detail::parse_rocprof_json(rest, profile, out.notes);
  detail::ChromeEvents events;
  events.resolve_as_read = resolve;
  std::string error = detail::parse_chrome_trace(rest, events, split);
  // Stopped where the order broke what resolving launches as read counts on: read it again (a
  // JSON error after that point, if any, is found then).
  if (events.order_broke) return std::string(k_read_again);
  if (!error.empty())
    return error == k_no_trace_events ? detail::describe_non_trace(json_head) : error;
  // A list whose first element is no event (execution_details.json, a memory timeline); an
  // object had traceEvents, or parse_chrome_trace said it had none.
  if (events.gpu.empty() && json_head.top == '[' && !detail::looks_like_chrome_trace(json_head))
    return detail::describe_non_trace(json_head);
  // A graph-capture trace given as the execution trace is said to be one.
  const auto capture_trace = detail::describe_capture_trace(events);
  if (events.gpu.empty() && capture_trace) return *capture_trace;
  if (capture_trace) out.warnings.push_back(*capture_trace);
  if (events.gpu.empty())
    return "no GPU activity in the trace (no kernel, gpu_memcpy or gpu_memset events): was the "
           "profiler run with the CUDA (ROCm) activity enabled?";
  profile = detail::aggregate_chrome_events(events, captures);
  if (events.order_broke) return std::string(k_read_again);
  return {};
}

// A trace of any format from a stream; `split`: the stream is that plain file (a Chrome trace in
// it may be read in parts by a parser per core, chrome_split.hpp). `again`: the stream can be read
// again from its start, so a Chrome trace's launches may be resolved as read; set when they must
// be read again holding everything (the result is then empty).
TraceRead read_stream(const ByteReader& read, const std::string& display,
                      const CaptureSet* captures, const detail::SplitSource* split,
                      bool* again = nullptr) {
  TraceRead out;
  detail::TraceText source(read);
  ByteReader body = [&source](char* buf, std::size_t cap) { return source.read(buf, cap); };
  detail::PeekedInput text(body);
  std::string_view head = text.peek(4096);
  std::size_t skip = head.substr(0, 3) == k_bom ? 3 : 0;
  if (skip) {
    char bom[3];
    text.read(bom, 3);
  }
  std::size_t first = skip;
  while (first < head.size() && std::strchr(" \t\r\n", head[first]) && head[first] != '\0') ++first;
  const auto fail = [&](const std::string& what) {
    out.profile.reset();
    out.error = fmt::format("{}: {}", display, source.failure(what));
    return out;
  };
  if (first >= head.size()) return fail(head.empty() ? "empty file" : "holds only whitespace");
  const ByteReader rest = [&text](char* buf, std::size_t cap) { return text.read(buf, cap); };

  TraceProfile profile;
  if (head[first] == '{' || head[first] == '[') {
    // What the document is, from its first bytes (read before the parser consumes them).
    const detail::JsonHead json_head = detail::read_json_head(head.substr(first));
    std::optional<detail::SplitSource> plain;
    if (split && !source.gzip()) {
      plain = *split;
      plain->origin = skip;
    }
    if (std::string error = read_json_document(rest, json_head, captures, plain ? &*plain : nullptr,
                                               again != nullptr, profile, out);
        !error.empty()) {
      if (again && error == k_read_again) {
        *again = true;
        return {};
      }
      return fail(error);
    }
    if (!source.error().empty()) return fail(source.error());
    if (!detail::is_rocprof_json(json_head)) {
      chrome_notes(profile, out);
      detail::graph_notes(profile.graph, out.notes);
    }
  } else {
    if (std::string error = detail::parse_kernel_csv(rest, profile, out.notes); !error.empty())
      return fail(error);
    if (!source.error().empty()) return fail(source.error());
  }
  out.profile = std::move(profile);
  return out;
}

}  // namespace

TraceRead read_trace_stream(const ByteReader& read, const std::string& display) {
  return read_trace_stream(read, display, nullptr);
}

TraceRead read_trace_stream(const ByteReader& read, const std::string& display,
                            const CaptureSet* captures) {
  return read_stream(read, display, captures, nullptr);
}

TraceRead read_trace_file(const std::filesystem::path& path, const std::string& display) {
  return read_trace_file(path, display, nullptr);
}

TraceRead read_trace_rereadable(const std::function<ByteReader()>& reopen,
                                const std::string& display, const CaptureSet* captures,
                                bool hold_everything) {
  bool again = false;
  if (!hold_everything) {
    TraceRead out = read_stream(reopen(), display, captures, nullptr, &again);
    if (!again) return out;
  }
  return read_stream(reopen(), display, captures, nullptr);
}

TraceRead read_trace_file(const std::filesystem::path& path, const std::string& display,
                          const CaptureSet* captures) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                       &std::fclose);
  if (!file) {
    TraceRead out;
    out.error = fmt::format("{}: cannot open: {}", display, std::strerror(errno));
    return out;
  }
  detail::FileReader reader(file.get());
  // A regular file may be read in parts by a parser per core (a large Chrome trace,
  // chrome_split.hpp).
  std::error_code ec;
  detail::SplitSource split;
  split.path = path;
  split.size =
      std::filesystem::is_regular_file(path, ec) ? std::filesystem::file_size(path, ec) : 0;
  const ByteReader read = [&reader](char* buf, std::size_t cap) { return reader.read(buf, cap); };
  const detail::SplitSource* parts = !ec && split.size > 0 ? &split : nullptr;
  // A regular file can be read again: its launches are resolved as read, and where the trace's
  // order breaks what that counts on, it is read once more holding everything (launch_reads.cpp).
  bool again = false;
  TraceRead out = read_stream(read, display, captures, parts, parts ? &again : nullptr);
  if (again && reader.error().empty()) {
    std::rewind(file.get());
    reader = detail::FileReader(file.get());
    out = read_stream(read, display, captures, parts);
  }
  if (!reader.error().empty()) {
    out.profile.reset();
    out.error = fmt::format("{}: {}", display, reader.error());
  }
  return out;
}

}  // namespace roofline::topn
