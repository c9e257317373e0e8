#include "roofline/render/chart_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "roofline/base/units.hpp"
#include "roofline/render/layer.hpp"
#include "roofline/render/md_util.hpp"

namespace roofline::render::chart {
namespace {

constexpr int k_min_decades = 3;
constexpr int k_max_decades = 9;

bool positive(double v) {
  return std::isfinite(v) && v > 0;
}

// Why an entry without a verdict has no place on the roof (docs/method.md §10.6, §16.3).
std::string no_verdict_reason(const HeadEntry& e) {
  const Verdict& v = e.verdict;
  if (v.suspect)
    return "infeasible: the measured time refutes its bytes and FLOPs" +
           (v.roofline_pct_raw ? " (a raw ratio of " + format_pct(v.roofline_pct_raw) + ")"
                               : std::string());
  if (v.band.withheld) return "no verdict: its band spans classes and nothing picks a reading";
  if (v.dispatch_bound)
    return v.in_graph_replay ? "no verdict: a short kernel in a captured graph"
                             : "no verdict: dispatch-bound (timed by its launch)";
  return "no verdict";
}

// Where the entry sits on the chart, or why it cannot: only an entry with a verdict is a place
// on the roof.
std::optional<Point> place(const HeadEntry& e, std::string& why) {
  const WorkEstimate& w = e.work;
  const Verdict& v = e.verdict;
  if (!w.modeled) {
    why = "not modelled";
    return std::nullopt;
  }
  // A collective is judged on the link roof, not this chart's.
  if (v.roof == analyze::Roof::link || w.comm) {
    why = v.link_util
              ? "collective on the link roof: " + format_pct(v.link_util) + " link utilisation"
              : std::string("collective: no link roof for this part");
    return std::nullopt;
  }
  if (v.headroom == Headroom::unknown) {
    why = no_verdict_reason(e);
    return std::nullopt;
  }
  if (!positive(w.flops)) {
    why = "no FLOPs: arithmetic intensity 0 has no place on a log axis";
    return std::nullopt;
  }
  if (!positive(w.t_unit_ms) || !v.achieved_flops || !positive(*v.achieved_flops)) {
    why = "no measured time";
    return std::nullopt;
  }
  Point p;
  p.entry = &e;
  p.flops_s = *v.achieved_flops;
  p.ai = v.arithmetic_intensity.value_or(0.0);
  if (!positive(p.ai) || !positive(p.flops_s)) {
    why = "no bytes: arithmetic intensity unknown";
    return std::nullopt;
  }
  return p;
}

std::string join(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ", ") + p;
  return s;
}

// The memory roof, and the datasheet one above it where the roof is a measured ceiling.
void set_memory_roof(Model& m, const ResolvedPeaks& peaks) {
  if (peaks.hbm_bw_bytes_s && positive(*peaks.hbm_bw_bytes_s)) m.bw_bytes_s = *peaks.hbm_bw_bytes_s;
  if (m.bw_bytes_s && peaks.memory_ceiling == CeilingKind::measured &&
      peaks.datasheet_hbm_bw_bytes_s && positive(*peaks.datasheet_hbm_bw_bytes_s))
    m.datasheet_bw_bytes_s = *peaks.datasheet_hbm_bw_bytes_s;
  m.any_measured = m.datasheet_bw_bytes_s.has_value();
}

// docs/method.md §10.8: where the band's feasible readings sit, its lowest and highest AI.
std::vector<Point::End> band_ends(const HeadEntry& e) {
  const double t_s = e.work.t_unit_ms / 1000.0;
  std::vector<Point::End> ends;
  if (e.verdict.band.readings.size() < 2 || !positive(t_s)) return ends;
  for (const auto& r : e.verdict.band.readings)
    if (r.feasible && positive(r.reading.bytes) && positive(r.reading.flops))
      ends.push_back({r.reading.flops / r.reading.bytes, r.reading.flops / t_s});
  if (ends.size() < 2) return {};
  std::sort(ends.begin(), ends.end(),
            [](const Point::End& a, const Point::End& b) { return a.ai < b.ai; });
  return {ends.front(), ends.back()};
}

// Each entry as a point, or off the chart with the reason.
void place_entries(Model& m, const Analysis& a) {
  for (const auto& e : a.entries) {
    std::string why;
    if (!m.bw_bytes_s) {
      m.off_chart.push_back({shown_name(e), "no memory peak for this part"});
      continue;
    }
    if (auto p = place(e, why)) {
      p->band = band_ends(e);
      m.points.push_back(*p);
    } else
      m.off_chart.push_back({shown_name(e), why});
  }
}

// The roofs and target_eff ceilings of the dtypes and classes in play.
void add_roofs_and_ceilings(Model& m, const ResolvedPeaks& peaks) {
  std::map<std::string, double> roof_peaks;
  std::map<std::pair<double, std::string>, std::vector<std::string>> ceiling_classes;
  for (const auto& p : m.points) {
    const HeadEntry& e = *p.entry;
    std::string dtype;
    if (e.work.has_compute_peak_class)
      if (auto peak = peak_flops_for(peaks, e.work.compute_dtype.key); peak && positive(*peak)) {
        dtype = e.work.compute_dtype.key;
        roof_peaks[dtype] = *peak;
      }
    if (e.verdict.target_eff && positive(*e.verdict.target_eff)) {
      auto& classes = ceiling_classes[{*e.verdict.target_eff, dtype}];
      const std::string cls = to_string(e.cls.op_class);
      if (std::find(classes.begin(), classes.end(), cls) == classes.end()) classes.push_back(cls);
    }
  }
  for (const auto& [dtype, peak] : roof_peaks) {
    Roof r{dtype, peak, peak / *m.bw_bytes_s, std::nullopt};
    if (const auto key = dtype_key_from(dtype);
        key && compute_ceiling_for(peaks, *key) == CeilingKind::measured)
      if (const auto ds = datasheet_flops_for(peaks, *key); ds && positive(*ds)) {
        r.datasheet_flops_s = *ds;
        m.any_measured = true;
      }
    m.roofs.push_back(r);
  }
  std::stable_sort(m.roofs.begin(), m.roofs.end(),
                   [](const Roof& l, const Roof& r) { return l.peak_flops_s > r.peak_flops_s; });
  for (auto& [key, classes] : ceiling_classes) {
    std::sort(classes.begin(), classes.end());
    Ceiling c{key.first, std::nullopt, key.second, join(classes)};
    if (!key.second.empty()) c.peak_flops_s = roof_peaks[key.second];
    m.ceilings.push_back(c);
  }
  std::stable_sort(m.ceilings.begin(), m.ceilings.end(), [](const Ceiling& l, const Ceiling& r) {
    return l.target * l.peak_flops_s.value_or(0) > r.target * r.peak_flops_s.value_or(0);
  });
}

// The axes: every point and ridge, with room right of the ridges for the flat roofs.
void fit_axes(Model& m) {
  double x_lo = 1.0, x_hi = 1000.0, y_lo = 1e12, y_hi = 1e15;
  bool any = false;
  const auto take = [&](double x, double y) {
    x_lo = any ? std::min(x_lo, x) : x;
    x_hi = any ? std::max(x_hi, x) : x;
    y_lo = any ? std::min(y_lo, y) : y;
    y_hi = any ? std::max(y_hi, y) : y;
    any = true;
  };
  for (const auto& p : m.points) {
    take(p.ai, p.flops_s);
    for (const Point::End& b : p.band) take(b.ai, b.flops_s);
  }
  for (const auto& r : m.roofs) {
    take(r.ridge, r.peak_flops_s);
    if (r.datasheet_flops_s) take(r.ridge, *r.datasheet_flops_s);
  }
  if (any) {
    m.x = decade_span(x_lo / 2, x_hi * 4, k_min_decades, k_max_decades);
    m.y = decade_span(y_lo / 2, y_hi * 2, k_min_decades, k_max_decades);
  } else {
    m.x = decade_span(x_lo, x_hi, k_min_decades, k_max_decades);
    m.y = decade_span(y_lo, y_hi, k_min_decades, k_max_decades);
  }
}

// Points outside the plotted decades move to the off-chart list.
void keep_points_inside(Model& m) {
  const LogScale xs{m.x.lo_exp, m.x.hi_exp, 0, 1}, ys{m.y.lo_exp, m.y.hi_exp, 0, 1};
  std::vector<Point> inside;
  for (auto p : m.points) {
    if (std::any_of(p.band.begin(), p.band.end(), [&](const Point::End& b) {
          return !xs.contains(b.ai) || !ys.contains(b.flops_s);
        }))
      p.band.clear();
    if (xs.contains(p.ai) && ys.contains(p.flops_s))
      inside.push_back(p);
    else
      m.off_chart.push_back(
          {shown_name(*p.entry),
           fmt::format("outside the plotted range (AI {:.3g} FLOP/B, {:.3g} FLOP/s)", p.ai,
                       p.flops_s)});
  }
  m.points = std::move(inside);
}

// Why no point is drawn ("" when some are).
std::string empty_reason_for(const Model& m, const Analysis& a) {
  if (!m.bw_bytes_s)
    return a.peaks.hard_unknown ? "no peaks for this part (hard unknown): no roofline to draw"
                                : "no memory peak for this part: no roofline to draw";
  if (a.entries.empty()) return "no entry reached the head threshold";
  if (m.points.empty()) return "no analysed entry has both bytes and FLOPs to place";
  return "";
}

}  // namespace

Model chart_model(const Analysis& a) {
  Model m;
  set_memory_roof(m, a.peaks);
  place_entries(m, a);
  add_roofs_and_ceilings(m, a.peaks);
  fit_axes(m);
  keep_points_inside(m);
  m.empty_reason = empty_reason_for(m, a);
  return m;
}

}  // namespace roofline::render::chart
