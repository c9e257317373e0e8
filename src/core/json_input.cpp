#include "core/json_input.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace roofline::detail {

namespace {

// Maximum bracket nesting outside strings; stops counting once `limit` is exceeded.
int nesting_depth(std::string_view text, int limit) {
  int depth = 0, max_depth = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"')
      in_string = true;
    else if (c == '[' || c == '{') {
      max_depth = std::max(max_depth, ++depth);
      if (max_depth > limit) return max_depth;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return max_depth;
}

std::string snippet(const json& v) {
  std::string s = v.dump(-1, ' ', true, json::error_handler_t::replace);
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

}  // namespace

std::optional<json> parse_json(std::string_view text, const std::string& display_name,
                               int max_depth, std::string& error) {
  // A UTF-8 byte-order mark is tolerated.
  if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
      static_cast<unsigned char>(text[1]) == 0xBB && static_cast<unsigned char>(text[2]) == 0xBF)
    text.remove_prefix(3);
  if (trim(text).empty()) {
    error = fmt::format("{}: file is empty", display_name);
    return std::nullopt;
  }
  if (int d = nesting_depth(text, max_depth); d > max_depth) {
    error = fmt::format(
        "{}: JSON nested deeper than {} levels (nesting limit; analyze --max-json-depth); "
        "refusing to parse",
        display_name, max_depth);
    return std::nullopt;
  }
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    std::string what = e.what();
    // nlohmann messages look like "[json.exception.parse_error.101] parse error at line 3, ...".
    if (auto pos = what.find("] "); pos != std::string::npos) what = what.substr(pos + 2);
    error = fmt::format("{}: not valid JSON: {}", display_name, what);
    return std::nullopt;
  }
}

std::optional<json> parse_json_object(std::string_view text, const std::string& display_name,
                                      int max_depth, std::vector<std::string>& errors) {
  std::string error;
  auto doc = parse_json(text, display_name, max_depth, error);
  if (!doc) {
    errors.push_back(error);
    return std::nullopt;
  }
  if (!doc->is_object()) {
    errors.push_back(fmt::format("{}: expected a JSON object at the top level, got {}",
                                 display_name, describe_type(*doc)));
    return std::nullopt;
  }
  return doc;
}

std::string describe_type(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return fmt::format("a string ({})", snippet(v));
    case json::value_t::boolean:
      return fmt::format("a boolean ({})", snippet(v));
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return fmt::format("a number ({})", snippet(v));
    case json::value_t::binary:
      return "binary data";
    case json::value_t::discarded:
      return "nothing";
  }
  return "something else";
}

void FieldReader::error(const std::string& path, const std::string& what) {
  errors_.push_back(fmt::format("{}: {}: {}", file_, path, what));
}

const json* FieldReader::find(const json& obj, std::string_view key) const {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  if (it == obj.end()) return nullptr;
  return &*it;
}

std::optional<double> FieldReader::number(const json& obj, std::string_view key,
                                          const std::string& path) {
  const json* v = find(obj, key);
  if (!v || v->is_null()) return std::nullopt;
  if (!v->is_number()) {
    error(path, "expected a number, got " + describe_type(*v));
    return std::nullopt;
  }
  double d = v->get<double>();
  if (!std::isfinite(d)) {
    error(path, "number is not finite");
    return std::nullopt;
  }
  return d;
}

std::optional<double> FieldReader::number_lenient(const json& obj, std::string_view key,
                                                  const std::string& path) {
  const json* v = find(obj, key);
  if (v && v->is_string()) {
    std::string s = trim(v->get_ref<const std::string&>());
    double d = 0.0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
    if (ec == std::errc() && ptr == s.data() + s.size() && !s.empty() && std::isfinite(d)) return d;
    error(path, "expected a number, got " + describe_type(*v));
    return std::nullopt;
  }
  return number(obj, key, path);
}

std::optional<std::string> FieldReader::string(const json& obj, std::string_view key,
                                               const std::string& path) {
  const json* v = find(obj, key);
  if (!v || v->is_null()) return std::nullopt;
  if (!v->is_string()) {
    error(path, "expected a string, got " + describe_type(*v));
    return std::nullopt;
  }
  return v->get<std::string>();
}

std::optional<bool> FieldReader::boolean(const json& obj, std::string_view key,
                                         const std::string& path) {
  const json* v = find(obj, key);
  if (!v || v->is_null()) return std::nullopt;
  if (!v->is_boolean()) {
    error(path, "expected true or false, got " + describe_type(*v));
    return std::nullopt;
  }
  return v->get<bool>();
}

const json* FieldReader::object(const json& obj, std::string_view key, const std::string& path) {
  const json* v = find(obj, key);
  if (!v || v->is_null()) return nullptr;
  if (!v->is_object()) {
    error(path, "expected an object, got " + describe_type(*v));
    return nullptr;
  }
  return v;
}

const json* FieldReader::array(const json& obj, std::string_view key, const std::string& path) {
  const json* v = find(obj, key);
  if (!v || v->is_null()) return nullptr;
  if (!v->is_array()) {
    error(path, "expected an array, got " + describe_type(*v));
    return nullptr;
  }
  return v;
}

void read_operand_dims(FieldReader& f, const json& obj, std::string_view key,
                       const std::string& path, std::vector<std::vector<std::int64_t>>& out) {
  const std::string field = fmt::format("{}.{}", path, key);
  const json* list = f.array(obj, key, field);
  if (!list) return;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& op = (*list)[i];
    std::vector<std::int64_t> dims;
    if (op.is_array()) {
      bool ok = true;
      for (const json& d : op) {
        if (d.is_number_integer() || d.is_number_unsigned()) {
          auto v = d.get<std::int64_t>();
          if (v < 0) ok = false;
          dims.push_back(v);
        } else if (d.is_number_float() && std::isfinite(d.get<double>()) && d.get<double>() >= 0 &&
                   d.get<double>() < 9.0e15 && std::floor(d.get<double>()) == d.get<double>()) {
          dims.push_back(static_cast<std::int64_t>(d.get<double>()));
        } else {
          ok = false;
        }
      }
      if (!ok) {
        f.error(fmt::format("{}[{}]", field, i),
                "expected non-negative integer dimensions, got " + describe_type(op));
        dims.clear();
      }
    } else if (!op.is_null()) {
      f.error(fmt::format("{}[{}]", field, i),
              "expected a list of dimensions, got " + describe_type(op));
    }
    out.push_back(std::move(dims));
  }
}

void read_operand_dtypes(FieldReader& f, const json& obj, std::string_view key,
                         const std::string& path, std::vector<std::string>& out) {
  const std::string field = fmt::format("{}.{}", path, key);
  const json* list = f.array(obj, key, field);
  if (!list) return;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& d = (*list)[i];
    if (d.is_string()) {
      out.push_back(d.get<std::string>());
    } else {
      if (!d.is_null())
        f.error(fmt::format("{}[{}]", field, i),
                "expected a dtype string, got " + describe_type(d));
      out.emplace_back();
    }
  }
}

}  // namespace roofline::detail
