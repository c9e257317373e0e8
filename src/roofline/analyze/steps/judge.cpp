// Step 9, judge (docs/method.md §10, §10.6 L3): utilization, bound, headroom verdict, sanity band.
#include "roofline/analyze/steps/judge.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/analyze/layer.hpp"
#include "roofline/base/units.hpp"
#include "roofline/inputs/calibration.hpp"
#include "roofline/inputs/target_eff.hpp"

namespace roofline::analyze {
namespace {

constexpr double k_bound_util = 0.60;
constexpr double k_sane_low = 0.001;
constexpr double k_sane_high = 1.0;

}  // namespace

std::optional<double> target_eff_for(OpClass cls, const std::string& product) {
  return target_eff_prior(builtin_target_eff(), cls, product);
}

namespace {

// What an entry's axis divides by, and what bounds the measurement (docs/method.md §5.7, §10.6):
// the datasheet figures give the upper bounds and the sanity band; `to_datasheet` is ceiling /
// datasheet on the axis (1 without a measured ceiling).
struct AxisRoof {
  double datasheet_bw = 0.0;     // bytes_upper_bound = datasheet_bw · t_unit
  double datasheet_flops = 0.0;  // flops_upper_bound = datasheet_flops · t_unit (0: none)
  double to_datasheet = 1.0;
  CeilingKind ceiling = CeilingKind::datasheet;
  const char* axis = "memory";
};

void settle_suspect(Verdict& v, double raw, double raw_ds, const WorkEstimate& work,
                    const ResolvedPeaks& peaks, const AxisRoof& roof) {
  const double t_s = work.t_unit_ms / 1000.0;
  const bool measured = roof.ceiling == CeilingKind::measured;
  v.stage_c_candidate = true;
  v.bytes_upper_bound = byte_budget(roof.datasheet_bw, work.t_unit_ms);
  if (roof.datasheet_flops > 0) v.flops_upper_bound = roof.datasheet_flops * t_s;
  std::string no_routing_claim;
  if (work.moe && v.bytes_upper_bound && work.moe->weight_elems_per_expert > 0 &&
      work.moe->weight_bytes_per_elem > 0) {
    const auto experts_at = [&](double w) {
      return std::max(0.0, std::floor((*v.bytes_upper_bound - work.moe->activation_bytes) /
                                      (work.moe->weight_elems_per_expert * w)));
    };
    const double w = work.moe->weight_bytes_per_elem;
    if (work.dtype_doubt.empty())
      v.implied_max_experts_hit = experts_at(w);
    else  // docs/method.md §23.8: no claim on a model whose dtypes are in doubt
      no_routing_claim = fmt::format(
          "no routing claim: {}. At {} B a weight the measurement allows at most {:.0f} of {:.0f} "
          "experts{}: which holds depends on the weights' format, not on the routing",
          work.dtype_doubt, format_g(w), experts_at(w), work.moe->experts,
          w > 1.0 ? fmt::format(", at 1 B (fp8 weights) at most {:.0f}", experts_at(1.0))
                  : std::string());
  }
  const std::string of_roof =
      measured ? fmt::format("of the datasheet {} roof ({} of the measured ceiling)", roof.axis,
                             format_pct(raw))
               : fmt::format("of the {} roof", roof.axis);
  std::string why = !(work.bytes > 0) ? "bytes <= 0"
                    : raw_ds > k_sane_high
                        ? fmt::format(
                              "{} {} is above 100%: the byte/FLOP model is refuted by the "
                              "measured time",
                              format_pct(raw_ds), of_roof)
                        : fmt::format("{} {} is below 0.1%: the model or the time is off",
                                      format_pct(raw_ds), of_roof);
  v.notes.push_back(
      fmt::format("infeasible (L3): {}; no verdict and no place on the roof (roofline_pct null, "
                  "roofline_pct_raw {:.4g}), stage-C (counters) candidate",
                  why, raw));
  if (v.bytes_upper_bound)
    v.notes.push_back(
        fmt::format("the measurement allows at most bytes_upper_bound = {}·t_unit = {:.4g} B",
                    v.roof == Roof::link                            ? "link roof"
                    : peaks.memory_ceiling == CeilingKind::measured ? "datasheet peak_bw"
                                                                    : "peak_bw",
                    *v.bytes_upper_bound));
  if (v.implied_max_experts_hit)
    v.notes.push_back(
        fmt::format("implied_max_experts_hit = floor((bytes_upper_bound - activation bytes) / "
                    "(weight_elems·w)) = {:.0f} of {:.0f} "
                    "experts: routing evidence (e.g. group-limited routing or expert parallelism)",
                    *v.implied_max_experts_hit, work.moe->experts));
  if (!no_routing_claim.empty()) v.notes.push_back(no_routing_claim);
  if (v.compute_axis && !peaks.compute_validated && raw_ds > k_sane_high)
    v.notes.push_back(
        "a compute-axis ratio above 100% is most often an unvalidated compute peak (bf16 != "
        "fp16)");
}

// Dispatch floor, sanity band (L3, judged on the datasheet figure) and headroom for a raw ratio
// against the axis's ceiling. A ratio above 1 of a measured ceiling and at most datasheet /
// measured is real: the benchmark was not the best kernel; it reads saturated at its own figure,
// the ceiling beaten (docs/method.md §5.7). Only an entry with a verdict has a roofline_pct: one
// without is no place on the roof (§10.6).
void settle(Verdict& v, double raw, const WorkEstimate& work, const ResolvedPeaks& peaks,
            const VerdictParams& params, double pct_gpu_time, const AxisRoof& roof) {
  const double raw_ds = raw * roof.to_datasheet;
  v.dispatch_bound = work.t_unit_ms * 1000.0 <= 2.0 * params.launch_overhead_us;
  v.suspect = !(work.bytes > 0) || raw_ds < k_sane_low || raw_ds > k_sane_high;
  if (v.dispatch_bound || v.suspect) {
    if (v.dispatch_bound) {
      v.bound = Bound::latency;
      v.in_graph_replay = params.graph_replayed;
      v.notes.push_back(
          v.in_graph_replay
              ? fmt::format("short kernel in a captured graph: t_unit {:.3f} µs ≤ 2 × {:g} µs; "
                            "a graph replay has no CPU launch, so what bounds it is its own ramp "
                            "and tail (the first wave starting, the last draining), not its bytes "
                            "or math; no verdict; lever: fusion into a neighbouring kernel",
                            work.t_unit_ms * 1000.0, params.launch_overhead_us)
              : fmt::format("dispatch-bound: t_unit {:.3f} µs ≤ 2 × {:g} µs launch overhead: "
                            "timed by dispatch, not by its bytes or math; no verdict; lever: "
                            "fusion / graph capture",
                            work.t_unit_ms * 1000.0, params.launch_overhead_us));
    }
    if (v.suspect) settle_suspect(v, raw, raw_ds, work, peaks, roof);
    return;
  }
  v.ceiling_beaten = raw > k_sane_high;
  if (v.ceiling_beaten)
    v.notes.push_back(fmt::format(
        "{} of the measured {} ceiling, {} of the datasheet: the ceiling beaten — faster than the "
        "benchmark that measured it, which is real (feasibility is judged on the datasheet); "
        "roofline_pct is that figure, the verdict saturated",
        format_pct(raw), roof.axis, format_pct(raw_ds)));
  if (!v.target_eff) return;
  v.roofline_pct = raw;
  const double target = *v.target_eff;
  v.attainable_speedup = std::max(1.0, target / raw);
  v.expected_e2e_gain_pct = pct_gpu_time * (1.0 - 1.0 / v.attainable_speedup);
  v.headroom = raw >= 0.9 * target   ? Headroom::saturated
               : raw >= 0.6 * target ? Headroom::moderate
                                     : Headroom::underperforming;
}

// The link roof (docs/method.md §10.7): aggregate = min(n−1, links)·bytes_s on a mesh, bytes_s
// through a switch; link_util plays hbm_util's part, hbm_util and compute_util stay null.
Verdict judge_link(Verdict v, const WorkEstimate& work, double pct_gpu_time,
                   const ResolvedPeaks& peaks, const VerdictParams& params) {
  v.roof = Roof::link;
  const double t_s = work.t_unit_ms / 1000.0;
  v.achieved_bw_bytes_s = work.bytes / t_s;
  if (!peaks.link) {
    v.notes.push_back(
        "no link row for this part in the peaks table (link: {topology, bytes_s, links}): the "
        "link roof is unknown, no verdict for this collective (L1-style)");
    return v;
  }
  const LinkPeak& l = *peaks.link;
  const double n = work.comm ? work.comm->group : l.links + 1.0;
  const bool mesh = l.topology == "mesh";
  const double aggregate = mesh ? std::min(n - 1.0, l.links) * l.bytes_s : l.bytes_s;
  if (!(aggregate > 0)) {
    v.notes.push_back("link roof is zero for this group: no verdict");
    return v;
  }
  const double util = work.bytes / t_s / aggregate;
  v.link_util = util;
  v.roofline_pct_raw = util;
  v.bound = util >= k_bound_util ? Bound::memory : Bound::latency;
  const std::string roof_how =
      mesh ? fmt::format("mesh: min(n−1 = {:g}, links {:g}) × {:.4g} B/s = {:.4g} B/s", n - 1.0,
                         l.links, l.bytes_s, aggregate)
           : fmt::format("switch: {:.4g} B/s per GPU whatever n", aggregate);
  settle(v, util, work, peaks, params, pct_gpu_time,
         AxisRoof{aggregate, 0.0, 1.0, CeilingKind::datasheet, "link"});
  v.notes.push_back(fmt::format(
      "link roof ({}); link_util = link_bytes / t_unit / roof = {:.4g} B / {:.4g} s / {:.4g} B/s "
      "= {}; bound {} ({}){}",
      roof_how, work.bytes, t_s, aggregate, format_pct(util), to_string(v.bound),
      util >= k_bound_util ? "a saturated link: fewer bytes on the wire (quantized all-reduce)"
                           : "synchronisation / hop latency, not bandwidth",
      v.headroom != Headroom::unknown
          ? fmt::format("; target_eff {:g} → attainable {:.3f}x, expected e2e gain {:.3f}%",
                        *v.target_eff, v.attainable_speedup, v.expected_e2e_gain_pct)
          : ""));
  return v;
}

}  // namespace

namespace {

// The entry's roof axis against the datasheet (docs/method.md §5.7): what bounds feasibility,
// and ceiling / datasheet on the axis.
AxisRoof axis_roof(const ResolvedPeaks& peaks, bool compute_axis, DtypeKey dtype, double peak_bw,
                   double peak_flops) {
  AxisRoof roof;
  roof.datasheet_bw = feasibility_bw(peaks).value_or(0.0);
  roof.datasheet_flops = peak_flops > 0 ? datasheet_flops_for(peaks, dtype).value_or(0.0) : 0.0;
  roof.axis = compute_axis ? "compute" : "memory";
  roof.ceiling = compute_axis ? compute_ceiling_for(peaks, dtype) : peaks.memory_ceiling;
  if (compute_axis && roof.datasheet_flops > 0)
    roof.to_datasheet = peak_flops / roof.datasheet_flops;
  if (!compute_axis && roof.datasheet_bw > 0 && peak_bw > 0)
    roof.to_datasheet = peak_bw / roof.datasheet_bw;
  return roof;
}

// docs/method.md §5.7: which figure the entry's axis divided by, said beside its verdict when
// the run has a measured ceiling anywhere (otherwise every ceiling is a datasheet figure, which
// the report's header says once).
void ceiling_note(Verdict& v, const ResolvedPeaks& peaks, double raw, const AxisRoof& roof,
                  double ceiling_rate, double datasheet_rate, const std::string& what) {
  if (!any_measured_ceiling(peaks)) return;
  const char* unit = v.compute_axis ? "FLOP/s" : "B/s";
  if (roof.ceiling == CeilingKind::measured)
    v.notes.push_back(fmt::format(
        "ceiling: the measured {} {} ({} of it); the datasheet {} ({} of it) bounds feasibility",
        what, format_rate(ceiling_rate, unit), format_pct(raw), format_rate(datasheet_rate, unit),
        format_pct(raw * roof.to_datasheet)));
  else
    v.notes.push_back(fmt::format(
        "ceiling: the datasheet {} {}: this part has no usable measured {} figure, so the "
        "attainable speedup is an upper bound",
        what, format_rate(datasheet_rate, unit), what));
}

// The roof axis and the raw ratio on it. docs/method.md §22.8: signatures judged on their own
// roofs; with two or more, the ratio is their roof time over their measured time and the axis the
// one holding most of the roof time. Else compute when AI is beyond the ridge point, else memory.
void choose_axis(Verdict& v, const WorkEstimate& work, OpClass cls, double pct_gpu_time,
                 const ResolvedPeaks& peaks, const VerdictParams& params) {
  judge_detail::SignatureRoofs sums;
  if (work.signatures_judged)
    sums = judge_detail::judge_signatures(work, cls, pct_gpu_time, peaks, params, v);
  if (sums.judged >= 1 && work.signatures.size() > 1) judge_detail::signature_notes(work, sums, v);
  if (sums.judged >= 2 && sums.measured_ms > 0) {
    v.compute_axis = sums.compute_ms > sums.roof_ms / 2.0;
    v.roofline_pct_raw = sums.roof_ms / sums.measured_ms;
    if (sums.suspect_raw) {
      v.roofline_pct_raw = sums.suspect_raw;
      v.notes.push_back(fmt::format(
          "signature {} is outside the sanity band on its own roof ({}): the entry takes its "
          "ratio, no verdict from the others",
          sums.suspect_label, format_pct(*sums.suspect_raw)));
    }
    return;
  }
  v.compute_axis =
      v.arithmetic_intensity && v.ridge_point && *v.arithmetic_intensity > *v.ridge_point;
  v.roofline_pct_raw = v.compute_axis ? v.compute_util : v.hbm_util;
}

}  // namespace

namespace {

// The shipped prior, or the calibrated value when a calibration of this ceiling applies
// (docs/method.md §17.5): chosen once the axis, and so the ceiling, is known.
TargetEffChoice judge_choose_eff(Verdict& v, OpClass cls, const ResolvedPeaks& peaks,
                                 const VerdictParams& params, CeilingKind ceiling) {
  const TargetEffChoice eff =
      choose_target_eff(target_eff_for(cls, peaks.product), cls, peaks.gfx, peaks.product, ceiling,
                        params.calibration, params.calibration_min_n);
  v.target_eff_source = eff.source;
  return eff;
}

// Achieved rates, arithmetic intensity, utilizations and ridge point of a non-link entry.
void judge_rates(Verdict& v, const WorkEstimate& work, double peak_bw, double peak_flops) {
  const double t_s = work.t_unit_ms / 1000.0;
  const double bytes = work.bytes, flops = work.flops;
  v.achieved_bw_bytes_s = bytes / t_s;
  if (peak_bw > 0) v.hbm_util = bytes / t_s / peak_bw;
  if (peak_bw > 0 && peak_flops > 0) v.ridge_point = peak_flops / peak_bw;
  if (work.flops_unknown) return;  // no FLOP figure: the memory axis alone
  v.achieved_flops = flops / t_s;
  if (bytes > 0) v.arithmetic_intensity = flops / bytes;
  if (peak_flops > 0) v.compute_util = flops / t_s / peak_flops;
}

// A class with math and no FLOP peak for its dtype (docs/method.md §5.3): the ridge is unknown.
// Below the lowest ridge any part of this vendor has, the memory axis decides on every such
// part; above it hbm_util is only a lower bound of the roof fraction, and a headroom read from
// it could be wrong: no verdict. Feasibility (bytes within bandwidth × time) is judged either
// way. Returns true when the entry gets no verdict.
bool judge_no_flop_peak(Verdict& v, const WorkEstimate& work, const ResolvedPeaks& peaks,
                        double peak_flops, DtypeKey dtype) {
  if (!(work.has_compute_peak_class && !(peak_flops > 0) && !peaks.hard_unknown &&
        peaks.source != PeaksSource::none && !v.compute_axis && v.hbm_util))
    return false;
  const std::string what = dtype.empty() ? "compute-dtype" : dtype.str();
  const auto lowest = peaks.lowest_ridge.find(dtype);
  const double ai = v.arithmetic_intensity.value_or(0.0);
  if (lowest != peaks.lowest_ridge.end() && ai < lowest->second.flop_per_byte) {
    v.notes.push_back(fmt::format(
        "no {} FLOP peak for this part: compute_util unknown; AI {:.3g} FLOP/B is below the "
        "lowest {} ridge of any part of this vendor the peaks table knows ({:.3g} FLOP/B, {}), "
        "so the memory axis decides",
        what, ai, what, lowest->second.flop_per_byte, lowest->second.part));
  } else if (*v.hbm_util <= 1.0) {
    v.notes.push_back(fmt::format(
        "no verdict: this part has no {} FLOP peak, so its ridge is unknown; hbm_util {} at AI "
        "{:.3g} FLOP/B is only a lower bound of the fraction of its roof it reaches{} (add the "
        "part's {} figure to peaks.md, or measure it with roofline peaks measure-script)",
        what, format_pct(*v.hbm_util), ai,
        lowest == peaks.lowest_ridge.end()
            ? std::string()
            : fmt::format(", and parts of this vendor have {} ridges from {:.3g} FLOP/B ({})", what,
                          lowest->second.flop_per_byte, lowest->second.part),
        what));
    v.no_roof_reason = fmt::format(
        "no {} FLOP peak for this part: the ridge is unknown and AI {:.3g} FLOP/B may be past "
        "it, so hbm_util {} does not bound the headroom",
        what, ai, format_pct(*v.hbm_util));
    v.roofline_pct_raw.reset();
    return true;
  } else {
    v.notes.push_back(fmt::format(
        "no {} FLOP peak for this part: compute_util unknown, feasibility on the memory axis",
        what));
  }
  return false;
}

// The verdict's summary note: the roof fraction, the bound and the attainable gain.
void judge_headroom_note(Verdict& v, double raw, const AxisRoof& roof, double pct_gpu_time) {
  const double target = *v.target_eff;
  v.notes.push_back(fmt::format(
      "{} of the {}{} roof (AI {:.3g} FLOP/B {} ridge {}); bound {} (hbm_util {}, compute_util "
      "{}); target_eff {:g} → attainable {:.3f}x, expected e2e gain = pct {} × (1 − 1/attainable) "
      "= {:.3f}%",
      format_pct(raw), roof.ceiling == CeilingKind::measured ? "measured " : "",
      v.compute_axis ? "compute" : "memory", v.arithmetic_intensity.value_or(0.0),
      v.compute_axis ? ">" : "≤",
      v.ridge_point ? fmt::format("{:.3g}", *v.ridge_point) : std::string("unknown"),
      to_string(v.bound), format_pct(v.hbm_util.value_or(0.0)),
      v.compute_util ? format_pct(*v.compute_util) : std::string("unknown"), target,
      v.attainable_speedup, pct_gpu_time, v.expected_e2e_gain_pct));
}

}  // namespace

Verdict judge_point(const WorkEstimate& work, OpClass cls, double pct_gpu_time,
                    const ResolvedPeaks& peaks, const VerdictParams& params) {
  Verdict v;
  v.ceiling = peaks.memory_ceiling;
  v.ceiling_recorded = peaks.measured.has_value();
  if (!work.modeled || !(work.t_unit_ms > 0)) {
    judge_choose_eff(v, cls, peaks, params, v.ceiling);
    return v;
  }
  if (cls == OpClass::comm || work.comm) {
    v.ceiling = CeilingKind::datasheet;
    const TargetEffChoice eff = judge_choose_eff(v, cls, peaks, params, v.ceiling);
    v.target_eff = eff.target_eff;
    if (!eff.note.empty()) v.notes.push_back(eff.note);
    return judge_link(std::move(v), work, pct_gpu_time, peaks, params);
  }
  // Plain doubles (0 = unknown): peaks are positive by construction.
  const double peak_bw = peaks.hbm_bw_bytes_s.value_or(0.0) > 0 ? *peaks.hbm_bw_bytes_s : 0.0;
  const DtypeKey dtype = work.compute_dtype.key;
  const double peak_flops =
      work.has_compute_peak_class ? peak_flops_for(peaks, dtype).value_or(0.0) : 0.0;
  judge_rates(v, work, peak_bw, peak_flops);

  choose_axis(v, work, cls, pct_gpu_time, peaks, params);
  if (judge_no_flop_peak(v, work, peaks, peak_flops, dtype)) return v;
  const AxisRoof roof = axis_roof(peaks, v.compute_axis, dtype, peak_bw, peak_flops);
  v.ceiling = roof.ceiling;
  const TargetEffChoice eff = judge_choose_eff(v, cls, peaks, params, v.ceiling);
  v.target_eff = eff.target_eff;
  if (!eff.note.empty()) v.notes.insert(v.notes.begin(), eff.note);
  if (!v.roofline_pct_raw) {
    v.notes.push_back("no peak for the roof axis: no utilization, no verdict");
    return v;
  }
  v.roof = v.compute_axis ? Roof::compute : Roof::hbm;
  const double raw = *v.roofline_pct_raw;
  const Bound axis = v.compute_axis ? Bound::compute : Bound::memory;
  const bool both_low =
      v.hbm_util.value_or(0.0) < k_bound_util && v.compute_util.value_or(0.0) < k_bound_util;
  v.bound = both_low ? Bound::latency : axis;
  settle(v, raw, work, peaks, params, pct_gpu_time, roof);
  ceiling_note(v, peaks, raw, roof, v.compute_axis ? peak_flops : peak_bw,
               v.compute_axis ? roof.datasheet_flops : roof.datasheet_bw,
               v.compute_axis ? dtype.str() : std::string("memory bandwidth"));
  if (v.headroom == Headroom::unknown) return v;
  judge_headroom_note(v, raw, roof, pct_gpu_time);
  return v;
}

}  // namespace roofline::analyze
