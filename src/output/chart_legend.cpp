// The legend column of profile_roofline.svg.
#include <fmt/format.h>

#include "output/chart_style.hpp"

namespace roofline::chart {
namespace {

using svg::num;

constexpr std::size_t k_max_off_chart = 8;

void label(svg::Writer& w, double x, double y, std::string_view s, double size = 12,
           const char* fill = k_ink, const char* family = k_sans) {
  svg::Attrs a{{"x", num(x)}, {"y", num(y)}};
  for (auto& f : font(family, size, fill)) a.push_back(f);
  w.text("text", a, s);
}

void heading(svg::Writer& w, double x, double y, std::string_view s) {
  svg::Attrs a{{"x", num(x)}, {"y", num(y)}, {"font-weight", "bold"}};
  for (auto& f : font(k_sans, 12.5)) a.push_back(f);
  w.text("text", a, s);
}

void line_sample(svg::Writer& w, double x, double y, const char* dash, double width,
                 double opacity) {
  svg::Attrs a{{"x1", num(x)},
               {"y1", num(y)},
               {"x2", num(x + 26)},
               {"y2", num(y)},
               {"stroke", k_roof},
               {"stroke-width", num(width)},
               {"stroke-opacity", num(opacity)}};
  if (*dash) a.push_back({"stroke-dasharray", dash});
  w.leaf("line", a);
}

}  // namespace

svg::Attrs diamond(double x, double y, double r) {
  return {{"points", fmt::format("{},{} {},{} {},{} {},{}", num(x), num(y - r), num(x + r), num(y),
                                 num(x), num(y + r), num(x - r), num(y))},
          {"fill", "#ffffff"},
          {"fill-opacity", "0.8"},
          {"stroke", k_suspect},
          {"stroke-width", "2.5"}};
}

void draw_legend(svg::Writer& w, const Model& m, double x, double y) {
  w.open("g", {{"id", "legend"}});
  heading(w, x, y + 10, "Headroom (colour)");
  y += 30;
  static constexpr std::pair<Headroom, const char*> k_rows[] = {
      {Headroom::underperforming, "underperforming (< 0.6 × target)"},
      {Headroom::moderate, "moderate (0.6–0.9 × target)"},
      {Headroom::saturated, "saturated (≥ 0.9 × target)"},
      {Headroom::unknown, "no verdict"}};
  for (const auto& [h, text] : k_rows) {
    w.leaf("circle", {{"cx", num(x + 7)},
                      {"cy", num(y - 4)},
                      {"r", "6"},
                      {"fill", headroom_color(h)},
                      {"fill-opacity", "0.85"}});
    label(w, x + 20, y, text, 11.5);
    y += 20;
  }
  w.leaf("polygon", diamond(x + 7, y - 4, 6));
  label(w, x + 20, y, "infeasible estimate,", 11.5);
  label(w, x + 20, y + 14, "drawn at its bound", 11.5);
  y += 40;

  heading(w, x, y, "Lines");
  y += 20;
  line_sample(w, x, y - 4, "", 2.5, 1.0);
  label(w, x + 34, y, "roof: memory, compute", 11.5);
  y += 20;
  line_sample(w, x, y - 4, "7 5", 1.5, 0.55);
  label(w, x + 34, y, "target_eff × roof", 11.5);
  y += 20;
  line_sample(w, x, y - 4, "2 4", 1.0, 0.5);
  label(w, x + 34, y, "ridge point", 11.5);
  y += 30;

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
    svg::Attrs a{{"x", num(cx)}, {"y", num(y + 44)}, {"text-anchor", "middle"}};
    for (auto& f : font(k_sans, 11, k_muted)) a.push_back(f);
    w.text("text", a, fmt::format("{:g}%", pct));
    cx += r + 22;
  }
  y += 70;

  if (!m.off_chart.empty()) {
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
  w.close();
}

}  // namespace roofline::chart
