// The frame of profile_roofline.svg around the plot: title, axes with decade ticks, legend.
#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "roofline/render/chart_style.hpp"
#include "roofline/render/layer.hpp"

namespace roofline::render::chart {
namespace {

using svg::Attrs;
using svg::num;

constexpr std::size_t k_max_off_chart = 8;

void label(svg::Writer& w, double x, double y, std::string_view s, double size = 12,
           const char* fill = k_ink, const char* family = k_sans) {
  put_text(w, x, y, s, font(family, size, fill));
}

void heading(svg::Writer& w, double x, double y, std::string_view s) {
  put_text(w, x, y, s, with(font(k_sans, 12.5), {{"font-weight", "bold"}}));
}

void line_sample(svg::Writer& w, double x, double y, const char* dash, double width, double opacity,
                 const char* colour = k_roof) {
  svg::Attrs a{{"x1", num(x)},
               {"y1", num(y)},
               {"x2", num(x + 26)},
               {"y2", num(y)},
               {"stroke", colour},
               {"stroke-width", num(width)},
               {"stroke-opacity", num(opacity)}};
  if (*dash) a.push_back({"stroke-dasharray", dash});
  w.leaf("line", a);
}

std::string model_name(const Analysis& a) {
  std::string m = a.run.model.empty() ? "unknown model" : a.run.model;
  // A model path ("/models/Qwen/Qwen3-8B") by its last component; a name with a remark in
  // parentheses ("Qwen3-30B-A3B (one layer; tests/…)") keeps the name, never a piece of the remark.
  if (auto paren = m.find(" ("); paren != std::string::npos) m = m.substr(0, paren);
  if (auto slash = m.find_last_of('/'); slash != std::string::npos && slash + 1 < m.size())
    m = m.substr(slash + 1);
  return m;
}

// The legend's headroom colours; returns the y below them. Only entries with a verdict are
// plotted (docs/method.md §10.6): the others are listed under "Not plotted" with the reason.
double legend_headroom(svg::Writer& w, double x, double y) {
  heading(w, x, y + 10, "Headroom (colour)");
  y += 30;
  static constexpr std::pair<Headroom, const char*> k_rows[] = {
      {Headroom::underperforming, "underperforming (< 0.6 × target)"},
      {Headroom::moderate, "moderate (0.6–0.9 × target)"},
      {Headroom::saturated, "saturated (≥ 0.9 × target)"}};
  for (const auto& [h, text] : k_rows) {
    w.leaf("circle", {{"cx", num(x + 7)},
                      {"cy", num(y - 4)},
                      {"r", "6"},
                      {"fill", headroom_color(h)},
                      {"fill-opacity", "0.85"}});
    label(w, x + 20, y, text, 11.5);
    y += 20;
  }
  label(w, x, y, "no verdict: not plotted", 11.5, k_muted);
  return y + 26;
}

// The legend's line samples: roofs (measured and datasheet), ceilings, ridges; returns the y
// below them.
double legend_lines(svg::Writer& w, const Model& m, double x, double y) {
  heading(w, x, y, "Lines");
  y += 20;
  line_sample(w, x, y - 4, "", 2.5, 1.0);
  label(w, x + 34, y, m.any_measured ? "measured roof (ceiling)" : "roof: memory, compute", 11.5);
  y += 20;
  if (m.any_measured) {
    // docs/method.md §5.7: which line is which, where both are drawn.
    line_sample(w, x, y - 4, k_datasheet_dash, 2.0, 1.0, k_datasheet);
    label(w, x + 34, y, "datasheet roof", 11.5);
    y += 20;
  }
  line_sample(w, x, y - 4, "7 5", 1.5, 0.55);
  label(w, x + 34, y, "target_eff × roof", 11.5);
  y += 20;
  line_sample(w, x, y - 4, "2 4", 1.0, 0.5);
  label(w, x + 34, y, "ridge point", 11.5);
  if (std::any_of(m.points.begin(), m.points.end(),
                  [](const Point& p) { return p.band.size() == 2; })) {
    // docs/method.md §10.8: the segment a band draws, in its point's colour.
    y += 20;
    line_sample(w, x, y - 4, "", 3.0, 0.6, k_muted);
    label(w, x + 34, y, "band: its readings' span", 11.5);
  }
  return y + 30;
}

// The legend's marker sizes for three shares of GPU time; returns the y below them.
double legend_marker_sizes(svg::Writer& w, double x, double y) {
  heading(w, x, y, "Marker area ∝ % GPU time");
  y += 12;
  double cx = x + 4;
  for (double pct : {5.0, 10.0, 25.0}) {
    const double r = marker_radius(pct);
    cx += r;
    w.leaf("circle", {{"cx", num(cx)},
                      {"cy", num(y + 14)},
                      {"r", num(r)},
                      {"fill", "none"},
                      {"stroke", k_muted}});
    put_text(w, cx, y + 44, fmt::format("{:g}%", pct),
             with(font(k_sans, 11, k_muted), {{"text-anchor", "middle"}}));
    cx += r + 22;
  }
  return y + 70;
}

// The legend's list of entries left off the chart, each with its reason (the first few).
void legend_off_chart(svg::Writer& w, const Model& m, double x, double y) {
  heading(w, x, y, fmt::format("Not plotted ({})", m.off_chart.size()));
  y += 18;
  for (std::size_t i = 0; i < m.off_chart.size() && i < k_max_off_chart; ++i) {
    label(w, x, y, svg::clip(m.off_chart[i].name, 32), 11, k_ink, k_mono);
    label(w, x + 8, y + 14, svg::clip(m.off_chart[i].reason, 34), 10.5, k_muted);
    y += 32;
  }
  if (m.off_chart.size() > k_max_off_chart)
    label(w, x, y,
          fmt::format("… and {} more (see the report)", m.off_chart.size() - k_max_off_chart), 11,
          k_muted);
}

}  // namespace

void put_text(svg::Writer& w, double x, double y, std::string_view s, Attrs attrs) {
  attrs.insert(attrs.begin(), {{"x", num(x)}, {"y", num(y)}});
  w.text("text", attrs, s);
}

Attrs with(Attrs a, const Attrs& more) {
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

void draw_header(svg::Writer& w, const Analysis& a) {
  const std::string gfx = (a.arch.empty() ? std::string("unknown gfx") : a.arch) +
                          (a.product.empty() ? "" : " " + a.product);
  put_text(w, 24, 34, fmt::format("Roofline — {} on {}", model_name(a), gfx),
           with(font(k_sans, 20), {{"font-weight", "bold"}}));
  const auto opt = [](const std::optional<double>& v) {
    return v ? fmt::format("{:g}", *v) : std::string("?");
  };
  std::string sub = a.run.backend.empty() ? "" : a.run.backend + " · ";
  sub += fmt::format("isl {}, osl {}, conc {} · tp {:g} · stage {}{} · peaks: {}, confidence {}",
                     opt(a.run.workload.isl), opt(a.run.workload.osl), opt(a.run.workload.conc),
                     a.run.tp, to_string(a.stage), a.stage == EvidenceLevel::A ? " (estimate)" : "",
                     to_string(a.peaks.source), to_string(a.peaks.confidence));
  put_text(w, 24, 58, svg::clip(sub, 140), font(k_sans, 13, k_muted));
}

void draw_axes(svg::Writer& w, const LogScale& xs, const LogScale& ys, const Rect& k_plot) {
  w.open("g", {{"id", "axes"}});
  const int xd = xs.decades(), yd = ys.decades();
  for (int e = xs.lo_exp; e <= xs.hi_exp; ++e) {
    const double x = xs(std::pow(10.0, e));
    w.leaf("line", {{"x1", num(x)},
                    {"y1", num(k_plot.y)},
                    {"x2", num(x)},
                    {"y2", num(k_plot.bottom())},
                    {"stroke", k_grid}});
    if (xd <= 6 || (e - xs.lo_exp) % 2 == 0)
      put_text(w, x, k_plot.bottom() + 20, chart::plain_decade(e),
               with(font(k_sans, 12.5), {{"text-anchor", "middle"}}));
    for (int k = 2; k <= 9 && e < xs.hi_exp && xd <= 5; ++k) {
      const double xm = xs(k * std::pow(10.0, e));
      w.leaf("line", {{"x1", num(xm)},
                      {"y1", num(k_plot.bottom())},
                      {"x2", num(xm)},
                      {"y2", num(k_plot.bottom() - 5)},
                      {"stroke", "#9aa5b1"}});
    }
  }
  for (int e = ys.lo_exp; e <= ys.hi_exp; ++e) {
    const double y = ys(std::pow(10.0, e));
    w.leaf("line", {{"x1", num(k_plot.x)},
                    {"y1", num(y)},
                    {"x2", num(k_plot.right())},
                    {"y2", num(y)},
                    {"stroke", k_grid}});
    if (yd <= 6 || (e - ys.lo_exp) % 2 == 0)
      put_text(w, k_plot.x - 8, y + 4.5, chart::rate_decade(e, "FLOP/s"),
               with(font(k_sans, 12.5), {{"text-anchor", "end"}}));
    for (int k = 2; k <= 9 && e < ys.hi_exp && yd <= 5; ++k) {
      const double ym = ys(k * std::pow(10.0, e));
      w.leaf("line", {{"x1", num(k_plot.x)},
                      {"y1", num(ym)},
                      {"x2", num(k_plot.x + 5)},
                      {"y2", num(ym)},
                      {"stroke", "#9aa5b1"}});
    }
  }
  w.leaf("rect", {{"x", num(k_plot.x)},
                  {"y", num(k_plot.y)},
                  {"width", num(k_plot.w)},
                  {"height", num(k_plot.h)},
                  {"fill", "none"},
                  {"stroke", "#7b8794"}});
  put_text(w, k_plot.x + k_plot.w / 2, k_plot.bottom() + 46,
           "Arithmetic intensity (FLOP/byte, log scale)",
           with(font(k_sans, 14), {{"text-anchor", "middle"}}));
  w.text("text",
         with(font(k_sans, 14), {{"text-anchor", "middle"},
                                 {"transform", fmt::format("translate(24 {}) rotate(-90)",
                                                           num(k_plot.y + k_plot.h / 2))}}),
         "Achieved FLOP/s (log scale)");
  w.close();
}

void draw_legend(svg::Writer& w, const Model& m, double x, double y) {
  w.open("g", {{"id", "legend"}});
  y = legend_headroom(w, x, y);
  y = legend_lines(w, m, x, y);
  y = legend_marker_sizes(w, x, y);
  if (!m.off_chart.empty()) legend_off_chart(w, m, x, y);
  w.close();
}

}  // namespace roofline::render::chart
