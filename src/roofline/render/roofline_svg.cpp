// profile_roofline.svg: the log-log roofline of one Analysis, drawn with our own SVG writer.
#include <algorithm>

#include <fmt/format.h>

#include "roofline/render/chart_style.hpp"
#include "roofline/render/entry_summary.hpp"
#include "roofline/render/layer.hpp"
#include "roofline/render/md_util.hpp"
#include "roofline/render/report.hpp"
#include "roofline/render/roofline_svg_canvas.hpp"
#include "roofline/render/svg.hpp"

namespace roofline::render {
namespace {

using namespace svg_chart;

// Every point has a verdict (chart_model): its share, its place on the roof — its own figure where
// it beat a measured ceiling (docs/method.md §5.7).
std::string point_caption(const chart::Point& p) {
  const HeadEntry& e = *p.entry;
  return fmt::format("{:g}% GPU · {} of roof{}", e.pct_gpu_time, roof_pct_shown(e.verdict),
                     e.verdict.ceiling_beaten ? ", ceiling beaten" : "");
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

// Each point's marker with its tooltip: a circle coloured by headroom, its band behind it.
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
    if (p.band.size() == 2)  // docs/method.md §10.8: the band, between its readings' points
      w.leaf("line", {{"x1", num(c.xs(p.band[0].ai))},
                      {"y1", num(c.ys(p.band[0].flops_s))},
                      {"x2", num(c.xs(p.band[1].ai))},
                      {"y2", num(c.ys(p.band[1].flops_s))},
                      {"stroke", chart::headroom_color(e.verdict.headroom)},
                      {"stroke-width", "3"},
                      {"stroke-linecap", "round"},
                      {"stroke-opacity", "0.6"},
                      {"class", "band"}});
    w.leaf("circle", {{"cx", num(q.x)},
                      {"cy", num(q.y)},
                      {"r", num(q.r)},
                      {"fill", chart::headroom_color(e.verdict.headroom)},
                      {"fill-opacity", "0.85"},
                      {"stroke", "#ffffff"},
                      {"stroke-width", "1.5"}});
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
