// The entry parts of profile_roofline.md (docs/method.md §16): each entry's section, and the short
// texts the report's tables share with it.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/render/chart_model.hpp"
#include "roofline/render/entry_summary.hpp"
#include "roofline/render/layer.hpp"
#include "roofline/render/md_util.hpp"
#include "roofline/render/report.hpp"
#include "roofline/render/report_entry_md.hpp"
#include "roofline/render/report_measured.hpp"

namespace roofline::render::detail {

std::string pct_text(const HeadEntry& e) {
  if (!e.serving_weighted_pct) return fmt::format("{:g}%", e.pct_gpu_time);
  return fmt::format("{:g}% · serving-weighted {:g}%", e.pct_gpu_time, *e.serving_weighted_pct);
}

std::string key_pct_text(const HeadEntry& e) {
  return fmt::format("{:g}%{}", e.share.pct, e.share.serving_weighted ? " serving-weighted" : "");
}

std::string gain_text(const HeadEntry& e) {
  if (e.verdict.headroom == Headroom::unknown) return "—";
  return fmt::format("+{:.2f}%", e.verdict.expected_e2e_gain_pct);
}

std::string speedup_text(const HeadEntry& e) {
  if (e.verdict.headroom == Headroom::unknown) return "—";
  return fmt::format("{:.3f}×", e.verdict.attainable_speedup);
}

std::string headroom_text(const HeadEntry& e) {
  if (e.verdict.band.withheld) return "no verdict (its band spans classes)";
  if (e.grade.problem && e.grade.problem->level == Level::L2) return "not modelled";
  if (e.verdict.suspect) return "unknown (infeasible)";
  if (e.verdict.dispatch_bound && e.verdict.in_graph_replay)
    return "unknown (short kernel in a captured graph)";
  if (e.verdict.dispatch_bound) return "unknown (dispatch-bound)";
  return to_string(e.verdict.headroom);
}
namespace {

void entry_summary_md(std::string& out, const HeadEntry& e, std::size_t index,
                      const ResolvedPeaks& peaks, const std::string& same_as) {
  out += fmt::format("### {}. {} — {}, {}\n\n", index, md_code(shown_name(e), false),
                     to_string(e.cls.op_class), headroom_text(e));
  const EntrySummary s = summarize_entry(e, peaks, same_as);
  out += fmt::format("**Verdict:** {}", md_escape(s.verdict));
  if (!s.formula.empty()) out += fmt::format("  \n**Formula:** {}", md_escape(s.formula));
  if (!s.assumption.empty()) out += fmt::format("  \n**Assumes:** {}", md_escape(s.assumption));
  out += "\n\n<details><summary>Derivation, evidence and notes</summary>\n\n";
}

// The work line: bytes and FLOPs per unit, the byte model chosen and every candidate with its
// feasibility, and what feasible means here.
void entry_work_md(std::string& out, const WorkEstimate& w, const ResolvedPeaks& peaks) {
  out += fmt::format("- **Work:** {} and {} FLOP per unit, byte model '{}'; candidates:",
                     format_bytes(w.bytes, Digits::brief), format_count(w.flops),
                     md_escape(w.candidates[w.chosen].label));
  for (std::size_t i = 0; i < w.candidates.size(); ++i) {
    const auto& c = w.candidates[i];
    out += fmt::format("{} {} {} ({})", i == 0 ? "" : ",", md_escape(c.label),
                       format_bytes(c.bytes, Digits::brief),
                       w.comm        ? "link"
                       : !c.feasible ? "feasibility unknown"
                       : *c.feasible ? "feasible"
                                     : "infeasible");
  }
  if (w.comm)
    out += " — judged on the link roof, not against HBM";
  else if (const auto budget = byte_budget(feasibility_bw(peaks), w.t_unit_ms))
    out += fmt::format(" — feasible means ≤ peak_bw × t_unit = {}",
                       format_bytes(*budget, Digits::brief));
  out += "\n";
}

// The utilization line: memory and compute (or the link, for a collective), each as its division.
void entry_utilization_md(std::string& out, const HeadEntry& e, const ResolvedPeaks& peaks) {
  const WorkEstimate& w = e.work;
  const Verdict& v = e.verdict;
  const std::string t = format_time_ms(w.t_unit_ms);
  std::string hbm = "unknown (no memory peak)";
  if (v.hbm_util && v.achieved_bw_bytes_s && peaks.hbm_bw_bytes_s)
    hbm = fmt::format("{} / {} = {} = {} of {}", format_bytes(w.bytes, Digits::brief), t,
                      format_rate(*v.achieved_bw_bytes_s, "B/s"), format_pct(v.hbm_util),
                      format_rate(*peaks.hbm_bw_bytes_s, "B/s"));
  std::string comp =
      fmt::format("unknown (no {} peak)",
                  w.compute_dtype.key.empty() ? std::string("compute") : w.compute_dtype.key);
  if (!w.has_compute_peak_class) comp = "not counted (memory-bound class)";
  if (v.compute_util && v.achieved_flops && v.ridge_point && peaks.hbm_bw_bytes_s)
    comp = fmt::format("{} FLOP / {} = {} = {} of {} ({})", format_count(w.flops), t,
                       format_rate(*v.achieved_flops, "FLOP/s"), format_pct(v.compute_util),
                       format_rate(*v.ridge_point * *peaks.hbm_bw_bytes_s, "FLOP/s"),
                       w.compute_dtype.key);
  if (v.roof == Roof::link || w.comm) {
    out += fmt::format("- **Utilization:** link {} per unit{} (hbm and compute not counted)\n",
                       format_bytes(w.bytes, Digits::brief),
                       v.link_util ? fmt::format(" = {} = {} of the link roof",
                                                 format_rate(*v.achieved_bw_bytes_s, "B/s"),
                                                 format_pct(v.link_util))
                                   : std::string(": no link roof for this part"));
  } else {
    out += fmt::format("- **Utilization:** memory {}; compute {}\n", hbm, comp);
  }
}

// The roof line (AI against the ridge), the verdict line with its arithmetic or why there is
// none, and what the measurement implies.
void entry_verdict_md(std::string& out, const HeadEntry& e) {
  const Verdict& v = e.verdict;
  if (v.arithmetic_intensity)
    out += fmt::format(
        "- **Roof:** AI = FLOPs / bytes = {:.3g} FLOP/B{} → {} roof\n", *v.arithmetic_intensity,
        v.ridge_point ? fmt::format(" {} ridge {:.3g}", v.compute_axis ? ">" : "≤", *v.ridge_point)
                      : std::string(", no ridge (no compute peak)"),
        v.compute_axis ? "compute" : "memory");
  if (v.headroom != Headroom::unknown && v.roofline_pct)
    out += fmt::format(
        "- **Verdict:** {}-bound; {} of the {}{} roof against target_eff {:g} → {}; attainable = "
        "max(1, {:g} / {:.3f}) = {}; expected e2e gain = {} × (1 − 1/{:.3f}) = {}\n",
        to_string(v.bound), format_pct(v.roofline_pct),
        v.roof == Roof::link ? "link"
        : v.compute_axis     ? "compute"
                             : "memory",
        v.ceiling_beaten ? " (measured, the ceiling beaten)" : "", v.target_eff.value_or(0.0),
        to_string(v.headroom), v.target_eff.value_or(0.0), *v.roofline_pct, speedup_text(e),
        key_pct_text(e), v.attainable_speedup, gain_text(e));
  else  // no verdict, no place on the roof (docs/method.md §10.6): the raw ratio, said as such
    out +=
        fmt::format("- **Verdict:** none — {}{}\n", headroom_text(e),
                    v.roofline_pct_raw ? fmt::format("; the raw ratio {} is no place on the roof",
                                                     format_pct(v.roofline_pct_raw))
                                       : "");
  if (band_shown(v)) out += fmt::format("- **Band (docs/method.md §10.8):** {}\n", band_line(v));
  if (v.bytes_upper_bound)
    out += fmt::format("- **Measurement implies:** at most {} per unit{}\n",
                       format_bytes(*v.bytes_upper_bound, Digits::brief),
                       v.implied_max_experts_hit ? fmt::format(", at most {:.0f} distinct experts",
                                                               *v.implied_max_experts_hit)
                                                 : "");
}

// The route, byte-reduction levers, confidence, and the notes and assumptions; a note that says
// the problem an earlier entry said points there instead (docs/method.md §16.4).
void entry_advice_md(std::string& out, const HeadEntry& e, const std::string& same_as) {
  out += fmt::format("- **Route:** {}\n", md_escape(e.advice.route));
  if (!e.advice.levers.empty()) {
    out += "- **Byte-reduction levers:**\n";
    for (const auto& l : e.advice.levers) out += fmt::format("  - {}\n", md_escape(l));
  }
  out += fmt::format("- **Confidence:** {} (stage {}){}\n", to_string(e.grade.confidence),
                     to_string(e.stage), e.editable && !*e.editable ? "; not editable" : "");
  out += "- **Notes and assumptions:**\n";
  // An infeasible entry's verdict says the measurement, not its problem's text: its notes keep it.
  const std::string reason = e.grade.problem && e.grade.problem->level != Level::L3
                                 ? e.grade.problem->reason
                                 : std::string();
  const std::string pointer = same_as.empty() ? "said in the verdict above"
                                              : "the same cause as " + same_as + ", said there";
  for (std::string n : e.notes) {
    if (const std::size_t at = n.find(reason); !reason.empty() && at != n.npos)
      n.replace(at, reason.size(), pointer);
    out += fmt::format("  - {}\n", md_escape(n));
  }
}

}  // namespace

void entry_detail(std::string& out, const HeadEntry& e, std::size_t index,
                  const ResolvedPeaks& peaks, const std::string& same_as) {
  const WorkEstimate& w = e.work;
  entry_summary_md(out, e, index, peaks, same_as);
  if (shown_name(e) != e.name) out += fmt::format("- **Kernel:** {}\n", md_code(e.name, false));
  out += fmt::format("- **GPU time:** {} ({} regime{})\n", pct_text(e), regime_label(e.regime),
                     e.regime.launches_per_step
                         ? fmt::format(", {:g} launches/step", *e.regime.launches_per_step)
                         : "");
  if (e.regime.t_ms)
    out +=
        fmt::format("- **Unit:** {}: {} per launch, {} per unit\n",
                    md_escape(w.unit.empty() ? "1 launch" : w.unit), format_time_ms(*e.regime.t_ms),
                    format_time_ms(w.t_unit_ms > 0 ? w.t_unit_ms : *e.regime.t_ms));
  if (w.modeled) {
    entry_work_md(out, w, peaks);
    out += detail::measured_vs_model_md(e);
    entry_utilization_md(out, e, peaks);
    entry_verdict_md(out, e);
  }
  if (!w.modeled && w.bytes_lower_bound)
    out += fmt::format(
        "- **Evidence:** operand-bytes lower bound {} per launch (docs/method.md §8.16; no "
        "verdict)\n",
        format_bytes(*w.bytes_lower_bound, Digits::brief));
  entry_advice_md(out, e, same_as);
  out += "\n</details>\n\n";
}

}  // namespace roofline::render::detail
