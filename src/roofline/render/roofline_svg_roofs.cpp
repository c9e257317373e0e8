// The roofs of profile_roofline.svg: the memory and compute roofs, the measured ceilings and the
// datasheet roofs above them, the ridges, and their labels.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofline/render/chart_style.hpp"
#include "roofline/render/layer.hpp"
#include "roofline/render/md_util.hpp"
#include "roofline/render/roofline_svg_canvas.hpp"
#include "roofline/render/svg.hpp"

namespace roofline::render::svg_chart {

double settle(Canvas& c, Rect box, double step) {
  for (int i = 0; i < 4; ++i) {
    bool clear = true;
    for (const auto& f : c.fixed)
      if (box.overlap_area(f) > 0) clear = false;
    if (clear) break;
    box.y += step;
  }
  c.fixed.push_back(box);
  return box.y;
}

namespace {

using Pixel = std::array<double, 2>;

// The part of segment a–b inside the plot (Liang–Barsky), if any: a log-log roof is a straight
// line in pixels, so the cut is exact.
std::optional<std::array<Pixel, 2>> clip_segment(Pixel a, Pixel b) {
  const double dx = b[0] - a[0], dy = b[1] - a[1];
  double t0 = 0, t1 = 1;
  const std::array<std::array<double, 2>, 4> edges{{{-dx, a[0] - k_plot.x},
                                                    {dx, k_plot.right() - a[0]},
                                                    {-dy, a[1] - k_plot.y},
                                                    {dy, k_plot.bottom() - a[1]}}};
  for (const auto& [p, q] : edges) {
    if (p == 0) {
      if (q < 0) return std::nullopt;
      continue;
    }
    const double t = q / p;
    if (p < 0)
      t0 = std::max(t0, t);
    else
      t1 = std::min(t1, t);
    if (t0 > t1) return std::nullopt;
  }
  return std::array<Pixel, 2>{Pixel{a[0] + t0 * dx, a[1] + t0 * dy},
                              Pixel{a[0] + t1 * dx, a[1] + t1 * dy}};
}

// A roof's polyline cut to the plot (issue 46: an empty chart drew the memory roof past it):
// its points inside and where it enters and leaves, as an SVG points list; "" when none of it is
// inside. A roof only rises or runs flat, so what is inside is one piece.
std::string plot_points(const std::vector<Pixel>& pts) {
  std::vector<Pixel> in;
  for (std::size_t i = 0; i + 1 < pts.size(); ++i)
    if (const auto seg = clip_segment(pts[i], pts[i + 1]))
      for (const Pixel& q : *seg)
        if (in.empty() || std::hypot(in.back()[0] - q[0], in.back()[1] - q[1]) > 1e-9)
          in.push_back(q);
  if (in.size() < 2) return {};
  std::string out;
  for (const Pixel& q : in) {
    if (!out.empty()) out.push_back(' ');
    out.append(num(q[0]));
    out.push_back(',');
    out.append(num(q[1]));
  }
  return out;
}

// A polyline of the plot's roofs, cut to the plot; nothing where none of it is inside.
void roof_polyline(svg::Writer& w, const std::vector<Pixel>& pts, Attrs attrs) {
  std::string points = plot_points(pts);
  if (points.empty()) return;
  Attrs all;  // points first, then the roof's style (built anew: GCC 12 -O3 misreads an insert)
  all.reserve(attrs.size() + 1);
  all.emplace_back("points", std::move(points));
  for (auto& a : attrs) all.push_back(std::move(a));
  w.leaf("polyline", all);
}

// docs/method.md §5.7: where a ceiling is measured, the datasheet roof above it, dashed (long
// dashes, lighter, unlike the target_eff ceilings' short ones); the measured roof stays solid.
void datasheet_roofs(Canvas& c, double x_lo, double x_hi, double ridge_max) {
  if (!c.m.any_measured) return;
  const double bw = *c.m.bw_bytes_s;
  const double ds_bw = c.m.datasheet_bw_bytes_s.value_or(bw);
  const auto pt = [&](double x, double y) { return Pixel{c.xs(x), c.ys(y)}; };
  // A dashed polyline through two points.
  const auto line = [&](Pixel a, Pixel b) {
    roof_polyline(c.w, {a, b},
                  {{"stroke", chart::k_datasheet},
                   {"stroke-width", "2"},
                   {"stroke-dasharray", chart::k_datasheet_dash}});
  };
  double ds_ridge_max = c.m.roofs.empty() ? ridge_max : 0.0;
  for (const auto& r : c.m.roofs) {
    const double flops = r.datasheet_flops_s.value_or(r.peak_flops_s);
    ds_ridge_max = std::max(ds_ridge_max, flops / ds_bw);
    if (!r.datasheet_flops_s) continue;
    line(pt(flops / ds_bw, flops), pt(x_hi, flops));
  }
  if (c.m.datasheet_bw_bytes_s)
    line(pt(x_lo, ds_bw * x_lo), pt(ds_ridge_max, ds_bw * ds_ridge_max));
}

// The ceilings (dashed), the datasheet roofs where measured ones are drawn, the compute roofs with
// their ridge lines, and the memory roof, clipped to the plot.
void draw_roof_lines(Canvas& c, double x_lo, double x_hi, double ridge_max) {
  svg::Writer& w = c.w;
  const double bw = *c.m.bw_bytes_s;
  const auto pt = [&](double x, double y) { return Pixel{c.xs(x), c.ys(y)}; };
  w.open("g", {{"clip-path", "url(#plot-area)"}, {"fill", "none"}});
  for (const auto& ceil : c.m.ceilings) {
    const double t = ceil.target;
    std::vector<Pixel> pts{pt(x_lo, t * bw * x_lo)};
    if (ceil.peak_flops_s) {
      const double ridge = *ceil.peak_flops_s / bw;
      pts.push_back(pt(ridge, t * *ceil.peak_flops_s));
      pts.push_back(pt(x_hi, t * *ceil.peak_flops_s));
    } else {
      pts.push_back(pt(ridge_max, t * bw * ridge_max));  // a memory-only class stops at the roof's
    }
    roof_polyline(w, pts,
                  {{"stroke", k_roof},
                   {"stroke-opacity", "0.55"},
                   {"stroke-width", "1.5"},
                   {"stroke-dasharray", "7 5"}});
  }
  datasheet_roofs(c, x_lo, x_hi, ridge_max);
  for (const auto& r : c.m.roofs) {
    if (const auto ridge =
            clip_segment(pt(r.ridge, r.peak_flops_s), Pixel{c.xs(r.ridge), k_plot.bottom()}))
      w.leaf("line", {{"x1", num((*ridge)[0][0])},
                      {"y1", num((*ridge)[0][1])},
                      {"x2", num((*ridge)[1][0])},
                      {"y2", num((*ridge)[1][1])},
                      {"stroke", k_roof},
                      {"stroke-opacity", "0.5"},
                      {"stroke-dasharray", "2 4"}});
    roof_polyline(w, {pt(r.ridge, r.peak_flops_s), pt(x_hi, r.peak_flops_s)},
                  {{"stroke", k_roof}, {"stroke-width", "2.5"}});
  }
  roof_polyline(w, {pt(x_lo, bw * x_lo), pt(ridge_max, bw * ridge_max)},
                {{"stroke", k_roof}, {"stroke-width", "2.5"}, {"stroke-linecap", "round"}});
  w.close();
}

// Each compute roof's label at its right end, above the line.
void label_compute_roofs(Canvas& c) {
  const double size = k_roof_text;
  for (const auto& r : c.m.roofs) {
    if (!c.xs.contains(r.ridge) || !c.ys.contains(r.peak_flops_s)) continue;
    const std::string s =
        r.datasheet_flops_s
            ? fmt::format("{} roof {} measured (datasheet {})", r.dtype,
                          format_rate(r.peak_flops_s, "FLOP/s"),
                          format_rate(*r.datasheet_flops_s, "FLOP/s"))
            : fmt::format("{} roof {}", r.dtype, format_rate(r.peak_flops_s, "FLOP/s"));
    const double wd = static_cast<double>(svg::code_points(s)) * k_sans_em * size;
    const double y = settle(
        c, {k_plot.right() - 6 - wd, c.ys(r.peak_flops_s) - 6 - size, wd, size + 2}, size + 2);
    put_text(c.w, k_plot.right() - 6, y + size, s,
             with(font(k_sans, size, k_roof),
                  with({{"text-anchor", "end"}, {"font-weight", "bold"}}, k_halo)));
  }
}

// Each ceiling's label below its line: at the right edge below a flat ceiling, where the memory
// roof ends for a memory-only one.
void label_ceilings(Canvas& c, double x_hi, double ridge_max) {
  const double bw = *c.m.bw_bytes_s;
  const double small = k_note_text;
  for (const auto& ceil : c.m.ceilings) {
    const double x_end = ceil.peak_flops_s ? x_hi : std::min(ridge_max, x_hi);
    const double y_val = ceil.target * (ceil.peak_flops_s ? *ceil.peak_flops_s : bw * x_end);
    if (!c.ys.contains(y_val)) continue;
    const std::string s = fmt::format("target {:g} × {} ({})", ceil.target,
                                      ceil.peak_flops_s ? ceil.dtype : "memory", ceil.classes);
    const double wd = static_cast<double>(svg::code_points(s)) * k_sans_em * small;
    const double right = c.xs(x_end) - 6;
    const double y = settle(c, {right - wd, c.ys(y_val) + 3, wd, small + 2}, small + 2);
    put_text(c.w, right, y + small, s,
             with(font(k_sans, small, k_muted), with({{"text-anchor", "end"}}, k_halo)));
  }
}

// Each ridge's label, rotated along its dotted line.
void label_ridges(Canvas& c) {
  const double small = k_note_text;
  for (const auto& r : c.m.roofs) {
    if (!c.xs.contains(r.ridge)) continue;
    const std::string s = fmt::format("ridge {:.3g} FLOP/B ({})", r.ridge, r.dtype);
    const double len = static_cast<double>(svg::code_points(s)) * k_sans_em * small;
    const double x = c.xs(r.ridge) - 5, y = k_plot.bottom() - 8;
    c.fixed.push_back({x - small, y - len, small + 2, len});
    c.w.text("text",
             with(font(k_sans, small, k_muted),
                  with({{"transform", fmt::format("translate({} {}) rotate(-90)", num(x), num(y))}},
                       k_halo)),
             s);
  }
}

// Text of length `len` rotated by `angle` from (px, py), lifted off its line, as a chain of small
// boxes (one box per ~size pixels of its length).
std::vector<Rect> diagonal_text_boxes(double px, double py, double len, double angle, double size) {
  const double ux = std::cos(angle), uy = std::sin(angle);  // along the text
  const double nx = uy, ny = -ux;                           // "up" from the baseline
  std::vector<Rect> out;
  for (double d = 0; d < len; d += size) {
    const double bx = px + ux * (d + size / 2) + nx * (6 + size / 2);
    const double by = py + uy * (d + size / 2) + ny * (6 + size / 2);
    out.push_back({bx - size / 2 - 1, by - size / 2 - 1, size + 2, size + 2});
  }
  return out;
}

// Every point's marker with a margin.
std::vector<Rect> marker_keepouts(const Canvas& c) {
  std::vector<Rect> markers;
  for (const auto& p : c.m.points) {
    const double r = marker_radius(p.entry->pct_gpu_time) + 6;
    markers.push_back({c.xs(p.ai) - r, c.ys(p.flops_s) - r, 2 * r, 2 * r});
  }
  return markers;
}

// The pixel where the memory roof's label starts: of a few spots along the visible diagonal
// [vis_lo, vis_hi] that keep it inside the plot, the first that covers no marker, else the one
// that covers least; none when no spot fits.
std::optional<std::array<double, 2>> memory_label_spot(const Canvas& c, double vis_lo,
                                                       double vis_hi, double len, double angle,
                                                       double size) {
  const double bw = *c.m.bw_bytes_s;
  const double ux = std::cos(angle), uy = std::sin(angle);
  const std::vector<Rect> markers = marker_keepouts(c);
  double best_cost = -1, best_x = 0, best_y = 0;
  for (double f : {0.08, 0.25, 0.45, 0.65, 0.15, 0.35, 0.55}) {
    const double x = std::pow(10.0, std::log10(vis_lo) + f * std::log10(vis_hi / vis_lo));
    const double px = c.xs(x), py = c.ys(bw * x);
    if (px + ux * len > k_plot.right() - 4 || py + uy * len < k_plot.y + 4) continue;
    double cost = 0;
    for (const auto& b : diagonal_text_boxes(px, py, len, angle, size))
      for (const auto& mk : markers) cost += b.overlap_area(mk);
    if (best_cost < 0 || cost < best_cost) {
      best_cost = cost;
      best_x = px;
      best_y = py;
    }
    if (cost == 0) break;
  }
  if (best_cost < 0) return std::nullopt;
  return std::array<double, 2>{best_x, best_y};
}

// The memory roof's label rides the visible part of the diagonal, lifted off the line, at the
// first spot along it that no marker covers.
void label_memory_roof(Canvas& c, double x_lo, double ridge_max) {
  const double bw = *c.m.bw_bytes_s;
  const double size = k_roof_text;
  const double vis_lo = std::max(x_lo, std::pow(10.0, c.ys.lo_exp) / bw);
  const double vis_hi = std::min(ridge_max, std::pow(10.0, c.ys.hi_exp) / bw);
  if (vis_hi <= vis_lo) return;
  const std::string s =
      c.m.datasheet_bw_bytes_s
          ? fmt::format("memory roof {} measured (datasheet {})", format_rate(bw, "B/s"),
                        format_rate(*c.m.datasheet_bw_bytes_s, "B/s"))
          : fmt::format("memory roof {}", format_rate(bw, "B/s"));
  const double len = static_cast<double>(svg::code_points(s)) * k_sans_em * size;
  const double angle = std::atan2(c.ys(bw * 10) - c.ys(bw), c.xs(10) - c.xs(1));
  const auto spot = memory_label_spot(c, vis_lo, vis_hi, len, angle, size);
  if (!spot) return;
  const auto [best_x, best_y] = *spot;
  c.w.text("text",
           with(font(k_sans, size, k_roof),
                {{"y", "-6"},
                 {"font-weight", "bold"},
                 {"transform", fmt::format("translate({} {}) rotate({})", num(best_x), num(best_y),
                                           num(angle * 180 / std::numbers::pi))},
                 {"stroke", "#ffffff"},
                 {"stroke-width", "3"},
                 {"stroke-linejoin", "round"},
                 {"paint-order", "stroke"}}),
           s);
  for (const auto& b : diagonal_text_boxes(best_x, best_y, len, angle, size)) c.fixed.push_back(b);
}

}  // namespace

void roofs(Canvas& c) {
  const double x_lo = std::pow(10.0, c.xs.lo_exp), x_hi = std::pow(10.0, c.xs.hi_exp);
  const double ridge_max = c.m.roofs.empty() ? x_hi : c.m.roofs.front().ridge;
  draw_roof_lines(c, x_lo, x_hi, ridge_max);
  label_compute_roofs(c);
  label_ceilings(c, x_hi, ridge_max);
  label_ridges(c);
  label_memory_roof(c, x_lo, ridge_max);
}

}  // namespace roofline::render::svg_chart
