#pragma once
// Markdown text shared by the report, the terminal summary and the chart (numbers: units.hpp).

#include <optional>
#include <string>
#include <string_view>

#include "roofline/units.hpp"

namespace roofline::detail {

// Inline code span that survives any content: a fence longer than the longest backtick run,
// newlines folded, and (in a table) `|` escaped. Long names are cut to `max_chars` with "…".
std::string md_code(std::string_view text, bool in_table, std::size_t max_chars = 0);

}  // namespace roofline::detail
