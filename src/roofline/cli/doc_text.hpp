#pragma once
// Small text helpers shared by the man page and completion renderers.

#include <string>
#include <string_view>
#include <vector>

namespace roofline::cli {

// The parts one after the other. (Appending instead of chaining operator+ on temporaries, which
// GCC 12 at -O3 flags with a false -Wrestrict.)
template <typename... Parts>
std::string cat(const Parts&... parts) {
  std::string out;
  (out.append(parts), ...);
  return out;
}

// The items with `sep` between them.
inline std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (const auto& i : items) {
    if (&i != &items.front()) out.append(sep);
    out.append(i);
  }
  return out;
}

// A word for the shell, single-quoted (a quote inside becomes '\'').
inline std::string shell_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out.append("'\\''");
    else
      out.push_back(c);
  }
  out.push_back('\'');
  return out;
}

}  // namespace roofline::cli
