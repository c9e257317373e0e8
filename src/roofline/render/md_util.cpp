#include "roofline/render/md_util.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/steps/judge.hpp"
#include "roofline/render/layer.hpp"
#include "roofline/render/report.hpp"
#include "roofline/render/svg.hpp"

namespace roofline::render {

namespace {

// Cuts at a UTF-8 character boundary.
std::string cut(std::string_view s, std::size_t max_chars) {
  if (max_chars == 0 || s.size() <= max_chars) return std::string(s);
  std::size_t end = max_chars;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return std::string(s.substr(0, end)) + "…";
}

// Appends character `i` of `text` as Markdown text: whitespace as a space, control bytes as '?',
// and a backslash before every character that could start markup there.
void append_md_escaped(std::string& out, std::string_view text, std::size_t i) {
  const char c = text[i];
  const auto alnum = [&](std::size_t j) {
    return j < text.size() && std::isalnum(static_cast<unsigned char>(text[j]));
  };
  switch (c) {
    case '\n':
    case '\r':
    case '\t':
      out += ' ';
      break;
    case '|':
      out += "\\|";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '`':
      out += "\\`";
      break;
    case '*':
      out += "\\*";
      break;
    case ']':
      // Only a `]` followed by `(` or `:` can close a link or start a definition (the report
      // defines no reference, so `[0][0]` stays text); escape just those.
      if (i + 1 < text.size() && (text[i + 1] == '(' || text[i + 1] == ':'))
        out += "\\]";
      else
        out += ']';
      break;
    // CommonMark backslash escapes: literal in every renderer, and legible in the raw text
    // (entities such as &lt; are neither).
    case '<':
      out += "\\<";
      break;
    case '>':
      out += "\\>";
      break;
    case '&':
      out += "\\&";
      break;
    case '_':
      // Intraword underscores cannot start emphasis; escape only at word edges.
      if (i > 0 && alnum(i - 1) && alnum(i + 1))
        out += '_';
      else
        out += "\\_";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        out += '?';
      else
        out += c;
  }
}

}  // namespace

std::string md_code(std::string_view text, bool in_table, std::size_t max_chars) {
  std::string s;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t')
      s += ' ';
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      s += '?';
    else
      s += c;
  }
  s = cut(s, max_chars);
  std::size_t longest = 0, run = 0;
  for (char c : s) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  if (in_table) {
    std::string escaped;
    for (char c : s) {
      if (c == '|')
        escaped += "\\|";
      else
        escaped += c;
    }
    s = std::move(escaped);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = s.empty() || s.front() == '`' || s.back() == '`' || s.front() == ' ';
  return pad ? fence + " " + s + " " + fence : fence + s + fence;
}

std::string md_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) append_md_escaped(out, text, i);
  return out;
}

std::string ceilings_sentence(const ResolvedPeaks& p, bool markdown) {
  if (p.source == PeaksSource::none) return "";
  const std::string command =
      markdown ? "`roofline peaks measure-script`" : "roofline peaks measure-script";
  const char* figures =
      p.source == PeaksSource::derived ? "the derived pin bandwidth" : "datasheet figures";
  if (!any_measured_ceiling(p))
    return fmt::format(
        "{}, which no kernel reaches: every attainable speedup is an upper bound; measure this "
        "part's ceilings with {} (docs/method.md §5.7)",
        figures, command);
  std::string measured, rest;
  if (p.memory_ceiling == CeilingKind::measured && p.hbm_bw_bytes_s && p.datasheet_hbm_bw_bytes_s)
    measured =
        fmt::format("memory {} ({:.3f} of the datasheet {})", format_rate(*p.hbm_bw_bytes_s, "B/s"),
                    *p.hbm_bw_bytes_s / *p.datasheet_hbm_bw_bytes_s,
                    format_rate(*p.datasheet_hbm_bw_bytes_s, "B/s"));
  else
    rest = "memory";
  for (const auto& [key, kind] : p.compute_ceiling) {
    if (kind == CeilingKind::datasheet) {
      rest += (rest.empty() ? "" : ", ") + key.str();
      continue;
    }
    const double used = p.flops.at(key), datasheet = p.datasheet_flops.at(key);
    measured += fmt::format("{}{} {} ({:.3f} of the datasheet {})", measured.empty() ? "" : ", ",
                            key.str(), format_rate(used, "FLOP/s"), used / datasheet,
                            format_rate(datasheet, "FLOP/s"));
  }
  std::string source =
      p.measured && !p.measured->source.empty() ? p.measured->source : "(no source given)";
  if (!markdown) {  // the terminal's line names the source; the report quotes it whole
    const std::size_t cut = std::min({source.find(" ("), source.find(": "), source.find("; ")});
    if (cut != std::string::npos || source.size() > 60)
      source = svg::clip(source.substr(0, cut), 60) + " (the report quotes it in full)";
  }
  return fmt::format(
      "measured {} — by {}{}; feasibility is still judged on the datasheet", measured,
      markdown ? md_escape(source) : source,
      rest.empty()
          ? ""
          : fmt::format("; datasheet for {}, whose attainable speedups are upper bounds", rest));
}

const std::string& shown_name(const HeadEntry& e) {
  return e.display_name.empty() ? e.ranking_name : e.display_name;
}

namespace {

std::string pct_range(const Interval& i) {
  return format_range(format_pct(i.lo), format_pct(i.hi));
}

std::string speedup_range(const Interval& i) {
  return format_range(fmt::format("{:.2f}×", i.lo), fmt::format("{:.2f}×", i.hi));
}

}  // namespace

// A band is shown where some figure's ends read apart; one whose ends agree is a point.
bool band_shown(const Verdict& v) {
  const Band& b = v.band;
  if (!(b.kind == BandKind::holds || b.kind == BandKind::spans) || !b.expected_e2e_gain_pct ||
      !b.roofline_pct || !b.attainable_speedup)
    return false;
  return pct_range(*b.roofline_pct).find(" to ") != std::string::npos ||
         speedup_range(*b.attainable_speedup).find(" to ") != std::string::npos ||
         band_gain_text(v).find(" to ") != std::string::npos;
}

std::string band_gain_text(const Verdict& v) {
  const Interval& g = *v.band.expected_e2e_gain_pct;
  return format_range(fmt::format("+{:.2f}%", g.lo), fmt::format("+{:.2f}%", g.hi));
}

std::string band_line(const Verdict& v) {
  const Band& b = v.band;
  const std::string classes = classes_text(b.classes);
  return fmt::format(
      "band over {} readings: roofline {}, attainable {}, gain {}; {}", b.readings.size(),
      pct_range(*b.roofline_pct), speedup_range(*b.attainable_speedup), band_gain_text(v),
      b.kind == BandKind::holds ? fmt::format("{} across the band", classes)
                                : fmt::format("spans {}{} — to settle it: {}", classes,
                                              b.withheld ? " (no verdict)" : "", b.settle));
}

}  // namespace roofline::render
