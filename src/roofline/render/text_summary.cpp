// The compact terminal table of `--format text`.
#include <algorithm>

#include <fmt/color.h>
#include <fmt/format.h>

#include "roofline/analyze/steps/display_names.hpp"
#include "roofline/render/entry_summary.hpp"
#include "roofline/render/layer.hpp"
#include "roofline/render/md_util.hpp"
#include "roofline/render/messages.hpp"
#include "roofline/render/report.hpp"

namespace roofline::render {
namespace {

// Control characters as spaces; cut to `n` bytes with "…" (0: never cut).
std::string clip(std::string_view s, std::size_t n) {
  std::string out;
  for (char c : s) out += (static_cast<unsigned char>(c) < 0x20) ? ' ' : c;
  if (n == 0 || out.size() <= n) return out;
  std::size_t end = n - 1;
  while (end > 0 && (static_cast<unsigned char>(out[end]) & 0xC0) == 0x80) --end;
  return out.substr(0, end) + "…";
}

std::size_t display_width(std::string_view s) {
  std::size_t w = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++w;
  return w;
}

std::string pad(std::string_view s, std::size_t width, bool right = false) {
  std::size_t w = display_width(s);
  std::string fill(w < width ? width - w : 0, ' ');
  return right ? fill + std::string(s) : std::string(s) + fill;
}

fmt::text_style style_for(Headroom h) {
  switch (h) {
    case Headroom::underperforming:
      return fmt::fg(fmt::terminal_color::red) | fmt::emphasis::bold;
    case Headroom::moderate:
      return fmt::fg(fmt::terminal_color::yellow);
    case Headroom::saturated:
      return fmt::fg(fmt::terminal_color::green);
    case Headroom::unknown:
      return fmt::fg(fmt::terminal_color::bright_black);
  }
  return {};
}

// docs/method.md §22.8: the entry's signatures, indented under it and named by what they are:
// share of the entry's time, roof, its own roof %, bound and headroom.
template <typename Paint>
void signature_lines(std::string& out, const HeadEntry& e, std::size_t name_w, Paint paint) {
  const auto& sigs = e.work.signatures;
  if (sigs.size() < 2) return;
  double all_ms = 0.0;
  for (const SignatureWork& s : sigs) all_ms += s.count * s.t_launch_ms;
  const std::size_t shown = std::min<std::size_t>(sigs.size(), 8);
  for (std::size_t i = 0; i < shown; ++i) {
    const SignatureWork& s = sigs[i];
    const SignatureVerdict* v =
        i < e.verdict.signatures.size() ? &e.verdict.signatures[i] : nullptr;
    const bool judged = s.modeled && v && v->roof != Roof::none;
    std::string name = "  ↳ " + clip(s.label, 0);
    if (display_width(name) > name_w) {
      out += fmt::format("  {}\n", name);
      name.clear();
    }
    const Headroom h = judged ? v->headroom : Headroom::unknown;
    const std::string headroom = !judged             ? (s.modeled ? "no verdict" : "not modelled")
                                 : v->suspect        ? "infeasible"
                                 : v->dispatch_bound ? "dispatch-bound"
                                                     : to_string(h);
    out += fmt::format(
        "  {} {} {} {} {} {}\n", pad(name, name_w),
        pad(format_pct(all_ms > 0 ? s.count * s.t_launch_ms / all_ms : 0.0), 6, true),
        pad(v && v->roof != Roof::none ? to_string(v->roof) : "", 11),
        pad(judged ? roof_pct_shown(*v) : "—", 6, true), pad(judged ? to_string(v->bound) : "", 8),
        paint(pad(headroom, 15), style_for(h)));
  }
  if (sigs.size() > shown)
    out += fmt::format("      … {} more signatures (profile_roofline.json)\n", sigs.size() - shown);
}

// The run in a line (part, peaks, stage, entries in scope), then the ceilings sentence if any.
std::string text_headline(const Analysis& a) {
  const std::string peaks =
      a.peaks.hbm_bw_bytes_s
          ? fmt::format("{} memory roof from {} peaks", format_rate(*a.peaks.hbm_bw_bytes_s, "B/s"),
                        to_string(a.peaks.source))
          : std::string(a.peaks.hard_unknown ? "no peaks (hard unknown)" : "no peaks");
  std::string out =
      fmt::format("roofline: {}{}, {}; stage {}{}; {} entries ≥ {:g}% of GPU time, {} skipped\n",
                  a.arch.empty() ? "unknown gfx" : a.arch, a.product.empty() ? "" : "/" + a.product,
                  peaks, to_string(a.stage),
                  a.stage == EvidenceLevel::A ? " (estimate: annotate, rank by GPU time)" : "",
                  a.entries.size(), a.head_threshold_pct, a.skipped_count);
  if (const std::string c = ceilings_sentence(a.peaks, false); !c.empty())
    out += fmt::format("  ceilings: {}\n", c);
  return out;
}

// One entry's row of the table (on two lines when its name is wider than the column), then its
// signatures.
template <typename Paint>
void entry_row(std::string& out, const HeadEntry& e, std::size_t name_w, Paint paint) {
  const Verdict& v = e.verdict;
  std::string headroom = v.band.withheld                                          ? "spans classes"
                         : e.grade.problem && e.grade.problem->level == Level::L2 ? "not modelled"
                         : v.suspect                                              ? "infeasible"
                         : v.dispatch_bound
                             ? (v.in_graph_replay ? "short, in graph" : "dispatch-bound")
                             : to_string(v.headroom);
  std::string gain =
      v.headroom == Headroom::unknown ? "—" : fmt::format("+{:.2f}%", v.expected_e2e_gain_pct);
  std::string speed =
      v.headroom == Headroom::unknown ? "—" : fmt::format("{:.2f}×", v.attainable_speedup);
  std::string name = clip(shown_name(e), 0);
  if (display_width(name) > name_w) {
    out += fmt::format("  {}\n", name);
    name.clear();
  }
  out += fmt::format("  {} {} {} {} {} {} {} {}\n", pad(name, name_w),
                     pad(fmt::format("{:.2f}", e.pct_gpu_time), 6, true),
                     pad(to_string(e.cls.op_class), 11), pad(roof_pct_shown(v), 6, true),
                     pad(bound_shown(v), 8), paint(pad(headroom, 15), style_for(v.headroom)),
                     pad(gain, 7, true), speed);
  if (band_shown(v)) out += fmt::format("    ↳ {}\n", clip(band_line(v), 0));
  signature_lines(out, e, name_w, paint);
}

// Each entry in a few lines under the table: its verdict, the one formula with its numbers, and
// the assumption that moves it most (the report's entry detail has the whole derivation).
// A problem several entries share is said at the first of them; the others point to it
// (docs/method.md §16.4).
std::string entry_lines(const Analysis& a) {
  std::string out;
  for (std::size_t i = 0; i < a.entries.size(); ++i) {
    const HeadEntry& e = a.entries[i];
    const EntrySummary s = summarize_entry(e, a.peaks, same_cause_text(a, i));
    out += fmt::format("  {}. {} — {}\n", i + 1, clip(shown_name(e), 0), clip(s.verdict, 0));
    if (!s.formula.empty() || !s.assumption.empty())
      out +=
          fmt::format("     {}{}{}\n", clip(s.formula, 0),
                      s.formula.empty() || s.assumption.empty() ? "" : "; ", clip(s.assumption, 0));
  }
  return out;
}

}  // namespace

std::string render_text_summary(const Analysis& a, const std::vector<std::string>& written,
                                bool color) {
  std::string out;
  const auto paint = [&](const std::string& s, fmt::text_style st) {
    return color ? fmt::format(st, "{}", s) : s;
  };
  out += text_headline(a);
  if (!a.entries.empty()) {
    // Display names print whole (docs/method.md §16.6), at most k_max_display characters: the
    // column holds any; a signature's label wider than it has a line of its own.
    const std::size_t name_w = k_max_display;
    out += fmt::format("  {} {} {} {} {} {} {} {}\n", pad("kernel", name_w), pad("gpu%", 6, true),
                       pad("class", 11), pad("roof", 6, true), pad("bound", 8), pad("headroom", 15),
                       pad("gain", 7, true), "speedup");
    for (const auto& e : a.entries) entry_row(out, e, name_w, paint);
    const auto& by_pct = a.rankings.by_pct;
    const auto& by_gain = a.rankings.by_expected_gain;
    // docs/method.md §15: "most to win" only for a gain beyond the noise band.
    if (!by_gain.empty() && !by_pct.empty() && by_gain.front() != by_pct.front() &&
        gain_beyond_noise(a.entries[by_gain.front()].verdict)) {
      const VerdictCover cover = verdict_cover(a.entries);
      out += fmt::format(
          "  rankings disagree: most GPU time {}, most to win {} (among verdicts: {:.2f}% of GPU "
          "time{})\n",
          clip(shown_name(a.entries[by_pct.front()]), 0),
          clip(shown_name(a.entries[by_gain.front()]), 0), cover.with,
          cover.without > 0 ? fmt::format("; {:.2f}% has none", cover.without) : std::string());
    } else if (!by_gain.empty() &&
               a.entries[by_gain.front()].verdict.headroom != Headroom::unknown &&
               !gain_beyond_noise(a.entries[by_gain.front()].verdict)) {
      out += fmt::format(
          "  nothing to win beyond the noise band: no verdict's attainable speedup exceeds 1 + "
          "{:g}%\n",
          100.0 * k_noise_speedup);
    }
    out += entry_lines(a);
  }
  const auto degraded = std::count_if(a.diagnostics.begin(), a.diagnostics.end(),
                                      [](const Diagnostic& d) { return d.level.has_value(); });
  const auto errors = std::count_if(a.diagnostics.begin(), a.diagnostics.end(),
                                    [](const auto& d) { return d.severity == Severity::error; });
  if (degraded > 0 || errors > 0)
    out +=
        fmt::format("  {} degraded, {} skill errors (details in the report)\n", degraded, errors);
  for (const auto& w : written) out += fmt::format("  wrote {}\n", w);
  return out;
}

// Each message once per cause (docs/method.md §16.4): an entry's problem names every entry it
// covers by its display name (the raw kernel names stay in the artifact's degraded[]).
std::vector<std::string> diagnostic_lines(const Analysis& a) {
  std::vector<std::string> lines;
  for (const MessageGroup& g : message_groups(a)) {
    const Diagnostic& d = g.first;
    if (d.severity == Severity::error)
      lines.push_back("error: " + group_error_text(a, g));
    else if (d.level)
      lines.push_back(
          fmt::format("degraded [{}] {}: {}", to_string(*d.level), group_subject(a, g), d.text));
    else
      lines.push_back("warning: " + d.text);
  }
  return lines;
}

}  // namespace roofline::render
