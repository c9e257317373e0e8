#pragma once
// Private to src/topn: one JSON value read where a value is expected, for the readers that walk
// small objects key by key (rocprofv3 JSON, a Chrome trace's deviceProperties): the value kept
// when it has the wanted kind, anything else skipped whole. Each returns false on a JSON error.

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "roofline/topn/bytes/json_stream.hpp"
#include "roofline/topn/layer.hpp"

namespace roofline::topn::detail::json_values {

inline bool failed(JsonToken t) {
  return t == JsonToken::error || t == JsonToken::end;
}

// Skips the rest of a value whose first token `t` was just read.
inline bool skip_rest(JsonStream& js, JsonToken t) {
  if (t == JsonToken::begin_object || t == JsonToken::begin_array)
    return !failed(js.skip_container());
  return !failed(t) && t != JsonToken::key;
}

// The last key's text, its escapes undone.
inline std::string key_text(const JsonStream& js) {
  std::string key;
  js.append_text(key);
  return key;
}

// An integer value into `out` (left unset when the value is not one).
inline bool integer(JsonStream& js, std::optional<std::int64_t>& out) {
  const JsonToken t = js.next();
  std::int64_t v = 0;
  if (t == JsonToken::number) {
    if (js.as_int(v)) out = v;
    return true;
  }
  return skip_rest(js, t);
}

// A finite number value into `out` (left unset otherwise).
inline bool number(JsonStream& js, std::optional<double>& out) {
  const JsonToken t = js.next();
  double v = 0.0;
  if (t == JsonToken::number) {
    if (js.as_double(v) && std::isfinite(v)) out = v;
    return true;
  }
  return skip_rest(js, t);
}

// A string value into `out` (left as it was when the value is not one).
inline bool text(JsonStream& js, std::string& out) {
  const JsonToken t = js.next();
  if (t == JsonToken::string) {
    out.clear();
    js.append_text(out);
    return true;
  }
  return skip_rest(js, t);
}

}  // namespace roofline::topn::detail::json_values
