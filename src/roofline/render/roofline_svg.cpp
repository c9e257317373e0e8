// profile_roofline.svg: the log-log roofline of one Analysis, drawn with our own SVG writer.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <optional>

#include <fmt/format.h>

#include "roofline/render/chart_style.hpp"
#include "roofline/render/layer.hpp"
#include "roofline/render/md_util.hpp"
#include "roofline/render/report.hpp"
#include "roofline/render/svg.hpp"

namespace roofline::render {
namespace {

using chart::font;
using chart::k_grid;
using chart::k_ink;
using chart::k_mono;
using chart::k_mono_em;
using chart::k_muted;
using chart::k_roof;
using chart::k_sans;
using chart::k_sans_em;
using chart::LogScale;
using chart::marker_radius;
using chart::put_text;
using chart::Rect;
using chart::with;
using svg::Attrs;
using svg::num;

constexpr double k_width = 1040, k_height = 660;
constexpr Rect k_plot{118, 84, 670, 480};
constexpr double k_legend_x = 808;
constexpr std::size_t k_label_chars = 30;
// Font sizes: a roof's label, a ceiling's or ridge's label.
constexpr double k_roof_text = 12.5, k_note_text = 11.5;
// A point's label: the name's and the caption's font sizes, and the padding around them.
constexpr double k_name_size = 12, k_caption_size = 10.5, k_label_pad = 4;
// A white outline under fixed text keeps it legible where it crosses a line.
const Attrs k_halo{{"stroke", "#ffffff"},
                   {"stroke-width", "3"},
                   {"stroke-linejoin", "round"},
                   {"paint-order", "stroke"}};

struct Canvas {
  svg::Writer& w;
  const chart::Model& m;
  LogScale xs, ys;
  std::vector<Rect> fixed;  // text already placed: point labels keep clear of it
};

// A fixed text label: tries the spot, then steps down until it is clear of earlier ones.
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

// docs/method.md §5.7: where a ceiling is measured, the datasheet roof above it, dashed (long
// dashes, lighter, unlike the target_eff ceilings' short ones); the measured roof stays solid.
void datasheet_roofs(Canvas& c, double x_lo, double x_hi, double ridge_max) {
  if (!c.m.any_measured) return;
  const double bw = *c.m.bw_bytes_s;
  const double ds_bw = c.m.datasheet_bw_bytes_s.value_or(bw);
  const auto pt = [&](double x, double y) { return num(c.xs(x)) + "," + num(c.ys(y)); };
  // A dashed polyline through two points.
  const auto line = [&](const std::string& points) {
    c.w.leaf("polyline", {{"points", points},
                          {"stroke", chart::k_datasheet},
                          {"stroke-width", "2"},
                          {"stroke-dasharray", chart::k_datasheet_dash}});
  };
  double ds_ridge_max = c.m.roofs.empty() ? ridge_max : 0.0;
  for (const auto& r : c.m.roofs) {
    const double flops = r.datasheet_flops_s.value_or(r.peak_flops_s);
    ds_ridge_max = std::max(ds_ridge_max, flops / ds_bw);
    if (!r.datasheet_flops_s) continue;
    line(pt(flops / ds_bw, flops) + " " + pt(x_hi, flops));
  }
  if (c.m.datasheet_bw_bytes_s)
    line(pt(x_lo, ds_bw * x_lo) + " " + pt(ds_ridge_max, ds_bw * ds_ridge_max));
}

// The ceilings (dashed), the datasheet roofs where measured ones are drawn, the compute roofs with
// their ridge lines, and the memory roof, clipped to the plot.
void draw_roof_lines(Canvas& c, double x_lo, double x_hi, double ridge_max) {
  svg::Writer& w = c.w;
  const double bw = *c.m.bw_bytes_s;
  const auto pt = [&](double x, double y) { return num(c.xs(x)) + "," + num(c.ys(y)); };
  w.open("g", {{"clip-path", "url(#plot-area)"}, {"fill", "none"}});
  for (const auto& ceil : c.m.ceilings) {
    const double t = ceil.target;
    std::string pts = pt(x_lo, t * bw * x_lo) + " ";
    if (ceil.peak_flops_s) {
      const double ridge = *ceil.peak_flops_s / bw;
      pts += pt(ridge, t * *ceil.peak_flops_s) + " " + pt(x_hi, t * *ceil.peak_flops_s);
    } else {
      pts += pt(ridge_max, t * bw * ridge_max);  // a memory-only class stops where the roof does
    }
    w.leaf("polyline", {{"points", pts},
                        {"stroke", k_roof},
                        {"stroke-opacity", "0.55"},
                        {"stroke-width", "1.5"},
                        {"stroke-dasharray", "7 5"}});
  }
  datasheet_roofs(c, x_lo, x_hi, ridge_max);
  for (const auto& r : c.m.roofs) {
    w.leaf("line", {{"x1", num(c.xs(r.ridge))},
                    {"y1", num(c.ys(r.peak_flops_s))},
                    {"x2", num(c.xs(r.ridge))},
                    {"y2", num(k_plot.bottom())},
                    {"stroke", k_roof},
                    {"stroke-opacity", "0.5"},
                    {"stroke-dasharray", "2 4"}});
    w.leaf("polyline", {{"points", pt(r.ridge, r.peak_flops_s) + " " + pt(x_hi, r.peak_flops_s)},
                        {"stroke", k_roof},
                        {"stroke-width", "2.5"}});
  }
  w.leaf("polyline", {{"points", pt(x_lo, bw * x_lo) + " " + pt(ridge_max, bw * ridge_max)},
                      {"stroke", k_roof},
                      {"stroke-width", "2.5"},
                      {"stroke-linecap", "round"}});
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

// The roofs, ceilings and ridges, then their labels: compute roofs at their right end, ceilings
// below them, ridges along the dotted line, the memory roof along its diagonal.
void roofs(Canvas& c) {
  const double x_lo = std::pow(10.0, c.xs.lo_exp), x_hi = std::pow(10.0, c.xs.hi_exp);
  const double ridge_max = c.m.roofs.empty() ? x_hi : c.m.roofs.front().ridge;
  draw_roof_lines(c, x_lo, x_hi, ridge_max);
  label_compute_roofs(c);
  label_ceilings(c, x_hi, ridge_max);
  label_ridges(c);
  label_memory_roof(c, x_lo, ridge_max);
}

std::string point_caption(const chart::Point& p) {
  const HeadEntry& e = *p.entry;
  const std::string pct = fmt::format("{:g}% GPU", e.pct_gpu_time);
  if (p.at_bound) return pct + " · infeasible, at bound";
  if (e.verdict.dispatch_bound)
    return pct + (e.verdict.in_graph_replay ? " · short, in a graph" : " · dispatch-bound");
  return fmt::format("{} · {} of roof", pct, format_pct(e.verdict.roofline_pct));
}

// Each point's label to place: its marker, its two-line box and its one-line (name only) box.
std::vector<chart::LabelRequest> label_requests(const Canvas& c) {
  std::vector<chart::LabelRequest> requests;
  for (const auto& p : c.m.points) {
    const double name_w =
        static_cast<double>(svg::code_points(svg::clip(shown_name(*p.entry), k_label_chars))) *
        k_mono_em * k_name_size;
    const double cap_w =
        static_cast<double>(svg::code_points(point_caption(p))) * k_mono_em * k_caption_size;
    requests.push_back({c.xs(p.ai), c.ys(p.flops_s), marker_radius(p.entry->pct_gpu_time),
                        std::max(name_w, cap_w) + 2 * k_label_pad,
                        k_name_size + k_caption_size + 3 * k_label_pad, name_w + 2 * k_label_pad,
                        k_name_size + 2 * k_label_pad});
  }
  return requests;
}

// Each point's marker with its tooltip: a circle coloured by headroom, a diamond at its bound.
void draw_markers(Canvas& c, const std::vector<chart::LabelRequest>& requests) {
  svg::Writer& w = c.w;
  for (std::size_t i = 0; i < c.m.points.size(); ++i) {
    const auto& p = c.m.points[i];
    const auto& q = requests[i];
    const HeadEntry& e = *p.entry;
    w.open("g");
    w.text("title", {},
           fmt::format("{}\n{:g}% of GPU time · AI {:.3g} FLOP/B · {:.3g} FLOP/s · {}", e.name,
                       e.pct_gpu_time, p.ai, p.flops_s, point_caption(p)));
    if (p.at_bound) {
      const double r = q.r + 2;
      w.leaf("polygon", chart::diamond(q.x, q.y, r));
    } else {
      w.leaf("circle", {{"cx", num(q.x)},
                        {"cy", num(q.y)},
                        {"r", num(q.r)},
                        {"fill", chart::headroom_color(e.verdict.headroom)},
                        {"fill-opacity", "0.85"},
                        {"stroke", "#ffffff"},
                        {"stroke-width", "1.5"}});
    }
    w.close();
  }
}

// Each point's label in its spot: the leader where it is far from its marker, the box, the name
// and (in the two-line form) the caption.
void draw_point_labels(Canvas& c, const std::vector<chart::LabelRequest>& requests,
                       const std::vector<chart::LabelSpot>& spots) {
  svg::Writer& w = c.w;
  for (std::size_t i = 0; i < c.m.points.size(); ++i) {
    const auto& b = spots[i].box;
    const auto& q = requests[i];
    w.open("g", {{"class", "label"}});
    if (spots[i].leader) {
      const double tx = std::clamp(q.x, b.x, b.right()), ty = std::clamp(q.y, b.y, b.bottom());
      const double d = std::hypot(tx - q.x, ty - q.y);
      if (d > q.r)
        w.leaf("line", {{"x1", num(q.x + (tx - q.x) * q.r / d)},
                        {"y1", num(q.y + (ty - q.y) * q.r / d)},
                        {"x2", num(tx)},
                        {"y2", num(ty)},
                        {"stroke", k_muted},
                        {"stroke-width", "1"}});
    }
    w.leaf("rect", {{"x", num(b.x)},
                    {"y", num(b.y)},
                    {"width", num(b.w)},
                    {"height", num(b.h)},
                    {"rx", "3"},
                    {"fill", "#ffffff"},
                    {"fill-opacity", "0.85"}});
    put_text(w, b.x + k_label_pad, b.y + k_label_pad + k_name_size - 1,
             svg::clip(shown_name(*c.m.points[i].entry), k_label_chars), font(k_mono, k_name_size));
    // The one-line form keeps the caption in the marker's tooltip only.
    if (!spots[i].compact)
      put_text(w, b.x + k_label_pad, b.y + 2 * k_label_pad + k_name_size + k_caption_size - 1,
               point_caption(c.m.points[i]), font(k_mono, k_caption_size, k_muted));
    w.close();
  }
}

// The points: markers first, then their labels, placed clear of each other and of fixed text.
void points(Canvas& c) {
  const std::vector<chart::LabelRequest> requests = label_requests(c);
  const Rect bounds{k_plot.x + 2, k_plot.y + 2, k_plot.w - 4, k_plot.h - 4};
  const auto spots = chart::place_labels(requests, bounds, c.fixed);
  c.w.open("g", {{"id", "points"}});
  draw_markers(c, requests);
  draw_point_labels(c, requests, spots);
  c.w.close();
}

// A boxed two-line message in the middle of the plot area.
void message(svg::Writer& w, std::string_view title, std::string_view detail) {
  const std::string line2 = svg::clip(detail, 80);
  const double wd = std::max(static_cast<double>(svg::code_points(title)) * 16,
                             static_cast<double>(svg::code_points(line2)) * 13) *
                        0.58 +
                    32;
  const double cx = k_plot.x + k_plot.w / 2, cy = k_plot.y + k_plot.h / 2;
  w.leaf("rect", {{"x", num(cx - wd / 2)},
                  {"y", num(cy - 30)},
                  {"width", num(wd)},
                  {"height", "56"},
                  {"rx", "4"},
                  {"fill", "#ffffff"},
                  {"stroke", "#cbd2d9"}});
  put_text(w, cx, cy - 6, title,
           with(font(k_sans, 16), {{"text-anchor", "middle"}, {"font-weight", "bold"}}));
  put_text(w, cx, cy + 15, line2, with(font(k_sans, 13, k_muted), {{"text-anchor", "middle"}}));
}

}  // namespace

std::string render_roofline_svg(const Analysis& a) {
  const chart::Model m = chart::chart_model(a);
  svg::Writer w(k_width, k_height);
  w.leaf("rect", {{"width", num(k_width)}, {"height", num(k_height)}, {"fill", "#ffffff"}});
  chart::draw_header(w, a);
  w.open("defs");
  w.open("clipPath", {{"id", "plot-area"}});
  w.leaf("rect", {{"x", num(k_plot.x)},
                  {"y", num(k_plot.y)},
                  {"width", num(k_plot.w)},
                  {"height", num(k_plot.h)}});
  w.close();
  w.close();
  Canvas c{w,
           m,
           {m.x.lo_exp, m.x.hi_exp, k_plot.x, k_plot.right()},
           {m.y.lo_exp, m.y.hi_exp, k_plot.bottom(), k_plot.y},
           {}};
  if (m.bw_bytes_s) {
    chart::draw_axes(w, c.xs, c.ys, k_plot);
    roofs(c);
    points(c);
  } else {
    w.leaf("rect", {{"x", num(k_plot.x)},
                    {"y", num(k_plot.y)},
                    {"width", num(k_plot.w)},
                    {"height", num(k_plot.h)},
                    {"fill", "#f5f7fa"},
                    {"stroke", "#7b8794"}});
  }
  if (!m.empty_reason.empty())
    message(w, "Nothing to plot", m.empty_reason);
  else if (m.roofs.empty())
    put_text(w, k_plot.x + 10, k_plot.y + 20,
             "no compute roof: no FLOP peak for the dtypes in play",
             with(font(k_sans, 12, k_muted), {{"font-style", "italic"}}));
  chart::draw_legend(w, m, k_legend_x, k_plot.y);
  put_text(w, 24, k_height - 14,
           "roofline " ROOFLINE_VERSION
           " · advisory: pct_gpu_time stays the primary key, measurement stays the judge · "
           "details in profile_roofline.md",
           font(k_sans, 11, k_muted));
  return w.finish();
}

}  // namespace roofline::render
