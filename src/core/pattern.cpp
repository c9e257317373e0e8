#include "core/pattern.hpp"

#include <cctype>

namespace roofline::detail {
namespace {

char fold(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// Iterative glob with single-star backtracking: linear in practice, no recursion.
bool glob(std::string_view p, std::string_view s) {
  std::size_t pi = 0, si = 0, star = std::string_view::npos, mark = 0;
  while (si < s.size()) {
    if (pi < p.size() && (p[pi] == '?' || fold(p[pi]) == fold(s[si]))) {
      ++pi;
      ++si;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = si;
    } else if (star != std::string_view::npos) {
      pi = star + 1;
      si = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

}  // namespace

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

bool pattern_matches(std::string_view pattern, std::string_view text) {
  if (pattern.find_first_of("*?") == std::string_view::npos) return icontains(text, pattern);
  return glob(pattern, text);
}

}  // namespace roofline::detail
