#pragma once
// Private to src/topn: what the first bytes of a JSON document say it is — a Chrome trace, a
// rocprofv3 JSON, or something that is not a trace at all (and then which).

#include <string>
#include <string_view>
#include <vector>
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail {

// What the first bytes of a JSON document show (read up to where they end).
struct JsonHead {
  char top = 0;                         // '{' or '['; 0 when the bytes are not JSON
  std::vector<std::string> keys;        // top-level keys (an object), in order, at most 32
  char first = 0;                       // an array's first element: '{', '[', '"', '0', 'l'
  std::vector<std::string> first_keys;  // its keys, when an object
  bool first_holds_numbers = false;     // its first member is a number, when an array
  bool has_key(std::string_view k) const;
  bool first_has_key(std::string_view k) const;
};
JsonHead read_json_head(std::string_view head);

// True for a rocprofv3 JSON document (its top-level key `rocprofiler-sdk-tool`).
bool is_rocprof_json(const JsonHead& head);
// True when the head looks like a Chrome trace (a traceEvents key, or an array of events).
bool looks_like_chrome_trace(const JsonHead& head);
// One sentence saying what a JSON document that is not a trace is (TraceLens's
// execution_details.json, a PyTorch memory timeline, a Top-N, …), from its head.
std::string describe_non_trace(const JsonHead& head);

}  // namespace roofline::topn::detail
