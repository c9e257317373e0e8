#pragma once
// The one way a number enters a JSON document this tool writes: JSON has no NaN or infinity, so a
// number that is absent or not finite is written as null.

#include <cmath>
#include <optional>

#include <nlohmann/json.hpp>

namespace roofline {

// `v` as a JSON number, or null when absent or not finite.
inline nlohmann::ordered_json json_number(const std::optional<double>& v) {
  if (!v || !std::isfinite(*v)) return nullptr;
  return *v;
}

}  // namespace roofline
