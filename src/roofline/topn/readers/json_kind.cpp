// What a JSON document is, from its first bytes (json_kind.hpp): the reader routes a rocprofv3
// JSON to its parser, and a file that is not a trace at all (TraceLens's execution_details.json,
// a PyTorch memory timeline, one of roofline's own files, any other JSON) is named as what it is
// instead of being sent back to the profiler.
#include "roofline/topn/readers/json_kind.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "roofline/topn/bytes/json_stream.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {
namespace json_kind {  // named, not anonymous: unity batches share one translation unit

constexpr std::size_t k_max_keys = 32;

bool failed(JsonToken t) {
  return t == JsonToken::error || t == JsonToken::end;
}

// The keys of the object whose '{' was just read, up to its end or the end of the bytes.
void object_keys(JsonStream& js, std::vector<std::string>& keys) {
  for (;;) {
    const JsonToken t = js.next();
    if (t != JsonToken::key) return;
    if (keys.size() < k_max_keys) {
      keys.emplace_back();
      js.append_text(keys.back());
    }
    const JsonToken v = js.next();
    if ((v == JsonToken::begin_object || v == JsonToken::begin_array) &&
        failed(js.skip_container()))
      return;
    if (failed(v)) return;
  }
}

// A key as a message shows it: one line (control characters as '?'), at most 40 bytes.
std::string printable(std::string_view key) {
  constexpr std::size_t k_max = 40;
  std::string out;
  for (std::size_t i = 0; i < key.size() && i < k_max; ++i) {
    const auto c = static_cast<unsigned char>(key[i]);
    out += c < 0x20 || c == 0x7f ? '?' : key[i];
  }
  if (key.size() > k_max) {
    while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
    if (!out.empty() && static_cast<unsigned char>(out.back()) >= 0xC0) out.pop_back();
    out += "…";
  }
  return out;
}

std::string quoted_list(const std::vector<std::string>& keys, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < keys.size() && i < n; ++i)
    out += fmt::format("{}\"{}\"", i ? ", " : "", printable(keys[i]));
  if (keys.size() > n) out += ", …";
  return out;
}

bool any_key(const JsonHead& h, std::initializer_list<std::string_view> keys) {
  return std::any_of(keys.begin(), keys.end(), [&](std::string_view k) { return h.has_key(k); });
}

}  // namespace json_kind

bool JsonHead::has_key(std::string_view k) const {
  return std::find(keys.begin(), keys.end(), k) != keys.end();
}

bool JsonHead::first_has_key(std::string_view k) const {
  return std::find(first_keys.begin(), first_keys.end(), k) != first_keys.end();
}

JsonHead read_json_head(std::string_view head) {
  JsonHead out;
  std::size_t pos = 0;
  JsonStream js([&](char* buf, std::size_t cap) {
    const std::size_t n = std::min(cap, head.size() - pos);
    std::copy_n(head.data() + pos, n, buf);
    pos += n;
    return n;
  });
  JsonToken t = js.next();
  if (t == JsonToken::begin_object) {
    out.top = '{';
    json_kind::object_keys(js, out.keys);
  } else if (t == JsonToken::begin_array) {
    out.top = '[';
    t = js.next();
    if (t == JsonToken::begin_object) {
      out.first = '{';
      json_kind::object_keys(js, out.first_keys);
    } else if (t == JsonToken::begin_array) {
      out.first = '[';
      out.first_holds_numbers = js.next() == JsonToken::number;
    } else if (t == JsonToken::string) {
      out.first = '"';
    } else if (t == JsonToken::number) {
      out.first = '0';
    } else if (t == JsonToken::boolean || t == JsonToken::null) {
      out.first = 'l';
    }
  }
  return out;
}

bool is_rocprof_json(const JsonHead& head) {
  return head.top == '{' && head.has_key("rocprofiler-sdk-tool");
}

bool looks_like_chrome_trace(const JsonHead& head) {
  if (head.top == '{') return head.has_key("traceEvents");
  return head.top == '[' &&
         (head.first == 0 ||
          (head.first == '{' &&
           (head.first_has_key("ph") || head.first_has_key("cat") || head.first_has_key("ts"))));
}

std::string describe_non_trace(const JsonHead& h) {
  constexpr std::string_view give = "give topn the profiler's trace itself";
  if (h.top == '[' && h.first == '{' && h.first_has_key("file") &&
      (h.first_has_key("batch_size") || h.first_has_key("mode")))
    return fmt::format(
        "not a trace: an execution_details.json (TraceLens's list of graph-capture trace files "
        "by batch size and mode, written beside the capture traces); {}",
        give);
  if (h.top == '[' && h.first == '[' && h.first_holds_numbers)
    return "not a trace: a PyTorch memory timeline ([times, sizes], as "
           "profile.export_memory_timeline writes it): it holds memory use, no kernel; export the "
           "trace instead (export_chrome_trace, or the engine's --profile output)";
  if (h.top == '{') {
    using json_kind::any_key;
    if (any_key(h, {"segments", "device_traces"}))
      return fmt::format(
          "not a trace: a PyTorch CUDA memory snapshot (segments, device_traces): it holds "
          "allocations, no kernel; {}",
          give);
    if (h.has_key("top_kernels"))
      return "not a trace: a Top-N (profile_topN.json, what topn writes): give it to roofline "
             "analyze --topn";
    if (h.has_key("schema") && h.has_key("kernels"))
      return "not a trace: a profile_workload.json (what topn writes beside the Top-N): give "
             "topn the trace it came from, or roofline analyze the Top-N";
    if (any_key(h, {"ranking_by_pct", "skill_version"}))
      return "not a trace: a profile_roofline.json (what roofline analyze writes)";
    if (any_key(h, {"architectures", "model_type", "text_config"}))
      return "not a trace: a model config.json (give it to analyze --config)";
    if (any_key(h, {"gfx", "device_target", "physical_cu_count"}))
      return "not a trace: an env_report.json (give it to analyze --env)";
    return fmt::format(
        "not a trace: a JSON object with the keys {} and no traceEvents (neither a PyTorch "
        "profiler trace nor a rocprofv3 JSON); {}",
        json_kind::quoted_list(h.keys, 6), give);
  }
  if (h.top == '[') {
    const std::string what = h.first == '{'   ? fmt::format("objects with the keys {}",
                                                            json_kind::quoted_list(h.first_keys, 6))
                             : h.first == '[' ? std::string("lists")
                             : h.first == '"' ? std::string("strings")
                             : h.first == '0' ? std::string("numbers")
                                              : std::string("values");
    return fmt::format("not a trace: a JSON list of {}, not of profiler events; {}", what, give);
  }
  return "not a trace";
}

}  // namespace roofline::topn::detail
