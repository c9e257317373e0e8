#pragma once
// The roofline chart's look, shared by the plot (roofline_svg.cpp) and its legend
// (chart_frame.cpp): fonts, colours, marker sizes.

#include <algorithm>
#include <cmath>

#include "roofline/render/chart_model.hpp"
#include "roofline/render/layer.hpp"
#include "roofline/render/svg.hpp"

namespace roofline::render::chart {

inline constexpr const char* k_sans = "DejaVu Sans, Helvetica, Arial, sans-serif";
inline constexpr const char* k_mono = "DejaVu Sans Mono, Menlo, Consolas, monospace";
inline constexpr double k_mono_em = 0.602;  // advance of one monospace character, in em
inline constexpr double k_sans_em = 0.62;   // generous average advance of a sans-serif character
inline constexpr const char* k_ink = "#1f2933";
inline constexpr const char* k_muted = "#52606d";
inline constexpr const char* k_roof = "#243b53";
inline constexpr const char* k_grid = "#e4e7eb";
// The datasheet roof where a measured one is drawn (docs/method.md §5.7): lighter, long dashes.
inline constexpr const char* k_datasheet = "#829ab1";
inline constexpr const char* k_datasheet_dash = "12 5";

inline const char* headroom_color(Headroom h) {
  switch (h) {
    case Headroom::underperforming:
      return "#d64545";
    case Headroom::moderate:
      return "#f0a202";
    case Headroom::saturated:
      return "#2f9e44";
    case Headroom::unknown:
      return "#8d99a6";
  }
  return "#8d99a6";
}

// Marker radius in pixels: area proportional to the share of GPU time (clamped to stay visible).
inline double marker_radius(double pct_gpu_time) {
  return std::clamp(2.6 * std::sqrt(std::max(pct_gpu_time, 0.0)), 3.0, 26.0);
}

// Font attributes for a text element.
inline svg::Attrs font(const char* family, double size, const char* fill = k_ink) {
  return {{"font-family", family}, {"font-size", svg::num(size)}, {"fill", fill}};
}

// <text x y ...attrs>s</text>, and attrs extended by more.
void put_text(svg::Writer& w, double x, double y, std::string_view s, svg::Attrs attrs);
svg::Attrs with(svg::Attrs attrs, const svg::Attrs& more);

// Title (model, gfx/product) and subtitle (workload, stage, peaks) across the top.
void draw_header(svg::Writer& w, const Analysis& a);

// Decade grid, minor ticks, tick labels ("10", "1 TFLOP/s"), the frame and the axis titles.
void draw_axes(svg::Writer& w, const LogScale& xs, const LogScale& ys, const Rect& plot);

// The legend column at (x, y): headroom colours, the suspect marker, the line styles, marker
// sizes, and the entries left off the chart with the reason.
void draw_legend(svg::Writer& w, const Model& m, double x, double y);

}  // namespace roofline::render::chart
