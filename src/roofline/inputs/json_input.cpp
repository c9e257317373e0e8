#include "roofline/inputs/json_input.hpp"

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

// The sentinel a non-finite literal becomes before parsing; a config never holds this string.
constexpr std::string_view k_nonfinite = "\x01roofline-nonfinite:";

bool ident_char(char ch) {
  return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.';
}

// Replaces NaN / Infinity / -Infinity outside strings by sentinel strings; counts them.
std::string quote_nonfinite(std::string_view text, int& count) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      out += ch;
      if (escaped)
        escaped = false;
      else if (ch == '\\')
        escaped = true;
      else if (ch == '"')
        in_string = false;
      continue;
    }
    if (ch == '"') {
      in_string = true;
      out += ch;
      continue;
    }
    bool matched = false;
    if (i == 0 || !ident_char(text[i - 1])) {
      for (std::string_view lit : {"-Infinity", "Infinity", "NaN"}) {
        if (text.substr(i, lit.size()) != lit) continue;
        const std::size_t end = i + lit.size();
        if (end < text.size() && ident_char(text[end])) continue;
        out += "\"\\u0001roofline-nonfinite:";
        out += lit;
        out += '"';
        i = end - 1;
        ++count;
        matched = true;
        break;
      }
    }
    if (!matched) out += ch;
  }
  return out;
}

// Turns every sentinel into null and names its key.
void null_nonfinite(json& v, const std::string& path, const std::string& file,
                    std::vector<std::string>& notes) {
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (s.rfind(k_nonfinite, 0) == 0) {
      notes.push_back(fmt::format("{}: {}: non-finite literal {} read as absent", file,
                                  path.empty() ? "(top level)" : path,
                                  s.substr(k_nonfinite.size())));
      v = nullptr;
    }
  } else if (v.is_object()) {
    for (auto& [key, child] : v.items())
      null_nonfinite(child, path.empty() ? key : path + "." + key, file, notes);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i)
      null_nonfinite(v[i], fmt::format("{}[{}]", path, i), file, notes);
  }
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

std::optional<json> parse_json_object(std::string_view text, const std::string& display_name,
                                      int max_depth, std::vector<std::string>& errors,
                                      std::vector<std::string>& notes) {
  int count = 0;
  const std::string quoted = quote_nonfinite(text, count);
  auto doc = parse_json_object(count > 0 ? std::string_view(quoted) : text, display_name, max_depth,
                               errors);
  if (doc && count > 0) null_nonfinite(*doc, "", display_name, notes);
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
