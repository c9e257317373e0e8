// profile_roofline.md (docs/method.md §16): what an engineer pastes into a PR or a run log.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/render/chart_model.hpp"
#include "roofline/render/entry_summary.hpp"
#include "roofline/render/layer.hpp"
#include "roofline/render/md_util.hpp"
#include "roofline/render/messages.hpp"
#include "roofline/render/report.hpp"
#include "roofline/render/report_measured.hpp"

#include "roofline/render/report_entry_md.hpp"
namespace roofline::render {
namespace {

constexpr std::size_t k_signature_rows = 8;  // signature rows under an entry

using detail::entry_detail;
using detail::gain_text;
using detail::headroom_text;
using detail::key_pct_text;
using detail::pct_text;
using detail::speedup_text;

std::string peaks_line(const ResolvedPeaks& p) {
  if (p.source == PeaksSource::none)
    return p.hard_unknown ? "hard unknown (no numeric denominator)" : "unknown";
  // docs/method.md §5.7: the figures divided by, a measured one marked (the Ceilings row says
  // more).
  std::string s = p.hbm_bw_bytes_s
                      ? format_rate(*p.hbm_bw_bytes_s, "B/s") + " memory" +
                            (p.memory_ceiling == CeilingKind::measured ? " (measured)" : "")
                      : "memory unknown";
  for (const auto& [k, v] : p.flops)
    s += fmt::format(", {} {}{}", k, format_rate(v, "FLOP/s"),
                     compute_ceiling_for(p, k) == CeilingKind::measured ? " (measured)" : "");
  if (p.link)
    s += fmt::format(", link {} {}{}", p.link->topology, format_rate(p.link->bytes_s, "B/s"),
                     p.link->topology == "mesh" ? fmt::format(" × {:g} links", p.link->links)
                                                : std::string(" per GPU"));
  s += fmt::format("; source {}{}, confidence {}, compute {}", to_string(p.source),
                   p.section.empty() ? "" : " (" + md_escape(p.section) + ")",
                   to_string(p.confidence),
                   p.compute_validated ? "validated (bf16 = fp16)" : "not validated");
  return s;
}

void header(std::string& out, const Analysis& a) {
  const RunInfo& r = a.run;
  std::string model = r.model.empty() ? "unknown model" : r.model;
  // A path or hub id ("/models/x", "Qwen/Qwen3-30B-A3B") titles by its last component; free text
  // (anything with a space) stays whole.
  if (auto slash = model.find_last_of('/'); slash != std::string::npos &&
                                            slash + 1 < model.size() &&
                                            model.find(' ') == std::string::npos)
    model = model.substr(slash + 1);
  out += fmt::format("# Roofline headroom — {}\n\n", md_escape(model));
  out += "| | |\n|---|---|\n";
  if (a.round) out += fmt::format("| Round | {} |\n", md_escape(*a.round));
  out += fmt::format("| Model | {}{} |\n", md_escape(r.model.empty() ? "unknown" : r.model),
                     r.model_arch_class.empty() ? "" : " (" + md_escape(r.model_arch_class) + ")");
  out += fmt::format("| Hardware | {}{} |\n", a.arch.empty() ? "unknown gfx" : md_escape(a.arch),
                     !a.product.empty() ? ", product " + md_escape(a.product)
                     : !a.peaks.part.empty()
                         ? ", " + md_escape(a.peaks.part) + " (the section without product)"
                         : ", no product constraint");
  auto opt = [](const std::optional<double>& v) {
    return v ? fmt::format("{:g}", *v) : std::string("?");
  };
  out += fmt::format("| Workload | isl {}, osl {}, conc {}, tp {:g}{} |\n", opt(r.workload.isl),
                     opt(r.workload.osl), opt(r.workload.conc), r.tp,
                     r.backend.empty() ? "" : ", backend " + md_escape(r.backend));
  if (!r.layer_plan.empty()) out += fmt::format("| Layers | {} |\n", md_escape(r.layer_plan));
  if (r.n_prefill_steps || r.n_decode_steps)
    out += fmt::format("| Steps | {} prefill, {} decode |\n", opt(r.n_prefill_steps),
                       opt(r.n_decode_steps));
  out += fmt::format("| Stage | {} — {} |\n", to_string(a.stage),
                     a.stage == EvidenceLevel::A
                         ? "estimate from Top-N shapes and config: display and annotate only"
                     : a.stage == EvidenceLevel::B ? "captured shapes: rank as a secondary key"
                                                   : "measured counters: rank and cite");
  out += fmt::format("| Peaks | {} |\n", peaks_line(a.peaks));
  if (const std::string c = ceilings_sentence(a.peaks, true); !c.empty())
    out += fmt::format("| Ceilings | {} |\n", c);
  out += fmt::format("| Head | entries ≥ {:g}% of GPU time: {} analysed, {} skipped |\n",
                     a.head_threshold_pct, a.entries.size(), a.skipped_count);
  out += fmt::format("| Inputs | {} |\n", md_escape(r.inputs));
  out += "| Chart | [profile_roofline.svg](profile_roofline.svg) — the roofline below |\n\n";
}

// docs/method.md §22.8: a head entry's signatures as indented rows under it, named by what they
// are; the share of the entry's time, the per-launch time and bytes, each on its own roof.
void signature_rows(std::string& out, const HeadEntry& e) {
  const auto& sigs = e.work.signatures;
  if (sigs.size() < 2) return;
  double all_ms = 0.0;
  for (const SignatureWork& s : sigs) all_ms += s.count * s.t_launch_ms;
  const std::size_t shown = std::min<std::size_t>(sigs.size(), k_signature_rows);
  for (std::size_t i = 0; i < shown; ++i) {
    const SignatureWork& s = sigs[i];
    const SignatureVerdict* v =
        i < e.verdict.signatures.size() ? &e.verdict.signatures[i] : nullptr;
    const bool judged = s.modeled && v && v->roof != Roof::none;
    const std::string verdict = !judged ? std::string(s.modeled ? "no verdict" : "not modelled")
                                : v->suspect        ? std::string("infeasible")
                                : v->dispatch_bound ? std::string("dispatch-bound")
                                                    : std::string(to_string(v->headroom));
    out += fmt::format(
        "| &nbsp;&nbsp;↳ {} | {} of it, {}× | {} | {} | {} | {} | {} | {} | | |\n",
        md_code(s.label, true, k_table_name_chars),
        format_pct(all_ms > 0 ? s.count * s.t_launch_ms / all_ms : 0.0), format_g(s.count),
        v && v->roof != Roof::none ? to_string(v->roof) : "—", format_time_ms(s.t_launch_ms),
        s.modeled ? format_bytes(s.bytes / s.unit_launches, Digits::brief) : std::string("—"),
        judged ? roof_pct_shown(*v) : std::string("—"), judged ? to_string(v->bound) : "—",
        md_escape(verdict));
  }
  if (sigs.size() > shown)
    out += fmt::format(
        "| &nbsp;&nbsp;↳ … {} more signatures (profile_roofline.json) | | | | | | | | | |\n",
        sigs.size() - shown);
}

void summary(std::string& out, const Analysis& a) {
  out += "## Summary\n\n";
  if (a.entries.empty()) {
    out += "No Top-N entry reached the head threshold; nothing to analyse.\n\n";
    return;
  }
  out +=
      "| kernel | GPU time | class | unit time | bytes | roof % | bound | headroom | attainable | "
      "e2e gain |\n";
  out += "|---|--:|---|--:|--:|--:|---|---|--:|--:|\n";
  for (const auto& e : a.entries) {
    out += fmt::format(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", md_code(shown_name(e), true),
        pct_text(e), to_string(e.cls.op_class),
        e.work.t_unit_ms > 0 ? format_time_ms(e.work.t_unit_ms) : "—",
        e.work.modeled             ? format_bytes(e.work.bytes, Digits::brief)
        : e.work.bytes_lower_bound ? "≥ " + format_bytes(*e.work.bytes_lower_bound, Digits::brief)
                                   : std::string("—"),
        roof_pct_shown(e.verdict), bound_shown(e.verdict), headroom_text(e), speedup_text(e),
        band_shown(e.verdict) ? fmt::format("{} ({})", gain_text(e), band_gain_text(e.verdict))
                              : gain_text(e));
    signature_rows(out, e);
  }
  out += "\n";
}

// One sentence naming every entry whose place differs between the two orders.
std::string moves_sentence(const Analysis& a) {
  const auto& p = a.rankings.by_pct;
  const auto& g = a.rankings.by_expected_gain;
  std::vector<std::string> moves, no_verdict;
  for (std::size_t j = 0; j < g.size(); ++j) {
    const auto i = static_cast<std::size_t>(std::find(p.begin(), p.end(), g[j]) - p.begin());
    if (i == j || i == p.size()) continue;
    const HeadEntry& e = a.entries[g[j]];
    const std::string move =
        fmt::format("{} #{} → #{}", md_code(shown_name(e), false, 80), i + 1, j + 1);
    if (e.verdict.headroom == Headroom::unknown)
      no_verdict.push_back(move);
    else
      moves.push_back(move);
  }
  const auto join = [](const std::vector<std::string>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i)
      s += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + v[i];
    return s;
  };
  if (moves.empty() && no_verdict.empty()) return "The two orders agree on every position.";
  std::string s = "**Where they disagree** (by GPU time → by expected gain): ";
  if (!moves.empty()) s += join(moves);
  if (!no_verdict.empty())
    s += fmt::format("{}{} (no verdict: ranked after every entry that has one)",
                     moves.empty() ? "" : "; ", join(no_verdict));
  return s + ".";
}

// docs/method.md §10.8: the order by the sure gain (each band's low end), when a band is shown.
void sure_gain_order(std::string& out, const Analysis& a) {
  if (std::none_of(a.entries.begin(), a.entries.end(),
                   [](const HeadEntry& e) { return band_shown(e.verdict); }))
    return;
  out += "**By the sure gain** (the low end of each gain band, docs/method.md §10.8): ";
  std::size_t n = 0;
  for (std::size_t i : a.rankings.by_sure_gain) {
    const HeadEntry& e = a.entries[i];
    if (e.verdict.headroom == Headroom::unknown) continue;
    out += fmt::format("{}{}. {} (+{:.2f}%{})", n == 0 ? "" : ", ", n + 1,
                       md_code(shown_name(e), false, 80), sure_gain_pct(e.verdict),
                       band_shown(e.verdict) ? ", band " + band_gain_text(e.verdict) : "");
    ++n;
  }
  out += ".\n\n";
}

void rankings(std::string& out, const Analysis& a) {
  out += "## Rankings\n\n";
  out +=
      "Both orders are shown on purpose: GPU time says what is big, the roofline says what has "
      "room.\n\n";
  const auto& p = a.rankings.by_pct;
  const auto& g = a.rankings.by_expected_gain;
  out += "| # | by GPU time | by expected e2e gain |\n|--:|---|---|\n";
  for (std::size_t i = 0; i < std::max(p.size(), g.size()); ++i) {
    std::string left, right;
    if (i < p.size()) {
      const HeadEntry& e = a.entries[p[i]];
      left = fmt::format("{} ({})", md_code(shown_name(e), true, k_table_name_chars), pct_text(e));
    }
    if (i < g.size()) {
      const HeadEntry& e = a.entries[g[i]];
      right = fmt::format("{} ({})", md_code(shown_name(e), true, k_table_name_chars),
                          e.verdict.headroom == Headroom::unknown ? "no verdict" : gain_text(e));
    }
    out += fmt::format("| {} | {} | {} |\n", i + 1, left, right);
  }
  out += "\n";
  for (const auto& n : a.rankings.findings.notes) out += fmt::format("> {}\n\n", md_escape(n));
  if (p.empty() || g.empty()) return;
  const HeadEntry* top_pct = &a.entries[p.front()];
  const HeadEntry* top_gain = &a.entries[g.front()];
  if (top_gain->verdict.headroom == Headroom::unknown) {  // no verdict at all: nothing to say
  } else if (!gain_beyond_noise(top_gain->verdict)) {     // docs/method.md §15: within the noise
    out += fmt::format(
        "**Nothing to win beyond the noise band:** no entry with a verdict has an attainable "
        "speedup above 1 + {:g} % (docs/method.md §17.1), so none is named the one with the most "
        "to win; {} takes the most GPU time ({}).\n\n",
        100.0 * k_noise_speedup, md_code(shown_name(*top_pct), false), pct_text(*top_pct));
  } else if (top_pct == top_gain) {
    out += fmt::format(
        "**The rankings agree at the top:** {} is both the largest consumer and the one with the "
        "most to win.\n\n",
        md_code(shown_name(*top_pct), false));
  } else {
    const VerdictCover cover = verdict_cover(a.entries);
    out += fmt::format(
        "**The rankings disagree:** {} takes the most GPU time ({}), but {} has the most to win "
        "({} e2e{}) among the entries with a verdict ({:.2f}% of GPU time{}).{}\n\n",
        md_code(shown_name(*top_pct), false), pct_text(*top_pct),
        md_code(shown_name(*top_gain), false), gain_text(*top_gain),
        top_pct->verdict.headroom == Headroom::unknown ? "; the largest consumer has no verdict"
                                                       : " against " + gain_text(*top_pct),
        cover.with,
        cover.without > 0 ? fmt::format("; {:.2f}% has none", cover.without) : std::string(),
        top_pct->verdict.headroom == Headroom::saturated
            ? " The largest consumer is already near its roof: its lever is moving fewer bytes, "
              "not tuning."
            : "");
  }
  out += moves_sentence(a) + "\n\n";
  sure_gain_order(out, a);
}

void chart_section(std::string& out, const Analysis& a) {
  const chart::Model m = chart::chart_model(a);
  out += "## Roofline chart\n\n";
  out += "![Roofline: arithmetic intensity against achieved FLOP/s](profile_roofline.svg)\n\n";
  if (!m.empty_reason.empty())
    out += fmt::format("Nothing is plotted: {}.\n\n", md_escape(m.empty_reason));
  if (!m.points.empty()) {
    out += fmt::format(
        "{} of {} analysed entries plotted at (arithmetic intensity, achieved FLOP/s); marker "
        "area ∝ share of GPU time, colour = headroom class, dashed lines = target_eff × roof.",
        m.points.size(), a.entries.size());
    if (std::any_of(m.points.begin(), m.points.end(),
                    [](const chart::Point& p) { return p.band.size() == 2; }))
      out += " A band (docs/method.md §10.8) is the segment between its readings.";
    out += " Only entries with a verdict are places on the roof.\n\n";
  }
  if (!m.off_chart.empty()) {
    out += "Not on the chart:";
    for (std::size_t i = 0; i < m.off_chart.size(); ++i)
      out += fmt::format("{} {} ({})", i == 0 ? "" : ";", md_code(m.off_chart[i].name, false, 80),
                         md_escape(m.off_chart[i].reason));
    out += ".\n\n";
  }
}

// An entry in a few lines — verdict, the one formula, the assumption that moves it most — then its
// whole derivation collapsed (docs/method.md §16.2).
}  // namespace

