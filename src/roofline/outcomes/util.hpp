#pragma once
// Small helpers shared by the outcomes code (private to src/outcomes).

#include <optional>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofline/base/json_number.hpp"
#include "roofline/base/text.hpp"
#include "roofline/outcomes/layer.hpp"

namespace roofline::outcomes::detail {

// `v` formatted with `spec` (a fmt spec such as "{:.3f}"), or `none` when absent.
inline std::string opt_fmt(const std::optional<double>& v, const char* spec,
                           const char* none = "—") {
  return v ? fmt::format(fmt::runtime(spec), *v) : std::string(none);
}

// The deepest nesting a ledger line may have (a record is three levels deep).
inline constexpr int k_max_line_depth = 32;

// A string that may be empty: null when empty.
inline nlohmann::ordered_json str_or_null(const std::string& s) {
  return s.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s);
}

}  // namespace roofline::outcomes::detail

namespace roofline::outcomes::detail {

// Terminal cell: control characters as spaces, cut to `n` display columns with "…".
inline std::string clip(const std::string& s, std::size_t n) {
  std::string out;
  for (char c : s) out += (static_cast<unsigned char>(c) < 0x20) ? ' ' : c;
  std::size_t width = 0, cut = out.size();
  for (std::size_t i = 0; i < out.size(); ++i) {
    if ((static_cast<unsigned char>(out[i]) & 0xC0) == 0x80) continue;
    if (width == n - 1 && cut == out.size()) cut = i;
    ++width;
  }
  if (width <= n) return out;
  return out.substr(0, cut) + "…";
}

// The display columns of UTF-8 text: one per character.
inline std::size_t display_width(const std::string& s) {
  std::size_t w = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++w;
  return w;
}

// Left-aligned (or right-aligned) to `width` display columns.
inline std::string pad(const std::string& s, std::size_t width, bool right = false) {
  const std::size_t w = display_width(s);
  std::string fill(w < width ? width - w : 0, ' ');
  return right ? fill + s : s + fill;
}

}  // namespace roofline::outcomes::detail
