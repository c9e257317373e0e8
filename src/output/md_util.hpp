#pragma once
// Number and text formatting shared by the Markdown report and the terminal summary.

#include <optional>
#include <string>
#include <string_view>

namespace roofline::detail {

std::string human_bytes(double bytes);                   // 696.75 MB
std::string human_rate(double per_s, const char* unit);  // 7.04 TB/s, 2.5 PFLOP/s
std::string human_time_ms(double ms);                    // 98.942 µs, 1.234 ms
std::string human_pct(std::optional<double> ratio);      // 88.1% or —
std::string human_count(double v);                       // 1.61e9 -> 1.61 G

// Inline code span that survives any content: a fence longer than the longest backtick run,
// newlines folded, and (in a table) `|` escaped. Long names are cut to `max_chars` with "…".
std::string md_code(std::string_view text, bool in_table, std::size_t max_chars = 0);

}  // namespace roofline::detail
