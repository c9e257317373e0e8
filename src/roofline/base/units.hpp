#pragma once
// One home for the quantities every layer prints or derives: the byte budget a measured time
// allows, the formatting of bytes, rates, times and ratios, and the text trimming the loaders and
// the matcher share. No pipeline logic; any layer may include this header.

#include <optional>
#include <string>
#include <string_view>
#include "roofline/base/layer.hpp"

namespace roofline::base {

// The most bytes the memory roof lets move in `t_unit_ms` (docs/method.md §9 feasibility rule,
// docs/method.md §10 `bytes_upper_bound`): peak_bw · t_unit. nullopt when the peak or the time is
// unknown or not positive.
std::optional<double> byte_budget(const std::optional<double>& peak_bw_bytes_s, double t_unit_ms);

// How many digits a formatted quantity keeps: `brief` for tables and headlines ("697.0 MB"),
// `exact` for the notes a reader redoes the arithmetic from ("697.01 MB").
enum class Digits { brief, exact };

// Decimal units (kB = 1e3 B): "697.0 MB" (brief) or "697.01 MB" (exact); "512 B" below 1 kB.
std::string format_bytes(double bytes, Digits digits);
// Three significant digits with an SI prefix: "7.04 TB/s", "2.5 PFLOP/s".
std::string format_rate(double per_s, const char* unit);
// "98.942 µs" below 1 ms, else "1.234 ms".
std::string format_time_ms(double ms);
// A ratio as a percentage with one decimal ("88.1%"); "—" when unknown or not finite.
std::string format_pct(std::optional<double> ratio);
// Two ends of a range as written: "lo to hi", or the one figure where they read the same (a
// band whose ends agree is a point: docs/method.md §10.8).
std::string format_range(const std::string& lo, const std::string& hi);
// Three significant digits with an SI prefix and no unit: "1.61 G".
std::string format_count(double v);
// Six significant digits, shortest form ("98.942", "2.56e+11"): numbers quoted in notes.
std::string format_g(double v);

// `s` without leading and trailing spaces, tabs, carriage returns and newlines.
std::string_view trim_view(std::string_view s);
std::string trim(std::string_view s);
// ASCII lower case (kernel names, keys and spellings are ASCII where it matters).
std::string lower_ascii(std::string_view s);

// Text from a file, quoted in a one-line message: control bytes (and DEL) as \xNN; with
// `ascii_only`, every byte outside printable ASCII too (a tokenizer's view, which has not yet
// checked that the bytes are UTF-8).
std::string escape_for_message(std::string_view text, bool ascii_only = false);

}  // namespace roofline::base
