#include "roofline/inputs/pattern.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include "roofline/inputs/layer.hpp"

namespace roofline::inputs {
namespace {

enum class CharKind : std::uint8_t { separator, lower, upper, digit };

// One table lookup per character: every rule of a table is matched against every kernel name,
// several times per analysis.
constexpr std::array<CharKind, 256> k_kind = [] {
  std::array<CharKind, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[static_cast<std::size_t>(c)] = c >= 'a' && c <= 'z'   ? CharKind::lower
                                     : c >= 'A' && c <= 'Z' ? CharKind::upper
                                     : c >= '0' && c <= '9' ? CharKind::digit
                                                            : CharKind::separator;
  return t;
}();

CharKind kind(char c) {
  return k_kind[static_cast<unsigned char>(c)];
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

// The places of `text` whose character folds to `first`, in order, found with memchr (one call per
// place returned, per case): most places of a long name are never looked at one by one.
class FoldedPlaces {
 public:
  FoldedPlaces(std::string_view text, char first)
      : text_(text),
        lower_(first),
        upper_(kind(first) == CharKind::lower ? static_cast<char>(first - 'a' + 'A') : '\0') {}
  // The first such place in [from, end); `end` when none.
  std::size_t next(std::size_t from, std::size_t end) {
    if (lower_at_ == k_unknown || lower_at_ < from) lower_at_ = find(lower_, from, end);
    if (upper_ && (upper_at_ == k_unknown || upper_at_ < from)) upper_at_ = find(upper_, from, end);
    return std::min(lower_at_, upper_ ? upper_at_ : end);
  }

 private:
  std::size_t find(char c, std::size_t from, std::size_t end) const {
    if (from >= end) return end;
    const void* p = std::memchr(text_.data() + from, c, end - from);
    return p ? static_cast<std::size_t>(static_cast<const char*>(p) - text_.data()) : end;
  }
  std::string_view text_;
  char lower_, upper_;
  static constexpr std::size_t k_unknown = std::string_view::npos;
  std::size_t lower_at_ = k_unknown, upper_at_ = k_unknown;  // the next place of each case
};

// The leftmost place at or after `pos` where `seg` fits the token rule; npos when none.
std::size_t place_segment(std::string_view seg, std::string_view text, std::size_t pos,
                          bool anchored, bool ends_on_token) {
  if (seg.size() > text.size()) return std::string_view::npos;
  const std::size_t end = text.size() - seg.size() + 1;  // the places it fits: [pos, end)
  // Its first character (any for `?`) picks the places where the token rule is tested.
  const bool any_first = seg.empty() || seg[0] == '?';
  FoldedPlaces places(text, any_first ? '\0' : fold(seg[0]));
  for (std::size_t q = pos; q < end; ++q) {
    if (!any_first && (q = places.next(q, end)) == end) break;
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

}  // namespace roofline::inputs
