#pragma once
// Defensive JSON reading shared by the loaders: parse with limits, then read fields one by one,
// turning a wrong type into a message on that field instead of an exception.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/base/units.hpp"

namespace roofline::detail {

using json = nlohmann::json;

// Parses `text` as one JSON value. On failure returns nullopt and sets `error` to a one-line
// message (prefixed with `display_name`). Refuses nesting deeper than `max_depth` before parsing,
// so hostile inputs cannot exhaust the stack.
std::optional<json> parse_json(std::string_view text, const std::string& display_name,
                               int max_depth, std::string& error);

// parse_json, then requires a top-level object; on failure appends one message to `errors`.
std::optional<json> parse_json_object(std::string_view text, const std::string& display_name,
                                      int max_depth, std::vector<std::string>& errors);

// parse_json_object, but reads the non-JSON literals NaN, Infinity and -Infinity that Python's
// json writes (docs/method.md §2.9): each becomes null in the document (so it reads as absent where
// it is used), and one note per key ("config.json: time_step_limit[1]: non-finite literal Infinity
// read as absent") is appended to `notes`.
std::optional<json> parse_json_object(std::string_view text, const std::string& display_name,
                                      int max_depth, std::vector<std::string>& errors,
                                      std::vector<std::string>& notes);

// The JSON type of a value, for messages ("a string", "an array", ...).
std::string describe_type(const json& v);

// Reads typed fields of objects, recording a message for each present-but-wrong field.
class FieldReader {
 public:
  FieldReader(std::string file, std::vector<std::string>& errors)
      : file_(std::move(file)), errors_(errors) {}

  const json* find(const json& obj, std::string_view key) const;
  std::optional<double> number(const json& obj, std::string_view key, const std::string& path);
  // Accepts a number or a string holding a number (some exporters quote numbers) — strings
  // that do not parse are errors.
  std::optional<double> number_lenient(const json& obj, std::string_view key,
                                       const std::string& path);
  std::optional<std::string> string(const json& obj, std::string_view key, const std::string& path);
  std::optional<bool> boolean(const json& obj, std::string_view key, const std::string& path);
  const json* object(const json& obj, std::string_view key, const std::string& path);
  const json* array(const json& obj, std::string_view key, const std::string& path);

  void error(const std::string& path, const std::string& what);
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::vector<std::string>& errors_;
};

// Operand dimension lists (`shapes` in the Top-N, `dims` in probe files): [[64,2048],[1024,2048]].
// An operand that is not a list of non-negative integers is kept as {} so operand positions
// still line up with the dtypes; the problem is recorded on its field.
void read_operand_dims(FieldReader& f, const json& obj, std::string_view key,
                       const std::string& path, std::vector<std::vector<std::int64_t>>& out);
// Operand dtype strings; a non-string operand is kept as "" (positions line up with dims).
void read_operand_dtypes(FieldReader& f, const json& obj, std::string_view key,
                         const std::string& path, std::vector<std::string>& out);

}  // namespace roofline::detail