std::string render_markdown(const Analysis& a) {
  std::string out;
  header(out, a);
  summary(out, a);
  rankings(out, a);
  chart_section(out, a);
  if (!a.entries.empty()) {
    out += "## Entries\n\n";
    for (std::size_t i = 0; i < a.entries.size(); ++i)
      entry_detail(out, a.entries[i], i + 1, a.peaks, same_cause_text(a, i));
  }
  out += detail::render_measured_inputs_md(a);
  // Each message once per cause, naming the entries it covers (docs/method.md §16.4).
  std::string degraded, errors;
  for (const MessageGroup& g : message_groups(a)) {
    const Diagnostic& d = g.first;
    if (d.level)
      degraded += fmt::format("| {} | {} | {} |\n", group_subject(a, g, true), to_string(*d.level),
                              md_escape(d.text));
    if (d.severity == Severity::error)
      errors += fmt::format("- {}\n", md_escape(group_error_text(a, g)));
  }
  if (!degraded.empty())
    out += "## Degraded\n\n| name | level | reason |\n|---|---|---|\n" + degraded + "\n";
  if (!errors.empty()) out += "## Skill errors\n\n" + errors + "\n";
  if (!a.notes.empty()) {
    out += "## Run notes\n\n";
    for (const auto& n : a.notes) out += fmt::format("- {}\n", md_escape(n));
    out += "\n";
  }
  out += "---\n*roofline " ROOFLINE_VERSION
         " — advisory: `pct_gpu_time` stays the primary key and measurement stays "
         "the judge. A kernel near its roof is finished with tuning, not finished: its lever is "
         "moving fewer bytes.*\n";
  return out;
}

}  // namespace roofline::render
