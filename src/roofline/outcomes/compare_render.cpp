// roofline_compare.json / .md and the terminal table (docs/method.md §17.1).
#include <algorithm>

#include <fmt/format.h>

#include "roofline/outcomes/compare.hpp"
#include "roofline/outcomes/layer.hpp"
#include "roofline/outcomes/util.hpp"
#include "roofline/render/md_util.hpp"
#include "roofline/render/report.hpp"

namespace roofline::outcomes {
namespace {

using detail::opt_fmt;
using detail::str_or_null;

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string time_cell(const std::optional<double>& ms) {
  return ms ? format_time_ms(*ms) : std::string("—");
}

// The predicted ceiling as a cell: "—" when A gave the kernel no verdict.
std::string attainable_cell(const CompareRow& r) {
  const bool verdict = r.headroom_class_a == "saturated" || r.headroom_class_a == "moderate" ||
                       r.headroom_class_a == "underperforming";
  return verdict ? opt_fmt(r.attainable_speedup_a, "{:.3f}×") : std::string("—");
}

bool has(const CompareRow& r, std::string_view s) {
  return std::find(r.status.begin(), r.status.end(), s) != r.status.end();
}

// A kernel found under another name: paired by what it is (docs/method.md §17.1).
bool renamed(const CompareRow& r) {
  return r.match == "role" || r.match == "only_of_class";
}

// The pairing as a table cell: how round B's kernel was found.
std::string paired_cell(const CompareRow& r) {
  if (has(r, "new") || has(r, "gone")) return "—";
  if (r.match == "exact") return "same name";
  if (r.match == "normalized" || r.match == "substring") return r.match + " name";
  return r.match == "role" ? "renamed, by role" : "renamed, by class";
}

// The table's cells of one row, each column aligned on its own: kernel, pct A, pct B, t A, t B,
// speedup, attainable, paired, status.
std::vector<std::string> text_cells(const CompareRow& r) {
  return {detail::clip(r.display_name, 44),
          opt_fmt(r.pct_a, "{:.2f}"),
          opt_fmt(r.pct_b, "{:.2f}"),
          time_cell(r.t_a_ms),
          time_cell(r.t_b_ms),
          opt_fmt(r.speedup, "{:.3f}×"),
          attainable_cell(r),
          paired_cell(r),
          join(r.status, ", ")};
}

// Rows of cells as aligned lines: every column as wide as its widest cell, text columns (the
// first and the last two) left-aligned, numbers right-aligned, A → B pairs joined by an arrow.
std::string aligned_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(rows.front().size(), 0);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c)
      width[c] = std::max(width[c], detail::display_width(row[c]));
  std::string out;
  for (const auto& row : rows) {
    std::string line = "  ";
    for (std::size_t c = 0; c < row.size(); ++c) {
      const bool left = c == 0 || c + 2 >= row.size();
      const char* sep = c == 1 || c == 3 ? " → " : c + 1 == row.size() ? "" : "  ";
      line += detail::pad(row[c], width[c], !left) + sep;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace

nlohmann::ordered_json comparison_json(const Comparison& c) {
  nlohmann::ordered_json j;
  j["schema"] = "roofline-compare-v1";
  j["baseline_round"] = c.baseline_round;
  j["round"] = c.round;
  j["predictions"] = c.predictions_from;
  j["noise_isolated"] = c.noise_isolated;
  auto rows = nlohmann::ordered_json::array();
  for (const auto& r : c.rows) {
    nlohmann::ordered_json row;
    row["name"] = r.name;
    row["short_name"] = r.short_name;
    row["display_name"] = r.display_name;
    row["pct_a"] = json_number(r.pct_a);
    row["pct_b"] = json_number(r.pct_b);
    row["t_a_ms"] = json_number(r.t_a_ms);
    row["t_b_ms"] = json_number(r.t_b_ms);
    row["speedup"] = json_number(r.speedup);
    row["attainable_speedup_a"] = json_number(r.attainable_speedup_a);
    row["expected_e2e_gain_pct_a"] = json_number(r.expected_e2e_gain_pct_a);
    row["roofline_pct_a"] = json_number(r.roofline_pct_a);
    row["headroom_class_a"] = str_or_null(r.headroom_class_a);
    row["realized_gain_pct"] = json_number(r.realized_gain_pct);
    row["realized_fraction"] = json_number(r.realized_fraction);
    row["status"] = r.status;
    row["match"] = r.match;
    row["pairing"] = r.pairing;
    row["role_a"] = str_or_null(r.role_a);
    row["name_b"] = str_or_null(r.name_b);
    row["display_name_b"] = str_or_null(r.display_name_b);
    row["signature_b"] = str_or_null(r.signature_b);
    row["role_b"] = str_or_null(r.role_b);
    row["note"] = r.note;
    rows.push_back(std::move(row));
  }
  j["rows"] = std::move(rows);
  if (c.step_time) {
    const StepTime& s = *c.step_time;
    j["step_time"] = {{"steps_a", s.steps_a},
                      {"steps_b", s.steps_b},
                      {"steps_source_a", s.source_a},
                      {"steps_source_b", s.source_b},
                      {"gpu_ms_per_step_a", s.gpu_ms_per_step_a},
                      {"gpu_ms_per_step_b", s.gpu_ms_per_step_b},
                      {"speedup", s.speedup},
                      {"change_pct", s.change_pct},
                      {"noise_e2e", k_noise_e2e},
                      {"status", s.status}};
  }
  j["notes"] = c.notes;
  return j;
}

namespace {

// The sentences under the Markdown table: contradictions, regressions, kernels renamed, gone and
// new, each with its reason.
std::string row_sentences(const Comparison& c, const CompareRow& r) {
  const std::string& b = c.round;
  const std::string name =
      fmt::format("{} ({})", md_escape(r.display_name), md_code(r.name, false, 120));
  std::string md;
  if (has(r, "contradiction"))
    md += fmt::format(
        "**Contradiction:** {} ran {:.3f}× faster in round {}, beyond the predicted ceiling of "
        "{:.3f}× (+{:g} % band): the model was wrong for it — prefer the measurement.\n\n",
        name, r.speedup.value_or(0.0), b, r.attainable_speedup_a.value_or(1.0),
        100.0 * c.noise_isolated);
  if (has(r, "regressed"))
    md += fmt::format(
        "**Regression:** {} is slower in round {}: {:.3f}× ({} → {}), beyond the −{:g} % "
        "band.\n\n",
        name, b, r.speedup.value_or(0.0), time_cell(r.t_a_ms), time_cell(r.t_b_ms),
        100.0 * c.noise_isolated);
  if (has(r, "gone")) md += fmt::format("**Gone:** {}: {}.\n\n", name, md_escape(r.pairing));
  if (has(r, "new"))
    md += fmt::format("**New in round {}'s head:** {} ({:.2f} % of GPU time): {}.\n\n", b, name,
                      r.pct_b.value_or(0.0), md_escape(r.pairing));
  if (renamed(r))
    md += fmt::format("*Renamed:* {} is {} ({}) in round {}: {}.\n\n", name,
                      md_escape(r.display_name_b), md_code(r.name_b, false, 120), b,
                      md_escape(r.pairing));
  else if (r.match == "normalized" || r.match == "substring")
    md += fmt::format("*Matched by {} name:* {} is {} in round {}.\n\n", r.match, name,
                      md_code(r.name_b, false, 120), b);
  return md;
}

}  // namespace

std::string render_comparison_markdown(const Comparison& c) {
  const std::string& a = c.baseline_round;
  const std::string& b = c.round;
  std::string md = fmt::format("# Round {} → round {}: predicted against measured\n\n", a, b);
  md += fmt::format(
      "Predictions: {}. Measurements: round {}'s Top-N, in situ, per unit of round {}'s regime "
      "and unit. Noise band ±{:g} %. Kernels are paired by what they are — the same name, else "
      "a renamed kernel of the same role (docs/method.md §17.1).\n\n",
      md_escape(c.predictions_from), b, a, 100.0 * c.noise_isolated);
  md += "| kernel | paired | pct A → B | t A → B | speedup | predicted attainable | status |\n";
  md += "|---|---|---|---|---|---|---|\n";
  for (const auto& r : c.rows) {
    const std::string paired =
        renamed(r) ? fmt::format("{} → {}", paired_cell(r), md_escape(r.display_name_b))
                   : paired_cell(r);
    md += fmt::format("| {} | {} | {} → {} | {} → {} | {} | {} | {} |\n", md_escape(r.display_name),
                      paired, opt_fmt(r.pct_a, "{:.2f}"), opt_fmt(r.pct_b, "{:.2f}"),
                      time_cell(r.t_a_ms), time_cell(r.t_b_ms), opt_fmt(r.speedup, "{:.3f}×"),
                      attainable_cell(r), join(r.status, ", "));
  }
  md += "\n";
  for (const auto& r : c.rows) md += row_sentences(c, r);
  if (c.step_time) {
    const StepTime& s = *c.step_time;
    md += fmt::format(
        "**GPU time per step:** {} → {} ({:+.2f} %, {}; e2e band ±{:g} %). Steps: round {} {}; "
        "round {} {}.\n",
        format_time_ms(s.gpu_ms_per_step_a), format_time_ms(s.gpu_ms_per_step_b), s.change_pct,
        s.status, 100.0 * k_noise_e2e, a, s.source_a, b, s.source_b);
  }
  for (const auto& n : c.notes) md += fmt::format("\n- {}\n", md_escape(n));
  return md;
}

std::string render_comparison_text(const Comparison& c) {
  std::string out = fmt::format("roofline compare: round {} → round {}; predictions: {}\n",
                                c.baseline_round, c.round, c.predictions_from);
  std::vector<std::vector<std::string>> rows = {
      {"kernel", "pct A", "pct B", "t A", "t B", "speedup", "attain.", "paired", "status"}};
  for (const auto& r : c.rows) rows.push_back(text_cells(r));
  out += aligned_table(rows);
  for (const auto& r : c.rows) {
    if (renamed(r))
      out += fmt::format("  {} → round {}'s {}: {}\n", detail::clip(r.display_name, 44), c.round,
                         r.display_name_b, r.pairing);
    else if (has(r, "gone"))
      out += fmt::format("  {} gone: {}\n", detail::clip(r.display_name, 44), r.pairing);
  }
  if (c.step_time)
    out += fmt::format("  GPU time per step: {} → {} ({:+.2f} %, {})\n",
                       format_time_ms(c.step_time->gpu_ms_per_step_a),
                       format_time_ms(c.step_time->gpu_ms_per_step_b), c.step_time->change_pct,
                       c.step_time->status);
  for (const auto& n : c.notes) out += "  note: " + n + "\n";
  return out;
}

}  // namespace roofline::outcomes
