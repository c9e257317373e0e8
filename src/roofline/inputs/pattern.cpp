#include "roofline/inputs/pattern.hpp"

#include <algorithm>

namespace roofline::detail {
namespace {

enum class CharKind { separator, lower, upper, digit };

CharKind kind(char c) {
  if (c >= 'a' && c <= 'z') return CharKind::lower;
  if (c >= 'A' && c <= 'Z') return CharKind::upper;
  if (c >= '0' && c <= '9') return CharKind::digit;
  return CharKind::separator;
}

char fold(char c) {
  return kind(c) == CharKind::upper ? static_cast<char>(c - 'A' + 'a') : c;
}

// `seg` (literal characters and `?`) at position `at` of `text`.
bool segment_at(std::string_view seg, std::string_view text, std::size_t at) {
  if (at + seg.size() > text.size()) return false;
  for (std::size_t j = 0; j < seg.size(); ++j)
    if (seg[j] != '?' && fold(seg[j]) != fold(text[at + j])) return false;
  return true;
}

}  // namespace

bool token_boundary(std::string_view s, std::size_t i) {
  if (i == 0 || i >= s.size()) return true;
  const CharKind a = kind(s[i - 1]), b = kind(s[i]);
  if (a == CharKind::separator || b == CharKind::separator) return true;
  if ((a == CharKind::digit) != (b == CharKind::digit)) return true;  // sm|90, 16|x
  if (a == CharKind::lower && b == CharKind::upper) return true;      // swi|Glu
  // The last capital of a run starts the next word: KV|Cache, BLAS|Lt.
  return a == CharKind::upper && b == CharKind::upper && i + 1 < s.size() &&
         kind(s[i + 1]) == CharKind::lower;
}

namespace {

// The leftmost place at or after `pos` where `seg` fits the token rule; npos when none.
std::size_t place_segment(std::string_view seg, std::string_view text, std::size_t pos,
                          bool anchored, bool ends_on_token) {
  for (std::size_t q = pos; q + seg.size() <= text.size(); ++q) {
    if (anchored && !token_boundary(text, q)) continue;
    if (!segment_at(seg, text, q)) continue;
    if (ends_on_token && !token_boundary(text, q + seg.size())) continue;
    return q;
  }
  return std::string_view::npos;
}

}  // namespace

bool pattern_matches(std::string_view pattern, std::string_view text) {
  const bool lead = !pattern.empty() && pattern.front() == '*';
  const bool trail = !pattern.empty() && pattern.back() == '*';
  // Each piece between stars at the leftmost place that fits leaves the most room for the pieces
  // after it.
  std::size_t pos = 0;
  bool first = true;
  for (std::size_t at = 0; at < pattern.size();) {
    const std::size_t star = std::min(pattern.find('*', at), pattern.size());
    if (star > at) {
      const std::string_view seg = pattern.substr(at, star - at);
      const bool last = pattern.find_first_not_of('*', star) == std::string_view::npos;
      const std::size_t q = place_segment(seg, text, pos, !(first && lead), last && !trail);
      if (q == std::string_view::npos) return false;
      pos = q + seg.size();
      first = false;
    }
    at = star + 1;
  }
  return true;
}

int pattern_length(std::string_view pattern) {
  int tokens = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i)
    if (kind(pattern[i]) != CharKind::separator && token_boundary(pattern, i)) ++tokens;
  return tokens;
}

bool icontains(std::string_view hay, std::string_view needle) {
  if (needle.empty()) return true;
  if (needle.size() > hay.size()) return false;
  for (std::size_t i = 0; i + needle.size() <= hay.size(); ++i) {
    std::size_t j = 0;
    while (j < needle.size() && fold(hay[i + j]) == fold(needle[j])) ++j;
    if (j == needle.size()) return true;
  }
  return false;
}

}  // namespace roofline::detail
