#include "core/pattern.hpp"

#include <algorithm>
#include <vector>

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

bool pattern_matches(std::string_view pattern, std::string_view text) {
  const bool lead = !pattern.empty() && pattern.front() == '*';
  const bool trail = !pattern.empty() && pattern.back() == '*';
  std::vector<std::string_view> segments;
  for (std::size_t at = 0; at <= pattern.size();) {
    const std::size_t star = std::min(pattern.find('*', at), pattern.size());
    if (star > at) segments.push_back(pattern.substr(at, star - at));
    at = star + 1;
  }
  // Each piece at the leftmost place that fits leaves the most room for the pieces after it.
  std::size_t pos = 0;
  for (std::size_t k = 0; k < segments.size(); ++k) {
    const std::string_view seg = segments[k];
    const bool anchored = !(k == 0 && lead);
    const bool ends_on_token = k + 1 == segments.size() && !trail;
    bool found = false;
    for (std::size_t q = pos; q + seg.size() <= text.size(); ++q) {
      if (anchored && !token_boundary(text, q)) continue;
      if (!segment_at(seg, text, q)) continue;
      if (ends_on_token && !token_boundary(text, q + seg.size())) continue;
      pos = q + seg.size();
      found = true;
      break;
    }
    if (!found) return false;
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
