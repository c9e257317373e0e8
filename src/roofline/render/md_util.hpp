#pragma once
// Markdown text shared by the report, the terminal summary and the chart (numbers: units.hpp).

#include <optional>
#include <string>
#include <string_view>

#include "roofline/analyze/entry/head_entry.hpp"
#include "roofline/analyze/steps/resolve_peaks.hpp"
#include "roofline/base/units.hpp"
#include "roofline/render/layer.hpp"

namespace roofline::render {

// The longest raw kernel name a report table cell shows (the entry detail has it whole).
constexpr std::size_t k_table_name_chars = 60;

// Inline code span that survives any content: a fence longer than the longest backtick run,
// newlines folded, and (in a table) `|` escaped. Long names are cut to `max_chars` with "…".
std::string md_code(std::string_view text, bool in_table, std::size_t max_chars = 0);

// The name every surface shows (display_names, docs/method.md §16.6): the entry's display name,
// else (an entry built by hand, as calc does) its ranking name.
const std::string& shown_name(const HeadEntry& e);

// What the ceilings are, in one sentence for the report's header and the terminal summary
// (docs/method.md §5.7): datasheet figures, so attainable speedups are upper bounds, and how to
// measure them; or which axes divide by a measured figure, and by what it was measured. "" when
// the run has no peaks. `markdown` puts the command in a code span and escapes the source.
std::string ceilings_sentence(const ResolvedPeaks& peaks, bool markdown);

// docs/method.md §10.8: whether an entry's band is wider than a point (two or more readings with
// a verdict), the gain band as "+3.10 to +7.40%", and the band in one line: the intervals, then
// the class that holds across it or the classes it spans and what would settle them.
bool band_shown(const Verdict& v);
std::string band_gain_text(const Verdict& v);
std::string band_line(const Verdict& v);

}  // namespace roofline::render
