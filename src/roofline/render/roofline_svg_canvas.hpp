#pragma once
// What the two halves of profile_roofline.svg share: the canvas (the writer, the chart model, the
// scales and the text already placed), its geometry and type sizes, and the roofs
// (roofline_svg_roofs.cpp) that the points (roofline_svg.cpp) are placed around.
#include <vector>

#include "roofline/analyze/steps/display_names.hpp"
#include "roofline/render/chart_style.hpp"
#include "roofline/render/svg.hpp"

namespace roofline::render::svg_chart {

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
// A point's label is its display name whole: display_names made it short enough for every
// surface (docs/method.md §16.6), so the chart cuts nothing the terminal shows.
constexpr std::size_t k_label_chars = k_max_display;
// Font sizes: a roof's label, a ceiling's or ridge's label.
constexpr double k_roof_text = 12.5, k_note_text = 11.5;
// A point's label: the name's and the caption's font sizes, and the padding around them.
constexpr double k_name_size = 11, k_caption_size = 10.5, k_label_pad = 4;
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
double settle(Canvas& c, Rect box, double step);

// The roofs, ceilings and ridges, then their labels: compute roofs at their right end, ceilings
// below them, ridges along the dotted line, the memory roof along its diagonal.
void roofs(Canvas& c);

}  // namespace roofline::render::svg_chart
