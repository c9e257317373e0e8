#pragma once
// Rendering (docs/method.md §16): the Analysis as the artifact, the report, the chart and the
// terminal summary; `calc` and `peaks` output; writing a file safely. Renderers see only the
// Analysis and the stage structs, never the loaders.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/analyze/analysis.hpp"
#include "roofline/analyze/calc.hpp"

namespace roofline {

using ordered_json = nlohmann::ordered_json;

// One entry as in profile_roofline.json (key order as docs/method.md §16; non-finite -> null).
ordered_json entry_json(const HeadEntry& entry);
// The artifact's `peaks.link` object (docs/method.md §10.7): topology, bytes_s, and links (a mesh's
// links per GPU; null for a switch row, which gives none).
ordered_json link_json(const LinkPeak& link);

// The whole artifact. Deterministic: same Analysis -> same bytes.
ordered_json artifact_json(const Analysis& analysis);
std::string render_json(const Analysis& analysis);
// The one way a JSON document leaves the process: 2-space indent, bytes that are not valid UTF-8
// (a kernel name from a profiler) replaced by U+FFFD instead of a throw, a final newline.
std::string json_text(const ordered_json& document);

// The three artifacts of one run (docs/method.md §16).
struct Artifacts {
  std::string json, markdown, svg;
};
// Renders all three behind the L5 boundary (docs/method.md §13): a renderer that throws becomes an
// error diagnostic in `analysis` (so stderr and every artifact name it), the artifacts rendered
// before it are rendered again to include it, and its own artifact is a minimal valid one (the
// JSON: the run's fields, diagnostics and notes without entries; it still passes the schema). Never
// throws short of running out of memory.
Artifacts render_artifacts(Analysis& analysis);

// profile_roofline.md: header, summary, both rankings side by side, per-entry detail.
std::string render_markdown(const Analysis& analysis);

// profile_roofline.svg: the log-log roofline (arithmetic intensity vs achieved FLOP/s) with the
// memory roof, the compute roof of each dtype in play, ridge points, target_eff ceilings and one
// labelled point per plottable entry. Always a well-formed SVG (it says so when nothing can be
// plotted); deterministic: same Analysis -> same bytes.
std::string render_roofline_svg(const Analysis& analysis);

// The compact terminal table printed by `--format text`.
std::string render_text_summary(const Analysis& analysis, const std::vector<std::string>& written,
                                bool color);

// Each diagnostic once, as one stderr line without the program prefix: "error: ...",
// "warning: ...", "degraded [L2] name: ...".
std::vector<std::string> diagnostic_lines(const Analysis& analysis);

// `roofline calc`: the entry fields `analyze` emits plus the peaks used (JSON), or one
// "field value" line each (text).
ordered_json calc_json(const CalcResult& result);
std::string calc_text(const CalcResult& result);

// Which fields a peaks object carries, in the order each output has always written them.
enum class PeaksFields {
  artifact,  // profile_roofline.json: hbm_bw_bytes_s, flops, source, confidence,
             // compute_validated, then link only when the part has one
  calc,  // `roofline calc`: gfx (null for an NVIDIA arch), arch, product first; no caches, no link
  full,  // `roofline peaks show`: as calc, plus l2/mall bytes, link (null when none),
         // hard_unknown and notes
};
// The resolved peaks as JSON (numbers finite or null), the one writer of every peaks object.
ordered_json peaks_json(const ResolvedPeaks& peaks, PeaksFields fields);

// `roofline peaks show`: the resolved peaks with the rules applied (text, or JSON through
// `peaks_json(peaks, PeaksFields::full)`), the link roof (docs/method.md §10.7) included when the
// part has one.
std::string peaks_text(const ResolvedPeaks& peaks);
// `roofline peaks list`: one line per section of the table.
std::string peaks_table_text(const PeaksTable& table);

// Escapes text for a Markdown table cell or inline code: `|`, newlines, backticks, HTML.
std::string md_escape(std::string_view text);

// Writes `content` to `path` atomically: a temp file in the same folder, renamed over the target,
// so a reader or a crash never sees a half-written file. With `durable`, the temp file is also
// fsync'ed before the rename (survives power loss; costs milliseconds on slow disks). On failure
// the previous file is untouched and no temp file is left; a temp file that a killed earlier
// run left beside `path` is removed by the next write. Returns nullopt on success, else the
// reason.
std::optional<std::string> write_atomic(const std::filesystem::path& path, std::string_view content,
                                        bool durable = false);

}  // namespace roofline
