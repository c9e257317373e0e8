// summarize_entry (entry_summary.hpp): the verdict, its one formula, its weakest assumption.
#include "roofline/render/entry_summary.hpp"

#include <fmt/format.h>

#include "roofline/base/units.hpp"

namespace roofline::render {
namespace entry_summary_impl {  // named, not anonymous: unity batches share one translation unit

std::string verdict_text(const HeadEntry& e, const std::string& same_as) {
  const Verdict& v = e.verdict;
  const std::string reason = !e.grade.problem  ? std::string()
                             : same_as.empty() ? e.grade.problem->reason
                                               : "the same cause as " + same_as + ", said there";
  if (v.band.withheld && e.grade.problem) return "band across classes: " + reason;
  if (e.grade.problem && e.grade.problem->level == Level::L2) return "not modelled: " + reason;
  if (v.suspect)  // infeasible first, whatever else holds (docs/method.md §10.6)
    return fmt::format(
        "infeasible, no verdict: the byte/FLOP model is refuted by the measured time{}{}",
        v.roofline_pct_raw ? fmt::format(" (a raw ratio of {})", format_pct(v.roofline_pct_raw))
                           : std::string(),
        v.dispatch_bound ? "; it is also timed by its launch (dispatch-bound)" : "");
  if (v.dispatch_bound && v.in_graph_replay)
    return "no verdict: a short kernel in a captured graph, bounded by its own ramp and tail; "
           "lever: fusion";
  if (v.dispatch_bound) return "no verdict: dispatch-bound (timed by its launch); lever: fusion";
  if (v.headroom == Headroom::unknown && !v.no_roof_reason.empty())
    return "no verdict: " + (same_as.empty() ? v.no_roof_reason : reason);
  if (v.headroom == Headroom::unknown) return "no verdict: no roof for this part";
  return fmt::format("{}-bound, {}{}: +{:.2f}% e2e at {:.2f}× attainable (target_eff {:g})",
                     to_string(v.bound), to_string(v.headroom),
                     v.ceiling_beaten
                         ? fmt::format(" at {} of the measured ceiling (the ceiling beaten)",
                                       format_pct(v.roofline_pct))
                         : std::string(),
                     v.expected_e2e_gain_pct, v.attainable_speedup, v.target_eff.value_or(0.0));
}

std::string formula_text(const HeadEntry& e, const ResolvedPeaks& peaks) {
  const WorkEstimate& w = e.work;
  const Verdict& v = e.verdict;
  if (!w.modeled || w.t_unit_ms <= 0) return "";
  if (v.band.withheld) {  // the taken reading is one of the band's, not the entry's position
    HeadEntry point = e;
    point.verdict.band.withheld = false;
    return "the taken reading: " + formula_text(point, peaks);
  }
  const std::string t = format_time_ms(w.t_unit_ms);
  if (v.compute_axis && v.achieved_flops && v.ridge_point && peaks.hbm_bw_bytes_s)
    return fmt::format("{} FLOP / {} = {} = {} of {} ({})", format_count(w.flops), t,
                       format_rate(*v.achieved_flops, "FLOP/s"), format_pct(v.compute_util),
                       format_rate(*v.ridge_point * *peaks.hbm_bw_bytes_s, "FLOP/s"),
                       w.compute_dtype.key);
  if (v.achieved_bw_bytes_s && v.roof == Roof::link && v.link_util)
    return fmt::format("{} / {} = {} = {} of the link roof", format_bytes(w.bytes, Digits::brief),
                       t, format_rate(*v.achieved_bw_bytes_s, "B/s"), format_pct(v.link_util));
  if (v.achieved_bw_bytes_s && v.hbm_util && peaks.hbm_bw_bytes_s)
    return fmt::format("{} / {} = {} = {} of {}", format_bytes(w.bytes, Digits::brief), t,
                       format_rate(*v.achieved_bw_bytes_s, "B/s"), format_pct(v.hbm_util),
                       format_rate(*peaks.hbm_bw_bytes_s, "B/s"));
  return fmt::format("{} and {} FLOP in {}", format_bytes(w.bytes, Digits::brief),
                     format_count(w.flops), t);
}

// The byte model the figures rest on, and the largest alternative it was chosen over.
std::string assumption_text(const HeadEntry& e) {
  const WorkEstimate& w = e.work;
  if (!w.modeled || w.candidates.empty() || w.chosen >= w.candidates.size()) return "";
  std::string out = fmt::format("byte model '{}'", w.candidates[w.chosen].label);
  const Candidate* other = nullptr;
  for (std::size_t i = 0; i < w.candidates.size(); ++i)
    if (i != w.chosen && (!other || w.candidates[i].bytes > other->bytes)) other = &w.candidates[i];
  if (other)
    out +=
        fmt::format(" ('{}' would be {})", other->label, format_bytes(other->bytes, Digits::brief));
  if (e.stage == EvidenceLevel::C) out += "; bytes measured (stage C)";
  return out;
}

}  // namespace entry_summary_impl

EntrySummary summarize_entry(const HeadEntry& e, const ResolvedPeaks& peaks,
                             const std::string& same_as) {
  return {entry_summary_impl::verdict_text(e, same_as), entry_summary_impl::formula_text(e, peaks),
          entry_summary_impl::assumption_text(e)};
}

std::string roof_pct_shown(const Verdict& v) {
  return v.headroom == Headroom::unknown ? std::string("—") : format_pct(v.roofline_pct);
}

std::string bound_shown(const Verdict& v) {
  return v.band.withheld ? "—" : to_string(v.bound);
}

std::string roof_pct_shown(const SignatureVerdict& v) {
  return v.headroom == Headroom::unknown ? std::string("—") : format_pct(v.roofline_pct);
}

VerdictCover verdict_cover(const std::vector<HeadEntry>& entries) {
  VerdictCover c;
  for (const HeadEntry& e : entries)
    (e.verdict.headroom == Headroom::unknown ? c.without : c.with) += e.pct_gpu_time;
  return c;
}

}  // namespace roofline::render
