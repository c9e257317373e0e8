// docs/method.md §22.8: an entry's signatures, each on its own roof; the entry judged from the
// sum of their roof times over the sum of their measured times, never from averaged bytes.
#include "roofline/analyze/steps/judge.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "roofline/base/units.hpp"

namespace roofline::analyze::judge_detail {
namespace {

// A signature as a one-signature entry: its own bytes, FLOPs, dtype and time.
WorkEstimate work_of(const SignatureWork& s) {
  WorkEstimate w;
  w.modeled = true;
  w.unit_launches = s.unit_launches;
  w.t_unit_ms = s.t_unit_ms;
  w.bytes = s.bytes;
  w.flops = s.flops;
  w.compute_dtype = s.compute_dtype;
  w.has_compute_peak_class = s.has_compute_peak_class;
  w.candidates.push_back(Candidate{s.model, s.bytes, s.flops, true, true, CandidateKind::model});
  return w;
}

SignatureVerdict verdict_of(const Verdict& j, const SignatureWork& s, double bw, double peak) {
  SignatureVerdict out;
  out.arithmetic_intensity = j.arithmetic_intensity;
  out.hbm_util = j.hbm_util;
  out.compute_util = j.compute_util;
  out.roofline_pct = j.roofline_pct;
  out.roofline_pct_raw = j.roofline_pct_raw;
  out.roof = j.roof;
  out.bound = j.bound;
  out.headroom = j.headroom;
  out.suspect = j.suspect;
  out.dispatch_bound = j.dispatch_bound;
  const double roof_unit_ms = std::max(s.bytes / bw, peak > 0 ? s.flops / peak : 0.0) * 1000.0;
  out.roof_launch_ms = roof_unit_ms / s.unit_launches;
  const double units = s.count / s.unit_launches;
  const double at_target =
      j.target_eff && *j.target_eff > 0 ? roof_unit_ms / *j.target_eff : roof_unit_ms;
  out.win_ms = units * std::max(0.0, s.t_unit_ms - at_target);
  return out;
}

}  // namespace

SignatureRoofs judge_signatures(const WorkEstimate& work, OpClass cls, double pct_gpu_time,
                                const ResolvedPeaks& peaks, const VerdictParams& params,
                                Verdict& v) {
  SignatureRoofs sums;
  const double bw = peaks.hbm_bw_bytes_s.value_or(0.0);
  double all_ms = 0.0;
  for (const SignatureWork& s : work.signatures) all_ms += s.count * s.t_launch_ms;
  for (const SignatureWork& s : work.signatures) {
    v.signatures.emplace_back();
    if (!s.modeled || !(bw > 0) || !(s.t_unit_ms > 0)) continue;
    const double share = all_ms > 0 ? pct_gpu_time * s.count * s.t_launch_ms / all_ms : 0.0;
    const Verdict j = judge(work_of(s), cls, share, peaks, params);
    const double peak =
        s.has_compute_peak_class ? peak_flops_for(peaks, s.compute_dtype.key).value_or(0.0) : 0.0;
    v.signatures.back() = verdict_of(j, s, bw, peak);
    const SignatureVerdict& sv = v.signatures.back();
    const double t_ms = s.count * s.t_launch_ms;
    if (sv.suspect && !sv.dispatch_bound && t_ms > sums.suspect_ms) {
      sums.suspect_ms = t_ms;
      sums.suspect_raw = j.roofline_pct_raw;
      sums.suspect_label = s.label;
    }
    const double units = s.count / s.unit_launches;
    sums.roof_ms += units * s.unit_launches * *sv.roof_launch_ms;
    sums.measured_ms += units * s.t_unit_ms;
    if (peak > 0 && s.flops / peak > s.bytes / bw)
      sums.compute_ms += units * s.unit_launches * *sv.roof_launch_ms;
    ++sums.judged;
    if (sv.headroom != Headroom::unknown &&  // most to win: among the verdicts only
        (!v.most_to_win || sv.win_ms > v.signatures[*v.most_to_win].win_ms))
      v.most_to_win = v.signatures.size() - 1;
  }
  return sums;
}

void signature_notes(const WorkEstimate& work, const SignatureRoofs& sums, Verdict& v) {
  v.notes.push_back(fmt::format(
      "judged from its {} modelled signature(s), each on its own roof: roof time Σ count·max(B/BW, "
      "FLOPs/peak) = {:.6g} ms over the measured Σ count·t = {:.6g} ms ({} of it on the compute "
      "roof); the signatures modelled carry {} of the entry's time",
      sums.judged, sums.roof_ms, sums.measured_ms,
      format_pct(sums.roof_ms > 0 ? sums.compute_ms / sums.roof_ms : 0.0),
      format_pct(work.modelled_share.value_or(1.0))));
  if (!v.most_to_win) return;
  const SignatureWork& s = work.signatures[*v.most_to_win];
  const SignatureVerdict& sv = v.signatures[*v.most_to_win];
  v.notes.push_back(fmt::format(
      "most to win: {} ({} launches at {:.6g} µs, {} of its {} roof): {:.6g} ms over its launches "
      "at its target",
      s.label, format_g(s.count), s.t_launch_ms * 1000.0, format_pct(sv.roofline_pct),
      to_string(sv.roof), sv.win_ms));
}

}  // namespace roofline::analyze::judge_detail
