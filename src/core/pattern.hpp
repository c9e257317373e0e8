#pragma once
#include <string_view>

namespace roofline::detail {

// Case-insensitive match of a kernel-name pattern: with `*`/`?` wildcards a glob over the whole
// name; without wildcards a substring test.
bool pattern_matches(std::string_view pattern, std::string_view text);

// Case-insensitive substring test.
bool icontains(std::string_view hay, std::string_view needle);

}  // namespace roofline::detail
